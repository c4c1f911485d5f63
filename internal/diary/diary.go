// Package diary is the task diary's format: one markdown file per task, in
// the shape the seed's agents write at the end of every task (what was
// tried and why, what failed with the error, what worked, mistakes, edge
// cases, patterns that might generalise), with frontmatter naming the
// project, session, date, outcome and tags.
//
// It parses, validates, redacts and formats entries, and drafts one from a
// finished session's transcript (draft.go). It is pure: bytes in, bytes
// out, no clock and no disk.
package diary

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/redact"
)

// MaxSize bounds a diary entry as written: an entry is a page of notes,
// not a transcript.
const MaxSize = 16 << 10

// maxItem bounds one line of a section.
const maxItem = 600

// Outcomes a task can end with.
const (
	OutcomeSuccess   = "success"
	OutcomePartial   = "partial"
	OutcomeFailed    = "failed"
	OutcomeAbandoned = "abandoned"
)

var outcomes = []string{OutcomeSuccess, OutcomePartial, OutcomeFailed, OutcomeAbandoned}

// Status of an entry: a draft memdir wrote from a transcript stays a draft
// until a person or the agent accepts it; patterns read accepted entries.
const (
	StatusDraft    = "draft"
	StatusAccepted = "accepted"
)

// Sources of an entry.
const (
	SourceAgent      = "agent"      // the agent, through MCP or the skill
	SourceTranscript = "transcript" // memdir's heuristic draft from a transcript
	SourceModel      = "model"      // a model's draft from a transcript
	SourceHand       = "hand"       // a person, through the CLI
)

// Kind is what a section's lines are: the patterns engine weighs them.
type Kind string

// The sections of an entry, in the order Format writes them.
const (
	Attempted Kind = "attempted"
	Worked    Kind = "worked"
	Mistakes  Kind = "mistakes"
	Errors    Kind = "errors"
	EdgeCases Kind = "edge-cases"
	Patterns  Kind = "patterns"
	Other     Kind = "other"
)

// Sections names each kind's heading, in the order Format writes them.
var Sections = []struct {
	Kind  Kind
	Title string
}{
	{Attempted, "Attempted approaches"},
	{Worked, "What worked"},
	{Mistakes, "Mistakes made"},
	{Errors, "Errors"},
	{EdgeCases, "Edge cases"},
	{Patterns, "Patterns discovered"},
}

// KindOf maps a heading to its kind, forgiving case, a trailing colon and
// common variants; an unknown heading is Other.
func KindOf(title string) Kind {
	t := strings.ToLower(strings.TrimSpace(strings.TrimRight(strings.TrimSpace(title), ":")))
	switch {
	case strings.HasPrefix(t, "attempt"), strings.HasPrefix(t, "approach"), t == "what i tried", t == "tried":
		return Attempted
	case strings.HasPrefix(t, "what worked"), t == "worked", t == "solution", t == "what succeeded":
		return Worked
	case strings.HasPrefix(t, "mistake"), t == "what failed", t == "failures":
		return Mistakes
	case strings.HasPrefix(t, "error"):
		return Errors
	case strings.HasPrefix(t, "edge case"):
		return EdgeCases
	case strings.HasPrefix(t, "pattern"), strings.HasPrefix(t, "lesson"), t == "learnings":
		return Patterns
	}
	return Other
}

// Title is a kind's heading.
func (k Kind) Title() string {
	for _, s := range Sections {
		if s.Kind == k {
			return s.Title
		}
	}
	return string(k)
}

// Section is one "### Heading" of an entry and its lines.
type Section struct {
	Kind  Kind     `json:"kind"`
	Title string   `json:"title"`
	Items []string `json:"items"`
}

// Entry is one task's diary.
type Entry struct {
	Project  string    `json:"project,omitempty"`
	Session  string    `json:"session,omitempty"`
	Date     string    `json:"date"` // YYYY-MM-DD
	Outcome  string    `json:"outcome,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Status   string    `json:"status,omitempty"` // draft, or accepted when empty
	Source   string    `json:"source,omitempty"`
	Task     string    `json:"task"`
	Sections []Section `json:"sections"`
}

// Draft reports whether e is a draft not yet accepted.
func (e Entry) Draft() bool { return e.Status == StatusDraft }

// Items returns the lines of the sections of kind k.
func (e Entry) Items(k Kind) []string {
	var out []string
	for _, s := range e.Sections {
		if s.Kind == k {
			out = append(out, s.Items...)
		}
	}
	return out
}

// Add appends lines to the section of kind k, creating it.
func (e *Entry) Add(k Kind, lines ...string) {
	for i := range e.Sections {
		if e.Sections[i].Kind == k && k != Other {
			e.Sections[i].Items = append(e.Sections[i].Items, lines...)
			return
		}
	}
	e.Sections = append(e.Sections, Section{Kind: k, Title: k.Title(), Items: lines})
}

// front is the frontmatter as read.
type front struct {
	Project string   `yaml:"project"`
	Session string   `yaml:"session"`
	Date    string   `yaml:"date"`
	Outcome string   `yaml:"outcome"`
	Tags    []string `yaml:"tags"`
	Status  string   `yaml:"status"`
	Source  string   `yaml:"source"`
}

// ParseError says what is wrong with a diary file and where.
type ParseError struct {
	Name string
	Line int
	Err  error
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("diary %s, line %d: %v", e.Name, e.Line, e.Err)
	}
	return fmt.Sprintf("diary %s: %v", e.Name, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

var (
	taskRe  = lazyre.New(`^#{1,2}\s+(?i:task)\s*:?\s*(.*)$`)
	headRe  = lazyre.New(`^#{2,4}\s+(.+?)\s*$`)
	itemRe  = lazyre.New(`^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$`)
	dateRe  = lazyre.New(`^\d{4}-\d{2}-\d{2}$`)
	crlfRep = strings.NewReplacer("\r\n", "\n", "\r", "\n")
)

// Parse reads a diary file. name is used in errors. A file need not have
// frontmatter nor a "## Task:" heading to parse; Validate says what a
// write requires. Frontmatter that does not parse is an error naming its
// line; the body is never dropped: lines outside any section are kept in
// an Other section.
func Parse(name string, b []byte) (Entry, error) {
	var e Entry
	if !utf8.Valid(b) {
		return e, &ParseError{Name: name, Err: errors.New("not UTF-8 text")}
	}
	text := crlfRep.Replace(strings.TrimPrefix(string(b), "\ufeff"))
	body := text
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		end := strings.Index(rest, "\n---\n")
		if end < 0 && strings.HasSuffix(rest, "\n---") {
			end = len(rest) - len("\n---")
		}
		if end < 0 {
			return e, &ParseError{Name: name, Line: 1, Err: errors.New("frontmatter starts with --- but is never closed")}
		}
		var f front
		if err := yaml.Unmarshal([]byte(rest[:end]), &f); err != nil {
			return e, &ParseError{Name: name, Line: 2, Err: fmt.Errorf("frontmatter: %v", err)}
		}
		e.Project, e.Session, e.Date, e.Outcome = f.Project, f.Session, f.Date, strings.ToLower(f.Outcome)
		e.Tags, e.Status, e.Source = f.Tags, strings.ToLower(f.Status), f.Source
		body = strings.TrimPrefix(rest[end:], "\n---")
		body = strings.TrimPrefix(body, "\n")
	}
	var cur *Section
	for l := range strings.SplitSeq(body, "\n") {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if m := taskRe.FindStringSubmatch(t); m != nil && e.Task == "" {
			e.Task = strings.TrimSpace(m[1])
			cur = nil
			continue
		}
		if m := headRe.FindStringSubmatch(t); m != nil {
			title := strings.TrimSpace(strings.TrimRight(m[1], ":"))
			e.Sections = append(e.Sections, Section{Kind: KindOf(title), Title: title, Items: []string{}})
			cur = &e.Sections[len(e.Sections)-1]
			continue
		}
		if strings.HasPrefix(t, "# ") && e.Task == "" && cur == nil && len(e.Sections) == 0 {
			e.Task = strings.TrimSpace(t[2:])
			continue
		}
		item := t
		if m := itemRe.FindStringSubmatch(l); m != nil {
			item = strings.TrimSpace(m[1])
		}
		if item == "" {
			continue
		}
		if cur == nil {
			e.Sections = append(e.Sections, Section{Kind: Other, Title: "Notes", Items: []string{}})
			cur = &e.Sections[len(e.Sections)-1]
		}
		cur.Items = append(cur.Items, item)
	}
	return e, nil
}

// Problem is one thing Validate found wrong.
type Problem struct {
	Field string `json:"field"`
	Issue string `json:"issue"`
}

// ValidationError lists everything wrong with an entry at once, so a
// caller (an agent over MCP) can fix it in one go.
type ValidationError struct{ Problems []Problem }

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("the diary entry is not valid: ")
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s", p.Field, p.Issue)
	}
	return b.String()
}

// Validate checks what a write requires: a task, a date, at least one
// section line, a known outcome, tags of a word or two (no character that
// would break the frontmatter's list), a project that is a folder's name,
// and a formatted size within MaxSize.
func Validate(e Entry) error {
	var ps []Problem
	add := func(f, is string) { ps = append(ps, Problem{f, is}) }
	if strings.TrimSpace(e.Task) == "" {
		add("task", "is empty: say in one line what the task was")
	} else if strings.ContainsAny(e.Task, "\n\r") {
		add("task", "must be one line")
	}
	if !dateRe.MatchString(e.Date) {
		add("date", fmt.Sprintf("%q is not a date as YYYY-MM-DD", e.Date))
	} else if _, err := time.Parse(time.DateOnly, e.Date); err != nil {
		add("date", fmt.Sprintf("%q is not a calendar date", e.Date))
	}
	if e.Outcome != "" && !slices.Contains(outcomes, e.Outcome) {
		add("outcome", fmt.Sprintf("%q is not one of %s", e.Outcome, strings.Join(outcomes, ", ")))
	}
	if e.Status != "" && e.Status != StatusDraft && e.Status != StatusAccepted {
		add("status", fmt.Sprintf("%q is not draft or accepted", e.Status))
	}
	if is := projectIssue(e.Project); is != "" {
		add("project", is)
	}
	if strings.ContainsAny(e.Session, "\n\r") {
		add("session", "must be one line")
	}
	for _, t := range e.Tags {
		if is := tagIssue(t); is != "" {
			add("tags", is)
		}
	}
	lines := 0
	for _, s := range e.Sections {
		for _, it := range s.Items {
			switch {
			case strings.TrimSpace(it) == "":
				add(s.Title, "has an empty line")
			case strings.ContainsAny(it, "\n\r"):
				add(s.Title, "has a line with a line break: give one item per line")
			case len(it) > maxItem:
				add(s.Title, fmt.Sprintf("has a line of %d bytes (at most %d): split it", len(it), maxItem))
			}
			lines++
		}
	}
	if lines == 0 {
		add("sections", "are empty: write at least one of attempted approaches, what worked, mistakes made, errors, edge cases, patterns discovered")
	}
	if n := len(Format(e)); n > MaxSize {
		add("entry", fmt.Sprintf("is %d bytes, over the %d-byte limit: keep the lessons, drop the detail", n, MaxSize))
	}
	if len(ps) > 0 {
		return &ValidationError{Problems: ps}
	}
	return nil
}

// maxTag and maxProject bound a tag and a project's name.
const (
	maxTag     = 40
	maxProject = 100
)

// tagIssue says what is wrong with one tag, or "": a tag is a word or
// two that the frontmatter's flow list ([a, b]) holds as it is, so none of
// the characters that would end or split it there.
func tagIssue(t string) string {
	switch {
	case strings.TrimSpace(t) == "":
		return "has an empty tag"
	case strings.Contains(t, "[REDACTED:"):
		return fmt.Sprintf("%q held a secret (redacted): drop that tag", t)
	case strings.ContainsAny(t, "\n\r"):
		return fmt.Sprintf("%q has a line break: give a word or two per tag", t)
	case len(t) > maxTag:
		return fmt.Sprintf("%q is over %d bytes: a tag is a word or two", t, maxTag)
	case strings.TrimSpace(t) != t:
		return fmt.Sprintf("%q starts or ends with a space: trim it", t)
	case strings.ContainsAny(t, tagForbidden):
		return fmt.Sprintf("%q has one of %s: a tag is a word or two, one tag per item", t, tagForbidden)
	}
	return ""
}

// tagForbidden are the characters a tag may not hold.
const tagForbidden = `,[]{}#:"'`

// projectIssue says what is wrong with a project's name, or "": it is a
// project folder's base name, empty until the workspace fills it.
func projectIssue(p string) string {
	switch {
	case strings.ContainsAny(p, "\n\r"):
		return "must be one line"
	case len(p) > maxProject:
		return fmt.Sprintf("is %d bytes (at most %d): a project is its folder's name", len(p), maxProject)
	case strings.ContainsAny(p, `/\`), strings.Contains(p, ".."):
		return fmt.Sprintf("%q is not a folder's name: no /, \\ or ..", p)
	}
	return ""
}

// Redact removes credentials and <private> text from every field of e and
// reports what it replaced.
func Redact(e Entry) (Entry, []redact.Finding) {
	var all []redact.Finding
	clean := func(s string) string {
		s, _ = redact.Private(s)
		s, f := redact.String(s)
		all = append(all, f...)
		return s
	}
	e.Task = clean(e.Task)
	e.Project, e.Session = clean(e.Project), clean(e.Session)
	e.Tags = slices.Clone(e.Tags)
	for i := range e.Tags {
		e.Tags[i] = clean(e.Tags[i])
	}
	secs := make([]Section, len(e.Sections))
	for i, s := range e.Sections {
		s.Items = slices.Clone(s.Items)
		for j := range s.Items {
			s.Items[j] = clean(s.Items[j])
		}
		secs[i] = s
	}
	e.Sections = secs
	return e, mergeFindings(all)
}

func mergeFindings(fs []redact.Finding) []redact.Finding {
	var out []redact.Finding
	for _, f := range fs {
		i := slices.IndexFunc(out, func(o redact.Finding) bool { return o.Kind == f.Kind })
		if i < 0 {
			out = append(out, f)
		} else {
			out[i].Count += f.Count
		}
	}
	slices.SortFunc(out, func(a, b redact.Finding) int { return strings.Compare(a.Kind, b.Kind) })
	return out
}

// Format writes e as markdown: frontmatter, "## Task:", then its sections,
// known kinds in their order, others after them as they came. Attempted
// approaches are numbered; other lines are bullets.
func Format(e Entry) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, yamlScalar(v))
		}
	}
	field("project", e.Project)
	field("session", e.Session)
	field("date", e.Date)
	field("outcome", e.Outcome)
	if len(e.Tags) > 0 {
		ts := make([]string, len(e.Tags))
		for i, t := range e.Tags {
			ts[i] = yamlScalar(t)
		}
		fmt.Fprintf(&b, "tags: [%s]\n", strings.Join(ts, ", "))
	}
	field("status", e.Status)
	field("source", e.Source)
	b.WriteString("---\n")
	fmt.Fprintf(&b, "## Task: %s\n", strings.TrimSpace(e.Task))
	write := func(s Section) {
		if len(s.Items) == 0 {
			return
		}
		title := s.Title
		if title == "" {
			title = s.Kind.Title()
		}
		fmt.Fprintf(&b, "\n### %s\n", title)
		for i, it := range s.Items {
			if s.Kind == Attempted {
				fmt.Fprintf(&b, "%d. %s\n", i+1, it)
			} else {
				fmt.Fprintf(&b, "- %s\n", it)
			}
		}
	}
	for _, k := range Sections {
		for _, s := range e.Sections {
			if s.Kind == k.Kind {
				write(s)
			}
		}
	}
	for _, s := range e.Sections {
		if !known(s.Kind) {
			write(s)
		}
	}
	return b.Bytes()
}

func known(k Kind) bool {
	return slices.ContainsFunc(Sections, func(s struct {
		Kind  Kind
		Title string
	}) bool {
		return s.Kind == k
	})
}

// yamlScalar quotes v when YAML would read it as something other than the
// string it is.
func yamlScalar(v string) string {
	out, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%q", v)
	}
	return strings.TrimSuffix(string(out), "\n")
}

var slugRe = lazyre.New(`[^a-z0-9]+`)

// Stem is the file name (without .md) an entry is saved under:
// its date and a slug of its task, at most 60 bytes of slug.
func Stem(e Entry) string {
	s := strings.Trim(slugRe.ReplaceAllString(strings.ToLower(e.Task), "-"), "-")
	if len(s) > 60 {
		s = strings.TrimRight(s[:60], "-")
	}
	if s == "" {
		s = "task"
	}
	return e.Date + "-" + s
}

// ValidStem reports whether s can name a diary file: what Stem makes, and
// nothing that leaves the diaries folder.
func ValidStem(s string) bool {
	return len(s) > 11 && len(s) <= 100 && dateRe.MatchString(s[:10]) && s[10] == '-' &&
		strings.Trim(slugRe.ReplaceAllString(s[11:], "-"), "-") == s[11:]
}
