package workspace

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/llm/llmtest"
)

// Tests of the dream's model engines. Those marked "real Validate" hold
// only with consolidate.Validate as helper "engine" implements it (branch
// x18-engine): a merge that loses a sentence or a plan that retires a
// pinned memory must be refused.

var dreamDay = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// dreamInput is a small folder: two deploy memories the heuristic engine
// merged and a third it did not see, two test-database memories it left
// for a model, two build memories nothing decided, and a pinned one.
func dreamInput() (consolidate.Input, consolidate.Plan) {
	item := func(file, typ, scope, body string, days int) consolidate.Item {
		first, _, _ := strings.Cut(body, "\n")
		return consolidate.Item{File: file, Name: strings.TrimSuffix(file, ".md"), Description: first,
			Type: typ, Scope: scope, Body: body, Created: dreamDay.AddDate(0, 0, days)}
	}
	in := consolidate.Input{Now: dreamDay.AddDate(0, 6, 0), Items: []consolidate.Item{
		item("deploy-a.md", "project", "team", "Deploys happen on Fridays.\nRun make release before deploying.", 0),
		item("deploy-b.md", "project", "team", "We deploy every Friday afternoon.\nThe release checklist lives in docs/release.md.", 3),
		item("db-old.md", "feedback", "private", "Use MySQL for the integration tests.", 1),
		item("db-new.md", "feedback", "private", "Use Postgres for the integration tests, not MySQL: the ORM dropped MySQL.", 20),
		item("build-a.md", "project", "team", "The build needs Go 1.26.\nCI caches modules in /cache/go.", 2),
		item("build-b.md", "project", "team", "Builds require Go 1.26 or newer.\nA cold build takes eleven minutes.", 4),
		item("oncall.md", "reference", "team", "The on-call rota is in PagerDuty under the name platform-primary.", 5),
		item("deploy-time.md", "project", "team", "Deploys start at 14:00 UTC.", -5),
	}}
	in.Items[6].Pinned = true
	h := consolidate.Plan{
		Ops: []consolidate.Op{{ID: "merge:deploy-a.md+deploy-b.md", Kind: consolidate.Merge, Files: []string{"deploy-a.md", "deploy-b.md"},
			Keep: "deploy-a.md", Retire: []string{"deploy-b.md"}, Lossless: true, Reason: "near-duplicates: both say deploys happen on Fridays",
			Edit: &consolidate.Edit{Body: in.Items[0].Body + "\n" + in.Items[1].Body}}},
		LeftForModel: []consolidate.Candidate{
			{Kind: consolidate.Supersede, Files: []string{"db-new.md", "db-old.md"}, Why: "use Postgres / use MySQL"},
			{Kind: consolidate.Merge, Files: []string{"build-a.md", "build-b.md"}, Why: "both about the Go version"},
		},
	}
	return in, h
}

// dreamWorkspace is a workspace whose model engines answer with fake.
func dreamWorkspace(fake *llmtest.Client) *Workspace {
	return &Workspace{Models: Models{Chat: func(string, time.Duration) (llm.Client, error) { return fake, nil }}}
}

func answer(ops ...string) string { return `{"ops":[` + strings.Join(ops, ",") + `]}` }

const (
	supersedeDB = `{"kind":"supersede","files":["db-new.md","db-old.md"],"keep":"db-new.md","retire":["db-old.md"],
		"reason":"the newer memory switches the integration tests to Postgres","evidence":["not MySQL: the ORM dropped MySQL"],"lossless":true}`
	goodDeployMerge = `{"kind":"merge","files":["deploy-a.md","deploy-b.md"],"keep":"deploy-a.md","retire":["deploy-b.md"],
		"edit":{"description":"Deploys: Fridays, after make release","body":"Deploys happen on Fridays, in the afternoon: we deploy every Friday afternoon.\nRun make release before deploying.\nThe release checklist lives in docs/release.md."},
		"reason":"one memory about deploys","lossless":true}`
	// lossyBuildMerge leaves out "A cold build takes eleven minutes."
	lossyBuildMerge = `{"kind":"merge","files":["build-a.md","build-b.md"],"keep":"build-a.md","retire":["build-b.md"],
		"edit":{"body":"The build needs Go 1.26 or newer.\nCI caches modules in /cache/go."},"reason":"both about the Go version","lossless":true}`
	supersedePinned = `{"kind":"supersede","files":["build-a.md","oncall.md"],"keep":"build-a.md","retire":["oncall.md"],
		"reason":"the on-call rota is old","lossless":true}`
)

func opByID(p consolidate.Plan, id string) *consolidate.Op {
	for i := range p.Ops {
		if p.Ops[i].ID == id {
			return &p.Ops[i]
		}
	}
	return nil
}

func TestModelPlan_MergeTextAndJudgement(t *testing.T) {
	in, h := dreamInput()
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(goodDeployMerge, supersedeDB))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("modelPlan: %v, warnings %q", err, warnings)
	}
	reqs := fake.Requests()
	if len(reqs) != 1 || reqs[0].System != consolidate.DreamPrompt || !reqs[0].JSON ||
		!strings.Contains(reqs[0].Messages[0].Content, "- supersede of db-new.md, db-old.md: use Postgres / use MySQL") {
		t.Fatalf("requests = %+v", reqs)
	}
	if len(plan.Ops) != 2 {
		t.Fatalf("plan has %d ops, want the decided merge and the model's supersede: %+v", len(plan.Ops), plan.Ops)
	}
	m := opByID(plan, "merge:deploy-a.md+deploy-b.md")
	if m == nil || !strings.HasPrefix(m.Edit.Body, "Deploys happen on Fridays, in the afternoon") ||
		m.Edit.Description != "Deploys: Fridays, after make release" || !m.Edit.Created.IsZero() ||
		!strings.Contains(m.Reason, "merged text written by the anthropic engine") || !reflect.DeepEqual(m.Retire, []string{"deploy-b.md"}) {
		t.Errorf("merge = %+v (edit %+v), want the model's text, the earliest created and a reason saying so", m, m.Edit)
	}
	if s := opByID(plan, "supersede:db-new.md+db-old.md"); s == nil || s.Keep != "db-new.md" {
		t.Errorf("the model's supersede is missing: %+v", plan.Ops)
	}
	if len(plan.LeftForModel) != 0 {
		t.Errorf("LeftForModel = %+v, want none: the model judged them", plan.LeftForModel)
	}
}

// Real Validate: the lossy merge fails it.
func TestModelPlan_LossyMergeRetriedThenDropped(t *testing.T) {
	in, h := dreamInput()
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(lossyBuildMerge, supersedeDB))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "openai", in, h)
	if err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want a retry after the refusal", len(reqs))
	}
	retry := reqs[1].Messages
	if len(retry) != 3 || retry[1].Role != "assistant" || !strings.Contains(retry[2].Content, "memdir refused that plan") ||
		!strings.Contains(retry[2].Content, "eleven minutes") {
		t.Errorf("the retry does not tell the model what was refused: %+v", retry)
	}
	if opByID(plan, "merge:build-a.md+build-b.md") != nil {
		t.Errorf("the lossy merge is in the plan: %+v", plan.Ops)
	}
	if opByID(plan, "supersede:db-new.md+db-old.md") == nil || opByID(plan, "merge:deploy-a.md+deploy-b.md") == nil {
		t.Errorf("the valid operations were not kept: %+v", plan.Ops)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "dropped the openai engine's merge:build-a.md+build-b.md") ||
		!strings.Contains(warnings[0], "loses a fact") {
		t.Errorf("warnings = %q, want the dropped merge and why", warnings)
	}
}

// Real Validate: a pinned memory is never retired.
func TestModelPlan_PinnedSupersedeDropped(t *testing.T) {
	in, h := dreamInput()
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(supersedePinned, supersedeDB))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "claude", in, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range plan.Ops {
		if slices.Contains(op.Retire, "oncall.md") {
			t.Errorf("the plan retires the pinned oncall.md: %+v", op)
		}
	}
	if opByID(plan, "supersede:db-new.md+db-old.md") == nil {
		t.Errorf("the valid supersede was dropped too: %+v", plan.Ops)
	}
	if len(fake.Requests()) != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "pinned") {
		t.Errorf("%d requests, warnings %q; want one retry and the drop explained", len(fake.Requests()), warnings)
	}
}

// Real Validate: a refused merge text falls back to the heuristic's, the
// merge itself stays.
func TestModelPlan_LossyMergeTextFallsBack(t *testing.T) {
	in, h := dreamInput()
	lossy := `{"kind":"merge","files":["deploy-b.md","deploy-a.md"],"keep":"deploy-a.md","retire":["deploy-b.md"],
		"edit":{"body":"Deploys happen on Fridays."},"reason":"shorter","lossless":true}`
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(lossy))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(plan.Ops, h.Ops) {
		t.Errorf("ops = %+v, want the heuristic's merge unchanged", plan.Ops)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "kept the heuristic engine's merge:deploy-a.md+deploy-b.md as it was: the anthropic engine's rewrite was refused") {
		t.Errorf("warnings = %q", warnings)
	}
}

func TestModelPlan_IgnoresDecidedFiles(t *testing.T) {
	in, h := dreamInput()
	prune := `{"kind":"prune","files":["deploy-b.md"],"retire":["deploy-b.md"],"reason":"a duplicate"}`
	again := `{"kind":"expire","files":["db-old.md"],"retire":["db-old.md"],"reason":"old"}`
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(prune, supersedeDB, again))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if err != nil {
		t.Fatal(err)
	}
	if opByID(plan, "prune:deploy-b.md") != nil || opByID(plan, "expire:db-old.md") != nil || len(plan.Ops) != 2 {
		t.Errorf("ops = %+v, want the decided merge and the supersede only", plan.Ops)
	}
	want := []string{
		"ignored the anthropic engine's prune:deploy-b.md: the heuristic engine's merge:deploy-a.md+deploy-b.md already names deploy-b.md",
		"ignored the anthropic engine's expire:db-old.md: another of its operations already names db-old.md",
	}
	if !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings = %q, want %q", warnings, want)
	}
}

func TestModelPlan_FailsSoft(t *testing.T) {
	in, h := dreamInput()
	judged := h
	judged.LeftForModel = nil // unchanged but for what the model was asked
	for name, tc := range map[string]struct {
		fake     *llmtest.Client
		requests int
		warning  string
		want     consolidate.Plan
	}{
		"ModelError": {&llmtest.Client{CompleteFunc: func(context.Context, llm.Request) (llm.Response, error) {
			return llm.Response{}, &llm.StatusError{Code: 529, Body: "overloaded"}
		}}, 1, "the anthropic engine failed, so the plan is the heuristic engine's alone: HTTP 529: overloaded", h},
		"Garbage": {&llmtest.Client{CompleteFunc: llmtest.Replies("I merged the deploy memories for you.", `{"ops":[{"kind":"delete","files":["a.md"],"reason":"r"}]}`)},
			2, "the anthropic engine's answer was refused twice, so the plan is the heuristic engine's alone: invalid consolidation plan: operation 1: unknown kind \"delete\"", h},
		"NothingToDo": {&llmtest.Client{CompleteFunc: llmtest.Replies(answer())}, 1, "", judged},
	} {
		t.Run(name, func(t *testing.T) {
			plan, warnings, err := dreamWorkspace(tc.fake).modelPlan(t.Context(), "anthropic", in, h)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(plan, tc.want) {
				t.Errorf("plan = %+v, want %+v", plan, tc.want)
			}
			if n := len(tc.fake.Requests()); n != tc.requests {
				t.Errorf("%d requests, want %d", n, tc.requests)
			}
			if got := strings.Join(warnings, "\n"); got != tc.warning {
				t.Errorf("warnings = %q, want %q", got, tc.warning)
			}
		})
	}
}

func TestModelPlan_ContextTimeout(t *testing.T) {
	in, h := dreamInput()
	fake := &llmtest.Client{CompleteFunc: func(ctx context.Context, _ llm.Request) (llm.Response, error) {
		<-ctx.Done()
		return llm.Response{}, ctx.Err()
	}}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	plan, _, err := dreamWorkspace(fake).modelPlan(ctx, "anthropic", in, h)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("modelPlan took %v after its deadline", d)
	}
	if len(fake.Requests()) != 1 || !reflect.DeepEqual(plan, h) {
		t.Errorf("%d requests, plan %+v; want one request and the heuristic plan", len(fake.Requests()), plan)
	}
}

// The claude engine runs the CLI with no tools and at most 5 turns.
func TestModelPlan_ClaudeEngineArgs(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for the claude CLI")
	}
	dir := t.TempDir()
	argsFile := filepath.Join(dir, "args")
	result, _ := json.Marshal(map[string]any{"result": answer(supersedeDB)})
	bin := filepath.Join(dir, "claude")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '" + argsFile + "'\ncat > /dev/null\nprintf '%s' '" + string(result) + "'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MEMDIR_CLAUDE_BIN": bin}
	w := &Workspace{Env: Env{Getenv: func(k string) string { return env[k] }}}
	in, h := dreamInput()
	plan, warnings, err := w.modelPlan(t.Context(), "claude", in, h)
	if err != nil || len(warnings) > 0 || opByID(plan, "supersede:db-new.md+db-old.md") == nil {
		t.Fatalf("modelPlan = %+v, %q, %v", plan.Ops, warnings, err)
	}
	b, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	args := "\n" + string(b)
	for _, want := range []string{"\n--max-turns\n5\n", "\n--tools\n\n", "\n--strict-mcp-config\n", "\n--system-prompt\n"} {
		if !strings.Contains(args, want) {
			t.Errorf("claude ran without %q: %q", want, args)
		}
	}
	if strings.Contains(args, "Read") || strings.Contains(args, "--add-dir") {
		t.Errorf("claude ran with a tool: %q", args)
	}
}

// Real Validate: a heuristic plan that fails validation is an error, and
// no model is asked.
func TestModelPlan_BrokenHeuristicPlan(t *testing.T) {
	in, h := dreamInput()
	h.Ops = append(h.Ops, consolidate.Op{ID: "prune:oncall.md", Kind: consolidate.Prune, Files: []string{"oncall.md"}, Retire: []string{"oncall.md"}, Reason: "unused"})
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(supersedeDB))}
	plan, _, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if !errors.Is(err, consolidate.ErrInvalid) || len(fake.Requests()) != 0 || !reflect.DeepEqual(plan, h) {
		t.Errorf("modelPlan = %+v, %v after %d requests; want the plan refused before asking", plan.Ops, err, len(fake.Requests()))
	}
}

// A model merge that adds a memory to a decided merge replaces it, with the
// earliest created time of all three.
func TestModelPlan_WiderMerge(t *testing.T) {
	in, h := dreamInput()
	wider := `{"kind":"merge","files":["deploy-a.md","deploy-time.md","deploy-b.md"],"keep":"deploy-a.md","retire":["deploy-b.md","deploy-time.md"],
		"edit":{"body":"Deploys happen on Fridays: we deploy every Friday afternoon, starting at 14:00 UTC.\nRun make release before deploying.\nThe release checklist lives in docs/release.md.","created":"2026-03-09T00:00:00Z"},
		"reason":"deploy-time.md is about the same deploys","lossless":true}`
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(wider))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("modelPlan: %v, warnings %q", err, warnings)
	}
	if len(plan.Ops) != 1 {
		t.Fatalf("ops = %+v, want the one widened merge", plan.Ops)
	}
	m := plan.Ops[0]
	if m.ID != "merge:deploy-a.md+deploy-b.md+deploy-time.md" || m.Keep != "deploy-a.md" ||
		!reflect.DeepEqual(m.Retire, []string{"deploy-time.md", "deploy-b.md"}) ||
		!strings.Contains(m.Reason, "the anthropic engine adds deploy-time.md") ||
		!m.Edit.Created.Equal(dreamDay.AddDate(0, 0, -5)) || !strings.Contains(m.Edit.Body, "14:00 UTC") {
		t.Errorf("merge = %+v (edit %+v), want the three memories merged, created the earliest", m, m.Edit)
	}
}

// TestModelPlan_ReadOnlyKeep: a model may add copies to a decided merge
// into a global memory, and merge another copy into it on its own; the
// edit it gives such a merge (a created time, even) is dropped, since the
// global memory is never changed from a project's dream.
func TestModelPlan_ReadOnlyKeep(t *testing.T) {
	body := "The user wants short answers: no preamble, no closing summary."
	in := consolidate.Input{Now: dreamDay.AddDate(0, 6, 0), Items: []consolidate.Item{
		{File: "global/terse.md", Name: "Prefers terse answers", Type: "user", Body: body, Created: dreamDay.AddDate(0, 0, 5), ReadOnly: true},
		{File: "terse-a.md", Name: "Terse", Type: "user", Body: "The user wants short answers, no preamble.", Created: dreamDay},
		{File: "terse-b.md", Name: "Short answers", Type: "user", Body: "No closing summary for the user: short answers.", Created: dreamDay.AddDate(0, 0, 1)},
		{File: "terse-c.md", Name: "No preamble", Type: "user", Body: "No preamble in answers to the user.", Created: dreamDay.AddDate(0, 0, 2)},
	}}
	h := consolidate.Plan{Ops: []consolidate.Op{{ID: "merge:global/terse.md+terse-a.md", Kind: consolidate.Merge, Files: []string{"global/terse.md", "terse-a.md"},
		Keep: "global/terse.md", Retire: []string{"terse-a.md"}, Lossless: true, Reason: "a copy of a global memory"}}}
	if err := consolidate.Validate(in, h); err != nil {
		t.Fatal(err)
	}
	wider := `{"kind":"merge","files":["global/terse.md","terse-a.md","terse-b.md"],"keep":"global/terse.md","retire":["terse-a.md","terse-b.md"],
		"edit":{"created":"2026-03-02T10:00:00Z"},"reason":"terse-b.md says it too","lossless":true}`
	another := `{"kind":"merge","files":["global/terse.md","terse-c.md"],"keep":"global/terse.md","retire":["terse-c.md"],
		"edit":{"created":"2026-03-04T10:00:00Z"},"reason":"terse-c.md says part of it","lossless":true}`
	fake := &llmtest.Client{CompleteFunc: llmtest.Replies(answer(wider, another))}
	plan, warnings, err := dreamWorkspace(fake).modelPlan(t.Context(), "anthropic", in, h)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("modelPlan: %v, warnings %q", err, warnings)
	}
	if err := consolidate.Validate(in, plan); err != nil {
		t.Fatalf("the plan fails Validate: %v", err)
	}
	w := opByID(plan, "merge:global/terse.md+terse-a.md+terse-b.md")
	a := opByID(plan, "merge:global/terse.md+terse-c.md")
	if w == nil || w.Edit != nil || a == nil || a.Edit != nil || len(plan.Ops) != 2 {
		t.Fatalf("plan = %+v, want the wider merge and the other one, neither editing global/terse.md", plan.Ops)
	}
}
