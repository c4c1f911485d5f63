package extract

import (
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/redact"
)

var (
	// reDataSubject names data: a table, a column, an export, an API's
	// answer, dates and IDs.
	reDataSubject = lazyre.New(`(?i)\b(?:tables?|columns?|fields?|rows?|records?|datasets?|data|csv|exports?|api|endpoints?|responses?|payloads?|dates?|timestamps?|ids?|values?|amounts?|prices?|json|feeds?)\b`)
	// reQuirk says how data misbehaves.
	reQuirk   = lazyre.New(`(?i)\b(?:(?:has|have) no (?:index|indexes|indices|primary key|headers?|time ?zone)|(?:is|are) (?:always |often |sometimes |all )?(?:null|empty|in utc|utc|in cents|in local time|stored as (?:text|strings?)|case[- ]sensitive|not unique|duplicated|1-based|0-based|zero-based|one-based|truncated|rounded|capped at|limited to)|can be (?:null|empty|negative|duplicated|missing)|(?:contains?|has|have) duplicates?|duplicate rows|come back (?:as|empty|null)|comes back (?:as|empty|null)|returns? (?:null|an empty|at most)|heap scans?)\b`)
	reRequest = lazyre.New(`(?i)^(?:can|could|would|will|please|pls|let'?s|fix|add|make|write|check|look|find|run|update|change|remove|delete|create|build|show|tell|explain|help|why|what|how|when|where|which|who|is|are|do|does|did)\b`)
)

// quirk is a data quirk the user stated, and the message it came from.
type quirk struct {
	dayLearning
	source, sentence string
}

// dataQuirks finds what the user says about their data misbehaving ("the
// dates in the export are in UTC", "Dataiku tables have no indexes"), a
// kind the extraction does not classify: data-quirk learnings of the
// session's project. Requests, questions and sentences Heuristic took are
// not read. A rule given with it in the same message ("Policy IDs are not
// unique across regions, always join on region and policy_id") becomes its
// lesson (see learnings).
func (s *sessionRead) dataQuirks(date string) []quirk {
	if s.project == "" || strings.ContainsAny(s.project, "/[]\n\r") {
		return nil
	}
	var out []quirk
	for _, p := range s.prompts {
		for _, sent := range sentences(p.said) {
			sent = stripLeads(strings.TrimSpace(sent), statementLeads)
			loc := reQuirk.FindStringIndex(sent)
			if loc == nil || reQuestion.MatchString(sent) || reRequest.MatchString(sent) || s.isCandidate(sent) {
				continue
			}
			if subj := reDataSubject.FindStringIndex(sent); subj == nil || subj[0] > loc[0] {
				continue // the data must be what the sentence is about
			}
			if _, found := redact.String(sent); len(found) > 0 || ProseSecret(sent) {
				continue
			}
			rule := strings.TrimRight(sent, " .!,;:")
			l := learning.Learning{Title: learningTitle("quirk", rule), Scope: s.project, Type: learning.DataQuirk,
				Date: date, Description: oneLine(capitalize(rule), maxTextBytes)}
			out = append(out, quirk{dayLearning{l: l, rank: 2*2 + 1}, p.source, rule})
		}
	}
	return out
}
