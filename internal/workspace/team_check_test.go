package workspace

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/hint"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/testenv"
)

// See issue 16: team memory shared through git.

// teamGit runs git in dir as a person with a name would, with no global
// or system configuration.
func teamGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	cmd := exec.Command("git", append([]string{"-c", "user.name=Alice", "-c", "user.email=a@example.com", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// teamEnv is testEnv with a team folder made by TeamInit, in a git
// repository when git is set.
func teamEnv(t *testing.T, git bool) (Env, paths.Layout, *Workspace) {
	t.Helper()
	env, l := testEnv(t)
	if git {
		teamGit(t, l.WorkTree, "init", "-q")
	}
	if _, err := TeamInit(t.Context(), env, l, ""); err != nil {
		t.Fatal(err)
	}
	ws, err := OpenTeam(env, l, false)
	if err != nil {
		t.Fatal(err)
	}
	return env, l, ws
}

func writeTeam(t *testing.T, l paths.Layout, rel, text string) {
	t.Helper()
	p := filepath.Join(l.TeamDir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	ghToken   = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	cleanTeam = "---\nname: Deploy flow\ndescription: How we deploy\ntype: project\n---\nRun make deploy.\n"
)

// kinds is the findings as "file:kind", sorted.
func kinds(fs []TeamFinding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.File+":"+f.Kind)
	}
	slices.Sort(out)
	return out
}

func TestTeamCheck_Findings(t *testing.T) {
	_, l, ws := teamEnv(t, false)
	if fs, err := ws.TeamCheck(); err != nil || len(fs) != 0 {
		t.Fatalf("TeamCheck(new folder)=%v, %v, want nothing", fs, err)
	}
	writeTeam(t, l, "deploy-flow.md", cleanTeam)
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: the deploy token\ntype: project\n---\nUse "+ghToken+".\n")
	// Does not parse, and holds a secret: found all the same.
	writeTeam(t, l, "broken.md", "---\nname: [unclosed\n---\npassword = hunter22x\n")
	writeTeam(t, l, "clash.md", "---\nname: Clash\n<<<<<<< HEAD\ndescription: a\n=======\ndescription: b\n>>>>>>> other\ntype: project\n---\nbody\n")
	writeTeam(t, l, "me.md", "---\nname: Me\ndescription: my role\ntype: user\n---\nI am the DBA.\n")
	writeTeam(t, l, "back.md", "---\nname: Back\ndescription: came back\ntype: project\n---\nOld.\n")
	writeTeam(t, l, ".tombstones/back.jsonl", `{"file":"back.md","by":"Bob","at":"2026-11-01T10:00:00Z"}`)
	writeTeam(t, l, "notes.txt", "scratch\n")
	// A field memdir does not know: the store scans its key and value
	// apart, the raw text finds it.
	writeTeam(t, l, "field.md", "---\nname: Field\ndescription: d\ntype: project\ndb_password: hunter22x\n---\nBody.\n")
	writeTeam(t, l, ".tombstones/readme", "x\n")
	writeTeam(t, l, "MEMORY.md", "- [x](x.md) — stale index\n") // derived: ignored, fine

	fs, err := ws.TeamCheck()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".tombstones/readme:stray", "back.md:tombstoned", "broken.md:invalid", "broken.md:secret",
		"clash.md:conflict", "field.md:secret", "leak.md:secret", "me.md:user", "notes.txt:stray"}
	if got := kinds(fs); !slices.Equal(got, want) {
		t.Fatalf("TeamCheck()=%v, want %v", got, want)
	}
	for _, f := range fs {
		if f.Fix == "" {
			t.Errorf("%s: no fix", f.Line())
		}
		switch {
		case f.File == "leak.md" && !slices.Equal(f.Labels, []string{"github-token"}):
			t.Errorf("leak.md labels=%v, want [github-token]", f.Labels)
		case f.File == "back.md" && !strings.Contains(f.Detail, "by Bob on 2026-11-01"):
			t.Errorf("back.md detail=%q, want who and when", f.Detail)
		case f.File == "clash.md" && !strings.HasPrefix(f.Fix, "memdir team resolve clash --ours, --theirs or --both"):
			t.Errorf("clash.md fix=%q", f.Fix)
		}
	}
}

func TestTeamCheckStaged(t *testing.T) {
	ctx := t.Context()
	env, l, _ := teamEnv(t, true)
	teamGit(t, l.WorkTree, "add", "-A")
	teamGit(t, l.WorkTree, "commit", "-q", "-m", "team folder")
	if fs, err := TeamCheckStaged(ctx, env, l); err != nil || len(fs) != 0 {
		t.Fatalf("TeamCheckStaged(nothing staged)=%v, %v", fs, err)
	}
	// Staged with a secret, then fixed in the working tree only: the
	// staged version is what a commit records.
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n")
	teamGit(t, l.WorkTree, "add", ".memdir/team/leak.md")
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: d\ntype: project\n---\nThe token is in the vault.\n")
	fs, err := TeamCheckStaged(ctx, env, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(fs); !slices.Equal(got, []string{"leak.md:secret"}) {
		t.Fatalf("TeamCheckStaged()=%v, want the staged secret", got)
	}
	teamGit(t, l.WorkTree, "add", ".memdir/team/leak.md")
	// A derived file staged by force is stray; a file outside the team
	// folder is not looked at.
	writeTeam(t, l, "MEMORY.md", "- index\n")
	teamGit(t, l.WorkTree, "add", "-f", ".memdir/team/MEMORY.md")
	if err := os.WriteFile(filepath.Join(l.WorkTree, "notes.md"), []byte("password = hunter22x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	teamGit(t, l.WorkTree, "add", "notes.md")
	fs, err = TeamCheckStaged(ctx, env, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(fs); !slices.Equal(got, []string{"MEMORY.md:stray"}) {
		t.Fatalf("TeamCheckStaged()=%v, want only the staged MEMORY.md", got)
	}
}

func TestTeamCheckStaged_NotGit(t *testing.T) {
	env, l, _ := teamEnv(t, false)
	if _, err := exec.LookPath("git"); err != nil {
		testenv.Unavailable(t, "git is not installed")
	}
	if _, err := TeamCheckStaged(t.Context(), env, l); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("TeamCheckStaged(no git)=%v, want not a git repository", err)
	}
}

func TestDoctor_Team(t *testing.T) {
	env, l := testEnv(t)
	if got := find(Doctor(env, DoctorOptions{}), "team"); len(got) != 0 {
		t.Fatalf("Doctor(no team folder) team checks=%v, want none", got)
	}
	if _, err := TeamInit(t.Context(), env, l, ""); err != nil {
		t.Fatal(err)
	}
	writeTeam(t, l, "deploy-flow.md", cleanTeam) // no MEMORY.md line: fine for a team folder
	checks := find(Doctor(env, DoctorOptions{}), "team")
	if Failed(checks) != 0 || len(checks) == 0 {
		t.Fatalf("Doctor(clean team folder)=%v, want no failure", checks)
	}
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n")
	checks = find(Doctor(env, DoctorOptions{}), "team")
	if Failed(checks) != 1 || !strings.Contains(checks[0].Line(), "leak.md: potential secret (github-token)") {
		t.Fatalf("Doctor(secret)=%v, want one failure naming it", checks)
	}
	if err := os.Remove(filepath.Join(l.MemoryDir, memdir.TeamLinkDir, l.TeamMount)); err != nil {
		t.Fatal(err)
	}
	var linkWarn bool
	for _, c := range find(Doctor(env, DoctorOptions{}), "team") {
		linkWarn = linkWarn || c.Status == CheckWarn && strings.Contains(c.Hint, "memdir team link")
	}
	if !linkWarn {
		t.Fatal("Doctor(no link) gave no warning with 'memdir team link'")
	}
}

// A team folder without its .gitignore would commit the index and the
// recall cache; without its .gitattributes, tombstones would conflict.
// TeamInit writes the missing ones and never overwrites one.
func TestTeamCheck_Setup(t *testing.T) {
	env, l, ws := teamEnv(t, false)
	for _, f := range []string{memdir.TeamIgnore, memdir.TeamAttributes} {
		if err := os.Remove(filepath.Join(l.TeamDir, f)); err != nil {
			t.Fatal(err)
		}
	}
	fs, err := ws.TeamCheck()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(fs), []string{".gitattributes:setup", ".gitignore:setup"}; !slices.Equal(got, want) {
		t.Fatalf("TeamCheck(no .gitignore)=%v, want %v", got, want)
	}
	if !strings.Contains(fs[0].Fix, "memdir team init") {
		t.Fatalf("fix=%q, want memdir team init", fs[0].Fix)
	}
	writeTeam(t, l, memdir.TeamAttributes, "# mine\n")
	if _, err := TeamInit(t.Context(), env, l, ""); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(l.TeamDir, memdir.TeamAttributes)); string(b) != "# mine\n" {
		t.Fatalf("TeamInit overwrote .gitattributes: %q", b)
	}
	if fs, err := ws.TeamCheck(); err != nil || len(fs) != 0 {
		t.Fatalf("TeamCheck(after init)=%v, %v, want nothing", fs, err)
	}
}

// A symbolic link in a team folder is reported, never followed: what it
// leads to (a secret here) is not read.
func TestTeamCheck_Links(t *testing.T) {
	_, l, ws := teamEnv(t, false)
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("---\nname: S\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(l.TeamDir, "evil.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(l.TeamDir, "docs")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(l.TeamDir, memdir.TombstoneDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(l.TeamDir, memdir.TombstoneDir, "x.jsonl")); err != nil {
		t.Fatal(err)
	}
	fs, err := ws.TeamCheck()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(fs), []string{".tombstones/x.jsonl:link", "docs:link", "evil.md:link"}; !slices.Equal(got, want) {
		t.Fatalf("TeamCheck(links)=%v, want %v", got, want)
	}
}

// Staged: a link (mode 120000) is reported, and a derived file staged by
// force gets a fix that takes it out of the index.
func TestTeamCheckStaged_LinksAndDerived(t *testing.T) {
	env, l, _ := teamEnv(t, true)
	if err := os.Symlink("/etc/hostname", filepath.Join(l.TeamDir, "host.md")); err != nil {
		t.Fatal(err)
	}
	writeTeam(t, l, ".memdir-cache/recall.idx", "idx\n")
	teamGit(t, l.WorkTree, "add", "-A")
	teamGit(t, l.WorkTree, "add", "-f", ".memdir/team/.memdir-cache/recall.idx")
	fs, err := TeamCheckStaged(t.Context(), env, l)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := kinds(fs), []string{".memdir-cache/recall.idx:stray", "host.md:link"}; !slices.Equal(got, want) {
		t.Fatalf("TeamCheckStaged()=%v, want %v", got, want)
	}
	for _, f := range fs {
		if f.File == ".memdir-cache/recall.idx" && (!strings.Contains(f.Fix, "git rm --cached -r .memdir/team/.memdir-cache") || !strings.Contains(f.Fix, "memdir team init")) {
			t.Fatalf("derived fix=%q, want git rm --cached -r and memdir team init", f.Fix)
		}
	}
}

// A repository folder whose name holds pattern characters: git reads
// memdir's paths literally (':(top,literal)'), so the team folder is
// checked and staged all the same.
func TestTeamGit_LiteralPaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "p*[x]?")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	teamGit(t, dir, "init", "-q")
	vars := map[string]string{"HOME": dir}
	env := Env{Getenv: func(k string) string { return vars[k] }, Cwd: dir, HomeFlag: filepath.Join(t.TempDir(), "home"), ProjectFlag: dir, Holder: "test"}
	l, err := env.Layout()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TeamInit(t.Context(), env, l, ""); err != nil {
		t.Fatal(err)
	}
	writeTeam(t, l, "deploy-flow.md", cleanTeam)
	if err := gitAdd(t.Context(), env, l, "deploy-flow.md"); err != nil {
		t.Fatal(err)
	}
	if got := teamGit(t, dir, "diff", "--cached", "--name-only"); got != ".memdir/team/deploy-flow.md\n" {
		t.Fatalf("gitAdd staged %q, want the memory", got)
	}
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n")
	teamGit(t, dir, "add", "-A")
	fs, err := TeamCheckStaged(t.Context(), env, l)
	if err != nil {
		t.Fatal(err)
	}
	if got := kinds(fs); !slices.Equal(got, []string{"leak.md:secret"}) {
		t.Fatalf("TeamCheckStaged()=%v, want the secret", got)
	}
}

// A team folder path that is a file is named, with a fix, by every
// command that opens it, and doctor fails on it.
func TestTeamDir_IsAFile(t *testing.T) {
	env, l := testEnv(t)
	if err := os.MkdirAll(filepath.Dir(l.TeamDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.TeamDir, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "is a file, not the team memory folder") || !strings.Contains(hint.Of(err), "memdir team init") {
			t.Errorf("%s=%v (hint %q), want the file named and a fix", what, err, hint.Of(err))
		}
	}
	_, err := TeamStatusOf(t.Context(), env, l)
	check("TeamStatusOf", err)
	_, err = TeamInit(t.Context(), env, l, "")
	check("TeamInit", err)
	_, err = OpenTeam(env, l, true)
	check("OpenTeam", err)
	checks := find(Doctor(env, DoctorOptions{}), "team")
	if Failed(checks) != 1 || !strings.Contains(checks[0].Hint, "memdir team init") {
		t.Fatalf("Doctor(team is a file)=%v, want one failure with a fix", checks)
	}
}

// Sizes agree with the store's limit; invalid UTF-8 is reported; a secret
// in a memory never committed is edited out (no forget or unshare, which
// would leave a tombstone for nothing).
func TestTeamCheck_SizeUTF8AndSecretFix(t *testing.T) {
	env, l, ws := teamEnv(t, true)
	writeTeam(t, l, "big.md", "---\nname: Big\ndescription: d\ntype: project\n---\n"+strings.Repeat("a", memdir.MaxFileSize))
	writeTeam(t, l, "latin.md", "---\nname: Latin\ndescription: d\ntype: project\n---\nCaf\xe9.\n")
	writeTeam(t, l, "leak.md", "---\nname: Leak\ndescription: d\ntype: project\n---\nUse "+ghToken+".\n")
	fs, err := ws.TeamCheck()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		switch f.File {
		case "big.md":
			if want := fmt.Sprintf("larger than %d bytes", memdir.MaxFileSize); !strings.Contains(f.Detail, want) {
				t.Errorf("big.md: %q, want %q", f.Detail, want)
			}
		case "leak.md":
			if strings.Contains(f.Fix, "unshare") || strings.Contains(f.Fix, "forget") || !strings.Contains(f.Fix, "memdir edit team/leak.md") {
				t.Errorf("uncommitted leak.md fix=%q, want only an edit", f.Fix)
			}
		}
	}
	if got, want := kinds(fs), []string{"big.md:invalid", "latin.md:invalid", "leak.md:secret"}; !slices.Equal(got, want) {
		t.Fatalf("TeamCheck()=%v, want %v", got, want)
	}
	_ = env
	teamGit(t, l.WorkTree, "add", "-A")
	teamGit(t, l.WorkTree, "commit", "-q", "--no-verify", "-m", "x")
	fs, _ = ws.TeamCheck()
	for _, f := range fs {
		if f.File == "leak.md" && !strings.Contains(f.Fix, "memdir forget team/leak.md") {
			t.Errorf("committed leak.md fix=%q, want forget named too", f.Fix)
		}
	}
}
