package mcpserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
)

// teamFixture is a server over a project whose author is Ana, a client,
// and the project's layout.
type teamFixture struct {
	liveFixture
	l paths.Layout
}

func newTeamFixture(t *testing.T) teamFixture {
	t.Helper()
	home, project := t.TempDir(), t.TempDir()
	vars := map[string]string{"HOME": home, "MEMDIR_HOME": filepath.Join(home, ".claude"), "MEMDIR_AUTHOR": "Ana"}
	env := workspace.Env{Getenv: func(k string) string { return vars[k] }, Cwd: project, Holder: "test"}
	l, err := env.Layout()
	if err != nil {
		t.Fatal(err)
	}
	srv := newTest(t, env)
	return teamFixture{liveFixture: liveFixture{cs: connect(t, srv.Server), srv: srv}, l: l}
}

// ok calls tool and fails the test on an error result; out gets the
// structured result.
func (f teamFixture) ok(t *testing.T, tool string, args map[string]any, out any) string {
	t.Helper()
	r, text := f.call(t, tool, args)
	if r.IsError {
		t.Fatalf("%s %v: %s", tool, args, text)
	}
	if out != nil {
		b, _ := json.Marshal(r.StructuredContent)
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	return text
}

// fails calls tool and returns its error text, failing the test when the
// call succeeds.
func (f teamFixture) fails(t *testing.T, tool string, args map[string]any) string {
	t.Helper()
	r, text := f.call(t, tool, args)
	if !r.IsError {
		t.Fatalf("%s %v succeeded: %s", tool, args, text)
	}
	return text
}

// TestTeamScope_SaveGetUpdateForget: memory_save with scope team writes
// into the project's .memdir/team (scope, author, team/ name in the
// result), refuses a user memory and a secret (listing its kind, writing
// nothing anywhere); get, update and forget take team/<file> or scope
// team; a bare name of a team memory is not looked up there, and
// forgetting it that way is refused and says to give scope team.
func TestTeamScope_SaveGetUpdateForget(t *testing.T) {
	f := newTeamFixture(t)
	var saved SaveOut
	text := f.ok(t, "memory_save", map[string]any{"type": "project", "name": "Deploy flow", "description": "Deploys go through make deploy", "body": "Run make deploy.", "scope": "team"}, &saved)
	if saved.File != "team/deploy-flow.md" || saved.Scope != "team" || saved.Author != "Ana" || !strings.Contains(text, "commit .memdir/team") {
		t.Errorf("team save: %+v\n%s", saved, text)
	}
	if _, err := os.Stat(filepath.Join(f.l.TeamDir, "deploy-flow.md")); err != nil {
		t.Errorf("not in the team folder: %v", err)
	}
	saved = SaveOut{}
	f.ok(t, "memory_save", map[string]any{"type": "feedback", "name": "Prefer tabs", "description": "Indent with tabs", "body": "Tabs."}, &saved)
	if saved.File != "prefer-tabs.md" || saved.Scope != "private" || saved.Author != "" {
		t.Errorf("private save: %+v", saved)
	}

	secret := "The deploy token is ghp_" + strings.Repeat("a1B2", 9) + "."
	text = f.fails(t, "memory_save", map[string]any{"type": "project", "name": "Deploy token", "description": "The token for deploys", "body": secret, "scope": "team"})
	if !strings.Contains(text, "github-token") || !strings.Contains(text, `scope "private"`) {
		t.Errorf("secret refusal does not list the kind and the way out: %s", text)
	}
	text = f.fails(t, "memory_save", map[string]any{"type": "user", "name": "Me", "description": "I am a Go developer", "body": "Go.", "scope": "team"})
	if !strings.Contains(text, "private") {
		t.Errorf("user memory refusal: %s", text)
	}
	for _, dir := range []string{f.l.TeamDir, f.l.MemoryDir} {
		for _, file := range []string{"deploy-token.md", "me.md"} {
			if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
				t.Errorf("a refused memory was written: %s", filepath.Join(dir, file))
			}
		}
	}

	var got MemoryOut
	for _, args := range []map[string]any{{"name": "team/deploy-flow.md"}, {"name": "Deploy flow", "scope": "team"}} {
		text = f.ok(t, "memory_get", args, &got)
		if got.File != "team/deploy-flow.md" || got.Scope != "team" || got.Author != "Ana" || !strings.Contains(text, "by Ana") {
			t.Errorf("get %v: %+v\n%s", args, got, text)
		}
	}
	got = MemoryOut{}
	f.ok(t, "memory_get", map[string]any{"name": "prefer-tabs"}, &got)
	if got.Scope != "private" || got.File != "prefer-tabs.md" {
		t.Errorf("private get: %+v", got)
	}
	if text := f.fails(t, "memory_get", map[string]any{"name": "deploy-flow"}); !strings.Contains(text, `scope "team"`) {
		t.Errorf("bare name of a team memory: %s", text)
	}

	var upd SaveOut
	f.ok(t, "memory_update", map[string]any{"name": "team/deploy-flow.md", "description": "Deploys go through make deploy-prod"}, &upd)
	if upd.File != "team/deploy-flow.md" || upd.Scope != "team" {
		t.Errorf("update: %+v", upd)
	}
	if b, _ := os.ReadFile(filepath.Join(f.l.TeamDir, "deploy-flow.md")); !strings.Contains(string(b), "make deploy-prod") {
		t.Errorf("update not written:\n%s", b)
	}
	if text := f.fails(t, "memory_update", map[string]any{"name": "Deploy flow", "scope": "team", "body": secret}); !strings.Contains(text, "github-token") {
		t.Errorf("update with a secret: %s", text)
	}

	if text := f.fails(t, "memory_forget", map[string]any{"name": "deploy-flow"}); !strings.Contains(text, `scope "team"`) || !strings.Contains(text, "every collaborator") {
		t.Errorf("forget of a team memory by a bare name: %s", text)
	}
	if _, err := os.Stat(filepath.Join(f.l.TeamDir, "deploy-flow.md")); err != nil {
		t.Fatalf("a refused forget removed the memory: %v", err)
	}
	var fo ForgetOut
	text = f.ok(t, "memory_forget", map[string]any{"name": "team/deploy-flow.md"}, &fo)
	if fo.File != "team/deploy-flow.md" || fo.Scope != "team" || fo.Tombstone != ".memdir/team/.tombstones/deploy-flow.jsonl" || !strings.Contains(text, "commit both") {
		t.Errorf("team forget: %+v\n%s", fo, text)
	}
	if _, err := os.Stat(filepath.Join(f.l.ProjectRoot, filepath.FromSlash(fo.Tombstone))); err != nil {
		t.Errorf("no tombstone: %v", err)
	}
	fo = ForgetOut{}
	f.ok(t, "memory_forget", map[string]any{"name": "prefer-tabs"}, &fo)
	if fo.Scope != "private" || fo.Tombstone != "" {
		t.Errorf("private forget: %+v", fo)
	}
}

// TestTeamScope_List: memory_list lists the private memories, then the
// team's (named team/<file>, with scope and author); scope private or
// team lists one folder; pages of one memory walk both folders once, in
// that order; a cursor is tied to its scope.
func TestTeamScope_List(t *testing.T) {
	f := newTeamFixture(t)
	if out := f.list(t, nil); len(out.Memories) != 0 {
		t.Fatalf("empty project lists %+v", out.Memories)
	}
	if text := f.fails(t, "memory_list", map[string]any{"scope": "team"}); !strings.Contains(text, "team") {
		t.Errorf("scope team without a team folder: %s", text)
	}
	for _, m := range []map[string]any{
		{"type": "project", "name": "Release train", "description": "Releases leave every other Tuesday", "body": "x", "scope": "team"},
		{"type": "reference", "name": "Runbook", "description": "The runbook is in the wiki under Ops", "body": "x", "scope": "team"},
		{"type": "feedback", "name": "Prefer tabs", "description": "Indent with tabs", "body": "x"},
		{"type": "user", "name": "Go developer", "description": "The user writes Go", "body": "x"},
	} {
		f.ok(t, "memory_save", m, nil)
	}
	var files []string
	var out ListOut
	text := f.ok(t, "memory_list", nil, &out)
	for _, m := range out.Memories {
		files = append(files, m.Scope+":"+m.File+":"+m.Author)
	}
	want := []string{"private:go-developer.md:", "private:prefer-tabs.md:", "team:team/release-train.md:Ana", "team:team/runbook.md:Ana"}
	if !slices.Equal(files, want) || out.Total != 4 || !strings.Contains(text, "team/runbook.md") || !strings.Contains(text, "by Ana") {
		t.Errorf("list all: %v (total %d), want %v\n%s", files, out.Total, want, text)
	}
	for scope, n := range map[string]int{"private": 2, "team": 2, "all": 4} {
		out := f.list(t, map[string]any{"scope": scope})
		if len(out.Memories) != n || out.Total != n {
			t.Errorf("scope %s: %d memories (total %d), want %d", scope, len(out.Memories), out.Total, n)
		}
		for _, m := range out.Memories {
			if scope != "all" && m.Scope != scope {
				t.Errorf("scope %s lists %+v", scope, m)
			}
		}
	}
	if out := f.list(t, map[string]any{"type": "reference"}); len(out.Memories) != 1 || out.Memories[0].File != "team/runbook.md" {
		t.Errorf("type reference: %+v", out.Memories)
	}
	var paged []string
	cursor := ""
	for range 10 {
		args := map[string]any{"limit": 1}
		if cursor != "" {
			args["cursor"] = cursor
		}
		out := f.list(t, args)
		for _, m := range out.Memories {
			paged = append(paged, m.File)
		}
		if cursor = out.NextCursor; cursor == "" {
			break
		}
	}
	if want := []string{"go-developer.md", "prefer-tabs.md", "team/release-train.md", "team/runbook.md"}; !slices.Equal(paged, want) {
		t.Errorf("pages of one: %v, want %v", paged, want)
	}
	first := f.list(t, map[string]any{"limit": 1})
	if text := f.fails(t, "memory_list", map[string]any{"cursor": first.NextCursor, "scope": "team"}); !strings.Contains(text, "list again") {
		t.Errorf("cursor of another scope: %s", text)
	}
	f.fails(t, "memory_list", map[string]any{"scope": "everyone"})
}
