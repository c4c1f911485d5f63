package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/llm"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
)

// extractWithLLM asks the configured model for operations on the memory
// folder and applies the valid ones through the store. An invalid answer
// is asked again once, then skipped with a log line.
func (a *app) extractWithLLM(env transcriptsEnv, st *memdir.Store, l paths.Layout, msgs []extract.Message, session string, dryRun bool, rep *extractReport) error {
	cfg, err := llm.FromEnv(a.engine, a.getenv)
	if err != nil {
		return withHint(err, "see 'memdir extract --help' (LLM ENGINES)")
	}
	cfg.WriteDir = l.MemoryDir
	cfg.Log = func(format string, args ...any) {
		b, _ := json.Marshal(map[string]any{"time": time.Now().UTC(), "engine": a.engine, "message": fmt.Sprintf(format, args...)})
		env.Folder.AppendLine(extractLog, b)
	}
	client, err := llm.New(cfg)
	if err != nil {
		return err
	}
	var manifest []extract.ManifestEntry
	var existing []string
	if st != nil {
		mems, _, err := st.List()
		if err != nil {
			return err
		}
		for _, m := range mems {
			manifest = append(manifest, extract.ManifestEntry{File: m.File, Type: string(m.Type), Description: m.Summary()})
			existing = append(existing, m.File)
		}
	}
	req := llm.Request{System: extract.SystemPrompt, JSON: true, MaxTokens: 2048,
		Messages: []llm.Message{{Role: "user", Content: extract.UserPrompt(manifest, msgs)}}}
	var ops []extract.Op
	for attempt := 1; ; attempt++ {
		resp, err := client.Complete(a.ctx, req)
		if err != nil {
			return withHint(fmt.Errorf("extraction engine: %w", err),
				"check the engine's key and endpoint (see 'memdir extract --help'), or use --engine heuristic, which needs no model")
		}
		if ops, err = extract.ParseOps(resp.Text, existing); err == nil {
			break
		}
		cfg.Log("answer refused (attempt %d): %v", attempt, err)
		if attempt == 2 {
			rep.Why = "the engine's answer was refused twice: " + err.Error()
			return nil
		}
		req.Messages = append(req.Messages, llm.Message{Role: "assistant", Content: resp.Text},
			llm.Message{Role: "user", Content: "That answer was refused: " + err.Error() + ". Answer again with the JSON object only."})
	}
	for _, op := range ops {
		rep.Candidates = append(rep.Candidates, extract.Candidate{Type: op.Type, Name: op.Name, Description: op.Description, Body: op.Body, Source: session, Trust: memdir.TrustAgent})
	}
	if dryRun || st == nil {
		return nil
	}
	for _, op := range ops {
		if err := a.applyOp(st, l.ProjectRoot, op, session, rep); err != nil {
			return err
		}
	}
	return nil
}

// applyOp writes one validated operation through the store.
func (a *app) applyOp(st *memdir.Store, root string, op extract.Op, session string, rep *extractReport) error {
	ctx := a.ctx
	typ, err := memdir.ParseType(op.Type)
	if err != nil {
		return err
	}
	body := op.Body
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	m := memdir.Memory{Name: op.Name, Description: op.Description, Type: typ, Body: body, Source: session, Trust: memdir.TrustAgent}
	switch op.Op {
	case "update":
		m.File, m.Name = op.Target, ""
		res, err := st.Save(ctx, m, memdir.SaveOptions{})
		if err != nil {
			return err
		}
		rep.Updated = append(rep.Updated, res.File)
	case "supersede":
		m.File = freeFile(st, op.Name) // never the target itself
		res, err := st.Save(ctx, m, memdir.SaveOptions{})
		if err != nil {
			return err
		}
		if _, err := st.Save(ctx, memdir.Memory{File: op.Target, SupersededBy: res.File}, memdir.SaveOptions{}); err != nil {
			return err
		}
		rep.Superseded = append(rep.Superseded, op.Target+" → "+res.File)
	default:
		// Dedupe on write, as for every engine: a memory that says what
		// an existing one says (the same answer applied again after a
		// crash, or a model that missed it in the manifest) updates it.
		return a.saveCandidate(st, root, extract.Candidate{Type: op.Type, Name: op.Name, Description: op.Description,
			Body: body, Source: session, Trust: memdir.TrustAgent}, rep)
	}
	return nil
}
