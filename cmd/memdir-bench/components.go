package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/spf13/cobra"
)

// componentsDir holds labelled sets of one phenomenon each (issue 17):
// relative dates, and feedback rules with their reasons, each in a half to
// tune on and a half held out. They were written by labellers who saw
// neither the engine nor the conversation sets.
const componentsDir = "internal/extract/testdata/components"

// The halves of each set: tune is read while rules are written; heldout
// is only measured. A later labeller's set (feedback2.json, facts2.json,
// facts3.json), measured once blind as a whole, is split the same way by
// its ids: the odd ones are tune2 (tune3), the even ones heldout2
// (heldout3).
var (
	dateHalves = []string{"tune", "heldout"}
	ruleHalves = []string{"tune", "heldout", "tune2", "heldout2"}
	factHalves = []string{"tune", "heldout", "tune2", "heldout2", "tune3", "heldout3", "tune4", "heldout4", "tune5", "heldout5", "tune6", "heldout6", "tune7", "heldout7", "tune8", "heldout8"}
)

// laterSet is the number of a later labeller's set a half belongs to
// ("2" for tune2), or "".
func laterSet(half string) string {
	if n := half[len(half)-1:]; n >= "2" && n <= "9" {
		return n
	}
	return ""
}

// setFile is a half's file: "feedback.tune.json", "feedback2.json".
func setFile(dir, kind, half string) string {
	if n := laterSet(half); n != "" {
		return filepath.Join(dir, kind+n+".json")
	}
	return filepath.Join(dir, kind+"."+half+".json")
}

// ofHalf keeps the items of a later labeller's set that are in half:
// odd ids for tune2, even ones for heldout2; every item for the others.
func ofHalf[T any](half string, items []T, id func(T) string) []T {
	if laterSet(half) == "" {
		return items
	}
	var out []T
	for _, it := range items {
		digits := strings.TrimLeft(id(it), "abcdefghijklmnopqrstuvwxyz")
		n, err := strconv.Atoi(digits)
		if err == nil && (n%2 == 1) == strings.HasPrefix(half, "tune") {
			out = append(out, it)
		}
	}
	return out
}

// dateItem is one sentence of the dates set.
type dateItem struct {
	ID     string    `json:"id"`
	Anchor time.Time `json:"anchor"`
	Text   string    `json:"text"`
	Dates  []string  `json:"dates"` // the ISO dates the rewrite must hold; none: it adds none
	May    []string  `json:"may"`   // dates it may add too: the past day, the week's Monday
	Note   string    `json:"note"`
}

// ruleItem is one message of the feedback set.
type ruleItem struct {
	ID        string   `json:"id"`
	Date      string   `json:"date"`
	Assistant string   `json:"assistant"`
	Text      string   `json:"text"`
	Rule      []string `json:"rule"` // phrases a memory of the rule holds; none: no lasting rule
	Why       *string  `json:"why"`  // the reason's core, when one was given
	Note      string   `json:"note"`
}

// factItem is one message of the facts set.
type factItem struct {
	ID        string `json:"id"`
	Date      string `json:"date"`
	Assistant string `json:"assistant"`
	Text      string `json:"text"`
	Expect    []struct {
		Type string   `json:"type"`
		Must []string `json:"must"`
	} `json:"expect"` // none: nothing lasting to save
	Forbidden []string `json:"forbidden"`
	Note      string   `json:"note"`
}

// factsScore is one half's figures on the facts set.
type factsScore struct {
	Half      string           `json:"half"`
	Precision ratio            `json:"precision"` // saved memories that match an expected one
	Recall    ratio            `json:"recall"`    // expected memories matched
	Types     map[string]ratio `json:"types"`     // recall by expected type, of the right type
	Silent    ratio            `json:"silent"`    // messages with nothing to save that saved nothing
	Forbidden int              `json:"forbidden"` // forbidden phrases found saved
	Misses    []string         `json:"misses,omitempty"`
}

// datesScore is one half's figures on the dates set.
type datesScore struct {
	Half   string   `json:"half"`
	Dated  ratio    `json:"dated"` // dated sentences rewritten with every expected date and no other
	Plain  ratio    `json:"plain"` // sentences without a day left without a new date
	Misses []string `json:"misses,omitempty"`
}

// rulesScore is one half's figures on the feedback set.
type rulesScore struct {
	Half      string   `json:"half"`
	Feedback  ratio    `json:"feedback"`   // rules saved as a feedback memory holding the rule's phrases
	AnyType   ratio    `json:"any_type"`   // rules saved as any memory holding them
	Why       ratio    `json:"why"`        // rules with a reason whose memory has a **Why:** line
	WhyRight  ratio    `json:"why_right"`  // … holding the reason's core
	WhyFalse  ratio    `json:"why_false"`  // rules without a reason whose memory has a **Why:** line
	NotRules  ratio    `json:"not_rules"`  // messages with no lasting rule that saved a feedback memory
	NotSilent ratio    `json:"not_silent"` // … that saved any memory
	Misses    []string `json:"misses,omitempty"`
}

// scored is what each set's score says of itself: its half and misses.
type scored interface{ halfMisses() (string, []string) }

func (s datesScore) halfMisses() (string, []string) { return s.Half, s.Misses }
func (s rulesScore) halfMisses() (string, []string) { return s.Half, s.Misses }
func (s factsScore) halfMisses() (string, []string) { return s.Half, s.Misses }

// componentSet is one labelled set's command: its files, how an item is
// named, how a half is scored and printed.
type componentSet[T any, S scored] struct {
	kind   string // the files' prefix: dates, feedback, facts
	halves []string
	id     func(T) string
	score  func(half string, items []T) S
	table  func(b *bench, out []S)
}

// componentCmd gives cmd the RunE and flags every set shares: read each
// half, score it, print the table (or JSON), and with --verbose the
// misses of the halves tuned on, or of the one --half names.
func componentCmd[T any, S scored](b *bench, cmd *cobra.Command, set componentSet[T, S]) *cobra.Command {
	var dir string
	var verbose bool
	cmd.Args = cobra.NoArgs
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		var out []S
		for _, h := range halvesOf(cmd, set.halves) {
			var items []T
			if err := readSet(setFile(dir, set.kind, h), &items); err != nil {
				return err
			}
			out = append(out, set.score(h, ofHalf(h, items, set.id)))
		}
		if b.json {
			return b.printJSON(out)
		}
		set.table(b, out)
		for _, s := range out {
			half, misses := s.halfMisses()
			if verbose && (strings.HasPrefix(half, "tune") || cmd.Flags().Changed("half")) {
				for _, m := range misses {
					b.printf("  %s: %s\n", half, m)
				}
			}
		}
		return nil
	}
	cmd.Flags().StringVar(&dir, "dir", componentsDir, "the labelled sets' folder")
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "list the misses")
	cmd.Flags().String("half", "", "only this half: "+strings.Join(set.halves, ", "))
	return cmd
}

func (b *bench) datesCmd() *cobra.Command {
	return componentCmd(b, &cobra.Command{
		Use:   "dates",
		Short: "Relative dates made absolute, on the labelled sentences (issue 17)",
		Long: `dates rewrites each sentence of the labelled dates set (` + componentsDir + `/
dates.tune.json and dates.heldout.json: developers' chat with relative dates,
durations, recurring days, the past and look-alikes, each with the moment it
was written) as extraction does (extract.AbsoluteDates), and scores it:

  dated   sentences naming a day whose rewrite holds every expected date
          (YYYY-MM-DD) and no other new one
  plain   sentences naming no single day (a duration, every friday, last
          week, a version) that gain no date

--verbose lists the tune half's misses; the heldout half's are listed only
with --half heldout, which a person tuning rules does not read.`,
		Example: `  go run ./cmd/memdir-bench dates
  go run ./cmd/memdir-bench dates --verbose`,
	}, componentSet[dateItem, datesScore]{kind: "dates", halves: dateHalves, id: func(it dateItem) string { return it.ID }, score: scoreDates,
		table: func(b *bench, out []datesScore) {
			for _, s := range out {
				b.printf("%-8s dated %s   plain %s\n", s.Half, s.Dated, s.Plain)
			}
		}})
}

func (b *bench) rulesCmd() *cobra.Command {
	return componentCmd(b, &cobra.Command{
		Use:   "rules",
		Short: "Feedback rules and their reasons, on the labelled messages (issue 17)",
		Long: `rules runs the heuristic extraction on each message of the labelled feedback
set (` + componentsDir + `/feedback.tune.json and feedback.heldout.json: a
developer's message to an agent after the agent's last one, holding a
lasting rule with or without its reason, or only a one-off instruction, a
question, a quote, thanks) and scores what it saves:

  feedback    rules saved as a feedback memory holding the rule's phrases
  any type    rules saved as a memory of any type holding them
  why         rules given with a reason whose memory has a **Why:** line
  why right   … whose **Why:** line holds the reason's core
  why false   rules given without a reason whose memory has a **Why:** line
  not rules   messages without a lasting rule that saved a feedback memory
  not silent  … that saved any memory

tune2 and heldout2 are the odd and even ids of feedback2.json, a second
labeller's set. --verbose lists the tune and tune2 halves' misses; the
others' are listed only when --half names them, which a person tuning rules
does not do.`,
		Example: `  go run ./cmd/memdir-bench rules
  go run ./cmd/memdir-bench rules --verbose`,
	}, componentSet[ruleItem, rulesScore]{kind: "feedback", halves: ruleHalves, id: func(it ruleItem) string { return it.ID }, score: scoreRules,
		table: func(b *bench, out []rulesScore) {
			b.printf("%-8s %-11s %-11s %-11s %-11s %-11s %-11s %-11s\n", "half", "feedback", "any type", "why", "why right", "why false", "not rules", "not silent")
			for _, s := range out {
				b.printf("%-8s %-11s %-11s %-11s %-11s %-11s %-11s %-11s\n", s.Half, s.Feedback, s.AnyType, s.Why, s.WhyRight, s.WhyFalse, s.NotRules, s.NotSilent)
			}
		}})
}

func (b *bench) factsCmd() *cobra.Command {
	return componentCmd(b, &cobra.Command{
		Use:   "facts",
		Short: "User, project and reference facts, and messages with none, on the labelled messages (issue 17)",
		Long: `facts runs the heuristic extraction on each message of the labelled facts set
(` + componentsDir + `/facts.tune.json and facts.heldout.json: a developer's
message to an agent, holding up to three lasting facts about the person, the
project or where something lives, or none: a task, a question, a pasted log,
thanks, a secret) and scores what it saves, each expected memory matched
once by a saved one holding all its phrases (any case):

  precision   saved memories that match an expected one / saved
  recall      expected memories matched, and per type those saved with it
  silent      messages with nothing lasting that saved nothing
  forbidden   phrases that must never be saved (a secret, a one-off) found saved

tune2 and heldout2 are the odd and even ids of facts2.json, a second
labeller's set; tune3 and heldout3, of facts3.json, a third labeller's, all
about the person; tune4..tune8 and heldout4..heldout8, of facts4.json to
facts8.json, 400 messages each about the person or first-person talk that
says nothing lasting. The tune halves train the engine's models
('memdir-bench models'); the heldout halves never do.

--verbose lists the tune halves' misses; the others' are listed only when
--half names them, which a person tuning rules does not do.`,
		Example: `  go run ./cmd/memdir-bench facts
  go run ./cmd/memdir-bench facts --verbose`,
	}, componentSet[factItem, factsScore]{kind: "facts", halves: factHalves, id: func(it factItem) string { return it.ID }, score: scoreFacts,
		table: func(b *bench, out []factsScore) {
			b.printf("%-8s %-15s %-15s %-15s %-15s %-15s %-15s %s\n", "half", "precision", "recall", "user", "project", "reference", "silent", "forbidden")
			for _, s := range out {
				b.printf("%-8s %-15s %-15s %-15s %-15s %-15s %-15s %d\n", s.Half, s.Precision, s.Recall, s.Types["user"], s.Types["project"], s.Types["reference"], s.Silent, s.Forbidden)
			}
		}})
}

// halvesOf is the halves a command scores: all, or its --half.
func halvesOf(cmd *cobra.Command, all []string) []string {
	if h, _ := cmd.Flags().GetString("half"); h != "" {
		return []string{h}
	}
	return all
}

// readSet decodes a labelled set, refusing fields it does not know.
func readSet(path string, v any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return hint.With(err, "run from the module root, or give --dir")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

var isoDate = regexp.MustCompile(`\b\d{4}-\d{2}-\d{2}\b`)

// scoreDates rewrites each sentence and checks the dates it gained.
func scoreDates(half string, items []dateItem) datesScore {
	s := datesScore{Half: half}
	for _, it := range items {
		out, _ := extract.AbsoluteDates(it.Text, it.Anchor)
		had := isoDate.FindAllString(it.Text, -1)
		var added []string
		for _, d := range isoDate.FindAllString(out, -1) {
			if !slices.Contains(had, d) && !slices.Contains(added, d) {
				added = append(added, d)
			}
		}
		ok := true
		for _, d := range it.Dates {
			if !strings.Contains(out, d) {
				ok = false
			}
		}
		for _, d := range added {
			if !slices.Contains(it.Dates, d) && !slices.Contains(it.May, d) {
				ok = false
			}
		}
		r := &s.Plain
		if len(it.Dates) > 0 {
			r = &s.Dated
		}
		r.count(ok)
		if ok {
			continue
		}
		s.Misses = append(s.Misses, fmt.Sprintf("%s (%s, %s) %q → %q, want %v", it.ID, it.Anchor.Format(time.DateOnly), it.Anchor.Weekday(), it.Text, out, it.Dates))
	}
	return s
}

// messagesOf is one labelled message after the agent's last one, said at
// ten in the morning of its day.
func messagesOf(date, assistant, text string) []extract.Message {
	day, err := time.Parse(time.DateOnly, date)
	if err != nil {
		day = time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	}
	at := day.Add(10 * time.Hour)
	var msgs []extract.Message
	if assistant != "" {
		msgs = append(msgs, extract.Message{Role: "assistant", Text: assistant, Time: at, ID: "a"})
	}
	return append(msgs, extract.Message{Role: "user", Text: text, Time: at.Add(time.Minute), ID: "u"})
}

// scoreFacts extracts each message and matches its expected memories,
// each to one saved memory, in the label's order.
func scoreFacts(half string, items []factItem) factsScore {
	s := factsScore{Half: half, Types: map[string]ratio{}}
	for _, it := range items {
		cands, _ := extract.Heuristic(messagesOf(it.Date, it.Assistant, it.Text), "s")
		used := make([]bool, len(cands))
		for _, e := range it.Expect {
			k := -1
			for i, c := range cands {
				if !used[i] && holdsAll(c, e.Must) {
					k = i
					break
				}
			}
			s.Recall.count(k >= 0)
			r := s.Types[e.Type]
			r.count(k >= 0 && cands[k].Type == e.Type)
			s.Types[e.Type] = r
			switch {
			case k < 0:
				s.Misses = append(s.Misses, fmt.Sprintf("%s %s %q missed in %q", it.ID, e.Type, e.Must, it.Text))
			case cands[k].Type != e.Type:
				s.Misses = append(s.Misses, fmt.Sprintf("%s %s %q saved as %s", it.ID, e.Type, e.Must, cands[k].Type))
			}
			if k >= 0 {
				used[k] = true
			}
		}
		for i, c := range cands {
			s.Precision.count(used[i])
			if !used[i] {
				s.Misses = append(s.Misses, fmt.Sprintf("%s saved %s %q | %q from %q", it.ID, c.Type, c.Name, c.Body, it.Text))
			}
			for _, f := range it.Forbidden {
				if holdsAll(c, []string{f}) {
					s.Forbidden++
					s.Misses = append(s.Misses, fmt.Sprintf("%s forbidden %q saved in %q", it.ID, f, c.Body))
				}
			}
		}
		if len(it.Expect) == 0 {
			s.Silent.count(len(cands) == 0)
		}
	}
	return s
}

// scoreRules extracts each message and finds the memory of its rule.
func scoreRules(half string, items []ruleItem) rulesScore {
	s := rulesScore{Half: half}
	for _, it := range items {
		cands, _ := extract.Heuristic(messagesOf(it.Date, it.Assistant, it.Text), "s")
		if len(it.Rule) == 0 {
			var saved []string
			fb := false
			for _, c := range cands {
				saved = append(saved, c.Type+": "+c.Name)
				fb = fb || c.Type == "feedback"
			}
			s.NotRules.count(fb)
			s.NotSilent.count(len(cands) > 0)
			if len(cands) > 0 {
				s.Misses = append(s.Misses, fmt.Sprintf("%s not a rule, saved %q from %q", it.ID, saved, it.Text))
			}
			continue
		}
		var match *extract.Candidate
		for i, c := range cands {
			if holdsAll(c, it.Rule) && (match == nil || c.Type == "feedback" && match.Type != "feedback") {
				match = &cands[i]
			}
		}
		s.AnyType.count(match != nil)
		s.Feedback.count(match != nil && match.Type == "feedback")
		why, hasWhy := "", false
		if match != nil {
			_, why, hasWhy = strings.Cut(match.Body, "**Why:**")
			why, _, _ = strings.Cut(why, "\n")
		}
		if it.Why != nil {
			s.Why.count(hasWhy)
			s.WhyRight.count(hasWhy && strings.Contains(strings.ToLower(why), strings.ToLower(*it.Why)))
		} else {
			s.WhyFalse.count(hasWhy)
		}
		if match == nil {
			var saved []string
			for _, c := range cands {
				saved = append(saved, c.Type+": "+c.Name+" | "+c.Body)
			}
			s.Misses = append(s.Misses, fmt.Sprintf("%s rule %q missed in %q; saved %q", it.ID, it.Rule, it.Text, saved))
			continue
		}
		if match.Type != "feedback" {
			s.Misses = append(s.Misses, fmt.Sprintf("%s rule %q saved as %s: %q", it.ID, it.Rule, match.Type, it.Text))
		}
		switch {
		case it.Why != nil && hasWhy:
			if !strings.Contains(strings.ToLower(why), strings.ToLower(*it.Why)) {
				s.Misses = append(s.Misses, fmt.Sprintf("%s why %q, want %q, in %q", it.ID, why, *it.Why, it.Text))
			}
		case it.Why != nil:
			s.Misses = append(s.Misses, fmt.Sprintf("%s no why, want %q, in %q; body %q", it.ID, *it.Why, it.Text, match.Body))
		case hasWhy:
			s.Misses = append(s.Misses, fmt.Sprintf("%s why %q where none was given, in %q", it.ID, why, it.Text))
		}
	}
	return s
}

// count adds one case to r.
func (r *ratio) count(ok bool) {
	n := r.N
	if ok {
		n++
	}
	*r = newRatio(n, r.Of+1)
}

// holdsAll reports whether a memory holds every phrase, in any case.
func holdsAll(c extract.Candidate, phrases []string) bool {
	all := strings.ToLower(c.Name + "\n" + c.Description + "\n" + c.Body)
	for _, p := range phrases {
		if !strings.Contains(all, strings.ToLower(p)) {
			return false
		}
	}
	return true
}
