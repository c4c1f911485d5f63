package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/spf13/cobra"
)

// extractionDir is where the labelled extraction set lives (issue 17),
// relative to the module root.
const extractionDir = "internal/extract/testdata/extraction"

// memoryTypes are the four memory types, in the order reports list them.
var memoryTypes = []string{"user", "feedback", "project", "reference"}

// Conversation is one labelled session of the extraction set.
type Conversation struct {
	ID       string         `json:"id"`
	Domain   string         `json:"domain,omitempty"` // backend, frontend, data, devops, mixed
	Date     string         `json:"date"`             // the session's day, YYYY-MM-DD
	Messages []benchMessage `json:"messages"`
	// Expect is what a careful colleague would save; Forbid, phrases no
	// saved memory may contain.
	Expect []Expected `json:"expect"`
	Forbid []string   `json:"forbid"`
}

type benchMessage struct {
	Role string `json:"role"` // user or assistant
	Text string `json:"text"`
	Meta bool   `json:"meta,omitempty"` // harness text, not typed by the user
}

// Expected is one memory a correct engine saves.
type Expected struct {
	Type string   `json:"type"`
	Must []string `json:"must"`           // phrases the memory's name, description or body all contain (any case)
	Date string   `json:"date,omitempty"` // the absolute date the memory must hold
	Why  bool     `json:"why"`            // the turn gave a reason: the body needs a **Why:** line
}

// ratio is a count over a total; its value is 0 when the total is.
type ratio struct {
	N     int     `json:"n"`
	Of    int     `json:"of"`
	Value float64 `json:"value"`
}

func newRatio(n, of int) ratio {
	r := ratio{N: n, Of: of}
	if of > 0 {
		r.Value = float64(n) / float64(of)
	}
	return r
}

func (r ratio) String() string {
	if r.Of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (%d/%d)", r.Value, r.N, r.Of)
}

// typeScore is one type's figures (or all types').
type typeScore struct {
	Expected  int   `json:"expected"`
	Saved     int   `json:"saved"`
	Precision ratio `json:"precision"`     // saved candidates of this type that match an expected memory
	Recall    ratio `json:"recall"`        // expected memories of this type that a candidate matches
	TypeAcc   ratio `json:"type_accuracy"` // matched expected memories whose candidate has their type
	Dates     ratio `json:"dates"`         // expected with a date whose match holds it
	Why       ratio `json:"why"`           // expected with a reason whose match has a **Why:** line
}

// forbiddenHit is a forbidden phrase found in a saved memory.
type forbiddenHit struct {
	Conversation string `json:"conversation"`
	Phrase       string `json:"phrase"`
	Memory       string `json:"memory"` // the candidate's name
}

// extractionScore is one set's result.
type extractionScore struct {
	Set           string               `json:"set"`
	Engine        string               `json:"engine"`
	Conversations int                  `json:"conversations"`
	Forbid        int                  `json:"forbidden_items"`
	All           typeScore            `json:"all"`
	Types         map[string]typeScore `json:"types"`
	ForbiddenHits []forbiddenHit       `json:"forbidden_hits"`
	LongNames     []string             `json:"names_over_6_words"`
	// Misses and extras are listed with --verbose.
	Missed []string `json:"missed,omitempty"`
	Extra  []string `json:"unmatched_saved,omitempty"`
}

// counts accumulates one type's numerators and denominators.
type counts struct {
	expected, saved, savedMatched, matched, typeOK, dated, dateOK, why, whyOK int
}

// engineFunc proposes memories for one conversation.
type engineFunc func(c Conversation) ([]extract.Candidate, error)

// heuristicEngine runs extract.Heuristic on the messages as the workspace
// builds them from a transcript: role, text, the time (noon of the
// session's day, local time, as the engine reads days), an id, harness
// text marked.
func heuristicEngine(c Conversation) ([]extract.Candidate, error) {
	msgs, err := c.messages()
	if err != nil {
		return nil, err
	}
	cands, _ := extract.Heuristic(msgs, c.ID)
	return cands, nil
}

func (c Conversation) messages() ([]extract.Message, error) {
	day, err := time.ParseInLocation(time.DateOnly, c.Date, time.Local)
	if err != nil {
		return nil, fmt.Errorf("conversation %s: date %q: %w", c.ID, c.Date, err)
	}
	var out []extract.Message
	for i, m := range c.Messages {
		at := day.Add(10*time.Hour + time.Duration(i)*time.Minute)
		out = append(out, extract.Message{Role: m.Role, Text: m.Text, Time: at, ID: fmt.Sprintf("m%d", i), Meta: m.Meta})
	}
	return out, nil
}

// memoryText is what phrases are looked for in: name, description, body.
func memoryText(c extract.Candidate) string {
	return strings.ToLower(c.Name + "\n" + c.Description + "\n" + c.Body)
}

func matches(e Expected, text string) bool {
	for _, p := range e.Must {
		if !strings.Contains(text, strings.ToLower(p)) {
			return false
		}
	}
	return len(e.Must) > 0
}

// scoreExtraction runs engine on every conversation and scores it. A
// candidate matches an expected memory when it holds all its phrases; each
// candidate matches at most one expected memory and each expected memory
// one candidate, a candidate of the expected type first. Type accuracy is
// judged on the matched pairs.
func scoreExtraction(set, engineName string, convs []Conversation, engine engineFunc) (extractionScore, error) {
	sc := extractionScore{Set: set, Engine: engineName, Conversations: len(convs), Types: map[string]typeScore{},
		ForbiddenHits: []forbiddenHit{}, LongNames: []string{}}
	per := map[string]*counts{}
	for _, t := range memoryTypes {
		per[t] = &counts{}
	}
	get := func(t string) *counts {
		if per[t] == nil {
			per[t] = &counts{}
		}
		return per[t]
	}
	for _, c := range convs {
		cands, err := engine(c)
		if err != nil {
			return sc, err
		}
		sc.Forbid += len(c.Forbid)
		texts := make([]string, len(cands))
		used := make([]bool, len(cands))
		for i, cand := range cands {
			texts[i] = memoryText(cand)
			get(cand.Type).saved++
			if len(strings.Fields(cand.Name)) > 6 {
				sc.LongNames = append(sc.LongNames, c.ID+": "+cand.Name)
			}
			for _, f := range c.Forbid {
				if strings.Contains(texts[i], strings.ToLower(f)) {
					sc.ForbiddenHits = append(sc.ForbiddenHits, forbiddenHit{Conversation: c.ID, Phrase: f, Memory: cand.Name})
				}
			}
		}
		for _, e := range c.Expect {
			k := get(e.Type)
			k.expected++
			if e.Date != "" {
				k.dated++
			}
			if e.Why {
				k.why++
			}
			best := -1
			for i := range cands {
				if used[i] || !matches(e, texts[i]) {
					continue
				}
				if best < 0 || cands[i].Type == e.Type && cands[best].Type != e.Type {
					best = i
				}
			}
			if best < 0 {
				sc.Missed = append(sc.Missed, fmt.Sprintf("%s: %s %q", c.ID, e.Type, e.Must))
				continue
			}
			used[best] = true
			cand := cands[best]
			k.matched++
			get(cand.Type).savedMatched++
			if cand.Type == e.Type {
				k.typeOK++
			}
			if e.Date != "" && strings.Contains(texts[best], e.Date) {
				k.dateOK++
			}
			if e.Why && strings.Contains(cand.Body, "**Why:**") {
				k.whyOK++
			}
		}
		for i, cand := range cands {
			if !used[i] {
				sc.Extra = append(sc.Extra, fmt.Sprintf("%s: %s %q: %s", c.ID, cand.Type, cand.Name, cand.Description))
			}
		}
	}
	var all counts
	for t, k := range per {
		sc.Types[t] = k.score()
		all.expected += k.expected
		all.saved += k.saved
		all.savedMatched += k.savedMatched
		all.matched += k.matched
		all.typeOK += k.typeOK
		all.dated += k.dated
		all.dateOK += k.dateOK
		all.why += k.why
		all.whyOK += k.whyOK
	}
	sc.All = all.score()
	return sc, nil
}

func (k counts) score() typeScore {
	return typeScore{Expected: k.expected, Saved: k.saved, Precision: newRatio(k.savedMatched, k.saved),
		Recall: newRatio(k.matched, k.expected), TypeAcc: newRatio(k.typeOK, k.matched),
		Dates: newRatio(k.dateOK, k.dated), Why: newRatio(k.whyOK, k.why)}
}

// loadExtractionSet reads one half of the set (tune or heldout).
func loadExtractionSet(dir, name string) ([]Conversation, error) {
	p := filepath.Join(dir, name+".json")
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, hint.With(err, "run from the module root, or pass --dir "+extractionDir)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	var convs []Conversation
	if err := dec.Decode(&convs); err != nil {
		return nil, fmt.Errorf("parse %s: %w", p, err)
	}
	for _, c := range convs {
		if err := c.check(); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
	}
	return convs, nil
}

// check refuses a conversation the scorer cannot judge.
func (c Conversation) check() error {
	if c.ID == "" || len(c.Messages) == 0 {
		return fmt.Errorf("conversation %q: no id or no messages", c.ID)
	}
	if _, err := time.Parse(time.DateOnly, c.Date); err != nil {
		return fmt.Errorf("conversation %s: date %q is not YYYY-MM-DD", c.ID, c.Date)
	}
	for _, m := range c.Messages {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Errorf("conversation %s: role %q", c.ID, m.Role)
		}
	}
	for _, e := range c.Expect {
		if !slices.Contains(memoryTypes, e.Type) || len(e.Must) == 0 || len(e.Must) > 3 {
			return fmt.Errorf("conversation %s: expected %q %q: a type of %v and 1-3 phrases", c.ID, e.Type, e.Must, memoryTypes)
		}
		if e.Date != "" {
			if _, err := time.Parse(time.DateOnly, e.Date); err != nil {
				return fmt.Errorf("conversation %s: expected date %q is not YYYY-MM-DD", c.ID, e.Date)
			}
		}
	}
	return nil
}

func (b *bench) extractionCmd() *cobra.Command {
	var set, engine, dir string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "extraction [--set tune|heldout|all] [--engine heuristic]",
		Short: "Extraction quality on the labelled conversation set (issue 17)",
		Long: `Extraction runs an extraction engine on each conversation of the labelled set
(` + extractionDir + `: tune.json to tune rules on, heldout.json to
check them) and scores what it would save against what a careful colleague
would: a saved memory matches an expected one when its name, description or
body holds all the expected phrases (any case).

  precision   saved memories that match an expected one / saved
  recall      expected memories matched / expected
  type        matched pairs whose saved type is the expected one
  dates       expected memories with a date whose match holds it (YYYY-MM-DD)
  why         expected memories with a reason whose match has a **Why:** line
  forbidden   phrases that must never be saved (secrets, tasks, jokes, git
              history, pasted instructions, harness records) found saved
  long names  saved names over 6 words

Per type, recall is by the expected type and precision by the saved type.
--verbose lists the forbidden hits, the misses and the unmatched saves.

Only the heuristic engine runs yet; the model engines (anthropic, openai,
claude) are refused until the workspace exposes extraction from messages.`,
		Example: `  go run ./cmd/memdir-bench extraction
  go run ./cmd/memdir-bench extraction --set heldout --verbose
  go run ./cmd/memdir-bench extraction --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var eng engineFunc
			switch engine {
			case "heuristic":
				eng = heuristicEngine
			case "anthropic", "openai", "claude":
				return hint.With(fmt.Errorf("--engine %s: not yet: the model engines are not reachable from a list of messages", engine),
					"use --engine heuristic (the model engines come with issue 17's engine work)")
			default:
				return hint.With(fmt.Errorf("unknown engine %q", engine), "use --engine heuristic, anthropic, openai or claude")
			}
			var names []string
			switch set {
			case "tune", "heldout":
				names = []string{set}
			case "all":
				names = []string{"tune", "heldout"}
			default:
				return hint.With(fmt.Errorf("--set %q is none of tune, heldout, all", set), "use --set tune, heldout or all")
			}
			var scores []extractionScore
			var every []Conversation
			for _, n := range names {
				convs, err := loadExtractionSet(dir, n)
				if err != nil {
					return err
				}
				every = append(every, convs...)
				sc, err := scoreExtraction(n, engine, convs, eng)
				if err != nil {
					return err
				}
				scores = append(scores, sc)
			}
			if len(names) > 1 {
				sc, err := scoreExtraction("all", engine, every, eng)
				if err != nil {
					return err
				}
				scores = append(scores, sc)
			}
			if !verbose {
				for i := range scores {
					scores[i].Missed, scores[i].Extra = nil, nil
				}
			}
			if b.json {
				return b.printJSON(scores)
			}
			for _, sc := range scores {
				if err := b.printExtraction(sc, verbose); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&set, "set", "all", "which half: tune, heldout or all (both, and together)")
	f.StringVar(&engine, "engine", "heuristic", "the engine: heuristic (anthropic, openai, claude: not yet)")
	f.StringVar(&dir, "dir", extractionDir, "the folder holding tune.json and heldout.json")
	f.BoolVarP(&verbose, "verbose", "v", false, "list forbidden hits, misses and unmatched saves")
	return cmd
}

func (b *bench) printExtraction(sc extractionScore, verbose bool) error {
	b.printf("set %s, engine %s: %d conversations, %d expected memories, %d forbidden items\n",
		sc.Set, sc.Engine, sc.Conversations, sc.All.Expected, sc.Forbid)
	tw := tabwriter.NewWriter(b.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "type\texpected\tsaved\tprecision\trecall\ttype\tdates\twhy\t\n")
	row := func(name string, t typeScore) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t\n", name, t.Expected, t.Saved, t.Precision, t.Recall, t.TypeAcc, t.Dates, t.Why)
	}
	for _, t := range memoryTypes {
		row(t, sc.Types[t])
	}
	row("all", sc.All)
	if err := tw.Flush(); err != nil {
		return err
	}
	b.printf("forbidden hits %d, names over 6 words %d\n", len(sc.ForbiddenHits), len(sc.LongNames))
	if verbose {
		for _, h := range sc.ForbiddenHits {
			b.printf("  forbidden  %s: %q in %q\n", h.Conversation, h.Phrase, h.Memory)
		}
		for _, n := range sc.LongNames {
			b.printf("  long name  %s\n", n)
		}
		for _, m := range sc.Missed {
			b.printf("  missed     %s\n", m)
		}
		for _, x := range sc.Extra {
			b.printf("  unmatched  %s\n", x)
		}
	}
	b.printf("\n")
	return nil
}
