package workspace

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/patterns"
	"github.com/memdir/memdir/internal/redact"
)

// PatternsAgent is the engine of the plugin's patterns skill: the agent
// that runs it is the model. memdir writes the request a model engine
// would be sent to a file, the agent writes its grouping beside it, and
// the next run with the same engine reads that grouping and checks it as
// it checks a model's. The offline engine groups by words; an agent
// groups "interval() kept polling after navigating away" with "heap
// snapshot: detached components still holding subscribers".
const PatternsAgent = "agent"

// AgentRequest is where the agent engine's request and grouping live.
type AgentRequest struct {
	RequestFile string `json:"request_file"` // the instructions and the lines, to read
	GroupsFile  string `json:"groups_file"`  // where the agent writes its grouping
	Lines       int    `json:"lines"`        // lines in the request
	Answered    bool   `json:"answered"`     // the grouping was read, checked and used
}

// maxGroupsFile bounds an agent's grouping: a few hundred groups of ids.
const maxGroupsFile = 1 << 20

// agentFilesKept is how long a request or grouping no run has superseded
// (another scope's: --all, another project, --since) is kept.
const agentFilesKept = 90 * 24 * time.Hour

// agentFind is find for the agent engine. A request's file names carry
// its scope (the diaries a run reads) and its hash, taken over the request
// and every line in full, so a grouping is only ever read against the
// lines it was made for: a diary added or edited since makes a new
// request, and the heuristic patterns stand until the agent answers it. A
// grouping memdir cannot use is an error saying why, for the agent to
// fix. With write false (an apply) nothing is written. The caller holds
// the folder's lock.
func (d *Diaries) agentFind(scope string, docs []patterns.Doc, opt patterns.Options, write bool, now time.Time) (patterns.Result, *AgentRequest, []string, error) {
	heuristic := patterns.Find(docs, opt)
	lines, msg, omitted := groupRequest(docs, heuristic)
	if len(lines) == 0 {
		return heuristic, nil, nil, nil // nothing to group: no request
	}
	ss := sha256.Sum256([]byte(scope))
	prefix := "patterns-" + hex.EncodeToString(ss[:4]) + "-"
	name := prefix + hex.EncodeToString(requestHash(PatternsAgent, msg, lines)[:8])
	reqRel, ansRel := filepath.Join(DraftsDir, name+".request.md"), filepath.Join(DraftsDir, name+".groups.json")
	ar := &AgentRequest{Lines: len(lines) - omitted}
	var err error
	if ar.RequestFile, err = d.Folder.Path(reqRel); err != nil {
		return heuristic, nil, nil, err
	}
	if ar.GroupsFile, err = d.Folder.Path(ansRel); err != nil {
		return heuristic, nil, nil, err
	}
	var warnings []string
	if omitted > 0 {
		warnings = append(warnings, fmt.Sprintf("the request holds the newest lines only: %d older lines did not fit", omitted))
	}
	b, err := d.Folder.ReadFileMax(ansRel, maxGroupsFile)
	switch {
	case err == nil:
		groups, perr := patterns.ParseGroups(string(b), omitted, len(lines))
		if perr != nil {
			return heuristic, ar, warnings, hint.With(fmt.Errorf("the grouping in %s: %w", ar.GroupsFile, perr),
				"fix that file as %s asks (one JSON object: {\"groups\": [{\"lines\": [\"L1\", …], \"rule\": \"…\"}]}) and run the command again", ar.RequestFile)
		}
		ar.Answered = true
		return patterns.FromGroups(docs, groups, opt), ar, warnings, nil
	case !errors.Is(err, fs.ErrNotExist):
		return heuristic, ar, warnings, fmt.Errorf("the grouping in %s: %w", ar.GroupsFile, err)
	case !write:
		return heuristic, ar, warnings, nil
	}
	if err := d.Folder.WriteFile(reqRel, []byte(agentRequestText(ar, msg))); err != nil {
		return heuristic, nil, warnings, err
	}
	d.removeOldAgentFiles(prefix, name, now)
	return heuristic, ar, append(warnings, fmt.Sprintf("no grouping from the agent yet, so these are the heuristic engine's patterns: read %s, write the grouping to %s, and run this command again",
		ar.RequestFile, ar.GroupsFile)), nil
}

// groupRequest is what a model engine, or the agent, is asked to group:
// the lesson lines of docs, and the request message over them with the
// heuristic engine's groups, each line redacted; omitted older lines did
// not fit.
func groupRequest(docs []patterns.Doc, heuristic patterns.Result) (lines []patterns.Line, msg string, omitted int) {
	lines = patterns.Lines(docs)
	msg, omitted = patterns.GroupRequest(lines, heuristic)
	return lines, redactLines(msg), omitted
}

// requestHash identifies a request to who (an engine and its model): the
// prompt, the message, and every line in full, since the message cuts
// long lines and hides secrets, and an edit there is an edit all the same.
func requestHash(who, msg string, lines []patterns.Line) []byte {
	h := sha256.New()
	h.Write([]byte(who + "\x00" + patterns.GroupPrompt + "\x00" + msg))
	for _, l := range lines {
		h.Write([]byte("\x00" + l.Diary + "\x00" + l.Text))
	}
	return h.Sum(nil)
}

// redactLines redacts each line of a request on its own: a rule that
// spans lines (a private key's BEGIN … END) must not swallow the lines
// between two that each name one marker.
func redactLines(msg string) string {
	ls := strings.Split(msg, "\n")
	for i, l := range ls {
		ls[i], _ = redact.String(l)
	}
	return strings.Join(ls, "\n")
}

// agentRequestText is the request file: what a model engine is sent, with
// where the answer goes instead of "answer with".
func agentRequestText(ar *AgentRequest, msg string) string {
	return fmt.Sprintf("# A grouping for 'memdir patterns --engine agent'\n\n"+
		"You are the model of this run. Follow the instructions below over the %d lines after them. Write your answer,\n"+
		"one JSON object of your own groups in the format the instructions end with, and nothing else, to this file:\n\n    %s\n\n"+
		"then run the same 'memdir patterns --engine agent' command again. memdir checks the grouping, counts the\n"+
		"distinct tasks of each group and decides what is a pattern; when it refuses the grouping it says why.\n\n"+
		"## Instructions\n\n%s\n\n## The lines, and the offline engine's groups\n\n%s", ar.Lines, ar.GroupsFile, patterns.GroupPrompt, msg)
}

// removeOldAgentFiles removes the requests and groupings a new request
// of the same scope (prefix) supersedes, and those of any scope older than
// agentFilesKept; what fails to go stays, harmlessly.
func (d *Diaries) removeOldAgentFiles(prefix, name string, now time.Time) {
	dir, err := d.Folder.Path(DraftsDir)
	if err != nil {
		return
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		n := e.Name()
		if !strings.HasPrefix(n, "patterns-") || strings.HasPrefix(n, name+".") ||
			!(strings.HasSuffix(n, ".request.md") || strings.HasSuffix(n, ".groups.json")) {
			continue
		}
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		if strings.HasPrefix(n, prefix) || now.Sub(info.ModTime()) > agentFilesKept {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}
