package memdir_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

func TestStore_UpdateSide(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	if b, err := st.ReadSide(memdir.UsageFile); b != nil || err != nil {
		t.Fatalf("ReadSide of a missing file = %q, %v", b, err)
	}
	aside, err := st.UpdateSide(ctx, memdir.UsageFile, func(old []byte) ([]byte, error) {
		if old != nil {
			t.Errorf("old = %q, want nil", old)
		}
		return []byte("one\n"), nil
	})
	if err != nil || aside != "" {
		t.Fatalf("UpdateSide = %q, %v", aside, err)
	}
	if b, err := st.ReadSide(memdir.UsageFile); string(b) != "one\n" || err != nil {
		t.Errorf("ReadSide = %q, %v", b, err)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(st.Path(memdir.UsageFile)); fi.Mode().Perm() != memdir.FilePerm {
			t.Errorf("mode %o, want %o", fi.Mode().Perm(), memdir.FilePerm)
		}
	}
	// nil bytes write nothing; an error writes nothing.
	st.UpdateSide(ctx, memdir.UsageFile, func([]byte) ([]byte, error) { return nil, nil })
	st.UpdateSide(ctx, memdir.UsageFile, func([]byte) ([]byte, error) { return []byte("two"), errors.New("no") })
	if b, _ := st.ReadSide(memdir.UsageFile); string(b) != "one\n" {
		t.Errorf("after a no-op and a failed update: %q", b)
	}
	// A side file is no memory: list and the index never see it.
	if files, _ := st.Files(); len(files) != 0 {
		t.Errorf("Files = %v", files)
	}
}

func TestStore_UpdateSide_Corrupt(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	os.WriteFile(st.Path(memdir.UsageFile), []byte("{garbage"), 0o600)
	calls := 0
	aside, err := st.UpdateSide(context.Background(), memdir.UsageFile, func(old []byte) ([]byte, error) {
		calls++
		if old != nil {
			return nil, fmt.Errorf("%w: %q", memdir.ErrSideCorrupt, old)
		}
		return []byte("fresh"), nil
	})
	if err != nil || calls != 2 || !strings.HasPrefix(aside, memdir.UsageFile+".corrupt-") {
		t.Fatalf("UpdateSide = %q, %v after %d calls", aside, err, calls)
	}
	if b, _ := os.ReadFile(st.Path(aside)); string(b) != "{garbage" {
		t.Errorf("the corrupt file kept aside holds %q", b)
	}
	if b, _ := st.ReadSide(memdir.UsageFile); string(b) != "fresh" {
		t.Errorf("the fresh file holds %q", b)
	}
}

func TestStore_Side_Refused(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	for _, name := range []string{"MEMORY.md", "x.md", "../" + memdir.UsageFile, ".memdir-cache/swept", ""} {
		if _, err := st.ReadSide(name); !errors.Is(err, memdir.ErrInvalid) {
			t.Errorf("ReadSide(%q) = %v, want ErrInvalid", name, err)
		}
		if _, err := st.UpdateSide(context.Background(), name, func([]byte) ([]byte, error) { return []byte("x"), nil }); !errors.Is(err, memdir.ErrInvalid) {
			t.Errorf("UpdateSide(%q) = %v, want ErrInvalid", name, err)
		}
	}
	// A folder in its place is refused, and left as it is.
	os.Mkdir(st.Path(memdir.UsageFile), 0o700)
	if _, err := st.ReadSide(memdir.UsageFile); err == nil {
		t.Error("a folder was read as the usage file")
	}
	if _, err := st.UpdateSide(context.Background(), memdir.UsageFile, func([]byte) ([]byte, error) { return []byte("x"), nil }); err == nil {
		t.Error("a folder was replaced by the usage file")
	}
}

// TestStore_UpdateSide_Locked: updates run under the folder's lock, one
// at a time, so none is lost.
func TestStore_UpdateSide_Locked(t *testing.T) {
	t.Parallel()
	st := MustOpen(t, t0)
	release := memdir.HoldLockForTest(t, st)
	other, err := memdir.Open(st.Dir(), memdir.Options{LockTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.UpdateSide(context.Background(), memdir.UsageFile, func([]byte) ([]byte, error) { return []byte("x"), nil }); !memdir.IsLocked(err) {
		t.Errorf("UpdateSide under a held lock = %v, want locked", err)
	}
	release()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, err := st.UpdateSide(context.Background(), memdir.UsageFile, func(old []byte) ([]byte, error) {
				return append(old, 'x'), nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if b, _ := st.ReadSide(memdir.UsageFile); string(b) != "xxxxxxxx" {
		t.Errorf("after 8 concurrent updates: %q", b)
	}
}
