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

// agentFilesKept is how long a request or grouping the diaries have moved
// past is kept before a new request removes it.
const agentFilesKept = 7 * 24 * time.Hour

// agentFind is find for the agent engine. The request's file names carry
// its hash, so a grouping is only ever read against the lines it was
// made for: a diary added or edited since makes a new request, and the
// heuristic patterns stand until the agent answers it. A grouping memdir
// cannot use is an error saying why, for the agent to fix. The caller
// holds the folder's lock.
func (d *Diaries) agentFind(docs []patterns.Doc, opt patterns.Options, now time.Time) (patterns.Result, *AgentRequest, []string, error) {
	heuristic := patterns.Find(docs, opt)
	if len(docs) == 0 {
		return heuristic, nil, nil, nil
	}
	lines := patterns.Lines(docs)
	msg, omitted := patterns.GroupRequest(lines, heuristic)
	msg, _ = redact.String(msg)
	sum := sha256.Sum256([]byte(PatternsAgent + "\x00" + patterns.GroupPrompt + "\x00" + msg))
	key := hex.EncodeToString(sum[:8])
	reqRel := filepath.Join(DraftsDir, "patterns-"+key+".request.md")
	ansRel := filepath.Join(DraftsDir, "patterns-"+key+".groups.json")
	ar := &AgentRequest{Lines: len(lines) - omitted}
	var err error
	if ar.RequestFile, err = d.Folder.Path(reqRel); err != nil {
		return heuristic, nil, nil, err
	}
	if ar.GroupsFile, err = d.Folder.Path(ansRel); err != nil {
		return heuristic, nil, nil, err
	}
	b, err := d.Folder.ReadFileMax(ansRel, maxGroupsFile)
	switch {
	case err == nil:
		groups, perr := patterns.ParseGroups(string(b), omitted, len(lines))
		if perr != nil {
			return heuristic, ar, nil, hint.With(fmt.Errorf("the grouping in %s: %w", ar.GroupsFile, perr),
				"fix that file as %s asks (one JSON object: {\"groups\": [{\"lines\": [\"L1\", …], \"rule\": \"…\"}]}) and run the command again", ar.RequestFile)
		}
		ar.Answered = true
		return patterns.FromGroups(docs, groups, opt), ar, nil, nil
	case !errors.Is(err, fs.ErrNotExist):
		return heuristic, ar, nil, fmt.Errorf("the grouping in %s: %w", ar.GroupsFile, err)
	}
	var warnings []string
	if omitted > 0 {
		warnings = append(warnings, fmt.Sprintf("the request holds the newest lines only: %d older lines did not fit", omitted))
	}
	if err := d.Folder.WriteFile(reqRel, []byte(agentRequestText(ar, msg))); err != nil {
		return heuristic, nil, warnings, err
	}
	d.removeOldAgentFiles(key, now)
	return heuristic, ar, append(warnings, fmt.Sprintf("no grouping from the agent yet, so these are the heuristic engine's patterns: read %s, write the grouping to %s, and run this command again",
		ar.RequestFile, ar.GroupsFile)), nil
}

// agentRequestText is the request file: what a model engine is sent, with
// where the answer goes instead of "answer with".
func agentRequestText(ar *AgentRequest, msg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# A grouping for 'memdir patterns --engine agent'\n\n"+
		"You are the model of this run. Follow the instructions below over the %d lines after them. Write your answer,\n"+
		"the ONE JSON object the instructions end with and nothing else, to this file:\n\n    %s\n\n"+
		"then run the same 'memdir patterns --engine agent' command again. memdir checks the grouping, counts the\n"+
		"distinct tasks of each group and decides what is a pattern; when it refuses the grouping it says why.\n\n"+
		"## Instructions\n\n%s\n\n## The lines, and the offline engine's groups\n\n%s", ar.Lines, ar.GroupsFile, patterns.GroupPrompt, msg)
	return b.String()
}

// removeOldAgentFiles removes the requests and groupings of other keys
// older than agentFilesKept; what fails to go stays, harmlessly.
func (d *Diaries) removeOldAgentFiles(key string, now time.Time) {
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
		if !strings.HasPrefix(n, "patterns-") || strings.HasPrefix(n, "patterns-"+key+".") ||
			!(strings.HasSuffix(n, ".request.md") || strings.HasSuffix(n, ".groups.json")) {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > agentFilesKept {
			_ = os.Remove(filepath.Join(dir, n))
		}
	}
}
