package sessions_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/transcript"
)

var utc = time.UTC

// rec is one Claude Code user or assistant record at time ts.
func rec(role, uuid, text string, ts time.Time) string {
	content := fmt.Sprintf("%q", text)
	if role == "assistant" {
		content = fmt.Sprintf(`[{"type":"text","text":%q}]`, text)
	}
	return fmt.Sprintf(`{"type":%q,"uuid":%q,"timestamp":%q,"cwd":"/src/api","sessionId":"s1","gitBranch":"main","version":"2.1.328","message":{"id":"m-%s","role":%q,"content":%s}}`+"\n",
		role, uuid, ts.Format(time.RFC3339), uuid, role, content)
}

func day(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, utc) }

type fixture struct {
	t    *testing.T
	home string
	path string
	st   *sessions.State
}

func newFixture(t *testing.T) *fixture {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-src-api")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, home: home, path: filepath.Join(dir, "s1.jsonl"), st: sessions.NewState("UTC")}
}

func (f *fixture) append(lines ...string) {
	f.t.Helper()
	fh, err := os.OpenFile(f.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		f.t.Fatal(err)
	}
	defer fh.Close()
	if _, err := fh.WriteString(strings.Join(lines, "")); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read() []sessions.Scan {
	f.t.Helper()
	files, errs := sessions.Discover(sessions.Roots{Claude: f.home})
	if len(errs) > 0 {
		f.t.Fatal(errs)
	}
	scans := sessions.ReadPending(context.Background(), files, f.st, sessions.ReadOptions{})
	for _, sc := range scans {
		if sc.Err != nil {
			f.t.Fatal(sc.Err)
		}
	}
	return scans
}

// pending returns date → texts of the pending messages.
func (f *fixture) pending() map[string][]string {
	out := map[string][]string{}
	for _, d := range sessions.Pending(f.read(), utc) {
		for _, s := range d.Sessions {
			for _, m := range s.Messages {
				out[d.Date] = append(out[d.Date], m.Text)
			}
		}
	}
	return out
}

func (f *fixture) extract(dates ...string) {
	scans := f.read()
	sessions.MarkExtracted(f.st, scans, sessions.Pending(scans, utc, dates...))
}

func (f *fixture) done(date string) int {
	f.t.Helper()
	scans := f.read()
	n, moved := sessions.MarkDone(f.st, scans, date, utc)
	for _, mv := range moved {
		m, err := sessions.MarkAt(mv.Path, mv.Offset, mv.Line)
		if err != nil {
			f.t.Fatal(err)
		}
		f.st.Transcripts[mv.Path].Cursor = m
	}
	return n
}

func (f *fixture) want(want map[string][]string) {
	f.t.Helper()
	if diff := cmp.Diff(want, f.pending()); diff != "" {
		f.t.Fatalf("pending (-want +got):\n%s", diff)
	}
}

func TestIncremental_OnlyNewRecordsAfterDone(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "use tabs", day(20, 9)), rec("assistant", "a1", "ok, tabs", day(20, 9)))
	f.want(map[string][]string{"2026-11-20": {"use tabs", "ok, tabs"}})
	f.extract("2026-11-20")
	if n := f.done("2026-11-20"); n != 2 {
		t.Fatalf("done marked %d messages, want 2", n)
	}
	f.want(map[string][]string{})
	e := f.st.Transcripts[f.path]
	fi, _ := os.Stat(f.path)
	if e.Cursor.Offset != fi.Size() || e.Cursor.Line != 2 || e.Cursor.LastUUID != "a1" || e.Cursor.Head == "" {
		t.Fatalf("cursor after done = %+v, want the end of the file (%d bytes, 2 lines, last uuid a1)", e.Cursor, fi.Size())
	}

	f.append(rec("user", "u2", "and gofmt", day(20, 10)))
	scans := f.read()
	if got := scans[0].Session.Messages; len(got) != 1 || got[0].Text != "and gofmt" || got[0].Line != 3 {
		t.Fatalf("re-read after append parsed %+v, want only the new record, at line 3", got)
	}
	f.want(map[string][]string{"2026-11-20": {"and gofmt"}})
}

func TestIncremental_ContentAfterExtractStaysPending(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "first", day(20, 9)))
	f.extract() // every pending day
	f.append(rec("user", "u2", "arrived after the extract", day(20, 11)))
	if n := f.done("2026-11-20"); n != 1 {
		t.Fatalf("done marked %d messages, want only the 1 extracted", n)
	}
	f.want(map[string][]string{"2026-11-20": {"arrived after the extract"}})
	// Done again without a new extract marks what is there now.
	f.done("2026-11-20")
	f.want(map[string][]string{})
}

func TestIncremental_DaysOfOneTranscriptInAnyOrder(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "monday", day(16, 23)), rec("user", "u2", "tuesday", day(17, 1)), rec("user", "u3", "monday again?", day(16, 23)))
	f.want(map[string][]string{"2026-11-16": {"monday", "monday again?"}, "2026-11-17": {"tuesday"}})
	f.done("2026-11-17")
	f.want(map[string][]string{"2026-11-16": {"monday", "monday again?"}})
	if c := f.st.Transcripts[f.path].Cursor; c.Offset != 0 {
		t.Fatalf("the cursor moved to %d past a pending message", c.Offset)
	}
	f.done("2026-11-16")
	f.want(map[string][]string{})
	if e := f.st.Transcripts[f.path]; e.Done != nil || e.Cursor.Line != 3 {
		t.Fatalf("after both days: %+v, want the cursor at line 3 and no per-day marks left", e)
	}
	if n := f.done("2026-11-16"); n != 0 {
		t.Fatalf("done twice marked %d", n)
	}
}

func TestIncremental_ShrunkOrReplacedIsReadAgain(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "one", day(20, 9)), rec("user", "u2", "two", day(20, 9)))
	f.done("2026-11-20")
	f.want(map[string][]string{})

	// Replaced by a longer file with other content before the cursor.
	os.Remove(f.path)
	f.append(rec("user", "x1", "ONE", day(21, 9)), rec("user", "x2", "TWO", day(21, 9)), rec("user", "x3", "three", day(21, 9)))
	scans := f.read()
	if !strings.Contains(scans[0].Reset, "replaced") {
		t.Fatalf("Reset=%q, want replaced", scans[0].Reset)
	}
	f.want(map[string][]string{"2026-11-21": {"ONE", "TWO", "three"}})
	f.done("2026-11-21")

	// Shrunk.
	if err := os.Truncate(f.path, 10); err != nil {
		t.Fatal(err)
	}
	scans = f.read()
	if !strings.Contains(scans[0].Reset, "shrank") || scans[0].Session.NextOffset != 0 {
		t.Fatalf("Reset=%q NextOffset=%d", scans[0].Reset, scans[0].Session.NextOffset)
	}
}

func TestPending_SkipsHarnessTextAndToolResults(t *testing.T) {
	f := newFixture(t)
	f.append(
		rec("user", "u1", "<command-name>/clear</command-name>", day(20, 9)),
		`{"type":"user","uuid":"u2","timestamp":"2026-11-20T09:00:00Z","isMeta":true,"message":{"role":"user","content":"Caveat: injected"}}`+"\n",
		`{"type":"user","uuid":"u3","timestamp":"2026-11-20T09:00:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}}`+"\n",
		`{"type":"attachment","uuid":"u4","timestamp":"2026-11-20T09:00:00Z","attachment":{"type":"hook_additional_context","hookEvent":"UserPromptSubmit","content":["memdir: remember tabs"]}}`+"\n",
		`{"type":"user","uuid":"u6","timestamp":"2026-11-20T09:00:00Z","isCompactSummary":true,"message":{"role":"user","content":"This session is being continued from a previous conversation. Summary: use tabs"}}`+"\n",
		`{"type":"assistant","uuid":"u7","timestamp":"2026-11-20T09:00:00Z","isApiErrorMessage":true,"message":{"id":"e1","role":"assistant","content":[{"type":"text","text":"API Error: 529 overloaded"}]}}`+"\n",
	)
	f.want(map[string][]string{})
	f.append(rec("user", "u5", "real prompt", day(20, 9)))
	f.want(map[string][]string{"2026-11-20": {"real prompt"}})
}

func TestDiscover(t *testing.T) {
	home := t.TempDir()
	codex := t.TempDir()
	for _, p := range []string{
		"projects/-a/s1.jsonl",
		"projects/-a/s1/subagents/agent-x1.jsonl",
		"projects/-a/s1/subagents/workflows/w/agent-x2.jsonl",
		"projects/-a/s1/tool-results/big.txt",
		"projects/-a/agent-old.jsonl",
		"projects/-a/memory/MEMORY.md",
		"projects/-a/notes.txt",
		"projects/-b/s2.jsonl",
	} {
		write(t, filepath.Join(home, p), "{}\n")
	}
	write(t, filepath.Join(codex, "sessions/2026/11/20/rollout-2026-11-20T09-00-00-abc.jsonl"), "{}\n")
	write(t, filepath.Join(codex, "sessions/2026/11/20/other.jsonl"), "{}\n")
	files, errs := sessions.Discover(sessions.Roots{Claude: home, Codex: codex})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(home, f.Path)
		if f.Dialect == transcript.Codex {
			rel, _ = filepath.Rel(codex, f.Path)
		}
		got = append(got, fmt.Sprintf("%s %s session=%s agent=%s folder=%s", f.Dialect, rel, f.SessionID, f.Agent, f.Folder))
	}
	slices.Sort(got)
	want := []string{
		"claude-code projects/-a/agent-old.jsonl session= agent=old folder=-a",
		"claude-code projects/-a/s1.jsonl session=s1 agent= folder=-a",
		"claude-code projects/-a/s1/subagents/agent-x1.jsonl session=s1 agent=x1 folder=-a",
		"claude-code projects/-a/s1/subagents/workflows/w/agent-x2.jsonl session=s1 agent=x2 folder=-a",
		"claude-code projects/-b/s2.jsonl session=s2 agent= folder=-b",
		"codex sessions/2026/11/20/rollout-2026-11-20T09-00-00-abc.jsonl session= agent= folder=",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("discovered (-want +got):\n%s", diff)
	}
	if files, errs := sessions.Discover(sessions.Roots{Claude: filepath.Join(home, "nope")}); len(files)+len(errs) != 0 {
		t.Errorf("a missing home: %v %v", files, errs)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestSummariesAndIndex_Incremental(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "hello", day(20, 9)))
	sub := filepath.Join(filepath.Dir(f.path), "s1", "subagents", "agent-x.jsonl")
	write(t, sub, strings.ReplaceAll(rec("user", "v1", "sub task", day(21, 9)), `"type":"user"`, `"type":"user","isSidechain":true`))
	files, _ := sessions.Discover(sessions.Roots{Claude: f.home})
	if errs := sessions.UpdateSummaries(context.Background(), files, f.st, utc, sessions.ReadOptions{}); len(errs) > 0 {
		t.Fatal(errs)
	}
	f.append(rec("assistant", "a1", "hi", day(22, 9)))
	files, _ = sessions.Discover(sessions.Roots{Claude: f.home})
	sessions.UpdateSummaries(context.Background(), files, f.st, utc, sessions.ReadOptions{})
	sum := f.st.Transcripts[f.path].Summary
	fi, _ := os.Stat(f.path)
	if sum.Scanned.Offset != fi.Size() || sum.Messages != 2 || !slices.Equal(sum.Days, []string{"2026-11-20", "2026-11-22"}) {
		t.Fatalf("summary after append: %+v", sum)
	}
	ix, unplaced := sessions.BuildIndex(f.st, day(23, 0))
	p, ok := ix.Lookup("/SRC/api/internal/x")
	if !ok || unplaced != 0 {
		t.Fatalf("Lookup of a folder inside the project failed: %+v", ix)
	}
	want := &sessions.Project{Name: "api", OriginalPath: "/src/api", EncodedPaths: []string{"-src-api"},
		WorkDays: []string{"2026-11-20", "2026-11-21", "2026-11-22"}, Sessions: []string{"s1"},
		LastSeen: day(22, 9), Branches: []string{"main"}, Agents: []string{"claude-code"}}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("project (-want +got):\n%s", diff)
	}
	// Gone files leave the state.
	os.Remove(sub)
	files, _ = sessions.Discover(sessions.Roots{Claude: f.home})
	sessions.UpdateSummaries(context.Background(), files, f.st, utc, sessions.ReadOptions{})
	if _, ok := f.st.Transcripts[sub]; ok {
		t.Error("a deleted transcript is still in the state")
	}
}

// part is one line of an assistant response split over several lines that
// share message.id mid.
func part(uuid, mid, block string, ts time.Time) string {
	return fmt.Sprintf(`{"type":"assistant","uuid":%q,"timestamp":%q,"cwd":"/src/api","sessionId":"s1","message":{"id":%q,"role":"assistant","content":[%s]}}`+"\n",
		uuid, ts.Format(time.RFC3339), mid, block)
}

// A response that grew after the extract (a line sharing its message.id
// joined onto it) was not shown whole: done leaves it pending.
func TestIncremental_MessageGrownAfterExtractStaysPending(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "fix the build", day(20, 9)), part("a1", "msg_1", `{"type":"text","text":"part one"}`, day(20, 9)))
	f.extract("2026-11-20")
	f.append(part("a2", "msg_1", `{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rm -rf build"}}`, day(20, 9)),
		part("a3", "msg_1", `{"type":"text","text":"part two"}`, day(20, 9)))
	if n := f.done("2026-11-20"); n != 1 {
		t.Fatalf("done marked %d messages, want only the user's 1: the response grew after the extract", n)
	}
	f.want(map[string][]string{"2026-11-20": {"part one\n\npart two"}})
	f.extract("2026-11-20")
	if n := f.done("2026-11-20"); n != 1 {
		t.Fatalf("done after a new extract marked %d messages, want 1", n)
	}
	f.want(map[string][]string{})
}

// A Codex tool call joins the assistant message before it; one that
// arrived after the extract keeps that message pending.
func TestIncremental_CodexToolCallAfterExtractStaysPending(t *testing.T) {
	codex := t.TempDir()
	path := filepath.Join(codex, "sessions/2026/11/21/rollout-2026-11-21T08-00-00-abc.jsonl")
	line := func(ts, payload string) string {
		return fmt.Sprintf(`{"timestamp":"2026-11-21T08:%s.000Z","type":"response_item","payload":%s}`+"\n", ts, payload)
	}
	write(t, path, `{"timestamp":"2026-11-21T08:00:00.000Z","type":"session_meta","payload":{"id":"abc","cwd":"/src/web"}}`+"\n"+
		line("00:01", `{"type":"message","role":"user","content":[{"type":"input_text","text":"use pnpm"}]}`)+
		line("00:05", `{"type":"message","role":"assistant","content":[{"type":"output_text","text":"switching to pnpm"}]}`))
	st := sessions.NewState("UTC")
	read := func() []sessions.Scan {
		files, _ := sessions.Discover(sessions.Roots{Codex: codex})
		return sessions.ReadPending(context.Background(), files, st, sessions.ReadOptions{})
	}
	scans := read()
	sessions.MarkExtracted(st, scans, sessions.Pending(scans, utc, "2026-11-21"))
	fh, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fh.WriteString(line("01:00", `{"type":"function_call","name":"shell","arguments":"{\"command\":\"git push --force\"}","call_id":"c9"}`))
	fh.Close()
	n, moved := sessions.MarkDone(st, read(), "2026-11-21", utc)
	if n != 1 {
		t.Fatalf("done marked %d messages, want only the user's 1", n)
	}
	for _, mv := range moved {
		if st.Transcripts[mv.Path].Cursor, err = sessions.MarkAt(mv.Path, mv.Offset, mv.Line); err != nil {
			t.Fatal(err)
		}
	}
	days := sessions.Pending(read(), utc)
	if len(days) != 1 || days[0].Messages != 1 {
		t.Fatalf("pending after done = %+v, want the assistant message that grew", days)
	}
	m := days[0].Sessions[0].Messages[0]
	if m.Text != "switching to pnpm" || len(m.Tools) != 1 || !strings.Contains(m.Tools[0].Summary, "git push --force") {
		t.Fatalf("pending message = %+v, want the response with its new tool call", m)
	}
}

// A transcript that got content of an extracted day only after the extract
// was never shown: done leaves it pending, and marks it once extracted.
func TestIncremental_TranscriptAfterExtractStaysPending(t *testing.T) {
	for _, old := range []bool{false, true} {
		t.Run(map[bool]string{false: "State", true: "StateWithoutExtractedDays"}[old], func(t *testing.T) {
			f := newFixture(t)
			f.append(rec("user", "u1", "first session", day(20, 9)))
			f.extract("2026-11-20")
			if old {
				f.st.Extracted = nil // as a state written before the field read
			}
			write(t, filepath.Join(filepath.Dir(f.path), "s2.jsonl"), rec("user", "v1", "second session, after the extract", day(20, 11)))
			if n := f.done("2026-11-20"); n != 1 {
				t.Fatalf("done marked %d messages, want only the 1 extracted", n)
			}
			f.want(map[string][]string{"2026-11-20": {"second session, after the extract"}})
			if f.st.Extracted != nil {
				t.Fatalf("extracted days after done = %v, want none", f.st.Extracted)
			}
			f.extract("2026-11-20")
			if n := f.done("2026-11-20"); n != 1 {
				t.Fatalf("done after a new extract marked %d messages, want 1", n)
			}
			f.want(map[string][]string{})
		})
	}
}

// The day-level record holds when the one transcript extract showed is
// gone: a transcript that appeared later is still not marked.
func TestIncremental_ExtractedDayOutlivesItsTranscript(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "first session", day(20, 9)))
	f.extract("2026-11-20")
	if !slices.Equal(f.st.Extracted, []string{"2026-11-20"}) {
		t.Fatalf("extracted days = %v, want [2026-11-20]", f.st.Extracted)
	}
	os.Remove(f.path)
	delete(f.st.Transcripts, f.path)
	write(t, filepath.Join(filepath.Dir(f.path), "s2.jsonl"), rec("user", "v1", "after the extract", day(20, 11)))
	if n := f.done("2026-11-20"); n != 0 {
		t.Fatalf("done marked %d messages, want 0: extract showed none of them", n)
	}
	f.want(map[string][]string{"2026-11-20": {"after the extract"}})
}

// Recount drops the records keyed by days of another zone: what they
// marked done past the cursor is pending again, never lost.
func TestState_Recount(t *testing.T) {
	f := newFixture(t)
	f.append(rec("user", "u1", "monday", day(16, 23)), rec("user", "u2", "tuesday", day(17, 1)))
	f.extract("2026-11-17")
	f.done("2026-11-17")
	f.extract("2026-11-16")
	if !f.st.DayMarks() {
		t.Fatal("DayMarks()=false with a day done past the cursor and a day extracted")
	}
	f.st.DaysZone = "UTC"
	f.st.Recount("UTC")
	if !f.st.DayMarks() {
		t.Fatal("Recount in the same zone dropped the day records")
	}
	f.st.Recount("America/New_York")
	if f.st.DayMarks() || f.st.DaysZone != "America/New_York" {
		t.Fatalf("after Recount: DayMarks()=%v DaysZone=%q, want none and the new zone", f.st.DayMarks(), f.st.DaysZone)
	}
	f.want(map[string][]string{"2026-11-16": {"monday"}, "2026-11-17": {"tuesday"}})
}
