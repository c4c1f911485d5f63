package extract

import "github.com/memdir/memdir/internal/lazyre"

// reProjectFact is a fact about the project that its code does not say,
// stated in chat (issue 17): who owns or runs a part ("that's owned by the
// messaging team", "Kenji is the release manager for mobile now"), what
// it is held to from outside ("the client's IT only allows python 3.8",
// "we can't change them", "not allowed to expire points before 24
// months", "because of the license change"), a move or a choice ("we're
// replacing launchdarkly with unleash", "the team decided on date-fns
// over moment"), and what was promised ("the SLA with
// Northwind is 300ms p99", "we promised Acme Health…", "we keep only the
// last 5").
var reProjectFact = gate(lazyre.New(`(?i)\b(?:is|are|'s) (?:owned|maintained|run|handled|managed|operated) by\b` +
	`|\bis (?:now )?(?:the|our) (?:release manager|owner|tech lead|product owner|point person|dri|maintainer)\b` +
	`|\b(?:only (?:allows?|supports?)|has only|only has)\b` +
	`|\b(?:we|they) (?:can'?t|cannot|can not) (?:change|patch|upgrade|install|modify|replace)\b` +
	`|\b(?:(?:is|are)(?: not|n'?t) allowed to|not allowed to)\b` +
	`|\b(?:data residency|residency requirement|(?:hipaa|gdpr|sox|pci|fedramp|itar|contract|legally|regulation)-bound)\b` +
	`|\bbecause of (?:the )?(?:[\w-]+ )?(?:law|contract|licen[cs]e(?: change)?|regulation|compliance|budget|cost|policy)(?:\s*[,.;!)]|\s*$|\s+(?:and|so|but|in|here)\b)` +
	`|\bwe(?:'re| are) (?:[\w-]+ ){0,2}(?:moving|switching|migrating) (?:[\w./-]+ ){0,3}from\b|\bwe(?:'re| are) (?:[\w-]+ ){0,2}(?:replacing|porting|rewriting|consolidating)\b` +
	`|\b(?:is |are )?belong(?:s|ing)? to\b|\bwe own (?:the |all |our )?[\w-]+|\b(?:they|[\w-]+ team) (?:maintain|own)s?\b` +
	`|\bcan'?t be (?:updated|changed|upgraded|replaced|touched|patched)\b|\b(?-i:IT|[Oo]ps|[Ss]ecurity|[Ll]egal|[Cc]ompliance|the client|the customer|the vendor|[Mm]anagement) won'?t (?:update|upgrade|allow|approve)\b|\bno [\w-]+ allowed\b|\b(?:have|has) no (?:internet|network|wifi|gpus?|cloud|access)\b` +
	`|\b(?:decided|settled|agreed) on\b|\b(?:picked|chose|selected) [\w.-]+ (?:as|over)\b|\bdecided in the\b` +
	`|\b(?:sla|slo)s?\b|\bwe (?:have |'ve )?(?:promised|committed to)\b` +
	`|\bwe (?:keep only|only keep)\b` +
	`|\b(?:have|has) to be (?:off|out of)\b` +
	`|\bwe only (?:get|have) (?:the )?[\w.-]+(?: [\w.-]+)? until\b|\b(?:team|org|client|customer|company|we|they) (?:chose|picked|went with)\b` +
	`|^we (?:ship|deliver|launch|go live)\b` +
	`|\bis (?-i:[A-Z][a-z]+)'s\s*(?:[,.;!]|$)` +
	`|\b(?:legal|finance|security|compliance|the client|the customer|management|procurement|the auditors?|the regulator) (?:requires|forbids|signs off|approves|mandates|insists|(?:wants|needs) (?:all|every|each|no|everything|us to|the team to))\b` +
	`|\bour (?:biggest|largest|main|key|only|first) (?:customer|client|partner)s? (?:is|are)\b|\b(?:is|are) frozen (?:until|till|through|during|for)\b` +
	`|\bshared with (?:the )?(?:[\w-]+ )?(?:team|qa|customers?|partners?|clients?|vendors?)\b|\b(?:budget|spend|costs?)\b[^.]{0,30}\b(?:capped|limited) at\b` +
	`|\b(?:contract|law|policy|licen[cs]e|legal|regulation|client|customer|agreement|terms|gdpr|hipaa)\b[^.]{0,40}\b(?:forbids?|prohibits?)\b` +
	`|\b(?:marketing|design|sales|support|legal|finance|ops|security|the [\w-]+ team) (?:owns|handles|maintains|manages)\b|\bwe (?:migrated|moved|switched) from\b`))

// projectFact reports whether s states a fact about the project (see
// reProjectFact), rather than asks for work or talks about the speaker.
func projectFact(s string) bool {
	if !mayHold(s, projectFactWords) || !reProjectFact.MatchString(s) || reNotProject.MatchString(s) || reQuestion.MatchString(s) || opensWithRule(s) || reRuleStart.MatchString(s) {
		return false
	}
	// Not a bug report: "the field can't be updated, the api returns 400".
	return !reNowOnly.MatchString(s) && !reOneOff.MatchString(s) && !reTrouble.MatchString(s) &&
		!mayHold(s, []string{" returns ", " fails", " failing", "exception", " crash", " error"})
}

// projectFactWords are the words one of which every reProjectFact match
// holds: a cheap test before the pattern, which has many more.
var projectFactWords = []string{"owned", "maintain", " run by", "handled", "managed", "operated", "manager", "owner", "lead", "dri", "only",
	"can't", "cant", "cannot", "can not", "allowed", "residency", "-bound", "because of", "moving", "switching", "migrating", "replacing",
	"porting", "rewriting", "consolidating", "decided", "settled", "agreed", "picked", "chose", "selected", "went with", "sla", "slo",
	"promised", "committed", "keep", "to be off", "to be out", "belong", "we own", "won't", "wont", "have no", "has no", "we ship",
	"we deliver", "we launch", "we go live", "they own", "team own", "point person", "'s", "wants", "requires", "needs", "forbid",
	"signs off", "approves", "mandates", "insists", "our biggest", "our largest", "our main", "our key", "our only", "our first",
	"frozen", "shared with", "prohibit", "capped at", "limited at", "owns", "handles", "manages", "migrated from",
	"moved from", "switched from"}
