package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/lockfile"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/recall"
	"github.com/memdir/memdir/internal/sessions"
	"github.com/memdir/memdir/internal/snapshot"
	"github.com/memdir/memdir/internal/transcript"
	"github.com/spf13/cobra"
)

// Files of the extraction pipeline, in the synthesis folder.
const (
	extractDir    = "extract"              // holds the extraction lock
	extractState  = "extract/state.json"   // the cursor of each transcript
	extractStaged = "extract/staged.jsonl" // work that arrived while an extraction ran
	extractLog    = "logs/extract.jsonl"   // what each run saved
	extractEvery  = "MEMDIR_EXTRACT_EVERY" // throttle: run every N user turns
	extractSwitch = "MEMDIR_EXTRACT"       // "off" disables extraction from hooks
	stagedWait    = 100 * time.Millisecond // how long a run waits for the lock before staging
)

type extractEntry struct {
	Cursor  sessions.Mark `json:"cursor"`
	Session string        `json:"session_id,omitempty"`
}

type extractStateFile struct {
	Version     int                      `json:"version"`
	Transcripts map[string]*extractEntry `json:"transcripts"`
}

type extractReport struct {
	Transcript string              `json:"transcript"`
	Ran        bool                `json:"ran"`
	Why        string              `json:"why,omitempty"`
	Saved      []string            `json:"saved"`
	Updated    []string            `json:"updated"`
	Superseded []string            `json:"superseded"`
	Candidates []extract.Candidate `json:"candidates,omitempty"`
	Secrets    int                 `json:"secrets_skipped,omitempty"`
	Error      string              `json:"error,omitempty"` // the run failed; its turns are tried again next time
}

func (a *app) extractMemoriesCmd() *cobra.Command {
	var file, session string
	var pending, dryRun, trailing bool
	var engine string
	cmd := &cobra.Command{
		Use:   "extract [--transcript FILE | --session ID | --pending]",
		Short: "Turn new session turns into memories (offline heuristic engine)",
		Long: `Extract reads what is new in session transcripts since the last extraction and
saves what is worth remembering: corrections and stated preferences
(feedback), what the user says about themselves (user), decisions,
deadlines and freezes with absolute dates (project), and where things live
outside the repo (reference). It reads only what the user typed: assistant
text and tool output (web pages, files, command output) never become
memories. Secrets are never saved.

Each transcript has a cursor, so every turn is processed once. A stretch in
which the agent wrote its memory files itself is skipped. Extraction runs
every $MEMDIR_EXTRACT_EVERY user turns (default 1). When another extraction
holds the lock, the work is staged and processed right after it. A memory
that says what an existing one says updates it; one that contradicts it
supersedes it (superseded_by), keeping the history.

The Claude Code hooks start 'memdir extract --transcript FILE' detached when
a session stops; MEMDIR_EXTRACT=off turns that off.

LLM ENGINES
  --engine anthropic  the Messages API; ANTHROPIC_API_KEY
  --engine openai     any OpenAI-compatible endpoint: OPENAI_API_KEY and/or
                      MEMDIR_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama)
  --engine claude     the claude CLI in print mode, without hooks, with one
                      tool: Read, in the memory folder only
  MEMDIR_LLM_MODEL, MEMDIR_LLM_TIMEOUT (default 60s) tune them. The model sees
  the manifest of existing memories and the new turns, and answers with
  create/update/supersede operations, validated strictly before anything is
  written; an invalid answer is retried once, then skipped and logged.`,
		Example: `  memdir extract --pending
  memdir extract --transcript ~/.claude/projects/-home-me-api/5f0c….jsonl --dry-run --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if (file != "") && (session != "") {
				return withHint(errors.New("--transcript and --session go separately"), "see 'memdir extract --help'")
			}
			if engine == "" {
				engine = cmpOr(a.getenv("MEMDIR_EXTRACT_ENGINE"), "heuristic")
			}
			switch engine {
			case "heuristic", "anthropic", "openai", "claude":
			default:
				return withHint(fmt.Errorf("unknown engine %q", engine), "use --engine heuristic, anthropic, openai or claude")
			}
			a.engine = engine
			return a.runExtract(file, session, dryRun, trailing)
		},
	}
	f := cmd.Flags()
	f.StringVar(&file, "transcript", "", "extract from this transcript file")
	f.StringVar(&session, "session", "", "extract from the transcript of this session id")
	f.BoolVar(&pending, "pending", true, "extract from every transcript with new turns")
	f.BoolVar(&dryRun, "dry-run", false, "show what would be saved; write nothing, move no cursor")
	f.StringVar(&engine, "engine", "", "heuristic (offline, default; or $MEMDIR_EXTRACT_ENGINE), anthropic, openai or claude")
	f.BoolVar(&trailing, "trailing", false, "bypass the throttle (used for staged work)")
	f.MarkHidden("trailing")
	return cmd
}

func (a *app) runExtract(file, session string, dryRun, trailing bool) error {
	env, err := a.transcriptsEnv()
	if err != nil {
		return err
	}
	if a.engine != "" && a.engine != "heuristic" {
		if _, err := llm.FromEnv(a.engine, a.getenv); err != nil {
			return withHint(err, "see 'memdir extract --help' (LLM ENGINES)")
		}
	}
	targets, err := a.extractTargets(env, file, session)
	if err != nil {
		return err
	}
	var reports []extractReport
	if dryRun {
		st := a.loadExtractState(env)
		for _, t := range targets {
			r, err := a.extractOne(env, st, t, true, trailing)
			if err != nil {
				return err
			}
			reports = append(reports, r)
		}
		return a.printExtract(reports)
	}
	reports, staged, err := a.extractLocked(env, targets, trailing)
	if err != nil {
		return err
	}
	if staged {
		if a.json {
			return a.printJSON(map[string]any{"staged": true, "transcripts": targets})
		}
		a.printf("Another extraction is running: staged %d transcript(s) for it.\n", len(targets))
		return nil
	}
	if err := a.printExtract(reports); err != nil {
		return err
	}
	for _, r := range reports {
		if r.Error != "" {
			return errSilent // said on stderr and in the report
		}
	}
	return nil
}

// extractTargets lists the transcripts to extract from.
func (a *app) extractTargets(env transcriptsEnv, file, session string) ([]string, error) {
	if file != "" {
		if !filepath.IsAbs(file) {
			file = filepath.Join(a.cwd, file)
		}
		if _, err := os.Stat(file); err != nil {
			return nil, withHint(err, "give the path of a transcript (.jsonl); Claude Code keeps them in ~/.claude/projects/<project>/")
		}
		return []string{file}, nil
	}
	files, errs := sessions.Discover(env.Roots)
	for _, err := range errs {
		a.warnf("%v", err)
	}
	var out []string
	for _, f := range files {
		if session == "" || f.SessionID == session || strings.Contains(filepath.Base(f.Path), session) {
			out = append(out, f.Path)
		}
	}
	if session != "" && len(out) == 0 {
		return nil, withHint(fmt.Errorf("no transcript of session %s", session), "a session id is a transcript's file name without .jsonl (~/.claude/projects/<project>/); 'memdir search --transcripts' shows them")
	}
	return out, nil
}

// extractLocked runs under the extraction lock, then processes what was
// staged meanwhile — also after releasing the lock, so work staged at the
// last moment is never left behind. When the lock is busy, targets are
// staged instead and staged reports true.
func (a *app) extractLocked(env transcriptsEnv, targets []string, trailing bool) (reports []extractReport, staged bool, err error) {
	dir, err := env.Folder.Path(extractDir)
	if err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, false, err
	}
	lock := func() (func(), error) {
		return lockfile.Lock(a.ctx, dir, lockfile.Options{Timeout: stagedWait, Holder: "memdir extract"})
	}
	unlock, err := lock()
	if lockfile.IsLocked(err) {
		if err := a.stage(env, targets); err != nil {
			return nil, false, err
		}
		// The holder may have looked for staged work just before we wrote
		// it: if the lock is free now, take the work ourselves.
		if unlock, err = lock(); err != nil {
			return nil, true, nil
		}
		targets, trailing = nil, true
	} else if err != nil {
		return nil, false, err
	}
	for {
		st := a.loadExtractState(env)
		for _, t := range targets {
			r, err := a.extractOne(env, st, t, false, trailing)
			if err != nil {
				// One transcript's failure neither stops the others nor
				// moves its cursor: its turns are tried again next time.
				a.warnf("%s: %v", t, err)
				if h := hintFor(err); h != "" {
					fmt.Fprintf(a.stderr, "memdir: hint: %s\n", h)
				}
				r.Why, r.Error = err.Error(), err.Error()
			}
			reports = append(reports, r)
			if err := env.Folder.WriteJSON(extractState, st); err != nil {
				unlock()
				return reports, false, err
			}
		}
		// Trailing run: what was staged while we held the lock.
		targets, trailing = a.takeStaged(env), true
		if len(targets) > 0 {
			continue
		}
		unlock()
		if a.stagedWaiting(env) {
			if unlock, err = lock(); err == nil {
				targets = a.takeStaged(env)
				continue
			}
		}
		return reports, false, nil
	}
}

func (a *app) stagedWaiting(env transcriptsEnv) bool {
	b, err := env.Folder.ReadFile(extractStaged)
	return err == nil && len(strings.TrimSpace(string(b))) > 0
}

// stageLock guards the staged-work file: appends and takes never overlap,
// so no staged line is lost between a read and the clearing write.
func (a *app) stageLock(env transcriptsEnv) (func(), error) {
	dir, err := env.Folder.Path(extractDir + "/stage")
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return lockfile.Lock(a.ctx, dir, lockfile.Options{Timeout: 5 * time.Second, Holder: "memdir extract (staging)"})
}

// stage records targets for the extraction that holds the lock.
func (a *app) stage(env transcriptsEnv, targets []string) error {
	unlock, err := a.stageLock(env)
	if err != nil {
		return err
	}
	defer unlock()
	for _, t := range targets {
		b, _ := json.Marshal(map[string]string{"transcript": t})
		if err := env.Folder.AppendLine(extractStaged, b); err != nil {
			return err
		}
	}
	return nil
}

// takeStaged reads and clears the staged work (the caller holds the
// extraction lock).
func (a *app) takeStaged(env transcriptsEnv) []string {
	unlock, err := a.stageLock(env)
	if err != nil {
		a.warnf("%v", err)
		return nil
	}
	defer unlock()
	b, err := env.Folder.ReadFile(extractStaged)
	if err != nil || len(b) == 0 {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		var s struct {
			Transcript string `json:"transcript"`
		}
		if json.Unmarshal([]byte(line), &s) == nil && s.Transcript != "" && !slices.Contains(out, s.Transcript) {
			out = append(out, s.Transcript)
		}
	}
	if err := env.Folder.WriteFile(extractStaged, nil); err != nil {
		a.warnf("%v", err)
	}
	return out
}

func (a *app) loadExtractState(env transcriptsEnv) *extractStateFile {
	st := &extractStateFile{Version: 1, Transcripts: map[string]*extractEntry{}}
	if _, err := env.Folder.ReadJSON(extractState, st); err != nil {
		a.warnf("%v (starting over: memories already saved are updated, not duplicated)", err)
		st = &extractStateFile{Version: 1, Transcripts: map[string]*extractEntry{}}
	}
	if st.Transcripts == nil {
		st.Transcripts = map[string]*extractEntry{}
	}
	return st
}

// extractOne extracts from one transcript's new records and moves its
// cursor (in st; the caller writes st after the memories are saved).
func (a *app) extractOne(env transcriptsEnv, st *extractStateFile, path string, dryRun, trailing bool) (extractReport, error) {
	rep := extractReport{Transcript: path, Saved: []string{}, Updated: []string{}, Superseded: []string{}}
	e := st.Transcripts[path]
	if e == nil {
		e = &extractEntry{}
	}
	sess, next, err := readFromMark(path, e.Cursor)
	if err != nil {
		return rep, err
	}
	if sess.CWD == "" {
		rep.Why = "no conversation in it yet"
		if e.Cursor.Offset > 0 {
			rep.Why = "nothing new since the last extraction"
		}
		return rep, nil
	}
	q := &app{sys: a.sys, ctx: a.ctx, home: a.home, project: sess.CWD, cmdName: "memdir extract"}
	st2, l, err := q.store(!dryRun)
	if err != nil && !errors.Is(err, memdir.ErrNotFound) {
		return rep, err
	}
	msgs := toExtractMessages(sess)
	every := 1
	if v := a.getenv(extractEvery); v != "" {
		fmt.Sscan(v, &every)
	}
	d := extract.Decide(msgs, l.MemoryDir, 0, every, trailing)
	rep.Ran, rep.Why = d.Run, d.Why
	if d.Run && a.engine != "" && a.engine != "heuristic" {
		if err := a.extractWithLLM(env, st2, l, msgs, cmpOr(sess.ID, e.Session), dryRun, &rep); err != nil {
			return rep, err
		}
	} else if d.Run {
		cands, sk := extract.Heuristic(msgs, cmpOr(sess.ID, e.Session))
		rep.Candidates, rep.Secrets = cands, sk.Secrets
		if !dryRun {
			for _, c := range cands {
				if err := a.saveCandidate(st2, l.ProjectRoot, c, &rep); err != nil {
					if !errors.Is(err, paths.ErrInvalidName) && !errors.Is(err, memdir.ErrInvalid) {
						return rep, err // the folder is busy or failing: retry these turns next time
					}
					a.warnf("%s: skipped a memory: %v", path, err)
				}
			}
		}
	}
	if dryRun {
		return rep, nil
	}
	if d.Advance {
		e.Cursor = next
	} // throttled: the cursor stays, and these turns count again next time
	e.Session = cmpOr(e.Session, sess.ID)
	st.Transcripts[path] = e
	if rep.Ran && len(rep.Saved)+len(rep.Updated)+len(rep.Superseded) > 0 {
		b, _ := json.Marshal(map[string]any{"time": time.Now().UTC(), "transcript": path, "saved": rep.Saved, "updated": rep.Updated, "superseded": rep.Superseded})
		env.Folder.AppendLine(extractLog, b)
	}
	return rep, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// readFromMark parses path from m (from the start when the bytes before m
// changed) and returns the mark at the end of what it read.
func readFromMark(path string, m sessions.Mark) (*transcript.Session, sessions.Mark, error) {
	if m.Offset > 0 {
		if now, err := sessions.MarkAt(path, m.Offset, m.Line); err != nil || now.Head != m.Head || now.Tail != m.Tail {
			m = sessions.Mark{}
		}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, m, err
	}
	defer f.Close()
	if _, err := f.Seek(m.Offset, io.SeekStart); err != nil {
		return nil, m, err
	}
	opt := transcript.Options{Offset: m.Offset, Line: m.Line}
	var s *transcript.Session
	if strings.HasPrefix(filepath.Base(path), "rollout-") {
		s, err = transcript.ParseCodex(f, opt)
	} else {
		s, err = transcript.ParseClaude(f, opt)
	}
	if err != nil {
		return nil, m, err
	}
	next, err := sessions.MarkAt(path, s.NextOffset, s.NextLine)
	return s, next, err
}

// toExtractMessages keeps what the engine reads: user and assistant turns,
// harness text marked, and the files each turn's tool calls wrote.
func toExtractMessages(s *transcript.Session) []extract.Message {
	var out []extract.Message
	for _, m := range s.Messages {
		em := extract.Message{Role: m.Role, Text: m.Text, Time: m.Timestamp, ID: m.UUID, Meta: m.Meta || m.Sidechain}
		for _, t := range m.Tools {
			// memdir's own MCP tools write the memory folder too: the agent
			// keeping its memory itself, whichever way.
			// (Another memory server's tools are not memdir's: its saves do
			// not land in this folder.)
			if strings.HasPrefix(t.Name, "mcp__") && strings.Contains(t.Name, "memdir") {
				for _, w := range []string{"__memory_save", "__memory_update", "__memory_forget"} {
					if strings.HasSuffix(t.Name, w) {
						em.SavedMemory = true
					}
				}
			}
			switch t.Name {
			case "Write", "Edit", "MultiEdit", "NotebookEdit":
				if p, ok := strings.CutPrefix(t.Summary, "file_path: "); ok {
					em.Wrote = append(em.Wrote, strings.TrimSuffix(p, "…"))
				}
			}
		}
		out = append(out, em)
	}
	return out
}

// freeFile is a file name for a new memory called name that no existing
// memory has: a new memory never overwrites another that merely shares
// its slug (the other was not found to be about the same thing).
func freeFile(st *memdir.Store, name string) string {
	base := memdir.Slug(name)
	file := base + ".md"
	for i := 2; ; i++ {
		if _, err := os.Lstat(st.Path(file)); errors.Is(err, os.ErrNotExist) {
			return file
		}
		file = fmt.Sprintf("%s-%d.md", base, i)
	}
}

// saveCandidate writes one candidate through the store: an existing memory
// that says the same thing is updated; one it contradicts is superseded.
func (a *app) saveCandidate(st *memdir.Store, root string, c extract.Candidate, rep *extractReport) error {
	typ, err := memdir.ParseType(c.Type)
	if err != nil {
		return err
	}
	m := memdir.Memory{Name: c.Name, Description: c.Description, Type: typ, Body: c.Body, Source: c.Source, Trust: c.Trust}
	if same, ok := a.similarMemory(st, root, c); ok {
		if contradicts(same.Summary(), c.Description) {
			m.File = freeFile(st, c.Name)
			res, err := st.Save(a.ctx, m, memdir.SaveOptions{})
			if err != nil {
				return err
			}
			if res.File != same.File {
				if _, err := st.Save(a.ctx, memdir.Memory{File: same.File, SupersededBy: res.File}, memdir.SaveOptions{}); err != nil {
					return err
				}
				rep.Superseded = append(rep.Superseded, same.File+" → "+res.File)
				return nil
			}
			rep.Updated = append(rep.Updated, res.File)
			return nil
		}
		m.File, m.Name = same.File, ""
		res, err := st.Save(a.ctx, m, memdir.SaveOptions{})
		if err != nil {
			return err
		}
		rep.Updated = append(rep.Updated, res.File)
		return nil
	}
	m.File = freeFile(st, c.Name)
	res, err := st.Save(a.ctx, m, memdir.SaveOptions{})
	if err != nil {
		return err
	}
	rep.record(res)
	return nil
}

// record notes a save as a new memory or an update.
func (rep *extractReport) record(res memdir.SaveResult) {
	if res.Created {
		rep.Saved = append(rep.Saved, res.File)
	} else {
		rep.Updated = append(rep.Updated, res.File)
	}
}

// similarMemory finds an existing memory of the same type that is about
// the same thing: recall proposes the closest (stems and identifier parts
// make "in other words" count), and their content words must mostly agree
// (Jaccard ≥ 0.6, negations left out: polarity is contradicts' business).
func (a *app) similarMemory(st *memdir.Store, root string, c extract.Candidate) (memdir.Memory, bool) {
	p := recall.Policy{K: 3, Budget: 100000, Threshold: 0.3}
	rec, _, err := snapshot.Recall(context.Background(), st, root, c.Description, p, time.Now())
	if err != nil {
		return memdir.Memory{}, false
	}
	for _, k := range rec.Candidates {
		if !k.Kept || k.Type != c.Type || k.SupersededBy != "" || jaccard(k.Description, c.Description) < 0.6 {
			continue
		}
		m, err := st.Get(k.File)
		if err != nil {
			return memdir.Memory{}, false
		}
		return m, true
	}
	return memdir.Memory{}, false
}

// jaccard compares the content words of two statements, negations aside.
func jaccard(a, b string) float64 {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		neg, aff := polarity(s)
		for w := range neg {
			m[w] = true
		}
		for w := range aff {
			m[w] = true
		}
		return m
	}
	wa, wb := words(a), words(b)
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	union := len(wa) + len(wb) - inter
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// contradicts reports whether two statements about the same thing
// disagree: what one negates ("never spaces"), the other affirms ("use
// spaces"), or only one of them negates at all.
func contradicts(old, new string) bool {
	for np := range preferences(new) {
		for op := range preferences(old) {
			if np[0] == op[1] || np[1] == op[0] {
				return true // "pnpm over npm", then "npm over pnpm"
			}
		}
	}
	on, op := polarity(old)
	nn, np := polarity(new)
	for w := range on {
		if np[w] {
			return true
		}
	}
	for w := range nn {
		if op[w] {
			return true
		}
	}
	return (len(on) == 0) != (len(nn) == 0)
}

// preferences lists the choices a statement makes between two things, as
// stemmed (chosen, rejected) pairs: "X over Y", "X instead of Y", "X
// rather than Y".
func preferences(s string) map[[2]string]bool {
	words := recall.Tokenize(s)
	out := map[[2]string]bool{}
	stem := func(w string) string {
		if t := recall.Default.Terms(w, nil); len(t) > 0 {
			return t[0]
		}
		return w
	}
	for i := 1; i < len(words)-1; i++ {
		j := i + 1 // the word after the connective
		switch {
		case words[i] == "over":
		case words[i] == "instead" && words[j] == "of", words[i] == "rather" && words[j] == "than":
			j++
		default:
			continue
		}
		if j < len(words) {
			out[[2]string{stem(words[i-1]), stem(words[j])}] = true
		}
	}
	return out
}

// polarity splits a statement's stemmed words into those a negation
// governs (the two words after not, never, don't, no, avoid, stop,
// without) and the rest.
func polarity(s string) (negated, affirmed map[string]bool) {
	negated, affirmed = map[string]bool{}, map[string]bool{}
	left := 0
	for _, w := range recall.Tokenize(s) {
		switch w {
		case "not", "never", "don", "no", "stop", "avoid", "without", "t":
			left = 2
			continue
		}
		stem := recall.Default.Terms(w, nil)
		if len(stem) == 0 {
			continue
		}
		if left > 0 {
			negated[stem[0]] = true
			left--
		} else {
			affirmed[stem[0]] = true
		}
	}
	return negated, affirmed
}

func (a *app) printExtract(reports []extractReport) error {
	if a.json {
		if reports == nil {
			reports = []extractReport{}
		}
		return a.printJSON(map[string]any{"transcripts": reports})
	}
	var saved, updated, superseded []string
	would := 0
	for _, r := range reports {
		saved = append(saved, r.Saved...)
		updated = append(updated, r.Updated...)
		superseded = append(superseded, r.Superseded...)
		for _, c := range r.Candidates {
			if len(r.Saved)+len(r.Updated)+len(r.Superseded) == 0 {
				a.printf("would save [%s] %s\n", c.Type, c.Description)
				would++
			}
		}
	}
	switch {
	case len(saved)+len(updated)+len(superseded) == 0 && would == 0:
		a.printf("Saved no memories.\n")
	case len(saved)+len(updated)+len(superseded) == 0:
	default:
		if len(saved) > 0 {
			word := "memories"
			if len(saved) == 1 {
				word = "memory"
			}
			a.printf("Saved %d %s: %s\n", len(saved), word, strings.Join(saved, ", "))
		}
		if len(updated) > 0 {
			a.printf("Updated %s\n", strings.Join(updated, ", "))
		}
		if len(superseded) > 0 {
			a.printf("Superseded %s\n", strings.Join(superseded, ", "))
		}
	}
	return nil
}
