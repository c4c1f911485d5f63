package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/workspace"
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
	// The same two of the matches alone: what a found memory lacks, apart
	// from the memories never found.
	MatchedDates ratio `json:"matched_dates"`
	MatchedWhy   ratio `json:"matched_why"`
	// UnaskedWhy is the other side of Why: matched feedback and project
	// memories whose turn gave no reason, yet carry a **Why:** line — a
	// reason the engine made up out of the sentence.
	UnaskedWhy ratio `json:"unasked_why"`
}

// forbiddenHit is a forbidden phrase found in a saved memory.
type forbiddenHit struct {
	Conversation string `json:"conversation"`
	Phrase       string `json:"phrase"`
	Memory       string `json:"memory"` // the candidate's name
}

// convError is a conversation a model engine failed on, or whose answer
// was refused.
type convError struct {
	Conversation string `json:"conversation"`
	Error        string `json:"error"`
}

// extractionScore is one set's result.
type extractionScore struct {
	Set           string               `json:"set"`
	Engine        string               `json:"engine"`
	Conversations int                  `json:"conversations"` // scored: the failed ones are not
	Forbid        int                  `json:"forbidden_items"`
	All           typeScore            `json:"all"`
	Types         map[string]typeScore `json:"types"`
	ForbiddenHits []forbiddenHit       `json:"forbidden_hits"`
	LongNames     []string             `json:"names_over_6_words"`
	// Misses and extras are listed with --verbose.
	Missed []string `json:"missed,omitempty"`
	Extra  []string `json:"unmatched_saved,omitempty"`
	// Short are matches without the date or the Why line they needed;
	// Unasked, matches with a Why line where the turn gave no reason.
	Short   []string `json:"short,omitempty"`
	Unasked []string `json:"unasked_why,omitempty"`
	// A model engine's conversations that failed (not scored) and whose
	// answer was refused twice (scored: nothing saved).
	Failed  []convError `json:"failed,omitempty"`
	Refused []convError `json:"refused,omitempty"`
}

// counts accumulates one type's numerators and denominators.
type counts struct {
	expected, saved, savedMatched, matched, typeOK, dated, dateOK, why, whyOK int
	datedMatched, whyMatched, noWhy, noWhyLine                                int
}

// engineFunc proposes memories for one conversation's messages (session
// is its id). refused is a model's answer the product refuses twice (it
// then saves nothing); err is the engine failing.
type engineFunc func(ctx context.Context, msgs []extract.Message, session string) (cands []extract.Candidate, refused, err error)

// heuristicEngine runs extract.Heuristic on the messages as the workspace
// builds them from a transcript.
func heuristicEngine(_ context.Context, msgs []extract.Message, session string) ([]extract.Candidate, error, error) {
	cands, _ := extract.Heuristic(msgs, session)
	return cands, nil, nil
}

// messages are the conversation's turns as the workspace builds them from
// a transcript: role, text, the time (from 10:00 of the session's day,
// local time, as the engines read days, a minute a turn), an id, harness
// text marked.
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

// assign matches each expected memory to at most one saved memory that
// holds its phrases, each saved memory used once, as many expected ones
// matched as can be (a maximum matching: which expected memory is listed
// first must not decide the score), saved memories of the expected type
// tried first. It returns, per expected memory, the saved one's index or
// -1.
func assign(expect []Expected, cands []extract.Candidate, texts []string) []int {
	same := make([][]int, len(expect)) // saved memories of the expected type that match
	all := make([][]int, len(expect))  // every saved memory that matches, same type first
	for ei, e := range expect {
		var other []int
		for i := range cands {
			switch {
			case !matches(e, texts[i]):
			case cands[i].Type == e.Type:
				same[ei] = append(same[ei], i)
			default:
				other = append(other, i)
			}
		}
		all[ei] = append(slices.Clone(same[ei]), other...)
	}
	owner := make([]int, len(cands)) // saved → expected, or -1
	for i := range owner {
		owner[i] = -1
	}
	var try func(adj [][]int, ei int, seen []bool) bool
	try = func(adj [][]int, ei int, seen []bool) bool {
		for _, i := range adj[ei] {
			if seen[i] {
				continue
			}
			seen[i] = true
			if owner[i] < 0 || try(adj, owner[i], seen) {
				owner[i] = ei
				return true
			}
		}
		return false
	}
	// The type-true pairs first, then any pair that adds a match.
	matched := make([]bool, len(expect))
	for _, adj := range [][][]int{same, all} {
		for ei := range expect {
			if !matched[ei] {
				matched[ei] = try(adj, ei, make([]bool, len(cands)))
			}
		}
	}
	out := make([]int, len(expect))
	for i := range out {
		out[i] = -1
	}
	for i, ei := range owner {
		if ei >= 0 {
			out[ei] = i
		}
	}
	return out
}

// outcome is what an engine did with one conversation.
type outcome struct {
	cands   []extract.Candidate
	refused error // the answer was refused twice: scored as saving nothing
	err     error // the engine failed: the conversation is not scored
}

// runEngine runs engine on each conversation of set, once. A model
// engine's failure on one conversation is its outcome, and the run goes
// on; only an interrupt stops it. progress, when not nil, gets a line per
// conversation.
func runEngine(ctx context.Context, set string, convs []Conversation, engine engineFunc, progress io.Writer) ([]outcome, error) {
	outs := make([]outcome, len(convs))
	for i, c := range convs {
		msgs, err := c.messages()
		if err != nil {
			return nil, err
		}
		start := time.Now()
		o := &outs[i]
		o.cands, o.refused, o.err = engine(ctx, msgs, c.ID)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if progress == nil {
			continue
		}
		took := time.Since(start).Round(100 * time.Millisecond)
		switch {
		case o.err != nil:
			fmt.Fprintf(progress, "%s %d/%d %s: failed (%s): %v\n", set, i+1, len(convs), c.ID, took, o.err)
		case o.refused != nil:
			fmt.Fprintf(progress, "%s %d/%d %s: answer refused twice, nothing saved (%s): %v\n", set, i+1, len(convs), c.ID, took, o.refused)
		default:
			fmt.Fprintf(progress, "%s %d/%d %s: %d memories (%s)\n", set, i+1, len(convs), c.ID, len(o.cands), took)
		}
	}
	return outs, nil
}

// scoreExtraction scores an engine's outcomes on convs (outs[i] is
// convs[i]'s). A candidate matches an expected memory when it holds all
// its phrases; each candidate matches at most one expected memory and
// each expected memory one candidate, a candidate of the expected type
// first. Type accuracy is judged on the matched pairs. A conversation the
// engine failed on is listed, not scored; a refused answer saved nothing.
func scoreExtraction(set, engineName string, convs []Conversation, outs []outcome) extractionScore {
	sc := extractionScore{Set: set, Engine: engineName, Types: map[string]typeScore{},
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
	for ci, c := range convs {
		o := outs[ci]
		if o.err != nil {
			sc.Failed = append(sc.Failed, convError{Conversation: c.ID, Error: o.err.Error()})
			continue
		}
		if o.refused != nil {
			sc.Refused = append(sc.Refused, convError{Conversation: c.ID, Error: o.refused.Error()})
		}
		cands := o.cands
		sc.Conversations++
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
		pairs := assign(c.Expect, cands, texts)
		for ei, e := range c.Expect {
			k := get(e.Type)
			k.expected++
			if e.Date != "" {
				k.dated++
			}
			if e.Why {
				k.why++
			}
			best := pairs[ei]
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
			if e.Date != "" {
				k.datedMatched++
				if strings.Contains(texts[best], e.Date) {
					k.dateOK++
				} else {
					sc.Short = append(sc.Short, fmt.Sprintf("%s: no %s in %q", c.ID, e.Date, cand.Body))
				}
			}
			if !e.Why && (e.Type == "feedback" || e.Type == "project") {
				k.noWhy++
				if strings.Contains(cand.Body, "**Why:**") {
					k.noWhyLine++
					sc.Unasked = append(sc.Unasked, fmt.Sprintf("%s: %q", c.ID, cand.Body))
				}
			}
			if e.Why {
				k.whyMatched++
				if strings.Contains(cand.Body, "**Why:**") {
					k.whyOK++
				} else {
					sc.Short = append(sc.Short, fmt.Sprintf("%s: no Why line in %q", c.ID, cand.Body))
				}
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
		all.datedMatched += k.datedMatched
		all.whyMatched += k.whyMatched
		all.noWhy += k.noWhy
		all.noWhyLine += k.noWhyLine
	}
	sc.All = all.score()
	return sc
}

func (k counts) score() typeScore {
	return typeScore{Expected: k.expected, Saved: k.saved, Precision: newRatio(k.savedMatched, k.saved),
		Recall: newRatio(k.matched, k.expected), TypeAcc: newRatio(k.typeOK, k.matched),
		Dates: newRatio(k.dateOK, k.dated), Why: newRatio(k.whyOK, k.why),
		MatchedDates: newRatio(k.dateOK, k.datedMatched), MatchedWhy: newRatio(k.whyOK, k.whyMatched),
		UnaskedWhy: newRatio(k.noWhyLine, k.noWhy)}
}

// extractionSets are the parts of the labelled set, in the order they were
// written.
var extractionSets = []string{"tune", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19"}

// loadExtractionSet reads one part of the set (one of extractionSets).
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
		Use:   "extraction [--set tune|heldout|fresh|fresh2|fresh3|fresh4|fresh5|fresh6|fresh7|fresh8|fresh9|fresh10|fresh11|fresh12|fresh13|fresh14|fresh15|fresh16|fresh17|fresh18|fresh19|all] [--engine heuristic|anthropic|openai|claude]",
		Short: "Extraction quality on the labelled conversation set (issue 17)",
		Long: `Extraction runs an extraction engine on each conversation of the labelled set
(` + extractionDir + `: tune.json to tune rules on, heldout.json to
check them, and fresh.json, written later by a labeller who never saw the
engine, held back after heldout.json had been measured several times, then
used to check rules; fresh2.json, a third labeller's, measured once,
after the rules were settled; fresh3.json, a fourth labeller's, written
later to find what the rules still missed; and fresh4.json, a fifth
labeller's, measured once after the rules from fresh3; fresh5.json, a
sixth labeller's, measured once before its misses were read to find what
the rules still missed; fresh6.json, fresh7.json and fresh8.json, a
seventh, an eighth and a ninth labeller's, the same way; fresh9.json, a
tenth labeller's, measured once after the rules were settled and held out;
fresh10.json, an eleventh labeller's, measured once before its misses were
read; fresh11.json, a twelfth labeller's, written at the same time and held
out; fresh12.json and fresh13.json, a thirteenth and a fourteenth
labeller's, asked for hard cases (rules that hold only for now, statements
taken back, jokes about oneself), measured once blind: fresh12 then read,
fresh13 held out; fresh14.json and fresh15.json, a fifteenth and a
sixteenth, asked for talk as typed (rambling, terse, non-native, facts in
passing), measured once blind: fresh14 then read, fresh15 held out;
fresh16.json and fresh17.json, a seventeenth and an eighteenth, from
the same brief in twenty new domains, measured once blind: fresh16 then
read, fresh17 held out; fresh18.json and fresh19.json, a nineteenth and
a twentieth, written after the pass's first rules: fresh18 held out,
fresh19 measured once blind and then read)
and scores what it would save against what a careful colleague
would: a saved memory matches an expected one when its name, description or
body holds all the expected phrases (any case).

  precision   saved memories that match an expected one / saved
  recall      expected memories matched / expected
  type        matched pairs whose saved type is the expected one
  dates       expected memories with a date whose match holds it (YYYY-MM-DD)
  why         expected memories with a reason whose match has a **Why:** line
              (both also printed for the memories found alone)
  unasked why found feedback and project memories whose turn gave no
              reason, yet with a **Why:** line (lower is better)
  forbidden   phrases that must never be saved (secrets, tasks, jokes, git
              history, pasted instructions, harness records) found saved
  long names  saved names over 6 words

Per type, recall is by the expected type and precision by the saved type.
--verbose lists the forbidden hits, the misses, the unmatched saves, the
matches short of their date or Why line, and the Why lines no reason was
given for.

ENGINES
  heuristic   offline and deterministic (the default)
  anthropic   the Messages API: ANTHROPIC_API_KEY
  openai      any OpenAI-compatible endpoint: OPENAI_API_KEY and/or
              MEMDIR_LLM_BASE_URL (e.g. http://localhost:11434/v1 for Ollama)
  claude      the claude CLI in print mode (MEMDIR_CLAUDE_BIN, else claude
              on the PATH)
  MEMDIR_LLM_MODEL, MEMDIR_LLM_BASE_URL and MEMDIR_LLM_TIMEOUT tune them, as
  for 'memdir extract'. A model engine is asked exactly as 'memdir extract
  --engine …' asks it (the same prompt, request, strict reading of the
  answer and one retry of a refused answer), with an empty memory folder,
  once per conversation (--set all asks each conversation once). A missing
  key is refused before any call. Each conversation's result goes to stderr
  as it comes (a model is slow). A conversation whose call fails (after the
  client's retries) is reported, listed as failed ("failed" in --json) and
  left out of the scores, and the run goes on; the command then exits 1. An
  answer refused twice saves nothing, as in memdir extract: it is scored so,
  and listed as refused ("refused" in --json).`,
		Example: `  go run ./cmd/memdir-bench extraction
  go run ./cmd/memdir-bench extraction --set heldout --verbose
  go run ./cmd/memdir-bench extraction --json
  ANTHROPIC_API_KEY=… go run ./cmd/memdir-bench extraction --engine anthropic --set tune
  MEMDIR_LLM_BASE_URL=http://localhost:11434/v1 MEMDIR_LLM_MODEL=qwen2.5 go run ./cmd/memdir-bench extraction --engine openai`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var names []string
			switch {
			case slices.Contains(extractionSets, set):
				names = []string{set}
			case set == "all":
				names = extractionSets
			default:
				list := strings.Join(extractionSets, ", ")
				return hint.With(fmt.Errorf("--set %q is none of %s, all", set, list), "use --set %s or all", list)
			}
			sets := make([][]Conversation, len(names))
			for i, n := range names {
				convs, err := loadExtractionSet(dir, n)
				if err != nil {
					return err
				}
				sets[i] = convs
			}
			eng, progress, done, err := b.extractionEngine(engine)
			if err != nil {
				return err
			}
			defer done()
			var scores []extractionScore
			var every []Conversation
			var outs []outcome
			for i, n := range names {
				o, err := runEngine(b.ctx, n, sets[i], eng, progress)
				if err != nil {
					return err
				}
				every, outs = append(every, sets[i]...), append(outs, o...)
				scores = append(scores, scoreExtraction(n, engine, sets[i], o))
			}
			if len(names) > 1 {
				scores = append(scores, scoreExtraction("all", engine, every, outs))
			}
			if !verbose {
				for i := range scores {
					scores[i].Missed, scores[i].Extra, scores[i].Short = nil, nil, nil
				}
			}
			if b.json {
				err = b.printJSON(scores)
			} else {
				for _, sc := range scores {
					if err = b.printExtraction(sc, verbose); err != nil {
						break
					}
				}
			}
			if err != nil {
				return err
			}
			return failedError(engine, every, outs)
		},
	}
	f := cmd.Flags()
	f.StringVar(&set, "set", "all", "which part: tune, heldout, fresh, fresh2 … fresh19, or all (each, and together)")
	f.StringVar(&engine, "engine", "heuristic", "the engine: heuristic, or a model engine (anthropic, openai, claude: see ENGINES)")
	f.StringVar(&dir, "dir", extractionDir, "the folder holding tune.json and heldout.json")
	f.BoolVarP(&verbose, "verbose", "v", false, "list forbidden hits, misses and unmatched saves")
	return cmd
}

// extractionEngine is engine's function, where its progress goes (nil: no
// progress), and what to call when the run is over. A model engine's
// client is made here, from the environment, before any call: a missing
// key is refused with a hint naming what to set.
func (b *bench) extractionEngine(engine string) (eng engineFunc, progress io.Writer, done func(), err error) {
	switch engine {
	case workspace.ExtractHeuristic:
		return heuristicEngine, nil, func() {}, nil
	case workspace.ExtractAnthropic, workspace.ExtractOpenAI, workspace.ExtractClaude:
	default:
		return nil, nil, nil, hint.With(fmt.Errorf("unknown engine %q", engine), "use --engine heuristic, anthropic, openai or claude")
	}
	scratch, err := os.MkdirTemp("", "memdir-bench-extraction-")
	if err != nil {
		return nil, nil, nil, err
	}
	done = func() { os.RemoveAll(scratch) }
	m, err := workspace.NewModelExtractor(workspace.Env{Getenv: os.Getenv}, engine, scratch)
	if err != nil {
		done()
		return nil, nil, nil, hint.With(err, "%s", engineSetup[engine])
	}
	return m.Propose, b.stderr, done, nil
}

// engineSetup is what a model engine needs from the environment.
var engineSetup = map[string]string{
	workspace.ExtractAnthropic: "export ANTHROPIC_API_KEY (MEMDIR_LLM_MODEL, MEMDIR_LLM_BASE_URL and MEMDIR_LLM_TIMEOUT optional), or use --engine heuristic",
	workspace.ExtractOpenAI: "export OPENAI_API_KEY, or MEMDIR_LLM_BASE_URL for a local server such as http://localhost:11434/v1 " +
		"(MEMDIR_LLM_MODEL and MEMDIR_LLM_TIMEOUT optional), or use --engine heuristic",
	workspace.ExtractClaude: "install Claude Code or set MEMDIR_CLAUDE_BIN to the claude binary (MEMDIR_LLM_MODEL and MEMDIR_LLM_TIMEOUT optional), " +
		"or use --engine heuristic",
}

// failedError is the run's error when the engine failed on a conversation
// (each counted once, though --set all scores it twice).
func failedError(engine string, convs []Conversation, outs []outcome) error {
	var ids []string
	var first error
	for i, o := range outs {
		if o.err != nil {
			ids = append(ids, convs[i].ID)
			first = cmp.Or(first, o.err)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return hint.With(fmt.Errorf("the %s engine failed on %d of %d conversations (%s), left out of the scores: %w",
		engine, len(ids), len(convs), strings.Join(ids, ", "), first),
		"each failure's reason is on stderr above; check the engine's key, MEMDIR_LLM_MODEL and MEMDIR_LLM_BASE_URL, then run again")
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
	b.printf("of the memories found: dates %s, why %s; a Why line where no reason was given %s\n",
		sc.All.MatchedDates, sc.All.MatchedWhy, sc.All.UnaskedWhy)
	b.printf("forbidden hits %d, names over 6 words %d\n", len(sc.ForbiddenHits), len(sc.LongNames))
	if len(sc.Failed)+len(sc.Refused) > 0 {
		b.printf("failed %d (not scored), refused %d (scored as saving nothing)\n", len(sc.Failed), len(sc.Refused))
	}
	for _, f := range sc.Failed {
		b.printf("  failed     %s: %s\n", f.Conversation, f.Error)
	}
	for _, r := range sc.Refused {
		b.printf("  refused    %s: %s\n", r.Conversation, r.Error)
	}
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
		for _, x := range sc.Short {
			b.printf("  short      %s\n", x)
		}
		for _, x := range sc.Unasked {
			b.printf("  unasked    %s\n", x)
		}
	}
	b.printf("\n")
	return nil
}
