package workspace

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/patterns"
)

// patternsTimeout bounds one model request of a patterns run.
const patternsTimeout = 3 * time.Minute

// patternsMaxTokens bounds a model's answer: a few hundred groups of ids.
const patternsMaxTokens = 8000

// CheckPatternsEngine refuses an engine `memdir patterns` does not know.
func CheckPatternsEngine(engine string) error {
	switch engine {
	case "", ExtractHeuristic, ExtractAnthropic, ExtractOpenAI, ExtractClaude, PatternsAgent:
		return nil
	}
	return hint.With(fmt.Errorf("unknown engine %q", engine), "use --engine heuristic, anthropic, openai, claude or agent")
}

// modelAnswer is the last answer of a model engine, kept in the synthesis
// folder: --apply with the same engine over the same diaries reads it
// instead of asking again, so the patterns it applies are the ones the
// person was shown (a model need not answer twice alike).
type modelAnswer struct {
	Key    string    `json:"key"` // the request's hash
	Engine string    `json:"engine"`
	At     time.Time `json:"at"`
	Answer string    `json:"answer"`
}

func patternsAnswerFile(engine string) string { return "patterns-" + engine + ".json" }

// find groups docs with the engine o names. A model engine regroups what
// the heuristic engine found and words the rules; memdir counts the tasks.
// When the model fails or answers twice what memdir cannot use, the
// heuristic result stands, with a warning. The caller holds the folder's
// lock.
func (d *Diaries) find(ctx context.Context, o PatternsOptions, docs []patterns.Doc, known []patterns.Known, dryRun bool, now time.Time) (patterns.Result, []string, error) {
	opt := patterns.Options{MinTasks: o.MinTasks, Known: known}
	heuristic := patterns.Find(docs, opt)
	if o.Engine == "" || o.Engine == ExtractHeuristic || len(docs) == 0 {
		return heuristic, nil, nil
	}
	lines, msg, omitted := groupRequest(docs, heuristic)
	var warnings []string
	if omitted > 0 {
		warnings = append(warnings, fmt.Sprintf("the %s engine read the newest lines only: %d older lines did not fit its request", o.Engine, omitted))
	}
	// The answer kept is reused only for the same request to the same
	// model: the engine, its model and endpoint, the prompt, the lines.
	model := d.Env.getenv("MEMDIR_LLM_MODEL") + "\x00" + d.Env.getenv("MEMDIR_LLM_BASE_URL") + "\x00" + d.Env.getenv("MEMDIR_CLAUDE_BIN")
	key := hex.EncodeToString(requestHash(o.Engine+"\x00"+model, msg, lines))
	var cached modelAnswer
	if found, err := d.Folder.ReadJSON(patternsAnswerFile(o.Engine), &cached); err == nil && found && cached.Key == key {
		if groups, err := patterns.ParseGroups(cached.Answer, omitted, len(lines)); err == nil {
			return patterns.FromGroups(docs, groups, opt), warnings, nil
		}
	}
	client, err := d.Models.chat(d.Env, o.Engine, patternsTimeout)
	if err != nil {
		return heuristic, warnings, hint.With(fmt.Errorf("patterns engine %s: %w", o.Engine, err),
			"set the engine's key or endpoint (ANTHROPIC_API_KEY, OPENAI_API_KEY or MEMDIR_LLM_BASE_URL), or use --engine heuristic, which needs no model")
	}
	req := llm.Request{System: patterns.GroupPrompt, JSON: true, MaxTokens: patternsMaxTokens,
		Messages: []llm.Message{{Role: "user", Content: msg}}}
	for attempt := 1; ; attempt++ {
		resp, err := client.Complete(ctx, req)
		if err != nil {
			if ctx.Err() != nil {
				return heuristic, warnings, fmt.Errorf("patterns engine %s: %w", o.Engine, context.Cause(ctx))
			}
			return heuristic, append(warnings, fmt.Sprintf("the %s engine failed, so these are the heuristic engine's patterns: %v", o.Engine, err)), nil
		}
		groups, perr := patterns.ParseGroups(resp.Text, omitted, len(lines))
		if perr == nil && dryRun {
			return patterns.FromGroups(docs, groups, opt), warnings, nil
		}
		if perr == nil {
			if werr := d.Folder.WriteJSON(patternsAnswerFile(o.Engine), modelAnswer{Key: key, Engine: o.Engine, At: now.UTC(), Answer: resp.Text}); werr != nil {
				warnings = append(warnings, "the model's answer was not kept, so --apply will ask it again: "+werr.Error())
			}
			return patterns.FromGroups(docs, groups, opt), warnings, nil
		}
		if attempt == 2 || !errors.Is(perr, patterns.ErrInvalidAnswer) {
			return heuristic, append(warnings, fmt.Sprintf("the %s engine's answer was refused twice, so these are the heuristic engine's patterns: %v", o.Engine, perr)), nil
		}
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: resp.Text},
			llm.Message{Role: "user", Content: "memdir refused that answer: " + perr.Error() +
				"\nAnswer again with the whole grouping as one JSON object only; name only the line ids given (L1 …), each in one group at most."})
	}
}
