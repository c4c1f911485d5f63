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
	personName = `\b((?:(?:Prof|Dr|Mr|Mrs|Ms)\. )?\p{Lu}\p{Ll}+(?: \p{Lu}\p{Ll}+)?)`
	personRole = `(?i:manager|lead|director|owner|contact|admin|administrator|engineer|developer|designer|architect|analyst|pm|cto|ceo|cfo|coo|vp|head|person|controller|officer|dpo|maintainer|reviewer|tester|intern|trainee|boss|supervisor|advisor|coordinator|specialist|scientist|consultant|accountant|sre|dba|founder|researcher|professor|guy|chair|postdoc|author|co-author|student)`
	personDept = `(?:it|qa|ops|devops|finops|finance|legal|security|secops|hr|marketing|sales|support|design|product|data|platform|infra|compliance|procurement|accounting)`
	personDoes = `(?:manages|runs|maintains|owns|handles|approves|reviews|cuts|signs off|leads|wrote|built|is the only one|has the (?:login|keys|password|credentials|access)|is on (?:parental |maternity |paternity |sick )?leave|joined|left|took over|is taking over|takes over|is (?:our |the )?(?:[\w-]+ ){0,2}` + personRole + `)`
)

var rePerson = gate(lazyre.New(
	personName + `\s*\((?:(?:he|she|they)\s+)?[^()]{0,40}?\b(?:` + personRole + `|does|owns|runs|handles|manages)\b[^()]{0,30}\)` +
		`|` + personName + `,?\s+(?:our|my|their)\s+(?:[\w-]+\s+){0,2}` + personRole + `\b` +
		`|\b(?:our|my|their)\s+(?:[\w-]+\s+){0,2}` + personRole + `,?\s+` + personName + `\b` +
		`|` + personName + `\s+from\s+(?:the\s+)?(?:(?i:` + personDept + `)\b|[\w-]+ team\b|[a-z]+\s+` + personDoes + `\b)` +
		`|` + personName + `\s+(?:(?:now|also|still)\s+)?` + personDoes + `\b` +
		`|` + personName + `,?\s+(?:he|she)\s+(?:cuts|does|owns|runs|handles|manages|maintains|approves|joined|left|is (?:the|our))\b` +
		`|\bthe\s+(?:[\w-]+\s+){0,2}` + personRole + `\s+(?:at|for|of|on)\s+[\w .-]{1,30}?\s+is\s+` + personName +
		// "the level designer is Camila, she keeps…": a person, as what
		// is said next shows, not a tool ("the tester is Playwright").
		`|(?:\bthe\s+|^)(?:[\w-]+\s+){0,2}` + personRole + `\s+(?:(?:at|for|of|on)\s+[\w .-]{1,30}?\s+)?is\s+` + personName + `(?:,\s+(?:she|he|they)\b|\s+\()`))

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

// mayNamePerson reports whether s holds a word that may be a name: one
// that opens with a capital (or a letter outside ASCII) and is not all
// capitals, not a word notPerson lists. Most sentences hold none, and the
// regexp does not run on them.
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

// peopleSaid are project memories of who is who in sentence s: the
// clause that says it, or the sentence when it says nothing else and
// opens with the person; none when a memory of s holds the name as a
// project fact or holds the clause itself. "Pieter (he does the hardware)
// says the boards arrive that week" is who Pieter is, beside what he
// says. A request, a guess, a condition or what holds only now says no
// one's role: "can you ask Tomas from IT…", "maybe Ravi manages…", "if
// Sarah joined…".
func peopleSaid(s string, cands []Candidate, at time.Time) []Candidate {
	if len(s) > maxClauseText || !mayNamePerson(s) || reQuestion.MatchString(s) || reNowOnly.MatchString(s) || notFactOfPerson(s) {
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
		if name == "" || notPerson(name) || notAName()[strings.ToLower(strings.Fields(name)[0])] || notAName()[strings.ToLower(name)] {
			continue
		}
		clause := clauseAround(s, m[:2])
		if i, at := strings.Index(s[m[1]:], ": "), strings.Index(s, clause); i >= 0 && at >= 0 && m[1]+i < at+len(clause) {
			clause = s[at : m[1]+i] // "from Hannah (finance controller): round on…": what follows is another matter
		}
		clause = strings.TrimSpace(clause)
		if at := strings.Index(clause, s[m[0]:m[1]]); at > 0 {
			// "I already rebased on the expo-52 branch and when it's merged
			// ping Yusuf he cuts the release builds": another clause, said
			// before the person's and joined to it.
			if j := strings.LastIndex(clause[:at], " and "); j > 0 && len(strings.Fields(clause[:j])) >= 4 && firstPerson(strings.Fields(asciiLower(clause))[0]) {
				clause = clause[j+len(" and "):]
			}
		}
		switch {
		case pastDeedAfter(s[m[1]:]):
			// What someone did once ("…in the end Oskar (our DBA) found the
			// missing index"): who they are, as the match says it.
			clause = strings.TrimSpace(s[m[0]:m[1]])
		case len(strings.Fields(clause)) > 20:
			// A run-on said without a stop ("…when it's merged ping Yusuf
			// he cuts the release builds on EAS"): the words from the name
			// on, not ending on one that leads into more.
			w := strings.Fields(s[m[0]:])
			w = w[:min(len(w), len(strings.Fields(s[m[0]:m[1]]))+6)]
			for len(w) > 3 && (danglingWords[strings.ToLower(w[len(w)-1])] || titleDangling[strings.ToLower(w[len(w)-1])]) {
				w = w[:len(w)-1]
			}
			clause = strings.Join(w, " ")
		}
		if rest, ok := strings.CutPrefix(clause, "from "); ok && strings.HasPrefix(rest, name) {
			clause = rest // "from Hannah (finance controller)": Hannah, who she is
		}
		if len(cands) == 0 && len(strings.Fields(s)) <= 25 && strings.Index(s, name) <= len(strings.Join(strings.Fields(s)[:min(3, len(strings.Fields(s)))], " ")) && !pastDeedAfter(s[m[1]:]) {
			clause = s // "Ahmed from IT has the login to the Fivetran dashboard": what the person is for is in the sentence
		}
		lower := asciiLower(clause)
		if len(strings.Fields(clause)) < 3 || slices.ContainsFunc(append(cands, out...), func(c Candidate) bool {
			return c.Type == "project" && strings.Contains(c.Body, name) || strings.Contains(asciiLower(whyOfBody(c.Body)), lower) // "…, so don't touch it. **Why:** Ravi owns the billing service"
		}) {
			continue
		}
		out = append(out, build("project", clause, "", at))
	}
	return out
}

// pastDeedAfter reports what someone did once, said right after who they
// are: "(our DBA) found the missing index".
func pastDeedAfter(after string) bool {
	w, _, _ := strings.Cut(strings.TrimLeft(asciiLower(after), " ,"), " ")
	switch w {
	case "found", "did", "made", "said", "told", "went", "got", "broke", "fixed", "saw", "sent", "ran", "took", "gave":
		return true
	}
	return len(w) > 4 && strings.HasSuffix(w, "ed")
}

// notFactOfPerson reports a sentence that asks, guesses or supposes: "can
// you ask…", "ping Wanjiru…", "maybe Ravi…", "if Sarah joined…", "Oskar
// said the migration is fine".
func notFactOfPerson(s string) bool {
	w := strings.Fields(asciiLower(s))
	if len(w) == 0 {
		return true
	}
	switch strings.Trim(w[0], ",") {
	case "can", "could", "would", "will", "please", "pls", "ping", "ask", "tell", "if", "when", "maybe", "perhaps", "probably", "let", "lets", "let's":
		return true
	}
	return mayHold(asciiLower(s), []string{"not sure", "i think", "i guess", " said ", " says ", " could ", " would "}) && !mayHold(s, []string{"("})
}
