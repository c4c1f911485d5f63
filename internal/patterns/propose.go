package patterns

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/redact"
)

// Kinds of proposal.
const (
	KindRule    = "rule"    // a line in CLAUDE.md's memdir block
	KindCommand = "command" // a slash command file under .claude/commands/
	KindTest    = "test"    // a regression test idea (printed, never written)
	KindMemory  = "memory"  // a feedback memory in the project's memory folder
)

// Proposal is one thing a pattern could become. Nothing is written until a
// person applies it.
type Proposal struct {
	Kind    string `json:"kind"`
	Name    string `json:"name,omitempty"` // a command's or a memory's name
	Path    string `json:"path,omitempty"` // where it goes, relative to the project
	Title   string `json:"title"`
	Content string `json:"content"`
}

// Propose words a pattern's proposals offline: the rule is the line its
// writers put best, preferring what they wrote under "Patterns
// discovered"; a command when a command recurs in its tasks; a test idea
// when an error recurs; always a memory. The model engines reword these.
func Propose(p Pattern) []Proposal { return ProposeWith(p, "") }

// ProposeWith is Propose with the rule worded by someone else (a model, or
// the agent through the skill); empty keeps the offline wording.
func ProposeWith(p Pattern, rule string) []Proposal {
	if rule = sentence(rule); rule == "" {
		rule = Rule(p)
	}
	why := fmt.Sprintf("seen in %d tasks (%s to %s): %s", len(p.Tasks), p.FirstSeen, p.LastSeen, strings.Join(p.Tasks, ", "))
	out := []Proposal{{
		Kind:    KindRule,
		Path:    "CLAUDE.md",
		Title:   rule,
		Content: RuleLine(p.ID, rule, len(p.Tasks)),
	}}
	for _, s := range commandsFirst(p.Signatures) {
		cmd, ok := strings.CutPrefix(s, "cmd:")
		if !ok {
			continue
		}
		name := slug(cmd, 40)
		out = append(out, Proposal{
			Kind:  KindCommand,
			Name:  name,
			Path:  ".claude/commands/" + name + ".md",
			Title: "/" + name + ": run `" + cmd + "` where this pattern says to",
			Content: fmt.Sprintf("---\ndescription: %s\n---\n%s\n\nRun `%s` and read its output before going on; stop and report if it fails.\n\n"+
				"(memdir pattern %s, %s)\n", yamlString(oneLine(rule, 120)), rule, cmd, p.ID, why),
		})
		break
	}
	for _, s := range p.Signatures {
		if strings.HasPrefix(s, "cmd:") {
			continue
		}
		out = append(out, Proposal{
			Kind:  KindTest,
			Title: fmt.Sprintf("a regression test that fails with %s when this happens again", s),
			Content: fmt.Sprintf("Write a test that reproduces %q the way these tasks met it, so it fails in CI rather than in a task: %s.",
				s, why),
		})
		break
	}
	out = append(out, Proposal{
		Kind:  KindMemory,
		Name:  "pattern-" + slug(rule, 48),
		Title: rule,
		Content: fmt.Sprintf("%s\n\n**Why:** %s.\n\n**How to apply:** check for this before starting similar work; the diaries above show what it cost when it was missed.\n",
			rule, why),
	})
	for i := range out {
		out[i].Content, _ = redact.String(out[i].Content)
	}
	return out
}

// Rule words a pattern as one line for CLAUDE.md: its title, the line its
// writers put best.
func Rule(p Pattern) string { return sentence(p.Title) }

// RuleLine is the line a rule takes in CLAUDE.md's memdir block; the
// comment names its pattern, so memdir can tell which rules it wrote.
func RuleLine(id, rule string, tasks int) string {
	return fmt.Sprintf("- %s <!-- memdir pattern %s, %d tasks -->", rule, id, tasks)
}

var ruleIDRe = lazyre.New(`<!-- memdir pattern (p[0-9a-f]{6}), \d+ tasks -->\s*$`)

// RuleID returns the pattern a block line was written for: the marker
// that ends the line (rules never hold one: sentence takes comment
// markers out).
func RuleID(line string) (string, bool) {
	m := ruleIDRe.FindStringSubmatch(strings.TrimRight(line, "\r"))
	if m == nil {
		return "", false
	}
	return m[1], true
}

// sentence makes a line read as a rule: one line, a capital, a full stop,
// no secret, and no HTML comment marker (the block's lines end in one).
func sentence(s string) string {
	s, _ = redact.Private(s)
	s, _ = redact.String(s)
	s = strings.NewReplacer("<!--", "<!‐‐", "-->", "‐‐>").Replace(s)
	s = oneLine(s, 240)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "!") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "`") {
		s += "."
	}
	return s
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		s = s[:n]
		for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
			s = s[:len(s)-1]
		}
		s = strings.TrimRight(s, " ") + "…"
	}
	return s
}

var slugRe = lazyre.New(`[^a-z0-9]+`)

func slug(s string, n int) string {
	s = strings.Trim(slugRe.ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > n {
		cut := s[:n]
		if i := strings.LastIndexByte(cut, '-'); i > n/2 && s[n] != '-' {
			cut = cut[:i] // a whole word, not half of one
		}
		s = strings.TrimRight(cut, "-")
	}
	if s == "" {
		s = "pattern"
	}
	return s
}

// yamlString quotes s as a YAML double-quoted scalar (JSON's string
// syntax is one), so a rule with ": " or a backtick stays a string.
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkRe is a command that only checks (tests, builds, lints): a lesson
// is rarely "run the tests", more often the step before them.
var checkRe = lazyre.New(`^(?:go (?:test|build|vet)|(?:npm|pnpm|yarn|bun)(?: run)? (?:test|build|lint|check)|pytest|cargo (?:test|build|check|clippy)|make (?:test|check|build|lint)|jest|vitest|tsc|mvn|gradle|dotnet (?:test|build))\b`)

// commandsFirst orders signatures so that commands that do something
// come before those that only check, keeping the order otherwise.
func commandsFirst(sigs []string) []string {
	out := slices.Clone(sigs)
	slices.SortStableFunc(out, func(a, b string) int {
		ca := checkRe.MatchString(strings.TrimPrefix(a, "cmd:"))
		cb := checkRe.MatchString(strings.TrimPrefix(b, "cmd:"))
		switch {
		case ca == cb:
			return 0
		case cb:
			return -1
		}
		return 1
	})
	return out
}
