package diary

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/transcript"
)

// DraftOptions say what a transcript does not: the project the entry is
// filed under and the day it is dated.
type DraftOptions struct {
	Project string
	// Date is the entry's date as YYYY-MM-DD; empty takes the session's
	// start (UTC).
	Date string
}

// maxCopied bounds any line a draft copies from a transcript.
const maxCopied = 300

// maxPerSection bounds the lines a draft writes in one section.
const maxPerSection = 10

// maxFiles bounds the files the "Files changed" line names.
const maxFiles = 8

// FilesTitle is the heading of the draft's Other section naming the files
// the session changed.
const FilesTitle = "Files changed"

// DraftFrom drafts a diary entry from a finished session's transcript,
// offline, by heuristics over its tool calls: shell commands that failed
// and their error, retries of the same failure collapsed, the verification
// command (tests, build, type check) that finally passed and the files
// edited before it passed, and the files the session changed. It never
// invents a pattern: Patterns stays for a person or the agent to write.
//
// The entry is marked a draft from a transcript. When the session did
// something it passes Validate (given a date); when it has nothing to say
// (no failures, no edits, no verification) it has no sections and the
// caller reports that there is nothing to draft. It does not redact: the
// caller does, before writing.
func DraftFrom(s *transcript.Session, opt DraftOptions) Entry {
	e := Entry{Project: opt.Project, Date: opt.Date, Status: StatusDraft, Source: SourceTranscript}
	if s == nil {
		return e
	}
	e.Session = s.ID
	if e.Date == "" && !s.Start.IsZero() {
		e.Date = s.Start.UTC().Format(time.DateOnly)
	}
	e.Task = taskOf(s)
	w := walk(s)
	w.write(&e, s.CWD)
	e.Outcome = w.outcome()
	return e
}

// taskOf is the first line or sentence of the user's first real message.
func taskOf(s *transcript.Session) string {
	for _, m := range s.Messages {
		if m.Role != "user" || m.Meta || m.Sidechain {
			continue
		}
		t := strings.TrimSpace(m.Text)
		if t == "" {
			continue
		}
		t, _, _ = strings.Cut(t, "\n")
		if i := sentenceEnd(t); i > 0 {
			t = t[:i]
		}
		return clipLine(t, 120)
	}
	return ""
}

// sentenceEnd is the index just past the first sentence's end mark in t
// when one ends before the line does, else 0.
func sentenceEnd(t string) int {
	for i := 0; i+1 < len(t); i++ {
		if (t[i] == '.' || t[i] == '?' || t[i] == '!') && t[i+1] == ' ' {
			return i + 1
		}
	}
	return 0
}

// run is one shell command and what became of it.
type run struct {
	seq    int
	cmd    string
	verify bool
	done   bool // its result was seen
	failed bool
	sig    string // the error signature of a failed run
}

// edit is one file the session changed.
type edit struct {
	seq    int
	path   string
	failed bool
}

// session is what the walk over a session's tool calls found.
type session struct {
	runs  []*run
	edits []*edit
	tools int
}

// shellTools are the tool names that run a command.
var shellTools = map[string]bool{
	"Bash": true, "shell": true, "exec_command": true, "local_shell": true, "shell_command": true, "container.exec": true,
}

// editTools are the tool names that change a file.
var editTools = map[string]bool{"Edit": true, "Write": true, "MultiEdit": true, "NotebookEdit": true, "apply_patch": true}

// walk pairs each result with its call and records runs and edits in
// order. A result with an ID settles the call of that ID; one without
// settles the oldest call without an ID not yet settled, of any tool (a
// Read's result must not settle a shell run), and that call is done.
func walk(s *transcript.Session) *session {
	w := &session{}
	byID := map[string]func(transcript.ToolCall){}
	// waiting holds the calls without an ID in order, nil for a call the
	// draft does not follow.
	var waiting []func(transcript.ToolCall)
	seq := 0
	for _, m := range s.Messages {
		if m.Sidechain {
			continue
		}
		for _, tc := range m.Tools {
			seq++
			if tc.Name == "result" {
				var settle func(transcript.ToolCall)
				if tc.ID != "" {
					settle = byID[tc.ID]
					delete(byID, tc.ID)
				} else if len(waiting) > 0 {
					settle, waiting = waiting[0], waiting[1:]
				}
				if settle != nil {
					settle(tc)
				}
				continue
			}
			w.tools++
			settle := w.call(tc, seq)
			switch {
			case tc.ID == "":
				waiting = append(waiting, settle)
			case settle != nil:
				byID[tc.ID] = settle
			}
		}
	}
	return w
}

// call records a shell command or an edit and returns what its result
// settles, or nil for a call the draft does not follow.
func (w *session) call(tc transcript.ToolCall, seq int) func(transcript.ToolCall) {
	switch {
	case shellTools[tc.Name]:
		cmd := commandOf(tc.Summary)
		if cmd == "" {
			return nil
		}
		r := &run{seq: seq, cmd: cmd, verify: verifyRe.MatchString(cmd) || makeCheck(cmd)}
		w.runs = append(w.runs, r)
		return func(res transcript.ToolCall) {
			r.done = true
			r.failed, r.sig = failure(res, r.verify)
		}
	case editTools[tc.Name]:
		p := editPath(tc.Summary)
		if p == "" {
			return nil
		}
		ed := &edit{seq: seq, path: p}
		w.edits = append(w.edits, ed)
		return func(res transcript.ToolCall) { ed.failed = res.IsError }
	}
	return nil
}

// commandOf takes the command out of a shell call's summary: Claude
// Code's "command: …", Codex's "cmd: …" or its argv list.
func commandOf(summary string) string {
	for _, k := range []string{"command: ", "cmd: "} {
		v, ok := strings.CutPrefix(summary, k)
		if !ok {
			continue
		}
		if strings.HasPrefix(v, "[") {
			var argv []string
			if json.Unmarshal([]byte(v), &argv) == nil && len(argv) > 0 {
				v = argv[len(argv)-1]
				if len(argv) < 3 || !strings.HasSuffix(argv[0], "sh") {
					v = strings.Join(argv, " ")
				}
			}
		}
		return strings.Join(strings.Fields(v), " ")
	}
	return ""
}

var patchFileRe = lazyre.New(`\*\*\* (?:Update|Add) File: (\S+)`)

// editPath takes the file out of an edit call's summary.
func editPath(summary string) string {
	for _, k := range []string{"file_path: ", "notebook_path: ", "path: "} {
		if v, ok := strings.CutPrefix(summary, k); ok {
			return strings.TrimSuffix(v, "…")
		}
	}
	if m := patchFileRe.FindStringSubmatch(summary); m != nil {
		return m[1]
	}
	return ""
}

// verifyRe matches a command that checks the work: tests, builds, type
// checks, linters.
var verifyRe = lazyre.New(`(?:^|[\s;&|(])(?:go (?:test|build|vet)|(?:npm|pnpm|yarn|bun)(?: run)? (?:test|build|lint|typecheck|check)|npx (?:tsc|jest|vitest)|tsc|pytest|python3? -m (?:pytest|unittest)|tox|cargo (?:test|build|check|clippy)|jest|vitest|mvn|gradle|\./gradlew|bazel (?:test|build)|dotnet (?:test|build)|mypy|ruff|eslint|staticcheck|golangci-lint)(?:$|[\s;&|)])`)

// makeTargetRe is a make target that checks: `make` alone builds the
// default target; `make migrate` or `make deploy` do something else.
var makeTargetRe = lazyre.New(`^(?:test|check|build|lint|all|ci|vet|verify|e2e|unit|integration)(?:[-_:]\w+)*$`)

// makeCheck reports a make run that tests or builds: one of the command's
// make parts (a && b; c) names only check targets, or none (the default).
func makeCheck(cmd string) bool {
	for part := range strings.FieldsFuncSeq(cmd, func(r rune) bool { return r == ';' || r == '&' || r == '|' || r == '(' || r == ')' }) {
		f := strings.Fields(part)
		if len(f) == 0 || f[0] != "make" {
			continue
		}
		check := true
		for i := 1; i < len(f); i++ {
			a := f[i]
			switch {
			case makeValueOpts[a]:
				i++ // -C dir, -f file, -j 4: the value is no target
				continue
			case strings.HasPrefix(a, "-") || strings.Contains(a, "="):
				continue
			}
			if !makeTargetRe.MatchString(a) {
				check = false
			}
		}
		if check {
			return true
		}
	}
	return false
}

// makeValueOpts are make's options whose value is the next word.
var makeValueOpts = map[string]bool{"-C": true, "-f": true, "-j": true, "-o": true, "-W": true, "-I": true, "-l": true,
	"--directory": true, "--file": true, "--makefile": true, "--jobs": true, "--include-dir": true}

var (
	exitRe = lazyre.New(`^(?:Error: )?Exit code (\d+)`)
	// strongFailRe: text that says a check failed though the tool did not
	// flag an error (output piped through tail, "|| true").
	strongFailRe = lazyre.New(`(?m)^(?:--- FAIL|FAIL\b|panic: |npm ERR!|Traceback|error(?:\[\w+\])?: )|error TS\d+|exit status [1-9]|BUILD FAILED|\d+ failed|Tests?:.*\d+ failed`)
	// interruptRe: a result the user cut short, not a failure of the command.
	interruptRe = lazyre.New(`^\[Request interrupted|^The user doesn't want to proceed`)
)

// failure reports whether a shell result failed and its error signature.
func failure(res transcript.ToolCall, verify bool) (bool, string) {
	if interruptRe.MatchString(res.Summary) {
		return false, ""
	}
	text := res.Detail
	if text == "" {
		text = res.Summary
	}
	failed := res.IsError
	if m := exitRe.FindStringSubmatch(res.Summary); m != nil {
		failed = m[1] != "0"
	}
	if !failed && verify && res.Detail != "" && strongFailRe.MatchString(res.Detail) {
		failed = true
	}
	if !failed {
		return false, ""
	}
	return true, signature(text)
}

// sigRes rank the lines of an error, most telling first.
var sigRes = []*lazyre.Regexp{
	lazyre.New(`panic: .*`),
	lazyre.New(`error TS\d+: .*|error\[E\d+\]: .*|Error: Cannot find module .*|(?:Module|Import)NotFoundError: .*`),
	lazyre.New(`(?:^|\s)(?:\w+Error|\w+Exception|error|Error|ERROR|fatal|FATAL)(?:\[\w+\])?: .*`),
	lazyre.New(`^--- FAIL: .*|^FAIL: .*|.*\bAssertionError\b.*|.*\bassert.*`),
	lazyre.New(`(?i).*\b(?:failed|failure|cannot|undefined|not found|no such file|denied|refused)\b.*`),
	lazyre.New(`^FAIL\b.*`),
}

// signature picks the line that names the error, cleaned of noise.
func signature(text string) string {
	lines := strings.Split(text, "\n")
	for _, re := range sigRes {
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if exitRe.MatchString(l) {
				continue
			}
			if m := re.FindString(l); m != "" {
				return clean(m)
			}
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			return clean(l)
		}
	}
	return "unknown error"
}

func clean(sig string) string {
	sig = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sig), "[recovered]"))
	return clipLine(sig, 200)
}

// lastVerify is the last verification run whose result was seen.
func (w *session) lastVerify() *run {
	for i := len(w.runs) - 1; i >= 0; i-- {
		if r := w.runs[i]; r.verify && r.done {
			return r
		}
	}
	return nil
}

func (w *session) outcome() string {
	if v := w.lastVerify(); v != nil {
		if v.failed {
			return OutcomeFailed
		}
		return OutcomeSuccess
	}
	if len(w.changed("")) > 0 {
		return OutcomePartial
	}
	if w.tools == 0 {
		return OutcomeAbandoned
	}
	return ""
}

// changed lists the files edited (successfully), once each in order,
// relative to cwd where they are under it.
func (w *session) changed(cwd string) []string {
	return w.changedBetween(cwd, 0, int(^uint(0)>>1))
}

func (w *session) changedBetween(cwd string, from, to int) []string {
	var out []string
	seen := map[string]bool{}
	for _, ed := range w.edits {
		if ed.failed || ed.seq <= from || ed.seq >= to {
			continue
		}
		p := relTo(cwd, ed.path)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

func relTo(cwd, p string) string {
	if cwd == "" {
		return p
	}
	for _, sep := range []string{"/", `\`} {
		if r, ok := strings.CutPrefix(p, strings.TrimRight(cwd, sep)+sep); ok && r != "" {
			return r
		}
	}
	return p
}

// attempt is the failed runs of one command with one error.
type attempt struct {
	cmd, sig string
	tries    int
	last     int  // seq of the last try
	next     *run // the run of the same command after the last try
	fixed    bool // the command passed later
}

// write adds the draft's sections to e.
func (w *session) write(e *Entry, cwd string) {
	var attempts []*attempt
	for _, r := range w.runs {
		if !r.failed {
			continue
		}
		i := indexAttempt(attempts, r.cmd, r.sig)
		if i < 0 {
			attempts = append(attempts, &attempt{cmd: r.cmd, sig: r.sig})
			i = len(attempts) - 1
		}
		a := attempts[i]
		a.tries++
		a.last, a.next, a.fixed = r.seq, w.nextRun(r), w.passLater(r) != nil
	}
	var tried, errs, mistakes []string
	for _, a := range attempts {
		item := fmt.Sprintf("`%s` — failed: %s", clipLine(a.cmd, 120), a.sig)
		if a.tries > 1 {
			item += fmt.Sprintf(" (%d tries)", a.tries)
		}
		tried = appendCapped(tried, clipLine(item, maxCopied))
		if !contains(errs, a.sig) {
			errs = appendCapped(errs, a.sig)
		}
		if a.fixed && a.next != nil && a.next.sig != a.sig {
			m := fmt.Sprintf("`%s` failed with %s", clipLine(a.cmd, 120), a.sig)
			if fix := w.fixBetween(cwd, a.last, a.next.seq); fix != "" {
				m += " — gone after " + fix
			}
			mistakes = appendCapped(mistakes, clipLine(m, maxCopied))
		}
	}
	if len(tried) > 0 {
		e.Add(Attempted, tried...)
	}
	if item := w.worked(cwd); item != "" {
		e.Add(Worked, item)
	}
	if len(mistakes) > 0 {
		e.Add(Mistakes, mistakes...)
	}
	if len(errs) > 0 {
		e.Add(Errors, errs...)
	}
	if files := w.changed(cwd); len(files) > 0 {
		e.Sections = append(e.Sections, Section{Kind: Other, Title: FilesTitle, Items: []string{clipLine(fileList(files), maxCopied)}})
	}
}

// worked says how the last verification passed: after which edits since
// the last failed verification, when one had failed before.
func (w *session) worked(cwd string) string {
	v := w.lastVerify()
	if v == nil || v.failed {
		return ""
	}
	item := fmt.Sprintf("`%s` passed", clipLine(v.cmd, 120))
	first := -1
	for _, r := range w.runs {
		if r.failed && r.verify && r.seq < v.seq {
			first = r.seq
		}
	}
	if first < 0 {
		return item
	}
	if fix := w.fixBetween(cwd, first, v.seq); fix != "" {
		return clipLine(item+" after "+fix, maxCopied)
	}
	return item + " on a retry, with no file changed in between"
}

// fixBetween says what the session did between two runs that could have
// fixed the first: the files it changed and the commands that ran and
// succeeded ("changing store.go and running `make migrate`"); "" when it
// did neither. Commands that only look (ls, cat, git status…) are not
// fixes.
func (w *session) fixBetween(cwd string, from, to int) string {
	var parts []string
	if files := w.changedBetween(cwd, from, to); len(files) > 0 {
		parts = append(parts, "changing "+fileList(files))
	}
	var cmds []string
	for _, r := range w.runs {
		if r.seq <= from || r.seq >= to || !r.done || r.failed || r.verify || looksOnly(r.cmd) {
			continue
		}
		if c := "`" + clipLine(r.cmd, 60) + "`"; !contains(cmds, c) && len(cmds) < 3 {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) > 0 {
		parts = append(parts, "running "+strings.Join(cmds, ", "))
	}
	return strings.Join(parts, " and ")
}

// lookOnly are the programs that read and change nothing.
var lookOnly = map[string]bool{
	"ls": true, "cat": true, "head": true, "tail": true, "less": true, "grep": true, "rg": true, "find": true,
	"pwd": true, "echo": true, "which": true, "wc": true, "tree": true, "stat": true, "file": true, "diff": true,
	"env": true, "printenv": true, "type": true, "sed": true, "awk": true, "jq": true, "cd": true,
}

// looksOnly reports a command that only reads: a look-only program, or
// git status, diff, log or show.
func looksOnly(cmd string) bool {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return true
	}
	if f[0] == "git" && len(f) > 1 {
		switch f[1] {
		case "status", "diff", "log", "show", "branch", "blame", "grep":
			return true
		}
	}
	return lookOnly[f[0]]
}

// nextRun is the next run of the same command whose result was seen.
func (w *session) nextRun(r *run) *run {
	for _, o := range w.runs {
		if o.seq > r.seq && o.cmd == r.cmd && o.done {
			return o
		}
	}
	return nil
}

// passLater is the first later run of the same command that passed.
func (w *session) passLater(r *run) *run {
	for _, o := range w.runs {
		if o.seq > r.seq && o.cmd == r.cmd && o.done && !o.failed {
			return o
		}
	}
	return nil
}

func indexAttempt(as []*attempt, cmd, sig string) int {
	for i, a := range as {
		if a.cmd == cmd && a.sig == sig {
			return i
		}
	}
	return -1
}

func fileList(files []string) string {
	if len(files) <= maxFiles {
		return strings.Join(files, ", ")
	}
	return strings.Join(files[:maxFiles], ", ") + " (+" + strconv.Itoa(len(files)-maxFiles) + " more)"
}

func appendCapped(list []string, item string) []string {
	if len(list) >= maxPerSection {
		return list
	}
	return append(list, item)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clipLine makes s one line of at most n bytes, cut on a rune boundary
// and ending in "…" when cut.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
