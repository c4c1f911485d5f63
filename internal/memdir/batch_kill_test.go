package memdir_test

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// killDirEnv names the folder TestBatchKillHelper works on, in a child
// process of TestApply_KillNine.
const killDirEnv = "MEMDIR_TEST_BATCH_KILL_DIR"

// killBatch edits 40 memories (cc.md, Claude Code's layout, among them),
// retires 5 and creates one: 47 files with MEMORY.md and the versions.
func killBatch() memdir.Batch {
	b := memdir.Batch{Label: "kill"}
	for i := range 39 {
		b.Save = append(b.Save, memdir.Memory{File: fmt.Sprintf("m%02d.md", i), Body: fmt.Sprintf("Fact %d, merged.\n", i)})
	}
	b.Save = append(b.Save, memdir.Memory{File: "cc.md", Body: "Use pnpm, never npm.\n"},
		memdir.Memory{Name: "Killed fact", Description: "created by the batch", Type: memdir.TypeProject, Body: "New.\n"})
	for i := 40; i < 45; i++ {
		b.Retire = append(b.Retire, fmt.Sprintf("m%02d.md", i))
	}
	return b
}

// TestBatchKillHelper is the child of TestApply_KillNine: it applies and
// undoes killBatch in a loop until it is killed.
func TestBatchKillHelper(t *testing.T) {
	dir := os.Getenv(killDirEnv)
	if dir == "" {
		t.Skip("run by TestApply_KillNine")
	}
	ctx := context.Background()
	st := openAt(t, dir, t0)
	fmt.Println("ready")
	for {
		if _, err := st.Apply(ctx, killBatch()); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Undo(ctx, "", false); err != nil {
			t.Fatal(err)
		}
	}
}

// TestApply_KillNine kills, with SIGKILL at seeded random moments, a
// process that applies and undoes a batch of 47 files over and over; the
// next Open must leave the folder exactly as before the batch or exactly
// as after it, never a mix.
func TestApply_KillNine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("kill -9 of a child process: unix only")
	}
	if os.Getenv(killDirEnv) != "" {
		t.Skip("in the child")
	}
	t.Parallel()
	ctx := context.Background()
	template := filepath.Join(t.TempDir(), "memory")
	seedFolder(t, template, 46)
	before := folderFiles(t, template)

	// The after-state, and how long a cycle takes, from one run here.
	ref := filepath.Join(t.TempDir(), "memory")
	copyTree(t, template, ref)
	st := openAt(t, ref, t0)
	start := time.Now()
	if _, err := st.Apply(ctx, killBatch()); err != nil {
		t.Fatal(err)
	}
	after := folderFiles(t, ref)
	if _, err := st.Undo(ctx, "", false); err != nil {
		t.Fatal(err)
	}
	cycle := time.Since(start)
	if d := diffFolders(after, before); d == "" {
		t.Fatal("the batch changed nothing")
	}

	iterations := 40
	if testing.Short() {
		iterations = 10
	}
	seed := uint64(18)
	if s := os.Getenv("MEMDIR_TEST_KILL_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	var sawBefore, sawAfter, midway, committed int
	for i := range iterations {
		dir := filepath.Join(t.TempDir(), "memory")
		copyTree(t, template, dir)
		cmd := exec.Command(os.Args[0], "-test.run=^TestBatchKillHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), killDirEnv+"="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("iteration %d: the child did not start: %q, %v", i, line, err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(cycle))))
		if err := cmd.Process.Kill(); err != nil { // SIGKILL
			t.Fatal(err)
		}
		cmd.Wait()
		if id, err := os.ReadFile(filepath.Join(dir, memdir.BatchDir, "pending")); err == nil {
			midway++
			if _, err := os.Stat(filepath.Join(dir, memdir.BatchDir, strings.TrimSpace(string(id)), "manifest.json")); err == nil {
				committed++
			}
		}
		openAt(t, dir, t0) // finishes or drops what the kill cut short
		got := folderFiles(t, dir)
		switch {
		case diffFolders(got, before) == "":
			sawBefore++
		case diffFolders(got, after) == "":
			sawAfter++
		default:
			t.Fatalf("iteration %d (seed %d): the folder is a mix of before and after the batch: against before: %s; against after: %s",
				i, seed, diffFolders(got, before), diffFolders(got, after))
		}
	}
	t.Logf("%d kills (seed %d, cycle %v): %d left the folder as before, %d as after; %d cut a batch or undo midway, %d of them committed", iterations, seed, cycle, sawBefore, sawAfter, midway, committed)
	if committed == 0 {
		t.Errorf("no kill landed inside a committed batch: the test proved nothing")
	}
}

// copyTree copies the folder src to dst, files and folders.
func copyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o600)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
