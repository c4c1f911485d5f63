package atomicfile_test

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/atomicfile"
)

func TestWriteFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "a.md")

	t.Run("Create", func(t *testing.T) {
		if err := atomicfile.WriteFile(name, []byte("one"), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil || string(got) != "one" {
			t.Fatalf("ReadFile()=%q, %v, want %q", got, err, "one")
		}
		if runtime.GOOS != "windows" {
			info, _ := os.Stat(name)
			if perm := info.Mode().Perm(); perm != 0o600 {
				t.Errorf("perm=%o, want 600", perm)
			}
		}
	})
	t.Run("Replace", func(t *testing.T) {
		if err := atomicfile.WriteFile(name, []byte("two"), 0o600); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(name)
		if string(got) != "two" {
			t.Fatalf("ReadFile()=%q, want %q", got, "two")
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Fatalf("folder holds %d entries, want only a.md (no temp file left)", len(entries))
		}
	})
	t.Run("MissingFolder", func(t *testing.T) {
		err := atomicfile.WriteFile(filepath.Join(dir, "nope", "b.md"), []byte("x"), 0o600)
		if err == nil {
			t.Fatal("WriteFile into a missing folder succeeded")
		}
	})
}

func TestWriteFile_Concurrent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	name := filepath.Join(dir, "a.md")
	contents := []string{"aaaa", "bbbbbbbb", "cc"}
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := atomicfile.WriteFile(name, []byte(contents[i%3]), 0o600); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, _ := os.ReadFile(name)
	ok := false
	for _, c := range contents {
		ok = ok || string(got) == c
	}
	if !ok {
		t.Fatalf("content %q is none of the written values", got)
	}
}

func TestSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	old := filepath.Join(dir, ".a.md"+atomicfile.TempMarker+"123")
	young := filepath.Join(dir, ".b.md"+atomicfile.TempMarker+"456")
	keep := filepath.Join(dir, "c.md")
	for _, p := range []string{old, young, keep} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	if err := os.Chtimes(old, now.Add(-time.Hour), now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	n, err := atomicfile.Sweep(dir, time.Minute, now)
	if err != nil || n != 1 {
		t.Fatalf("Sweep()=%d, %v, want 1, nil", n, err)
	}
	for p, want := range map[string]bool{old: false, young: true, keep: true} {
		_, err := os.Stat(p)
		if exists := err == nil; exists != want {
			t.Errorf("%s exists=%v, want %v", filepath.Base(p), exists, want)
		}
	}
}
