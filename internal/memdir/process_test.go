package memdir_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// The test binary doubles as a writer process: with MEMDIR_TEST_WRITER set to
// "dir prefix count" it saves count memories into dir and exits. Tests start
// it several times at once, or kill it, to exercise real processes.
func TestMain(m *testing.M) {
	if spec := os.Getenv("MEMDIR_TEST_WRITER"); spec != "" {
		os.Exit(writer(spec))
	}
	code := m.Run()
	for _, f := range atExit {
		f()
	}
	os.Exit(code)
}

// atExit runs when the tests and benchmarks are done: it removes what
// benchmarks built once for every run.
var atExit []func()

func writer(spec string) int {
	f := strings.Fields(spec)
	dir, prefix := f[0], f[1]
	count, _ := strconv.Atoi(f[2])
	// The test is about what is written, not how fast: on a loaded
	// machine a writer may wait a long time for its turn (flock is not
	// fair), so the wait is long.
	st, err := memdir.Open(dir, memdir.Options{Create: true, LockTimeout: 10 * time.Minute, Holder: "writer " + prefix})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("ready") // startWriter waits for this line
	for i := range count {
		name := fmt.Sprintf("%s memory %d", prefix, i)
		_, err := st.Save(context.Background(), memdir.Memory{
			Name: name, Description: "written by " + prefix, Type: memdir.TypeProject,
			Body: bodyFor(name),
		}, memdir.SaveOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// bodyFor is long enough that a torn write would show.
func bodyFor(name string) string {
	return strings.Repeat(name+" fact. ", 40) + "\nEND " + name + "\n"
}

// startWriter starts a writer process and returns once it has opened the
// store: a race-built process on a loaded machine can take longer to start
// than a kill test's whole random delay, and then no writer saves anything.
func startWriter(tb testing.TB, dir, prefix string, count int) *exec.Cmd {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("MEMDIR_TEST_WRITER=%s %s %d", dir, prefix, count), "GORACE=atexit_sleep_ms=0")
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		tb.Fatalf("writer %s never got going: %v", prefix, err)
	}
	// The writer says nothing more; the pipe stays open until it exits.
	return cmd
}

// checkFolder asserts that every memory file is whole and that the index is
// valid: each line is the exact entry of an existing memory, listed once.
func checkFolder(tb testing.TB, dir string) (files int) {
	tb.Helper()
	st, err := memdir.Open(dir, memdir.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	mems, problems, err := st.List()
	if err != nil || len(problems) > 0 {
		tb.Fatalf("List: %v, problems %v", err, problems)
	}
	byFile := map[string]memdir.Memory{}
	for _, m := range mems {
		if m.Body != bodyFor(m.Name) {
			tb.Fatalf("%s is torn: body %q", m.File, m.Body)
		}
		byFile[m.File] = m
	}
	b, err := os.ReadFile(st.Path(memdir.IndexFile))
	if os.IsNotExist(err) {
		return len(mems)
	}
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	for _, l := range memdir.ParseIndex(b).Lines {
		if l.File == "" {
			if l.Text != "" {
				tb.Fatalf("index line %q is not an entry", l.Text)
			}
			continue
		}
		m, ok := byFile[l.File]
		if !ok || seen[l.File] || l.Text != memdir.EntryLine(m) {
			tb.Fatalf("index line %q: file exists=%v, listed before=%v", l.Text, ok, seen[l.File])
		}
		seen[l.File] = true
	}
	return len(mems)
}

// TestStore_ConcurrentProcesses: 8 processes save 200 memories each into one
// folder. All 1,600 files exist and parse, and the index lists the newest
// IndexBudgetLines of them (they are all project memories) once each: the
// index a rebuild would write, so CheckIndex finds no orphan.
func TestStore_ConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 8 processes that write 1,600 files")
	}
	dir := t.TempDir()
	const procs, each = 8, 200
	var wg sync.WaitGroup
	for p := range procs {
		cmd := startWriter(t, dir, fmt.Sprintf("p%d", p), each)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := cmd.Wait(); err != nil {
				t.Errorf("writer p%d: %v", p, err)
			}
		}()
	}
	wg.Wait()
	if n := checkFolder(t, dir); n != procs*each {
		t.Fatalf("%d memories, want %d", n, procs*each)
	}
	st, _ := memdir.Open(dir, memdir.Options{})
	r, err := st.CheckIndex()
	if err != nil || !r.Exists || len(r.Orphans)+len(r.Dangling)+len(r.Duplicates) != 0 {
		t.Fatalf("CheckIndex: orphans %d, dangling %v, duplicates %v, %v", len(r.Orphans), r.Dangling, r.Duplicates, err)
	}
	if got := len(memdir.ParseIndex(mustRead(t, st.Path(memdir.IndexFile))).Files()); got != memdir.IndexBudgetLines || r.LeftOut != procs*each-got {
		t.Errorf("index lists %d files (%d left out), want %d of %d", got, r.LeftOut, memdir.IndexBudgetLines, procs*each)
	}
}

func mustRead(tb testing.TB, p string) []byte {
	tb.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestStore_KillNine kills a writer with SIGKILL at random moments, 60 times,
// and checks after each kill that no memory file or index is torn. Files
// saved before their index line are allowed (the file is written first);
// a rebuild at the end lists every one exactly once, up to the index's
// budget, and says how many it left out.
func TestStore_KillNine(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("SIGKILL is Unix")
	}
	if testing.Short() {
		t.Skip("starts 60 processes")
	}
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		cmd := startWriter(t, dir, fmt.Sprintf("k%d", i), 1000)
		time.Sleep(time.Duration(5+rng.IntN(60)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		checkFolder(t, dir)
	}
	st, err := memdir.Open(dir, memdir.Options{Now: func() time.Time { return time.Now().Add(time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := st.RebuildIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := checkFolder(t, dir)
	files := memdir.ParseIndex(mustRead(t, st.Path(memdir.IndexFile))).Files()
	if n == 0 || len(files) != min(n, memdir.IndexBudgetLines) || res.LeftOut != n-len(files) {
		t.Fatalf("after rebuild the index lists %d of %d memories, %d left out", len(files), n, res.LeftOut)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file %s survived the rebuild", e.Name())
		}
	}
	t.Logf("%d memories saved across 60 killed writers", n)
}
