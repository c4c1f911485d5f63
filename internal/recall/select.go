package recall

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Memory is what selection and rendering need of a memory.
type Memory struct {
	File         string
	Name         string
	Description  string
	Type         string
	Body         string
	Saved        time.Time // last update, else creation, else the file's time
	SupersededBy string
	// MissingRefs are the files the memory's refs name that the caller
	// found missing from the project.
	MissingRefs []string
	// Stale is why 'memdir verify' found the memory may no longer hold,
	// and when ("" when it holds, or was never verified).
	Stale string
	// Scope is the folder the memory comes from when recall merged
	// several: "team" for the project's team folder (its File is then
	// "team/<file>"), "private" or "" for the private one. Rendering
	// marks a memory whose scope is neither.
	Scope string
	// Author is who added a team memory ("" when unknown).
	Author string
}

// Analyse turns a memory into a Doc with the Default analyzer.
func Analyse(m Memory) Doc {
	var d Doc
	d.Terms[Name] = Default.Terms(m.Name, nil)
	d.Terms[Description] = Default.Terms(m.Description, nil)
	d.Terms[Body] = Default.Terms(m.Body, nil)
	return d
}

// Policy says how many memories may be injected, and which.
type Policy struct {
	K         int      // at most this many (default 5)
	Budget    int      // tokens for the whole rendering (default 1,500)
	Threshold float64  // minimum coverage (default 0.4)
	Tools     []string // tools the agent is using now
	Exclude   []string // memory files not to return (already injected in this session)
}

// DefaultPolicy is recall's default.
var DefaultPolicy = Policy{K: 5, Budget: 1500, Threshold: 0.4}

// Candidate is a ranked memory and what selection decided about it.
type Candidate struct {
	Memory
	Scored
	Kept bool
	Why  string // why it was dropped, or "kept"
	Text string // its rendering, when kept
}

// Tokens estimates the tokens of s as ceil(bytes/3); see the package doc.
func Tokens(s string) int { return (len(s) + 2) / 3 }

// Source gives Select the memories behind ranked documents.
type Source interface {
	// Memory returns document doc's memory, its body and missing refs
	// included when full is set (they are read only for memories that
	// may be rendered).
	Memory(doc int, full bool) Memory
}

// Memories is a Source over memories in memory.
type Memories []Memory

func (ms Memories) Memory(doc int, full bool) Memory { return ms[doc] }

// MinBudget is the smallest budget that can hold a memory: the frame
// around the memories plus a short one.
func MinBudget() int { return Tokens(header) + Tokens(footer) + 60 }

// Select walks the ranked candidates best first and keeps those that pass:
// not superseded, covering enough of the query, not a usage note about a
// tool in use, within k and within the token budget together with the
// header. It returns every candidate with its decision.
func Select(src Source, ranked []Scored, p Policy, now time.Time) []Candidate {
	if p.K <= 0 {
		p.K = DefaultPolicy.K
	}
	if p.Budget <= 0 {
		p.Budget = DefaultPolicy.Budget
	}
	used := Tokens(header) + Tokens(footer)
	kept := 0
	out := make([]Candidate, 0, len(ranked))
	for _, s := range ranked {
		// Most candidates fall below the threshold or beyond k: they are
		// decided without reading their memory (Memory.File stays empty).
		c := Candidate{Scored: s}
		switch {
		case c.Coverage < p.Threshold:
			c.Why = "below the threshold"
		case c.Of >= 3 && c.Matched < 2:
			c.Why = "matches one word of the prompt"
		case kept >= p.K:
			c.Why = "beyond the k best"
		}
		if c.Why != "" {
			out = append(out, c)
			continue
		}
		c.Memory = src.Memory(s.Doc, false)
		switch {
		case c.SupersededBy != "":
			c.Why = "superseded by " + c.SupersededBy
		case slices.Contains(p.Exclude, c.File):
			c.Why = "already given in this session"
		default:
			c.Memory = defang(src.Memory(s.Doc, true))
			if tool := usageOfToolInUse(c.Memory, p.Tools); tool != "" {
				c.Why = "usage note about " + tool + ", already in use"
				break
			}
			text := renderOne(c.Memory, now)
			if used+Tokens(text) > p.Budget {
				// Cut the body to what is left, if enough is left to say something.
				left := (p.Budget-used)*3 - len(renderOne(Memory{File: c.File, Name: c.Name, Description: c.Description, Type: c.Type, Saved: c.Saved, MissingRefs: c.MissingRefs, Stale: c.Stale, Scope: c.Scope, Author: c.Author}, now)) - len(cutMark)
				if left < 120 {
					c.Why = fmt.Sprintf("over the budget (%d tokens, %d left)", Tokens(text), p.Budget-used)
					break
				}
				m := c.Memory
				m.Body = cut(m.Body, left) + cutMark
				text = renderOne(m, now)
			}
			c.Kept, c.Why, c.Text = true, "kept", text
			used += Tokens(text)
			kept++
		}
		out = append(out, c)
	}
	return out
}

const cutMark = " […]"

// harnessTags are the tags that frame what an agent is told: memdir's own
// and those Claude Code uses for system text. A memory's text comes from
// people, transcripts and tool output, so it must not be able to close
// memdir's frame and open one of its own.
var harnessTags = []string{"memdir-", "system-reminder", "system>", "user-prompt-submit-hook", "command-", "local-command-", "function_calls", "function_results", "antml:"}

// defang turns the '<' of any harness tag in a memory's text into '‹', so
// the memory reads the same but can only ever be text inside the frame.
func defang(m Memory) Memory {
	m.File, m.Name, m.Description, m.Body = defangText(m.File), defangText(m.Name), defangText(m.Description), defangText(m.Body)
	m.Stale, m.Scope, m.Author = defangText(m.Stale), defangText(m.Scope), defangText(m.Author)
	return m
}

func defangText(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '<' && isHarnessTag(s[i+1:]) {
			b.WriteString("‹")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHarnessTag(rest string) bool {
	rest = strings.TrimLeft(rest, " \t/")
	rest = strings.TrimLeft(rest, " \t")
	rest = strings.ToLower(rest[:min(len(rest), 32)])
	for _, t := range harnessTags {
		if strings.HasPrefix(rest, t) {
			return true
		}
	}
	return false
}

// cut shortens s to at most n bytes at a rune boundary, preferring a
// word boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	if i := strings.LastIndexAny(s[:n], " \n"); i > n/2 {
		n = i
	}
	return strings.TrimSpace(s[:n])
}

var (
	usageWords   = []string{"how", "usage", "use", "using", "docs", "documentation", "reference", "guide", "cheatsheet", "command", "commands", "flag", "flags", "run", "install"}
	warningWords = []string{"warning", "warn", "gotcha", "gotchas", "caution", "careful", "never", "avoid", "don", "not", "bug", "bugs", "broken", "breaks", "fails", "fail", "failure", "pitfall", "danger", "dangerous", "beware", "trap", "caveat", "deprecated", "slow", "flaky", "corrupt", "corrupts", "leak", "leaks"}
)

// usageOfToolInUse returns the tool in use that m is a usage or reference
// note about, or "". A memory is about a tool when it names it; it is a
// usage note when its type is reference or its name or description speaks
// of usage; it is a warning, and always kept, when it speaks of failure.
func usageOfToolInUse(m Memory, tools []string) string {
	if len(tools) == 0 {
		return ""
	}
	head := Tokenize(m.Name + " " + m.Description)
	all := append(Tokenize(m.Body), head...)
	for _, tool := range tools {
		t := Tokenize(tool)
		if len(t) == 0 || !slices.Contains(all, t[0]) {
			continue
		}
		switch {
		case hasAny(all, warningWords):
			return ""
		case m.Type == "reference" || hasAny(head, usageWords):
			return tool
		}
	}
	return ""
}

func hasAny(words, list []string) bool {
	for _, w := range words {
		if slices.Contains(list, w) {
			return true
		}
	}
	return false
}

const (
	header = "<memdir-recall>\nMemories that may bear on this prompt. Each is a note from the past, not a fact about now: verify the files, functions and flags it names before acting on it; what you observe now wins.\n"
	footer = "</memdir-recall>\n"
)

// Render joins the kept candidates into the text injected for the agent,
// or "" when none was kept.
func Render(cands []Candidate) string {
	var b strings.Builder
	for _, c := range cands {
		if c.Kept {
			if b.Len() == 0 {
				b.WriteString(header)
			}
			b.WriteString(c.Text)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString(footer)
	return b.String()
}

// renderOne renders one memory: a heading with its type, its scope when
// it is not private, file, author, age and what makes it stale (refs
// missing now, what verify found), the name and description, then the
// body.
func renderOne(m Memory, now time.Time) string {
	var b strings.Builder
	b.WriteString("\n### ")
	if m.Type != "" {
		b.WriteString(m.Type + " · ")
	}
	if Shared(m.Scope) {
		b.WriteString(m.Scope + " · ")
	}
	b.WriteString(m.File)
	if m.Author != "" {
		b.WriteString(" · by " + m.Author)
	}
	if age := Age(m.Saved, now); age != "" {
		b.WriteString(" · " + age)
	}
	if len(m.MissingRefs) > 0 {
		fmt.Fprintf(&b, " · possibly stale: %s no longer exist", strings.Join(m.MissingRefs, ", "))
	}
	if m.Stale != "" {
		b.WriteString(" · stale: " + m.Stale)
	}
	b.WriteString("\n")
	if m.Name != "" {
		b.WriteString("**" + m.Name + "**")
		if m.Description != "" {
			b.WriteString(" — ")
		}
	}
	b.WriteString(m.Description + "\n")
	if body := strings.TrimSpace(m.Body); body != "" {
		b.WriteString(body + "\n")
	}
	return b.String()
}

// Shared reports whether scope names a folder other than the private one
// (rendering marks such memories with it).
func Shared(scope string) bool { return scope != "" && scope != "private" }

// Age says how old a memory is: "saved 47 days ago" when over a day,
// "saved today" otherwise, "" when unknown.
func Age(saved, now time.Time) string {
	if saved.IsZero() {
		return ""
	}
	days := int(math.Floor(now.Sub(saved).Hours() / 24))
	switch {
	case days < 1:
		return "saved today"
	case days == 1:
		return "saved 1 day ago"
	}
	return fmt.Sprintf("saved %d days ago", days)
}
