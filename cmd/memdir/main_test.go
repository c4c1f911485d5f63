package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata scripts")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"memdir": main})
}

// TestScript runs every testdata/script/*.txtar end to end against the real
// memdir binary (this test binary, re-executed as memdir), with HOME in the
// script's work folder.
func TestScript(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:           filepath.Join("testdata", "script"),
		UpdateScripts: *update,
		Condition:     condition,
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("MEMDIR_LOCK_TIMEOUT", "5s")
			// Under -race a process sleeps a second at exit by default.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			env.Values[heldLock{}] = &lockSlot{}
			// Claude Code's folder names of the projects scripts use.
			env.Setenv("PROJKEY", paths.Sanitize(filepath.Join(env.WorkDir, "proj")))
			env.Setenv("OTHERKEY", paths.Sanitize(filepath.Join(env.WorkDir, "other")))
			return os.MkdirAll(filepath.Join(env.WorkDir, "home"), 0o700)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":    cmdExitcode,
			"holdlock":    cmdHoldlock,
			"releaselock": cmdReleaselock,
			"genmemories": cmdGenmemories,
			"genindex":    cmdGenindex,
			"jsonequal":   cmdJSONEqual,
			"initbudget":  cmdInitbudget,
		},
	})
}

// exitcode N prog args... runs prog and fails unless it exits with N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("%v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// condition adds [git]: git is installed. Its absence fails the script
// under CI=true rather than let [!git] skip it: a silent skip in CI would
// hide a hole.
func condition(cond string) (bool, error) {
	if cond != "git" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			return false, errors.New("required under CI=true: git is not installed")
		}
		return false, nil
	}
	return true, nil
}

type heldLock struct{}

// lockSlot carries a held lock from holdlock to releaselock.
type lockSlot struct{ unlock func() }

// holdlock DIR takes DIR's memory lock from the test process, as another
// memdir process would, until releaselock.
func cmdHoldlock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: holdlock DIR")
	}
	st, err := memdir.Open(ts.MkAbs(args[0]), memdir.Options{Create: true, Holder: "testscript holdlock"})
	ts.Check(err)
	unlock, err := st.Lock(context.Background())
	ts.Check(err)
	ts.Value(heldLock{}).(*lockSlot).unlock = unlock
	ts.Defer(unlock)
}

func cmdReleaselock(ts *testscript.TestScript, neg bool, args []string) {
	slot := ts.Value(heldLock{}).(*lockSlot)
	if slot.unlock == nil {
		ts.Fatalf("releaselock without holdlock")
	}
	slot.unlock()
}

// genmemories DIR N writes N valid memory files into DIR directly, standing
// in for many earlier saves.
func cmdGenmemories(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: genmemories DIR N")
	}
	dir := ts.MkAbs(args[0])
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	ts.Check(os.MkdirAll(dir, 0o700))
	for i := range n {
		body := fmt.Sprintf("---\nname: Memory %03d\ndescription: generated memory number %d\ntype: project\n---\nFact %d.\n", i, i, i)
		ts.Check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("memory-%03d.md", i)), []byte(body), 0o600))
	}
}

// genindex FILE N WIDTH [prose] writes an index of N entry lines (with
// prose, N lines a person wrote that are not entries), each WIDTH
// characters long, as a person or another tool might.
func cmdGenindex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 || len(args) > 4 || len(args) == 4 && args[3] != "prose" {
		ts.Fatalf("usage: genindex FILE N WIDTH [prose]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	width, err := strconv.Atoi(args[2])
	ts.Check(err)
	var b strings.Builder
	for i := range n {
		line := fmt.Sprintf("- [Memory %03d](memory-%03d.md) — ", i, i)
		if len(args) == 4 { // lines a person wrote, not memdir's entries
			line = fmt.Sprintf("Note %03d: ", i)
		}
		b.WriteString(line + strings.Repeat("y", max(0, width-utf8.RuneCountInString(line))) + "\n")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o600))
}

// jsonequal a b fails unless files a and b hold the same JSON value (key
// order and formatting aside).
func cmdJSONEqual(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonequal a b")
	}
	var va, vb any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &va))
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[1])), &vb))
	if eq := reflect.DeepEqual(va, vb); eq == neg {
		ts.Fatalf("%s and %s: same JSON = %v", args[0], args[1], eq)
	}
}

// runIn runs memdir in this process on the agent home root/.claude, in
// project, with env (HOME is root unless env sets it) and stdin, and
// returns its stdout, its stderr and its error.
func runIn(root, project string, env map[string]string, stdin string, args ...string) (stdout, stderr string, err error) {
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		if k == "HOME" {
			return root
		}
		return ""
	}
	var out, errb bytes.Buffer
	err = run(context.Background(), append([]string{"--home", filepath.Join(root, ".claude")}, args...),
		sys{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: getenv, cwd: project})
	return out.String(), errb.String(), err
}
