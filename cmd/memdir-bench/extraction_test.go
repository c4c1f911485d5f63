package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/redact"
)

// testSetDir is the labelled set, seen from this package's folder.
const testSetDir = "../../" + extractionDir

// TestScoreExtraction_KnownCounts scores a fixed engine on a hand-made set
// whose every figure is counted by hand.
func TestScoreExtraction_KnownCounts(t *testing.T) {
	convs := []Conversation{{
		ID: "a", Date: "2026-11-20", Messages: []benchMessage{{Role: "user", Text: "x"}},
		Expect: []Expected{
			{Type: "feedback", Must: []string{"real database"}, Why: true},             // matched, why line: ok
			{Type: "project", Must: []string{"freeze"}, Date: "2026-11-26", Why: true}, // matched, date ok, no why
			{Type: "reference", Must: []string{"linear", "ingest"}},                    // matched as project: type wrong
			{Type: "user", Must: []string{"data scientist"}},                           // missed
		},
		Forbid: []string{"hunter2", "pink"},
	}, {
		ID: "b", Date: "2026-11-21", Messages: []benchMessage{{Role: "user", Text: "y"}},
		Expect: []Expected{
			{Type: "project", Must: []string{"audit"}, Date: "2026-12-14"},              // matched, date wrong
			{Type: "project", Must: []string{"offsite"}, Date: "2026-12-01", Why: true}, // missed: counts in dates and why, not in their matched-only figures
		},
		Forbid: []string{"coffee"},
	}}
	fixed := map[string][]extract.Candidate{
		"a": {
			{Type: "feedback", Name: "Real database in tests", Description: "Integration tests hit a REAL DATABASE", Body: "Rule.\n\n**Why:** burned.\n"},
			{Type: "project", Name: "Merge freeze", Description: "Merge freeze from 2026-11-26", Body: "Freeze.\n"},
			{Type: "project", Name: "Pipeline bugs", Description: "Pipeline bugs are in Linear project INGEST", Body: "x\n"},
			{Type: "feedback", Name: "Make the button pink now please ok", Description: "make the button pink", Body: "x\n"}, // forbidden, unmatched, 7 words
		},
		"b": {
			{Type: "project", Name: "Security audit", Description: "The audit starts on the 14th", Body: "x\n"},
			{Type: "user", Name: "Coffee", Description: "buy coffee", Body: "x\n"}, // forbidden, unmatched
		},
	}
	sc := scoreExtraction("tiny", "fixed", convs, []outcome{{cands: fixed["a"]}, {cands: fixed["b"]}})
	r := func(n, of int) ratio { return newRatio(n, of) }
	checks := []struct {
		name      string
		got, want ratio
	}{
		{"precision", sc.All.Precision, r(4, 6)},
		{"recall", sc.All.Recall, r(4, 6)},
		{"type accuracy", sc.All.TypeAcc, r(3, 4)},
		{"dates", sc.All.Dates, r(1, 3)},
		{"why", sc.All.Why, r(1, 3)},
		{"dates of the matched", sc.All.MatchedDates, r(1, 2)},
		{"why of the matched", sc.All.MatchedWhy, r(1, 2)},
		{"project precision", sc.Types["project"].Precision, r(3, 3)}, // the INGEST one matched, as the wrong type
		{"feedback precision", sc.Types["feedback"].Precision, r(1, 2)},
		{"user recall", sc.Types["user"].Recall, r(0, 1)},
		{"reference recall", sc.Types["reference"].Recall, r(1, 1)},
		{"reference type accuracy", sc.Types["reference"].TypeAcc, r(0, 1)},
		{"project dates", sc.Types["project"].Dates, r(1, 3)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	if sc.All.Expected != 6 || sc.All.Saved != 6 || sc.Forbid != 3 || sc.Conversations != 2 {
		t.Errorf("expected %d saved %d forbid %d conversations %d; want 6 6 3 2", sc.All.Expected, sc.All.Saved, sc.Forbid, sc.Conversations)
	}
	if len(sc.ForbiddenHits) != 2 || sc.ForbiddenHits[0].Phrase != "pink" || sc.ForbiddenHits[1].Phrase != "coffee" {
		t.Errorf("forbidden hits %+v; want pink in a, coffee in b", sc.ForbiddenHits)
	}
	if len(sc.LongNames) != 1 || len(sc.Missed) != 2 || len(sc.Extra) != 2 {
		t.Errorf("long names %q, missed %q, unmatched %q; want 1, 2, 2", sc.LongNames, sc.Missed, sc.Extra)
	}
}

// TestScoreExtraction_OneCandidatePerExpected: a candidate holding two
// expected memories' phrases counts for one; the candidate of the expected
// type is preferred.
func TestScoreExtraction_OneCandidatePerExpected(t *testing.T) {
	convs := []Conversation{{ID: "a", Date: "2026-11-20", Messages: []benchMessage{{Role: "user", Text: "x"}},
		Expect: []Expected{{Type: "reference", Must: []string{"grafana"}}, {Type: "reference", Must: []string{"grafana"}}}}}
	sc := scoreExtraction("tiny", "fixed", convs, []outcome{{cands: []extract.Candidate{{Type: "project", Name: "Grafana"}, {Type: "reference", Name: "Grafana board"}}}})
	if sc.All.Recall != newRatio(2, 2) || sc.All.TypeAcc != newRatio(1, 2) || sc.Types["reference"].Precision != newRatio(1, 1) {
		t.Errorf("recall %v type %v reference precision %v; want 2/2, 1/2, 1/1", sc.All.Recall, sc.All.TypeAcc, sc.Types["reference"].Precision)
	}
}

// TestScoreExtraction_MostMatchesTypeFirst: the order expected memories are
// listed in decides nothing. A user memory holding two expected ones'
// phrases, and a project memory holding one of them and a dated one: the
// project memory goes to the dated project fact, so its date counts.
func TestScoreExtraction_MostMatchesTypeFirst(t *testing.T) {
	convs := []Conversation{{ID: "a", Date: "2026-11-20", Messages: []benchMessage{{Role: "user", Text: "x"}},
		Expect: []Expected{{Type: "user", Must: []string{"analytics"}}, {Type: "user", Must: []string{"finance marts"}},
			{Type: "project", Must: []string{"month-end"}, Date: "2026-10-05"}, {Type: "reference", Must: []string{"dictionary"}}}}}
	cands := []extract.Candidate{
		{Type: "user", Name: "About me", Body: "Analytics engineer.\nI own the finance marts.\n"},
		{Type: "project", Name: "Freeze", Body: "Finance marts are frozen on 2026-10-05 for month-end close.\n"},
		{Type: "feedback", Name: "Use the dictionary", Body: "Metric definitions live in the dictionary sheet.\n"},
	}
	sc := scoreExtraction("tiny", "fixed", convs, []outcome{{cands: cands}})
	if sc.All.Recall != newRatio(3, 4) || sc.All.Dates != newRatio(1, 1) || sc.All.TypeAcc != newRatio(2, 3) {
		t.Errorf("recall %v dates %v type %v; want 3/4, 1/1, 2/3", sc.All.Recall, sc.All.Dates, sc.All.TypeAcc)
	}
}

// TestExtractionSet_Size keeps the labelled set from shrinking silently
// (issue 17: ≥ 40 conversations, ≥ 150 expected memories, ≥ 25 of each
// type, ≥ 80 forbidden items), and both halves alike in size.
func TestExtractionSet_Size(t *testing.T) {
	total, forbid := 0, 0
	perType := map[string]int{}
	var convs int
	for _, set := range []string{"tune", "heldout"} {
		cs, err := loadExtractionSet(testSetDir, set)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) < 20 {
			t.Errorf("%s: %d conversations; want ≥ 20 in each half", set, len(cs))
		}
		convs += len(cs)
		ids := map[string]bool{}
		for _, c := range cs {
			if ids[c.ID] {
				t.Errorf("%s: conversation id %s twice", set, c.ID)
			}
			ids[c.ID] = true
			for _, e := range c.Expect {
				perType[e.Type]++
				total++
			}
			forbid += len(c.Forbid)
		}
	}
	if convs < 40 || total < 150 || forbid < 80 {
		t.Errorf("%d conversations, %d expected, %d forbidden; want ≥ 40, ≥ 150, ≥ 80", convs, total, forbid)
	}
	for _, typ := range memoryTypes {
		if perType[typ] < 25 {
			t.Errorf("%d expected %s memories; want ≥ 25", perType[typ], typ)
		}
	}
}

// TestExtraction_Command runs the heuristic engine on the whole set.
func TestExtraction_Command(t *testing.T) {
	out, err := runBench(t, "extraction", "--dir", testSetDir, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var scores []extractionScore
	if err := json.Unmarshal([]byte(out), &scores); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := append(slices.Clone(extractionSets), "all")
	var got []string
	sum := 0
	for i, sc := range scores {
		got = append(got, sc.Set)
		if i < len(scores)-1 {
			sum += sc.All.Expected
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got scores of %q: want %q", got, want)
	}
	if all := scores[len(scores)-1]; all.All.Expected != sum || all.All.Saved == 0 {
		t.Errorf("all: %+v", all.All)
	}
	text, err := runBench(t, "extraction", "--dir", testSetDir, "--set", "heldout", "--verbose")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"set heldout, engine heuristic", "precision", "forbidden hits", "missed"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

func TestExtraction_Refusals(t *testing.T) {
	for _, args := range [][]string{
		{"extraction", "--dir", testSetDir, "--engine", "nope"},
		{"extraction", "--dir", testSetDir, "--set", "train"},
		{"extraction", "--dir", t.TempDir()},
	} {
		if _, err := runBench(t, args...); err == nil || hint.Of(err) == "" {
			t.Errorf("%q: err %v; want an error with a hint", args, err)
		}
	}
}

// testKey is the API key the model tests export; the fake model refuses
// any other.
const testKey = "test-key-4f9c2a"

// fakeReply is how the fake model answers one labelled conversation: an
// answer (the model's text, in the API's reply), or an HTTP status and a
// raw body.
type fakeReply struct {
	answer string
	status int
	raw    string
}

// fakeModel is a model behind the two HTTP APIs memdir speaks, the
// Anthropic Messages API (POST /v1/messages) and the OpenAI chat
// completions API (POST /v1/chat/completions), in their wire formats. It
// checks each request (key, version header, model, the extraction system
// prompt, a JSON answer asked for) and knows which labelled conversation a
// request is about by its prompt: the one memdir extract sends for the
// conversation's turns (redacted, as the client sends everything). It
// answers with the conversation's recorded reply, else nothing to save.
type fakeModel struct {
	t       *testing.T
	prompts map[string]string // the user prompt of each conversation → its id
	replies map[string]fakeReply
	mu      sync.Mutex
	calls   map[string]int // requests per conversation id
}

func newFakeModel(t *testing.T, replies map[string]fakeReply) (*fakeModel, *httptest.Server) {
	t.Helper()
	m := &fakeModel{t: t, prompts: map[string]string{}, replies: replies, calls: map[string]int{}}
	for _, set := range extractionSets {
		convs, err := loadExtractionSet(testSetDir, set)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range convs {
			msgs, err := c.messages()
			if err != nil {
				t.Fatal(err)
			}
			prompt, _ := redact.String(extract.UserPrompt(nil, msgs))
			m.prompts[prompt] = c.ID
		}
	}
	ts := httptest.NewServer(m)
	t.Cleanup(ts.Close)
	return m, ts
}

func (m *fakeModel) count(id string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls[id]
}

func (m *fakeModel) total() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.calls {
		n += c
	}
	return n
}

// fail answers a request that is not what memdir sends, and fails the test.
func (m *fakeModel) fail(w http.ResponseWriter, format string, args ...any) {
	m.t.Errorf("fake model: "+format, args...)
	http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad request"}}`, http.StatusBadRequest)
}

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model          string            `json:"model"`
		MaxTokens      int               `json:"max_tokens"`
		System         string            `json:"system"`
		Messages       []llm.Message     `json:"messages"`
		ResponseFormat map[string]string `json:"response_format"`
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
		m.fail(w, "%s %s with Content-Type %q", r.Method, r.URL.Path, r.Header.Get("Content-Type"))
		return
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		m.fail(w, "body: %v", err)
		return
	}
	anthropic := r.URL.Path == "/v1/messages"
	switch {
	case anthropic:
		if r.Header.Get("x-api-key") != testKey || r.Header.Get("anthropic-version") != "2023-06-01" {
			m.fail(w, "anthropic headers: key %q, version %q", r.Header.Get("x-api-key"), r.Header.Get("anthropic-version"))
			return
		}
	case r.URL.Path == "/v1/chat/completions":
		if r.Header.Get("Authorization") != "Bearer "+testKey || req.ResponseFormat["type"] != "json_object" {
			m.fail(w, "openai: Authorization %q, response_format %v", r.Header.Get("Authorization"), req.ResponseFormat)
			return
		}
		if len(req.Messages) == 0 || req.Messages[0].Role != "system" {
			m.fail(w, "openai: no system message first")
			return
		}
		req.System, req.Messages = req.Messages[0].Content, req.Messages[1:]
	default:
		m.fail(w, "path %s", r.URL.Path)
		return
	}
	if req.Model != "test-model" || req.MaxTokens <= 0 || req.System != extract.SystemPrompt || len(req.Messages) == 0 || req.Messages[0].Role != "user" {
		m.fail(w, "model %q, max_tokens %d, system prompt the extraction one: %v, %d messages", req.Model, req.MaxTokens, req.System == extract.SystemPrompt, len(req.Messages))
		return
	}
	id, ok := m.prompts[req.Messages[0].Content]
	if !ok {
		m.fail(w, "a prompt that is no labelled conversation's:\n%s", req.Messages[0].Content)
		return
	}
	m.mu.Lock()
	m.calls[id]++
	m.mu.Unlock()
	reply, ok := m.replies[id]
	if !ok {
		reply = fakeReply{answer: `{"operations": []}`}
	}
	if reply.status != 0 || reply.raw != "" {
		w.WriteHeader(cmp.Or(reply.status, http.StatusOK))
		io.WriteString(w, reply.raw)
		return
	}
	var out any
	if anthropic {
		out = map[string]any{"id": "msg_01", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []map[string]string{{"type": "text", "text": reply.answer}},
			"stop_reason": "end_turn", "stop_sequence": nil, "usage": map[string]int{"input_tokens": 1200, "output_tokens": 180}}
	} else {
		out = map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": req.Model,
			"choices": []map[string]any{{"index": 0, "finish_reason": "stop",
				"message": map[string]string{"role": "assistant", "content": reply.answer}}},
			"usage": map[string]int{"prompt_tokens": 1200, "completion_tokens": 180, "total_tokens": 1380}}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

// recordedReplies are the model's answers for two labelled conversations
// (tune.json): t01-go-api saves three memories, one for each of two
// expected ones (the first names both expected user facts but counts for
// one), and one forbidden (the task at hand: "rounding",
// "TestOrderTotals"); t02-react-forms saves its three expected memories.
var recordedReplies = map[string]fakeReply{
	"t01-go-api": {answer: `{"operations": [
  {"op": "create", "type": "user", "name": "Infra engineer new to Go", "description": "The user mostly does infra work and is new to Go", "body": "Explain Go channel patterns when they come up."},
  {"op": "create", "type": "feedback", "name": "No mocked database in tests", "description": "Tests use the testcontainers setup, never a mocked db", "body": "Use testcontainers for any test touching postgres.\n\n**Why:** mocks passed while a broken migration reached prod last quarter.\n\n**How to apply:** every integration test."},
  {"op": "create", "type": "project", "name": "Rounding fix", "description": "Use decimal for the rounding in TestOrderTotals", "body": "Fix it."}]}`},
	"t02-react-forms": {answer: "```json\n" + `{"operations": [
  {"op": "create", "type": "user", "name": "Only frontend dev on the team", "description": "The user is the only frontend person among 6 backend devs", "body": "They review all the tsx themselves."},
  {"op": "create", "type": "feedback", "name": "Derive state during render", "description": "Avoid useEffect for derived state; derive it during render", "body": "**Why:** it caused double renders and a flicker on the checkout page.\n\n**How to apply:** React components."},
  {"op": "create", "type": "reference", "name": "Design tokens in Figma", "description": "Design tokens live in the figma file 'Checkout 2.0'", "body": "Check there before inventing colors."}]}` + "\n```"},
}

// modelEnv points engine at the fake model through the environment, as a
// user with a key would set it.
func modelEnv(t *testing.T, engine string, ts *httptest.Server) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("MEMDIR_LLM_TIMEOUT", "")
	t.Setenv("MEMDIR_LLM_MODEL", "test-model")
	switch engine {
	case "anthropic":
		t.Setenv("ANTHROPIC_API_KEY", testKey)
		t.Setenv("MEMDIR_LLM_BASE_URL", ts.URL)
	case "openai":
		t.Setenv("OPENAI_API_KEY", testKey)
		t.Setenv("MEMDIR_LLM_BASE_URL", ts.URL+"/v1")
	}
}

// runBenchStreams is runBench with stderr returned too.
func runBenchStreams(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(t.Context(), args, &out, &errOut)
	t.Logf("memdir-bench %s\nstderr:\n%s", strings.Join(args, " "), errOut.String())
	return out.String(), errOut.String(), err
}

func decodeScores(t *testing.T, out string) map[string]extractionScore {
	t.Helper()
	var scores []extractionScore
	if err := json.Unmarshal([]byte(out), &scores); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	bySet := map[string]extractionScore{}
	for _, sc := range scores {
		bySet[sc.Set] = sc
	}
	return bySet
}

// expectedOf counts a set's expected memories (by type, "" for all) and
// those with a reason.
func expectedOf(t *testing.T, sets ...string) (byType map[string]int, why int) {
	t.Helper()
	byType = map[string]int{}
	for _, set := range sets {
		convs, err := loadExtractionSet(testSetDir, set)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range convs {
			for _, e := range c.Expect {
				byType[e.Type]++
				byType[""]++
				if e.Why {
					why++
				}
			}
		}
	}
	return byType, why
}

// The claude engine runs the claude CLI, not an HTTP API: it shares the
// plumbing these tests cover (workspace.ModelExtractor, runEngine, the
// scorer) and only its refusal without a CLI is tested here.

// TestExtraction_ModelEngines runs the anthropic and openai engines on the
// whole labelled set against the fake model, through the environment a
// user sets: every conversation is asked once with the product's prompt
// (--set all scores each twice, asks it once), and the recorded replies
// for t01 and t02 score as counted by hand in recordedReplies.
func TestExtraction_ModelEngines(t *testing.T) {
	for _, engine := range []string{"anthropic", "openai"} {
		t.Run(engine, func(t *testing.T) {
			m, ts := newFakeModel(t, recordedReplies)
			modelEnv(t, engine, ts)
			out, stderr, err := runBenchStreams(t, "extraction", "--dir", testSetDir, "--engine", engine, "--json", "--verbose")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := m.total(), len(m.prompts); got != want || m.count("t01-go-api") != 1 {
				t.Errorf("the model was asked %d times (t01 %d); want once per conversation, %d", got, m.count("t01-go-api"), want)
			}
			for _, want := range []string{"tune 1/24 t01-go-api: 3 memories", "tune 2/24 t02-react-forms: 3 memories", "tune 3/24 t03-dbt-models: 0 memories", "heldout 1/"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("no progress %q on stderr", want)
				}
			}
			scores := decodeScores(t, out)
			tune := scores["tune"]
			exp, why := expectedOf(t, "tune")
			allExpected := 0
			for _, set := range extractionSets {
				allExpected += scores[set].All.Expected
			}
			r := newRatio
			checks := []struct {
				name      string
				got, want any
			}{
				{"engine", tune.Engine, engine},
				{"conversations", tune.Conversations, 24},
				{"saved", tune.All.Saved, 6},
				{"precision", tune.All.Precision, r(5, 6)},
				{"recall", tune.All.Recall, r(5, exp[""])},
				{"type accuracy", tune.All.TypeAcc, r(5, 5)},
				{"why", tune.All.Why, r(2, why)},
				{"user recall", tune.Types["user"].Recall, r(2, exp["user"])},
				{"feedback recall", tune.Types["feedback"].Recall, r(2, exp["feedback"])},
				{"reference recall", tune.Types["reference"].Recall, r(1, exp["reference"])},
				{"project recall", tune.Types["project"].Recall, r(0, exp["project"])},
				{"project precision", tune.Types["project"].Precision, r(0, 1)},
				{"forbidden hits", len(tune.ForbiddenHits), 2},
				{"failed", len(tune.Failed) + len(tune.Refused), 0},
				{"heldout saved", scores["heldout"].All.Saved, 0},
				{"all recall", scores["all"].All.Recall, r(5, allExpected)},
			}
			for _, c := range checks {
				if c.got != c.want {
					t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
				}
			}
			if !slices.Contains(tune.Missed, `t01-go-api: user ["new" "go"]`) {
				t.Errorf("missed %q: want t01's second user fact (its memory counts for the first)", tune.Missed)
			}
		})
	}
}

// TestExtraction_ModelFailures: for one conversation the endpoint answers
// 500 (after the client's retries), for another a reply that is not the
// API's JSON, and for a third a model answer the product refuses twice.
// Each is reported; the first two are listed as failed and left out of
// the scores, the third is scored as saving nothing; the other
// conversations are scored (t01's memories still count), and the command
// exits with an error naming the failed ones.
func TestExtraction_ModelFailures(t *testing.T) {
	for _, engine := range []string{"anthropic", "openai"} {
		t.Run(engine, func(t *testing.T) {
			replies := maps.Clone(recordedReplies)
			replies["t02-react-forms"] = fakeReply{status: http.StatusInternalServerError, raw: `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`}
			replies["t03-dbt-models"] = fakeReply{raw: "<html><body>502 Bad Gateway</body></html>"}
			replies["t04-k8s-freeze"] = fakeReply{answer: "Sure! Here is what I would remember: the freeze."}
			m, ts := newFakeModel(t, replies)
			modelEnv(t, engine, ts)
			out, stderr, err := runBenchStreams(t, "extraction", "--dir", testSetDir, "--engine", engine, "--set", "tune", "--json")
			if err == nil || hint.Of(err) == "" || !strings.Contains(err.Error(), "2 of 24 conversations (t02-react-forms, t03-dbt-models)") {
				t.Fatalf("err %v (hint %q); want the two failed conversations named, with a hint", err, hint.Of(err))
			}
			if m.count("t02-react-forms") < 2 || m.count("t04-k8s-freeze") != 2 || m.count("t05-ci-log-injection") != 1 {
				t.Errorf("asked t02 %d times, t04 %d, t05 %d: want the 500 retried, the refused answer asked again once, the next conversation asked",
					m.count("t02-react-forms"), m.count("t04-k8s-freeze"), m.count("t05-ci-log-injection"))
			}
			for _, want := range []string{"tune 2/24 t02-react-forms: failed", "HTTP 500", "tune 3/24 t03-dbt-models: failed", "not the expected JSON",
				"tune 4/24 t04-k8s-freeze: answer refused twice", "tune 24/24 "} {
				if !strings.Contains(stderr, want) {
					t.Errorf("no %q on stderr", want)
				}
			}
			tune := decodeScores(t, out)["tune"]
			if len(tune.Failed) != 2 || tune.Failed[0].Conversation != "t02-react-forms" || tune.Failed[1].Conversation != "t03-dbt-models" ||
				len(tune.Refused) != 1 || tune.Refused[0].Conversation != "t04-k8s-freeze" {
				t.Errorf("failed %+v, refused %+v; want t02 and t03 failed, t04 refused", tune.Failed, tune.Refused)
			}
			all, _ := expectedOf(t, "tune") // t02 and t03 hold 3 expected memories each
			if want := all[""] - 3 - 3; tune.Conversations != 22 || tune.All.Expected != want || tune.All.Recall != newRatio(2, want) || tune.All.Saved != 3 {
				t.Errorf("conversations %d, expected %d, recall %v, saved %d; want 22, %d, 2/%d (t01's), 3", tune.Conversations, tune.All.Expected, tune.All.Recall, tune.All.Saved, want, want)
			}
		})
	}
}

// TestExtraction_ModelNotConfigured: a model engine without its key or
// with a bad setting is refused before any call, with a hint naming what
// to set, and nothing on stdout or in progress.
func TestExtraction_ModelNotConfigured(t *testing.T) {
	m, ts := newFakeModel(t, recordedReplies)
	for _, c := range []struct {
		name, engine string
		env          map[string]string
		hint         string
	}{
		{"AnthropicNoKey", "anthropic", map[string]string{"ANTHROPIC_API_KEY": ""}, "ANTHROPIC_API_KEY"},
		{"OpenAINoKeyNoURL", "openai", map[string]string{"OPENAI_API_KEY": "", "MEMDIR_LLM_BASE_URL": ""}, "MEMDIR_LLM_BASE_URL"},
		{"BadTimeout", "anthropic", map[string]string{"MEMDIR_LLM_TIMEOUT": "soon"}, "MEMDIR_LLM_TIMEOUT"},
		{"NoClaudeCLI", "claude", map[string]string{"MEMDIR_CLAUDE_BIN": filepath.Join(t.TempDir(), "no-claude")}, "MEMDIR_CLAUDE_BIN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			modelEnv(t, c.engine, ts)
			t.Setenv("ANTHROPIC_API_KEY", testKey)
			t.Setenv("MEMDIR_LLM_BASE_URL", ts.URL)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			out, stderr, err := runBenchStreams(t, "extraction", "--dir", testSetDir, "--engine", c.engine)
			if err == nil || !strings.Contains(hint.Of(err), c.hint) {
				t.Errorf("err %v, hint %q; want a hint naming %s", err, hint.Of(err), c.hint)
			}
			if out != "" || stderr != "" || m.total() != 0 {
				t.Errorf("stdout %q, stderr %q, %d calls: want no work before the refusal", out, stderr, m.total())
			}
		})
	}
}
