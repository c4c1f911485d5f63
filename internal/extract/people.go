// Who is who: the people around the speaker, said in passing (issue 17).

package extract

import (
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// A person is named by one or two capitalised words; what makes the name
// a person's and not a product's is what is said of it: a role beside it
// ("Rafa (tech director)", "Gareth our IT manager", "our product owner
// Agnieszka", "Ines from finops"), or a person's doing ("now Camila
// manages Fivetran", "ping Yusuf he cuts the release builds", "Lena is
// on parental leave until june").
const (
	personName = `(\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?)`
	personRole = `(?i:manager|lead|director|owner|contact|admin|administrator|engineer|developer|designer|architect|analyst|pm|cto|ceo|cfo|coo|vp|head|person|controller|officer|dpo|maintainer|reviewer|tester|intern|trainee|boss|supervisor|advisor|coordinator|specialist|scientist|consultant|accountant|sre|dba|founder|researcher|professor|guy)`
	personDept = `(?:it|qa|ops|devops|finops|finance|legal|security|secops|hr|marketing|sales|support|design|product|data|platform|infra|compliance|procurement|accounting)`
	personDoes = `(?:manages|runs|maintains|owns|handles|approves|reviews|cuts|signs off|leads|wrote|built|is the only one|has the (?:login|keys|password|credentials|access)|is on (?:parental |maternity |paternity |sick )?leave|joined|left|took over|is taking over|takes over|is (?:our|the) (?:[\w-]+ ){0,2}` + personRole + `)`
)

var rePerson = gate(lazyre.New(
	personName + `\s*\((?:(?:he|she|they)\s+)?[^()]{0,40}?\b(?:` + personRole + `|does|owns|runs|handles|manages)\b[^()]{0,30}\)` +
		`|` + personName + `,?\s+(?:our|my|their)\s+(?:[\w-]+\s+){0,2}` + personRole + `\b` +
		`|\b(?:our|my|their)\s+(?:[\w-]+\s+){0,2}` + personRole + `,?\s+` + personName + `\b` +
		`|` + personName + `\s+from\s+(?:the\s+)?(?:(?i:` + personDept + `)\b|[\w-]+ team\b)` +
		`|` + personName + `\s+(?:(?:now|also|still)\s+)?` + personDoes + `\b` +
		`|` + personName + `,?\s+(?:he|she)\s+(?:cuts|does|owns|runs|handles|manages|maintains|approves|joined|left|is (?:the|our))\b` +
		`|\bthe\s+(?:[\w-]+\s+){0,2}` + personRole + `\s+(?:at|for|of|on)\s+[\w .-]{1,30}?\s+is\s+` + personName))

// notPerson are capitalised words a name may not be: the start of a
// sentence, a month, a day.
func notPerson(w string) bool {
	first, _, _ := strings.Cut(w, " ")
	switch strings.ToLower(first) {
	case "i", "the", "we", "our", "my", "their", "this", "that", "these", "those", "also", "and", "but", "so", "then", "yes", "no",
		"ok", "okay", "now", "still", "it", "its", "he", "she", "they", "you", "your", "please", "pls", "anyway", "btw", "fyi",
		"hi", "hey", "hello", "thanks", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
		"every", "each", "all", "any", "some", "one", "new", "old", "team", "dev", "prod", "staging", "ci", "api":
		return true
	}
	return false
}

// mayNamePerson reports whether s holds a word that may be a name: a
// capital and a small letter, not a word notPerson lists. Most sentences
// hold none, and the regexp does not run on them.
func mayNamePerson(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' && s[i] < 0x80 || i > 0 && s[i-1] != ' ' && s[i-1] != '(' && s[i-1] != '"' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != ' ' && s[j] != ',' && s[j] != '.' && s[j] != ')' {
			j++
		}
		if w := s[i:j]; len(w) > 1 && !notPerson(w) && strings.ToUpper(w) != w {
			return true
		}
	}
	return false
}

// peopleSaid are project memories of who is who in sentence s, one per
// clause that says it, when no memory of s already holds the name as a
// project fact: "Pieter (he does the hardware) says the boards arrive that
// week" is who Pieter is, beside what he says.
func peopleSaid(s string, cands []Candidate, at time.Time) []Candidate {
	if len(s) > maxClauseText || !mayNamePerson(s) || reQuestion.MatchString(s) {
		return nil
	}
	var out []Candidate
	for _, m := range rePerson.FindAllStringSubmatchIndex(s, -1) {
		name := ""
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				name = s[m[g]:m[g+1]]
				break
			}
		}
		if name == "" || notPerson(name) {
			continue
		}
		clause := clauseAround(s, m[:2])
		if i, at := strings.Index(s[m[1]:], ": "), strings.Index(s, clause); i >= 0 && at >= 0 && m[1]+i < at+len(clause) {
			clause = s[at : m[1]+i] // "from Hannah (finance controller): round on…": what follows is another matter
		}
		clause = strings.TrimSpace(clause)
		if len(strings.Fields(clause)) > 20 {
			// A run-on said without a stop ("…I already rebased and when it's
			// merged ping Yusuf he cuts the release builds on EAS"): the
			// words from the match on.
			w := strings.Fields(s[m[0]:])
			clause = strings.Join(w[:min(len(w), max(len(strings.Fields(s[m[0]:m[1]]))+6, 8))], " ")
		}
		if rest, ok := strings.CutPrefix(clause, "from "); ok && strings.HasPrefix(rest, name) {
			clause = rest // "from Hannah (finance controller)": Hannah, who she is
		}
		if len(cands) == 0 && len(strings.Fields(s)) <= 25 {
			clause = s // "…the Fivetran dashboard, Ahmed from IT has the login": what the person is for is in the sentence
		}
		if len(strings.Fields(clause)) < 3 || slices.ContainsFunc(append(cands, out...), func(c Candidate) bool {
			// A memory of the sentence holds the name as a project fact.
			return c.Type == "project" && strings.Contains(c.Body, name)
		}) {
			continue
		}
		out = append(out, build("project", clause, "", at))
	}
	return out
}
