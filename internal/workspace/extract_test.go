package workspace_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
)

// home is an agent home with a project and its transcript folder, and
// the Env a front end would build for it.
type home struct {
	t                      *testing.T
	root, home, proj, tdir string
	vars                   map[string]string
	warnings               []error
}

func newHome(t *testing.T) *home {
	root := t.TempDir()
	h := &home{t: t, root: root, home: filepath.Join(root, ".claude"), proj: filepath.Join(root, "proj"),
		vars: map[string]string{"HOME": root, "TZ": "UTC"}}
	h.tdir = filepath.Join(h.home, "projects", paths.Sanitize(h.proj))
	for _, d := range []string{h.proj, h.tdir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

func (h *home) env() workspace.Env {
	return workspace.Env{Getenv: func(k string) string { return h.vars[k] }, Cwd: h.proj, HomeFlag: h.home, Holder: "test"}
}

// records writes a transcript of the given records.
func (h *home) records(session string, recs []map[string]any) string {
	var b bytes.Buffer
	for _, r := range recs {
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	p := filepath.Join(h.tdir, session+".jsonl")
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// transcript writes a session whose user turns each state one rule.
func (h *home) transcript(session string, rules ...string) string {
	var recs []map[string]any
	for i, r := range rules {
		recs = append(recs, map[string]any{"type": "user", "uuid": fmt.Sprintf("%s-u%d", session, i), "timestamp": "2026-11-20T10:00:00Z",
			"cwd": h.proj, "sessionId": session, "message": map[string]any{"role": "user", "content": r}})
	}
	return h.records(session, recs)
}

// extract runs Extract over every transcript with new turns.
func (h *home) extract(o workspace.ExtractOptions) workspace.ExtractResult {
	h.t.Helper()
	tr, err := h.env().Transcripts()
	if err != nil {
		h.t.Fatal(err)
	}
	o.Warn = func(err error) { h.warnings = append(h.warnings, err) }
	res, err := tr.ExtractMemories(h.t.Context(), h.env(), o)
	if err != nil {
		h.t.Fatalf("extract: %v", err)
	}
	return res
}

// model is an extraction with the openai engine answering texts in turn.
func (h *home) model(fake *llmtest.Client) workspace.ExtractOptions {
	return workspace.ExtractOptions{Engine: workspace.ExtractOpenAI, Models: workspace.Models{
		Chat: func(string, time.Duration) (llm.Client, error) { return fake, nil }}}
}

func (h *home) store() *memdir.Store {
	h.t.Helper()
	ws, err := workspace.Open(h.env(), true)
	if err != nil {
		h.t.Fatal(err)
	}
	return ws.Store
}

func (h *home) save(typ memdir.Type, name, desc string) {
	h.t.Helper()
	if _, err := h.store().Save(h.t.Context(), memdir.Memory{Type: typ, Name: name, Description: desc, Body: desc + "."}, memdir.SaveOptions{}); err != nil {
		h.t.Fatal(err)
	}
}

// memories lists the memory files, and how many of them are live.
func (h *home) memories() (files []string, live int) {
	h.t.Helper()
	mems, _, err := h.store().List()
	if err != nil {
		h.t.Fatal(err)
	}
	for _, m := range mems {
		files = append(files, m.File)
		if m.SupersededBy == "" {
			live++
		}
	}
	return files, live
}

func (h *home) read(file string) string {
	b, err := os.ReadFile(filepath.Join(h.tdir, "memory", file))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

const createLinters = `{"op":"create","type":"feedback","name":"Run linters before pushing","description":"Run the linters before every push","body":"Run the linters before pushing."}`

// A model engine's valid operations are applied through the store; a
// malformed answer is asked again once, then skipped; an answer that would
// write outside the memory folder is refused whole; an update rewrites its
// target.
func TestExtract_ModelEngine(t *testing.T) {
	h := newHome(t)
	fake := &llmtest.Client{}
	var path string // the transcript of the turn
	run := func(answers ...string) workspace.ExtractReport {
		t.Helper()
		fake.CompleteFunc = llmtest.Replies(answers...)
		o := h.model(fake)
		o.Transcripts = []string{path}
		res := h.extract(o)
		if len(res.Reports) != 1 {
			t.Fatalf("want one transcript extracted: %+v", res)
		}
		return res.Reports[0]
	}
	path = h.transcript("l1", "We always run the linters before pushing, they caught a data race last week.")
	rep := run(`{"operations":[{"op":"create","type":"feedback","name":"Run linters before pushing","description":"Run the linters before every push","body":"Run the linters before pushing.\n\n**Why:** they caught a data race.\n**How to apply:** before every push."}]}`)
	if !slices.Equal(rep.Saved, []string{"run-linters-before-pushing.md"}) || len(fake.Requests()) != 1 {
		t.Fatalf("a valid answer: %d calls, %+v", len(fake.Requests()), rep)
	}
	req := fake.Requests()[0]
	if !strings.Contains(req.System, "Never save") || len(req.Messages) != 1 || !strings.Contains(req.Messages[0].Content, "New conversation turns") ||
		!strings.Contains(req.Messages[0].Content, "data race") {
		t.Errorf("the prompt lacks its parts: %+v", req)
	}
	if raw := h.read("run-linters-before-pushing.md"); !strings.Contains(raw, "trust: agent") || !strings.Contains(raw, "source: l1") {
		t.Errorf("the memory lacks trust and source:\n%s", raw)
	}

	path = h.transcript("l2", "From now on squash merge every feature branch, the history stays readable.")
	before := len(fake.Requests())
	rep = run("Sure! Here are the operations: create a memory about squashing.", `{"operations": [`)
	if n := len(fake.Requests()) - before; n != 2 || !strings.Contains(rep.Why, "refused twice") {
		t.Fatalf("a malformed answer: %d calls, %+v", n, rep)
	}
	if re := fake.Requests()[len(fake.Requests())-1]; len(re.Messages) != 3 || !strings.Contains(re.Messages[2].Content, "That answer was refused") {
		t.Errorf("the second ask does not say why the first answer was refused: %+v", re.Messages)
	}

	path = h.transcript("l3", "We never deploy on Fridays because on-call is thin on weekends.")
	rep = run(`{"operations":[{"op":"create","type":"project","name":"../../../../etc/cron.d/x","description":"x","body":"x"}]}`)
	if !strings.Contains(rep.Why, "refused twice") {
		t.Fatalf("a path for a name was not refused: %+v", rep)
	}
	if files, _ := h.memories(); len(files) != 1 {
		t.Fatalf("memories after the refused answers: %v", files)
	}
	if _, err := os.Stat(filepath.Join(h.root, "etc")); err == nil {
		t.Fatal("something was written outside the memory folder")
	}

	path = h.transcript("l4", "Run the linters and the race detector before pushing.")
	rep = run(`{"operations":[{"op":"update","type":"feedback","name":"Run linters before pushing","description":"Run the linters and go test -race before every push","body":"Run the linters and the race detector before pushing.","target":"run-linters-before-pushing.md"}]}`)
	if !slices.Equal(rep.Updated, []string{"run-linters-before-pushing.md"}) || len(rep.Plan) != 1 || rep.Plan[0].Op != extract.Update {
		t.Fatalf("an update: %+v", rep)
	}
	if raw := h.read("run-linters-before-pushing.md"); !strings.Contains(raw, "race detector") {
		t.Errorf("not updated:\n%s", raw)
	}
}

// An answer that lists the same create twice saves one memory: the second
// is planned after the first is written, and updates it.
func TestExtract_ModelDuplicateCreateInOneAnswer(t *testing.T) {
	h := newHome(t)
	h.transcript("d1", "We always run the linters before pushing, they caught a data race last week.")
	res := h.extract(h.model(&llmtest.Client{CompleteFunc: llmtest.Replies(`{"operations":[` + createLinters + `,` + createLinters + `]}`)}))
	if files, _ := h.memories(); len(files) != 1 {
		t.Fatalf("one fact, %d memories: %v", len(files), files)
	}
	plan := res.Reports[0].Plan
	if len(plan) != 2 || plan[0].Op != extract.Create || plan[1].Op != extract.Update || !strings.Contains(plan[1].Reason, "restates run-linters-before-pushing.md") {
		t.Errorf("plan: %+v", plan)
	}
}

// Extracting the same turns again (the state lost, or a crash between the
// saves and the cursor's write) updates what was saved.
func TestExtract_ReExtractionUpdates(t *testing.T) {
	h := newHome(t)
	h.transcript("d2", "We always run the linters before pushing, they caught a data race last week.")
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(`{"operations":[` + createLinters + `]}`)}
	h.extract(h.model(fake))
	if err := os.Remove(filepath.Join(h.home, "memory", workspace.ExtractStateFile)); err != nil {
		t.Fatal(err)
	}
	res := h.extract(h.model(fake))
	if files, _ := h.memories(); len(files) != 1 {
		t.Fatalf("the same turns extracted twice: %d memories %v", len(files), files)
	}
	if r := res.Reports[0]; len(r.Updated) != 1 || len(r.Saved) != 0 {
		t.Errorf("the second run: %+v", r)
	}
}

// Two supersede operations on one target are refused as an answer: one
// memory about the deploy day stays live.
func TestExtract_ModelTwoOpsOneTargetRefused(t *testing.T) {
	h := newHome(t)
	h.save(memdir.TypeProject, "Deploy day", "Deploys happen on Tuesdays")
	h.transcript("d3", "We decided deploys move to Wednesdays and then to Thursdays.")
	sup := func(name, day string) string {
		return `{"op":"supersede","type":"project","name":"` + name + `","description":"Deploys happen on ` + day + `","body":"` + day + `.","target":"deploy-day.md"}`
	}
	res := h.extract(h.model(&llmtest.Client{CompleteFunc: llmtest.Replies(`{"operations":[` + sup("Deploy day wed", "Wednesdays") + `,` + sup("Deploy day thu", "Thursdays") + `]}`)}))
	if files, live := h.memories(); live != 1 {
		t.Fatalf("%d live memories about the deploy day (want 1): %v %+v", live, files, res.Reports)
	}
	if why := res.Reports[0].Why; !strings.Contains(why, "a second operation on deploy-day.md") {
		t.Errorf("why: %q", why)
	}
}

// An engine that fails (a bad key) fails the transcript: the report and
// the warning carry the error with its hint, and the cursor stays, so the
// turns are tried again.
func TestExtract_ModelFailureKeepsTheTurns(t *testing.T) {
	h := newHome(t)
	h.transcript("e1", "We always run the linters before pushing, they caught a data race last week.")
	fake := &llmtest.Client{CompleteFunc: func(context.Context, llm.Request) (llm.Response, error) {
		return llm.Response{}, errors.New("HTTP 401: Incorrect API key provided")
	}}
	res := h.extract(h.model(fake))
	if !res.Failed() || !strings.Contains(res.Reports[0].Error, "HTTP 401") {
		t.Fatalf("the failure is not in the report: %+v", res)
	}
	if len(h.warnings) != 1 || !strings.Contains(hint.Of(h.warnings[0]), "check the engine's key") {
		t.Errorf("warnings: %v", h.warnings)
	}
	fake.CompleteFunc = llmtest.Replies(`{"operations":[` + createLinters + `]}`)
	if res := h.extract(h.model(fake)); res.Failed() || len(res.Reports[0].Saved) != 1 {
		t.Errorf("the turns were not tried again: %+v", res)
	}
}

// The agent saved the rule itself through memdir's MCP server in this
// stretch: the mutex skips it, as it does a Write into the memory folder.
func TestExtract_MutexSeesMCPSave(t *testing.T) {
	h := newHome(t)
	h.records("mx", []map[string]any{
		{"type": "user", "uuid": "m-u0", "timestamp": "2026-11-20T10:00:00Z", "cwd": h.proj, "sessionId": "mx",
			"message": map[string]any{"role": "user", "content": "We always run the linters before pushing, they caught a data race last week."}},
		{"type": "assistant", "uuid": "m-a0", "timestamp": "2026-11-20T10:00:05Z", "cwd": h.proj, "sessionId": "mx",
			"message": map[string]any{"id": "msg_1", "role": "assistant", "content": []any{
				map[string]any{"type": "text", "text": "Noted, saving that."},
				map[string]any{"type": "tool_use", "id": "toolu_1", "name": "mcp__memdir__memory_save", "input": map[string]any{
					"type": "feedback", "name": "Lint first", "description": "Lint before each push (caught a race)", "body": "Run linters before pushing."}},
			}}},
	})
	h.save(memdir.TypeFeedback, "Lint first", "Lint before each push (caught a race)") // what the MCP call did
	res := h.extract(workspace.ExtractOptions{})
	if files, _ := h.memories(); len(files) != 1 {
		t.Fatalf("the agent saved it; extraction saved it again: %v %+v", files, res.Reports)
	}
	if r := res.Reports[0]; r.Ran || r.Why != "the agent wrote its memory itself in this stretch" {
		t.Errorf("report: %+v", r)
	}
}

// "pnpm over npm", then in a later session "npm over pnpm": the new memory
// supersedes the old one, with the reason in the plan.
func TestExtract_ReversedPreferenceSupersedes(t *testing.T) {
	h := newHome(t)
	h.transcript("p1", "I prefer pnpm over npm for every package in this repo.")
	h.extract(workspace.ExtractOptions{})
	h.transcript("p2", "Actually, I prefer npm over pnpm for every package in this repo.")
	res := h.extract(workspace.ExtractOptions{})
	files, live := h.memories()
	if len(files) != 2 || live != 1 {
		t.Fatalf("memories %v, %d live", files, live)
	}
	var r workspace.ExtractReport
	for _, rep := range res.Reports {
		if rep.Ran {
			r = rep
		}
	}
	if len(r.Superseded) != 1 || len(r.Plan) != 1 || !strings.Contains(r.Plan[0].Reason, "reverses the choice") {
		t.Fatalf("report: %+v", r)
	}
	if old := strings.Split(r.Superseded[0], " → ")[0]; !strings.Contains(h.read(old), "superseded_by") {
		t.Errorf("%s is not marked superseded", old)
	}
}

// A dry run plans against the folder as it is, writes nothing and moves
// no cursor; a transcript extracted to its end is then "nothing new".
func TestExtract_DryRunAndNothingNew(t *testing.T) {
	h := newHome(t)
	h.transcript("n1", "We always run the linters before pushing, they caught a data race last week.")
	res := h.extract(workspace.ExtractOptions{DryRun: true})
	if r := res.Reports[0]; len(r.Plan) != 1 || r.Plan[0].Op != extract.Create || r.Wrote() {
		t.Fatalf("dry run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(h.tdir, "memory")); err == nil {
		t.Error("a dry run made the memory folder")
	}
	if res := h.extract(workspace.ExtractOptions{}); len(res.Reports[0].Saved) != 1 {
		t.Fatalf("run: %+v", res.Reports)
	}
	res = h.extract(workspace.ExtractOptions{DryRun: true})
	if why := res.Reports[0].Why; why != "nothing new since the last extraction" {
		t.Errorf("second run: %q", why)
	}
}

// Work that arrives while another extraction holds the lock is staged,
// and the holder's next run takes it as a trailing run: nothing is lost,
// nothing written twice.
func TestExtract_StagedWorkRunsAfterTheHolder(t *testing.T) {
	h := newHome(t)
	rules := func(s string) []string {
		var out []string
		for i := range 3 {
			out = append(out, fmt.Sprintf("We always use gizmo%s%d for the widget%s%d pipeline in this repo.", s, i, s, i))
		}
		return out
	}
	t1, t2 := h.transcript("s1", rules("s1")...), h.transcript("s2", rules("s2")...)
	lockDir := filepath.Join(h.home, "memory", "extract")
	if err := os.MkdirAll(lockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockfile.Lock(t.Context(), lockDir, lockfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := h.extract(workspace.ExtractOptions{Transcripts: []string{t2}})
	if !res.Staged || len(res.Reports) != 0 || !slices.Equal(res.Targets, []string{t2}) {
		t.Fatalf("with the lock held: %+v", res)
	}
	unlock()
	res = h.extract(workspace.ExtractOptions{Transcripts: []string{t1}})
	if files, _ := h.memories(); len(files) != 6 || len(res.Reports) != 2 || res.Reports[1].Transcript != t2 {
		t.Fatalf("after the next run: %v\n%+v", files, res.Reports)
	}
	h.extract(workspace.ExtractOptions{})
	if files, _ := h.memories(); len(files) != 6 {
		t.Fatalf("a third run changed the memories: %v", files)
	}
}

// The throttle holds turns back, cursor unmoved, until MEMDIR_EXTRACT_EVERY
// of them gathered; a trailing run (a session's end) takes them at once.
func TestExtract_ThrottleAndTrailing(t *testing.T) {
	h := newHome(t)
	h.vars[workspace.ExtractEvery] = "3"
	p := h.transcript("t1", "Never log request bodies, they carry personal data.")
	res := h.extract(workspace.ExtractOptions{})
	if r := res.Reports[0]; r.Ran || r.Why != "throttled: extraction runs every 3 turns" {
		t.Fatalf("throttled: %+v", r)
	}
	res = h.extract(workspace.ExtractOptions{Transcripts: []string{p}, Trailing: true})
	if r := res.Reports[0]; !r.Ran || len(r.Saved) != 1 {
		t.Fatalf("trailing: %+v", r)
	}
}
