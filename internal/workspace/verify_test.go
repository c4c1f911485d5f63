package workspace_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/testenv"
	"github.com/memdir/memdir/internal/workspace"
)

var verifyDay = time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

const (
	appGo    = "package app\n\n// ParseConfig reads the settings.\nfunc ParseConfig() {}\n\n// LoadCache warms the cache.\nfunc LoadCache() {}\n"
	serverGo = "package app\n\n// ParseConfig reads the settings.\nfunc ParseConfig() {}\n"
	mainGo   = "package main\n\nimport \"flag\"\n\nvar dryRun = flag.Bool(\"dry-run\", false, \"print, do not deploy\")\n\nfunc main() { flag.Parse() }\n"
)

// verifyWorkspace opens a workspace on a new project holding three
// memories: one naming a file, one a function, one a flag.
func verifyWorkspace(t *testing.T, proj string, env ...string) *workspace.Workspace {
	t.Helper()
	vars := map[string]string{"HOME": filepath.Join(filepath.Dir(proj), "home"), "PATH": os.Getenv("PATH")}
	for i := 0; i+1 < len(env); i += 2 {
		vars[env[i]] = env[i+1]
	}
	ws, err := workspace.Open(workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: proj, Holder: "test"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []workspace.SaveRequest{
		{Type: "project", Name: "Config loading", Description: "Settings are read in src/app.go", Body: "Add a setting in `src/app.go`, next to the others.\n"},
		{Type: "project", Name: "Cache warmup", Description: "Warm the cache at startup", Body: "Call `LoadCache()` at startup, before serving requests.\n"},
		{Type: "feedback", Name: "Dry runs first", Description: "Deploy with a dry run first", Body: "Always run `deploy --dry-run` before a real deploy.\n"},
		{Type: "reference", Name: "Dashboards", Description: "The latency dashboard", Body: "See https://grafana.example.com/d/latency for latency.\n"},
	} {
		if _, err := ws.Save(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func statuses(rep workspace.VerifyReport) map[string]string {
	out := map[string]string{}
	for _, m := range rep.Memories {
		out[m.File] = m.Status
	}
	return out
}

func TestVerify_GitRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "app.go"), appGo)
	writeFile(t, filepath.Join(proj, "cmd", "deploy", "main.go"), mainGo)
	runGit(t, proj, "init", "-q")
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "app")
	runGit(t, proj, "mv", "src/app.go", "src/server.go")
	runGit(t, proj, "commit", "-q", "-m", "rename app.go")
	writeFile(t, filepath.Join(proj, "src", "server.go"), serverGo)
	runGit(t, proj, "commit", "-q", "-am", "drop LoadCache")

	ws := verifyWorkspace(t, proj)
	ctx := t.Context()
	before := readAll(t, ws.Store.Dir())

	dry, err := ws.Verify(ctx, workspace.VerifyOptions{DryRun: true, Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"config-loading.md": workspace.VerifyRenamed, "cache-warmup.md": workspace.VerifyStale,
		"dry-runs-first.md": workspace.VerifyFresh, "dashboards.md": workspace.VerifyUnchecked}
	if got := statuses(dry); !equalMaps(got, want) || !dry.Git {
		t.Fatalf("Verify(dry run) statuses=%v (git %v), want %v", got, dry.Git, want)
	}
	if after := readAll(t, ws.Store.Dir()); after != before {
		t.Fatalf("a dry run changed the memory folder")
	}

	rep, err := ws.Verify(ctx, workspace.VerifyOptions{Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(rep); !equalMaps(got, want) {
		t.Fatalf("Verify() statuses=%v, want %v", got, want)
	}
	for file, mark := range map[string]string{
		"cache-warmup.md":   "stale: symbol LoadCache is no longer found (2026-11-25)",
		"config-loading.md": "stale: src/app.go was renamed to src/server.go (2026-11-25)",
	} {
		if raw := readMemory(t, ws, file); !strings.Contains(raw, "\n"+mark+"\n") {
			t.Errorf("%s lacks %q:\n%s", file, mark, raw)
		}
	}
	if raw := readMemory(t, ws, "config-loading.md"); !strings.Contains(raw, "in `src/app.go`") {
		t.Errorf("a run without --fix edited the memory:\n%s", raw)
	}
	if raw := readMemory(t, ws, "dry-runs-first.md"); strings.Contains(raw, "stale:") {
		t.Errorf("the fresh memory was marked:\n%s", raw)
	}

	rec, err := ws.Recall(ctx, workspace.Query{Text: "warm the cache at startup", Policy: recall.DefaultPolicy})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rec.Text, "cache-warmup.md") || !strings.Contains(rec.Text, "· stale: symbol LoadCache is no longer found (2026-11-25)") {
		t.Errorf("recall does not show the stale mark:\n%s", rec.Text)
	}

	fixed, err := ws.Verify(ctx, workspace.VerifyOptions{Fix: true, Now: verifyDay.AddDate(0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	var acted string
	for _, m := range fixed.Memories {
		if m.File == "config-loading.md" {
			acted = m.Action
		}
	}
	raw := readMemory(t, ws, "config-loading.md")
	if acted != "fixed" || strings.Contains(raw, "stale:") || strings.Contains(raw, "src/app.go") ||
		!strings.Contains(raw, "Add a setting in `src/server.go`") || !strings.Contains(raw, "description: Settings are read in src/server.go") {
		t.Errorf("--fix (action %q) left:\n%s", acted, raw)
	}
	if raw := readMemory(t, ws, "cache-warmup.md"); !strings.Contains(raw, "(2026-11-25)") {
		t.Errorf("a mark that still holds was redated:\n%s", raw)
	}

	// The function comes back: the mark no longer holds and is cleared.
	writeFile(t, filepath.Join(proj, "src", "server.go"), appGo)
	runGit(t, proj, "commit", "-q", "-am", "LoadCache again")
	again, err := ws.Verify(ctx, workspace.VerifyOptions{Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(again)["cache-warmup.md"]; got != workspace.VerifyFresh {
		t.Errorf("cache-warmup.md is %s after LoadCache came back, want fresh", got)
	}
	if raw := readMemory(t, ws, "cache-warmup.md"); strings.Contains(raw, "stale:") {
		t.Errorf("the mark was not cleared:\n%s", raw)
	}
}

// Outside a git repository the files are searched directly (not
// node_modules, nor the memory folder inside the project, whose memories
// name LoadCache), and a missing path cannot be followed: it is stale.
func TestVerify_NoGit(t *testing.T) {
	t.Parallel()
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "server.go"), serverGo)
	writeFile(t, filepath.Join(proj, "cmd", "deploy", "main.go"), mainGo)
	writeFile(t, filepath.Join(proj, "node_modules", "x", "cache.js"), "function LoadCache() {}\n")
	ws := verifyWorkspace(t, proj, "MEMDIR_MEMORY_DIR", filepath.Join(proj, "docs", "memory"), "MEMDIR_ALLOWED_ROOTS", proj)
	rep, err := ws.Verify(t.Context(), workspace.VerifyOptions{Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"config-loading.md": workspace.VerifyStale, "cache-warmup.md": workspace.VerifyStale,
		"dry-runs-first.md": workspace.VerifyFresh, "dashboards.md": workspace.VerifyUnchecked}
	if got := statuses(rep); !equalMaps(got, want) || rep.Git {
		t.Errorf("Verify() statuses=%v (git %v), want %v", got, rep.Git, want)
	}
	if raw := readMemory(t, ws, "config-loading.md"); !strings.Contains(raw, "\nstale: src/app.go no longer exists (2026-11-25)\n") {
		t.Errorf("config-loading.md:\n%s", raw)
	}
}

func TestVerify_Commands(t *testing.T) {
	t.Parallel()
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "Makefile"), "build test: deps\n\tgo build ./...\n\nlint:\n\tgolangci-lint run\n")
	writeFile(t, filepath.Join(proj, "package.json"), `{"scripts": {"lint": "eslint ."}, "dependencies": {"react-query": "^5"}}`)
	writeFile(t, filepath.Join(proj, "go.mod"), "module example.com/proj\n\ngo 1.26\n\nrequire (\n\tgithub.com/spf13/cobra v1.8.0\n)\n")
	writeFile(t, filepath.Join(proj, "scripts", "deploy.sh"), "#!/bin/sh\n")
	bin := filepath.Join(filepath.Dir(proj), "bin") // a PATH with go and npm, without prettier
	for _, prog := range []string{"go", "npm"} {
		writeFile(t, filepath.Join(bin, prog), "#!/bin/sh\n")
		os.Chmod(filepath.Join(bin, prog), 0o700)
	}
	vars := map[string]string{"HOME": filepath.Join(filepath.Dir(proj), "home"), "PATH": bin}
	ws, err := workspace.Open(workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: proj, Holder: "test"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []workspace.SaveRequest{
		{Type: "project", Name: "ok", Description: "how to build", Body: "Run `make test`, `make lint`, `npm run lint` and `./scripts/deploy.sh`; we use `go get github.com/spf13/cobra` and npm install react-query.\n"},
		{Type: "project", Name: "no target", Description: "release", Body: "Run `make release`.\n"},
		{Type: "project", Name: "no script", Description: "format", Body: "Run `npm run format`.\n"},
		{Type: "project", Name: "no package", Description: "deps", Body: "We added `go get github.com/urfave/cli`.\n"},
		{Type: "project", Name: "no program", Description: "tools", Body: "Format with `prettier --write .` first.\n"},
	} {
		if _, err := ws.Save(t.Context(), r); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := ws.Verify(t.Context(), workspace.VerifyOptions{DryRun: true, Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"ok.md": workspace.VerifyFresh, "no-target.md": workspace.VerifyStale, "no-script.md": workspace.VerifyStale,
		"no-package.md": workspace.VerifyStale, "no-program.md": workspace.VerifyStale}
	if got := statuses(rep); !equalMaps(got, want) {
		for _, m := range rep.Memories {
			t.Logf("%s: %+v", m.File, m.Claims)
		}
		t.Errorf("Verify() statuses=%v, want %v", got, want)
	}
	var text strings.Builder
	if err := workspace.WriteVerify(&text, rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"5 memories", "Makefile has no target release", "package.json has no script format",
		"package github.com/urfave/cli is not in go.mod, package.json", "command prettier is not on PATH", "[would mark]", "Dry run: nothing was written."} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("WriteVerify() lacks %q:\n%s", s, text.String())
		}
	}
}

func readMemory(t *testing.T, ws *workspace.Workspace, file string) string {
	t.Helper()
	b, err := os.ReadFile(ws.Store.Path(file))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readAll is every memory file of dir, concatenated with its name.
func readAll(t *testing.T, dir string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(f + "\n" + string(data))
	}
	return b.String()
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// Save fills refs with what the memory names (issue 18): the refs given
// first, then paths, symbols, flags and commands, each once; not a bare
// file name, nor a flag of another tool.
func TestSave_FillsRefs(t *testing.T) {
	t.Parallel()
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "app.go"), appGo)
	ws := verifyWorkspace(t, proj)
	body := "Settings live in src/app.go (see store.go too); call `ParseConfig()`, pass `--dry-run`, run `make test` and go test with -race. Docs: https://example.com/x\n"
	res, err := ws.Save(t.Context(), workspace.SaveRequest{Type: "project", Name: "Settings", Description: "where settings are read", Body: body, Refs: []string{"docs/settings.md"}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ws.Store.Get(res.File)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"docs/settings.md", "src/app.go", "ParseConfig", "make test"} // a flag alone names no command
	if strings.Join(m.Refs, "|") != strings.Join(want, "|") {
		t.Errorf("Refs=%q, want %q", m.Refs, want)
	}
	if !slicesContain(res.Warnings, "ref docs/settings.md is not in") || slicesContain(res.Warnings, "ParseConfig") {
		t.Errorf("Warnings=%q, want one for docs/settings.md only", res.Warnings)
	}
}

// A memory folder kept in the repository is not searched: its memories
// name the symbol that is gone.
func TestVerify_MemoryFolderInRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	t.Parallel()
	proj := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(proj, "src", "server.go"), serverGo)
	writeFile(t, filepath.Join(proj, "cmd", "deploy", "main.go"), mainGo)
	ws := verifyWorkspace(t, proj, "MEMDIR_MEMORY_DIR", filepath.Join(proj, ".claude", "memory"), "MEMDIR_ALLOWED_ROOTS", proj)
	runGit(t, proj, "init", "-q")
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "code and memories")
	rep, err := ws.Verify(t.Context(), workspace.VerifyOptions{DryRun: true, Now: verifyDay})
	if err != nil {
		t.Fatal(err)
	}
	if got := statuses(rep); got["cache-warmup.md"] != workspace.VerifyStale || got["dry-runs-first.md"] != workspace.VerifyFresh {
		t.Errorf("Verify() statuses=%v, want cache-warmup.md stale and dry-runs-first.md fresh", got)
	}
}

func slicesContain(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
