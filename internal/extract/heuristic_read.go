package extract

import (
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads a sentence by its structure before classify sees it:
// the discourse markers people open with ("fwiw", "ok so", "honestly")
// are dropped, a redirect ("no, not like that —", "hmm, I'd rather we
// didn't —") marks the sentence as a correction and leaves the rule it
// leads into, and a sentence that holds several facts is cut into
// clauses.

var (
	// reLead is one discourse marker at a sentence's start. The ones that
	// also open real content ("no merges", "note the…") count only when
	// punctuation follows them.
	reLead = gate(lazyre.New(`(?i)^(?:(?:he+y+o?|h+i+(?:ya)?|hello+|oi|yo|salut|hola|howdy|nah+(?:-ah)?|nope|ok(?:ay)?|so|yeah|also|and|but|plus|oh|well|btw|fwiw|fyi|imo|honestly|anyway|lol|haha|meh|morning|quick one|quick context(?: dump)?|context dump|quick bit about me|side ?note|for info|for context|just so you know|(?:fine|ok|okay|good|that'?s fine) for now(?:,? but)?|(?:two|three|a few|a couple(?: of)?|couple) things|heads up|hmm+|h?mm+[,.!]|whoa|um+|tbh|pls|plz|one rule|rule|asking (?:bc|b/c|because|cause|cuz|since))\b[,:.!]?|(?:(?:and |also |oh )?(?:one|the other|other|another|one more|one last|last|final) thing(?: tho(?:ugh)?)?|no(?: no)*|h?mm+ (?:no|nope|nah)|nope|ye+s+|yep|sure|right|good|great|nice|perfect|cool|exactly|np|thanks|wait|actually|note|context|ok yeah|(?:yes|yeah|yep|ok|okay) (?:good|great|nice|perfect|exactly|cool|right)|(?:yes|yeah|yep|sure|ok) please|that'?s (?:wrong|not (?:right|it|what i (?:meant|asked)))|how many times (?:do|must|should) i (?:have to |need to )?(?:say|tell you|repeat)(?: (?:it|this|that))?)\s*[,:.!—–])\s*(?:[—–-]\s*)?`))
	// reRedirect is a marker that turns what follows into a correction.
	reRedirect = gate(lazyre.New(`(?i)^(?:no|nope|nah+|actually|hmm+|h?mm+ (?:no|nope|nah)|wait|whoa|lol no|that'?s (?:wrong|not))\b`))
	// reRedirectHead is the part of a correction before its dash that only
	// says "not that": "not like that", "not alpine", "I'd rather we didn't".
	reRedirectHead = gate(lazyre.New(`(?i)^(?:(?:actually|hmm+|no|nope|wait|ok|so|yeah|but)[,]?\s+)*(?:not\b|i'?d rather (?:we|you) (?:didn'?t|not)\b|let'?s not\b|please don'?t\b|don'?t\b)`))
	// reInterjection is filler inside a sentence: "… devs lol", "… tbh".
	reInterjection = gate(lazyre.New(`(?i)[\s,]+\b(?:lol|lmao|haha|tbh|pls|plz)\b[.!]?`))
	// reQuoteLine is a pasted quote: "> ## Quickstart".
	reQuoteLine = gate(lazyre.New(`(?m)^[ \t]*>.*$`))

	// reSelf is a self-description by structure: the speaker as subject of
	// what they do, are, or have done for a while.
	reSelf = gate(lazyre.New(`(?i)^(?:i'?m|i am) (?:(?:mostly|mainly|primarily|basically|really|more of|kind of|kinda|sort of|the only|also|honestly|actually|technically)\s+)*(?:a|an|the)\s+|^i (?:(?:personally|mostly|mainly|primarily|usually|also|only)\s+)*(?:do|work (?:on|in|with|as)|write|code in|own|maintain|lead|run|handle|manage)\b|^(?:i'?ve|i have) been (?:a|an|doing|writing|working (?:on|in|with|as)|running|using|building|maintaining|programming|coding|shipping)\b.*\bfor\b|^(?:i'?m |am )?(?:(?:fairly|pretty|kinda|very|brand|still|totally)\s+)?new to\b|^\S+ is (?:(?:kinda|pretty|fairly|very|totally|still)\s+)?new to me\b` +
		// what they know, how well, and where they come from
		`|^(?:this is )?my first (?:time|project|week|month) (?:touching|using|with|in|writing|on|doing)\b|^i (?:normally|typically|usually|mostly|mainly) (?:write|use|work|code|do)\b|^i know (?:\S+ ){1,4}(?:well|inside out|very well)\b` +
		`|^(?:i'?m|i am) (?:(?:really|pretty|very|quite|kinda|not|a bit|a little|still|also)\s+)*(?:bad|good|great|terrible|rusty|comfortable|fluent|solid|weak|strong|new|shaky) (?:at|with|in|on)\b|^(?:i'?m|i am) coming from\b|^i (?:came|come) from\b` +
		`|^(?:i'?m|i am) (?:\w+ )?(?:impaired|blind|deaf|dyslexic|colou?r-?blind)\b|^i use a screen reader\b` +
		// a living, and how they learned
		`|^(?:a |an )?(?:[\w.-]+ ){0,2}(?:engineer|developer|dev|designer|analyst|scientist|admin|manager|intern|student|founder|contractor|consultant|nurse|teacher|lawyer|accountant) by (?:day|trade|training|background)\b` +
		`|^i (?:\w+ ){1,4}for a living\b|^(?:i'?m|i am) (?:(?:mostly|mainly|completely|entirely|largely)\s+)?self[- ]taught\b` +
		`|^(?:a |an )?(?:solo|indie|freelance|independent|junior|senior|staff|lead|principal)(?: \w+)? (?:dev|developer|engineer|designer|analyst|scientist|founder|contractor)\b` +
		// a role alone, a team, what is new or known to them, where they come from
		`|^(?:a |an )?(?:[\w.-]+ ){0,2}(?:engineer|developer|dev|designer|analyst|scientist|admin|manager|intern|student|founder|contractor|consultant|person)(?: here)?$` +
		`|^(?:i'?m|im|i am) (?:on|in) (?:the )?[\w-]+(?: [\w-]+)? (?:team|org|group|department|ops|platform|squad)(?:\s*[,.;]|\s*$| (?:at|in|of|for|here|doing|working|since|btw|fwiw|now|too|and|but|so|as|which|where|that)\b)` +
		`|^(?:[\w.+#/-]+ ){1,4}(?:is|are) (?:(?:all|pretty|kinda|mostly|totally|completely|still|black)\s+)*(?:new|magic|a mystery|alien|vibes|fresh) to me\b` +
		`|^(?:[\w.+#/-]+ ){1,6}i know (?:really |very |pretty |quite )?(?:well|good)\b|^(?:been (?:writing|doing|working)|came from|coming from) |^been using \S+(?: \S+){0,3} (?:for|like|since) (?:\d|a |many|years|ages)` +
		`|^(?:i'?ve|ive|i have) (?:(?:honestly|actually|really)\s+)?never (?:touched|used|written|worked (?:with|in|on)|done) (?:any |a lot of )?[\w./+#-]+(?: [\w./+#-]+)?\s*(?:,|$| but| so| before| either)` +
		`|^i (?:only |mostly |usually )?work (?:on )?(?:mon|tues|wednes|thurs|fri|satur|sun)days\b|^i (?:only |mostly |usually )?work (?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\s*(?:-|–|to|through|thru)\s*(?:mon|tue|wed|thu|fri|sat|sun)` +
		// what confuses them or where they are weakest, a year of a degree
		`|^(?:[\w.+#/-]+ ){1,5}(?:is|are) where (?:i'?m|im|i am) (?:weakest|weak|least (?:confident|comfortable)|rusty|rustiest)\b` +
		`|^(?:a |an )?[a-z]+(?:er|ist|or|ian|ant|ent) here\b|^(?:[\w.+#/-]+ ){1,3}(?:i'?m|im|i am) (?:(?:still|pretty|very|quite|totally|completely)\s+)?new\s*(?:,|$|\.)` +
		`|^we(?:'re| are) (?:a|an) (?:[\w-]+ ){0,4}?(?:startup|company|agency|studio|shop|lab|nonprofit|non-profit|consultancy|firm|bank|insurer|publisher|scaleup)\b` +
		`|^(?:\d(?:st|nd|rd|th)|first|second|third|fourth|final|last)[- ]year (?:phd|ph\.d\.?|masters?|msc|undergrad(?:uate)?|bachelor'?s)? ?(?:student|candidate)\b` +
		`|^(?:a |an )?(?:[\w.+#/-]+ ){0,2}(?:dev|developer|engineer|programmer|analyst|admin|designer|scientist) for (?:\d+\+?|many|several|ten|two|three|five|a few) (?:years|yrs)\b` +
		// a role said without its article, years of a thing, part-time
		`|^(?:me )?(?:i'?m|im|i am) (?:a |an )?(?:native [a-z]+ speaker|(?:[\w-]+ )?(?:engineer|developer|designer|analyst|scientist|architect|consultant|researcher|student|intern)\b)` +
		`|^\d+\+?\s*(?:yrs?|years?) (?:of|in|with|doing) [\w.+#/-]+(?: [\w.+#/-]+)?\s*(?:,|$| but\b| and\b| so\b| experience\b)|^(?:i'?m|im|i am) (?:only )?part[- ]time\b` +
		`|^i (?:have|'ve got) (?:a |an )?[\w-]+(?: [\w-]+)? background\b|^(?:english|[a-z]+) is not my (?:first|native) language\s*[.!]*$|^my (?:first|native) language is [a-z]+\s*[.!]*$|^i used to (?:work|be) (?:at|for|a|an|on)\b` +
		`|^(?:i'?ve|ive|i have) (?:used|been using|worked with|written|done) [\w./+#-]+(?: [\w./+#-]+){0,2} for (?:like |about |over |almost )?(?:\d+|a|many|several|ten|two|three|five) (?:years?|yrs?)\b`))
	// reSelfI is more of reSelf, all of it said with I first: apart, so
	// that its prefix gates it.
	reSelfI = gate(lazyre.New(`(?i)` +
		// a role without its article ("I am iOS developer originally", "im fw
		// lead here", "i'm infra/sre, not a dba"), a part-time week, a firm,
		// leave, a place and time zone apart from the team
		`^(?:i'?m|im|i am) (?:(?:[\w.+#]+[/-])?[\w.+#]+ ){0,3}(?:engineer|eng|developer|dev|designer|analyst|scientist|admin|manager|intern|student|founder|contractor|consultant|lead|pentester|dba|sre|devops|architect|maintainer|researcher|postdoc|professor|lecturer|cto|ceo)\b` +
		`|^(?:i'?m|i am) (?:[\w.+#-]+/)?(?:sre|dba|infra|devops|ops|backend|frontend|qa|data|security|platform)\s*(?:,|$)` +
		`|^i (?:only )?work (?:part[- ]time|half[- ]time|mornings|afternoons|evenings|nights|weekends|remotely|\d (?:days|mornings))\b` +
		`|^(?:i'?m|i am) (?:at|with) (?:a|an) (?:[\w-]+ ){0,3}?(?:agency|startup|company|studio|bank|hospital|university|lab|firm|consultancy|nonprofit|non-profit|insurer|retailer|publisher|fintech|scaleup)\b` +
		`|^(?:i'?m|i am) (?:on|going on|off on) (?:paternity|maternity|parental|annual|sick|long|extended)? ?leave\b` +
		`|^(?:i'?m|im|i am) (?:out|off|away|ooo|on vacation|on holiday|on pto) (?:from|starting|between) \S+` +
		`|^(?:i'?m|i am) (?:based |located )?in [\w ]{2,25}? and (?:the )?(?:rest of (?:the|my) )?team (?:is|are)\b|^(?:i'?m|i am) based in\b|^i live in\b` +
		`|^(?:i'?m|im|i am) (?:based |located )?in [\w ]{2,25}? and (?:the |my |our )?[\w-]+(?:'s| is| are) in\b` +
		`|^(?:i'?m|im|i am) (?:only )?in (?:on )?(?:mon|tue|wed|thu|fri)[a-z]*\s*(?:-|–|to|through|thru)\s*(?:mon|tue|wed|thu|fri|sat|sun)` +
		`|^(?:i'?m|im|i am) having \d+\+? (?:years?|yrs) (?:of )?experience\b` +
		`|^(?:i'?m|i am) (?:fairly |pretty |very |still )?new (?:on|in) (?:this|the|my) team\b` +
		// what they have kept doing for years: "i am maintaining the
		// provisioning scripts here since 2014"
		`|^(?:i'?m|im|i am|i'?ve been|ive been|i have been) (?:maintaining|running|building|writing|managing|leading|developing|owning|teaching|doing) [^,.;]{3,60}? (?:since (?:19|20)\d\d|for (?:\d+|a few|many|several|ten|two|three|four|five) (?:years|yrs))\b`))
	// reSelfMore is a past role held for a while, or a role on a team said
	// without its I: read after reSelf, behind their own cheap tests.
	reSelfWas  = gate(lazyre.New(`(?i)^i was (?:a|an) (?:[\w-]+ ){0,3}?(?:nurse|doctor|teacher|analyst|engineer|developer|designer|scientist|researcher|consultant|manager|lead|admin|accountant|lawyer|[\w-]+ist|[\w-]+er|[\w-]+or) (?:for (?:\d+\+? (?:years|yrs)|many years|several years|a few years|years|a decade)|(?:until|till|up until|up to) (?:last|this|a|\d))\b`))
	reSelfTeam = gate(lazyre.New(`(?i)^(?:[\w.-]+ ){0,2}?(?:engineer|developer|dev|sre|designer|analyst|scientist|lead|manager|admin) on the [\w-]+(?: [\w-]+){0,2} team\s*(?:,|$)`))
	reSelfNot  = gate(lazyre.New(`(?i)\b(?:good|great|fine|ok|okay|happy|comfortable|bad) with (?:that|this|it|these|those|your|the plan)\b|\b(?:i'?m|i am) (?:going|trying|not|looking|getting|seeing|stuck|confused|sure|done|back|here|wondering|about|just|on call|in (?:a|the)|currently working on|working on (?:this|the|a|it))\b|^i (?:\w+ )?(?:do|run|write) (?:it|this|that|the|a)\b`))

	// reCausal is a clause that tells what went wrong: the reason a rule
	// exists, given without "because".
	reCausal = gate(lazyre.New(`(?i)(?:^|[,;—–]\s*)((?:we|it|they|that|this|[\w-]+(?: [\w-]+){0,3}) (?:got burned|caused|broke|killed|corrupted|took down|costs?|oomed|ooms|bans?|bit us|bites us|reads? terribly)\b.*)$`))
	// reSubjectClause is a trailing declarative clause with its own
	// subject: after a rule it gives the reason.
	reSubjectClause = gate(lazyre.New(`(?i)[,;]\s+((?:the|it|we|they|our|i|a|an) [\w-]+ [^,;]{6,})$`))

	// reSchedule is a verb that puts a fact on the calendar.
	reSchedule = gate(lazyre.New(`(?i)\b(?:starts?|starting|begins?|ends?|due|goes? live|go live|launch(?:es|ing)?|ships?|shipping|planned|scheduled|moved to|moves to|until|deadline|freez(?:e|es|ing)|cut-?off|release[sd]?|kicks? off|expires?|lands?)\b`))
	// reOwner is who owns or decides something, a person named by name:
	// "Maria owns the event bus mapping", "Priya, she decides on schema
	// changes".
	reOwner = gate(lazyre.New(`\b(?:[A-Z][a-z]+|[Ss]he|[Hh]e|[Tt]hey)\s+(?:owns|decides on|decides|signs off on|approves|is responsible for|is in charge of|maintains|reviews)\b` +
		// "Lindqvist joined as coauthor, she does the heterogeneity
		// section": someone just named, by the pronoun
		`|[,;]\s+(?:[Ss]he|[Hh]e) (?:does|handles|covers) (?:the|all|our)\b` +
		`|\b[A-Z][a-z]+(?: [A-Z][a-z]+)?(?: from [\w ]{1,30}?)?\s+is\s+(?:the|our|their)\s+(?:[\w-]+\s+){0,2}(?:lead|contact|owner|maintainer|reviewer|point person|dri|controller|go-to)\b` +
		`|\b[A-Z][a-z]+(?: [A-Z][a-z]+)? (?:wrote|built|set up|created) [\w .-]{1,30}? and (?:owns|maintains)\b` +
		// "my advisor is Prof. Okonkwo", "our PM is Dana"
		`|\b(?:[Mm]y|[Oo]ur) (?:advisor|adviser|supervisor|manager|boss|lead|tech lead|team lead|PM|pm|product owner|mentor|client contact) is (?:(?:Prof|Dr|Mr|Mrs|Ms)\.? )?[A-Z][a-z]+\b` +
		// "Mei does all the UI and Jonas does builds/installers"
		`|(?:^|, |and )[A-Z][a-z]+ does (?:all (?:of )?)?(?:the |our )?[\w/+-]+(?: [\w/+-]+)?\s*(?:$|[,.;)]| and )`))
	// reLifecycle is a component's fate: deprecated, removed, replaced.
	reLifecycle  = gate(lazyre.New(`(?i)\b(?:is|are|getting|being|gets|will be) (?:deprecated|removed|sunset|replaced|retired|shut down)\b|\b[\w-]+ replaces (?:it|them|the)\b`))
	reNotProject = gate(lazyre.New(`(?i)^(?:i|you|please|can you|could you|remind)\b`))

	// reNamedPlace is "a named place outside the repo where something lives": a
	// location verb, then within a few words a name — quoted, a #channel,
	// an identifier with dashes, dots or slashes, a TICKET-12 key, a URL.
	reLocVerb    = gate(lazyre.New(`(?i)\b(?:(?:lives?|is|are|sits?|happens?|happen|lands?|land|goes?|go|posted|tracked|tracking|tracks?|kept|stored|deployed|hosted|filed|pinned|published|reported|managed|maintained|documented|booked|recorded|listed|saved|posts?)\s+(?:it\s+|them\s+)?(?:in|at|on|to|under)|(?:shows?|show|turns?|turn)\s+up\s+(?:in|at|on|under)|(?:generated|pulled|synced|exported|uploaded|dumped|mirrored|sent|comes?|come|fed)\s+(?:it\s+|them\s+)?(?:in|at|on|to|under|from|into|through|thru|via))\b`))
	reNamedPlace = gate(lazyre.New(`^[^.;]{0,60}?(?:'[^']{2,40}'|"[^"]{2,40}"|\x60[^\x60]{2,40}\x60|#[a-z0-9][\w-]{2,}|\b[a-z0-9]+(?:[-_.][a-z0-9]+)+(?:/[\w.-]+)*|\b[A-Z][A-Z0-9]+-\d+\b|\b[A-Z][A-Za-z0-9]+-[A-Z][A-Za-z0-9]+\b|\b[\w.-]+/[\w.-]+|\b(?:project|space|board|queue|group|workspace|org) [A-Z][A-Z0-9]+\b|https?://)`))
	// reBreadcrumb is a place named by its path of titles: "Hollowtide /
	// Combat / Waves v3", "NETCODE > Playtest Log". Apart from reNamedPlace,
	// and only where " / " or " > " is: the words around them cost.
	reBreadcrumb = gate(lazyre.New(`^[^.;]{0,60}?\b[\w-]+(?: [\w-]+){0,2} / [\w-]+(?: [\w-]+){0,2} / [\w-]|^[^.;]{0,60}?\b[\w-]+ > [\w-]`))
	// reIsNamed is a copula naming the place outright: "the tracker is the
	// github project 'Test Health'", "the registry is ghcr.io/acme".
	reIsNamed = gate(lazyre.New(`(?i)\b(?:is|are)\s+(?:(?:the|our|a)\s+)?(?:[\w&]+\s+){0,3}?(?:project|page|repo|channel|bucket|folder|sheet|board|service|dashboard|space|doc|wiki|epic|vault|file)\s+['"\x60]|\b(?:is|are)\s+(?:always\s+)?(?:at\s+)?(?:https?://|[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:/[\w.-]+)*\b)|\b(?:is|are)\s+/[\w.-]+/[\w./-]+|\b(?:is|are)\s+(?:the|our|a)\s+['"\x60][^'"\x60]{2,40}['"\x60]\s+(?:[\w&]+\s+){0,2}(?:channel|bucket|folder|sheet|spreadsheet|board|dashboard|space|doc|wiki|vault|notebook)\b`))
	// reIsNamedID is a copula naming the place by its id: "is the
	// pagerduty service platform-operators", "the staging app is
	// warehouse-stg". Read only when the sentence holds an id.
	reIsNamedID = gate(lazyre.New(`(?i)\b(?:is|are)\s+(?:the|our)\s+(?:[\w&]+\s+){0,2}?(?:project|repo|channel|bucket|folder|board|service|space|vault|app|cluster|instance|account|namespace|queue|topic|workspace|org|tenant|site)\s+[a-z0-9]+(?:[-.][a-z0-9]+)+\b|\b(?:staging|prod|production|dev|test|preview|qa|sandbox) (?:app|cluster|instance|account|namespace|bucket|queue|topic|workspace|tenant|site|project) (?:is|are) (?:called |named )?[a-z0-9]+(?:[-.][a-z0-9]+)+\b|\b(?:app|cluster|instance|account|namespace|bucket|queue|topic|workspace|tenant|site|project) (?:is|are) (?:called|named) [a-z0-9]+(?:[-.][a-z0-9]+)+\b`))
	reInRepo    = gate(lazyre.New(`(?i)\b(?:readme|this repo|the repo|codebase)\b|\.(?:go|ts|tsx|js|py|sql|json|ya?ml|rs|swift)\b`))
)

// rePoliteStop is a standing request put politely: "can we please stop
// reaching for a pinia store", "could you always…".
var rePoliteStop = gate(lazyre.New(`(?i)^(?:can|could|would) (?:we|you|u) (?:please |pls )?((?:stop|always|never|quit|not) \w)`))

// standingMarks say a polite "can we stop…" asks for every time, not now:
// "for every little bit of state", "i've said this before", "it's the
// style we agreed", "our style guide says".
var standingMarks = []string{"every", "always", "anymore", "any more", "again", "said this", "each time", "all the time", "keep ", "style guide", "the style we", "we agreed", "convention", "guideline"}

// reading is a sentence made ready for classify.
type reading struct {
	text       string
	correction bool // it redirects what the assistant did or proposed
}

// read drops the sentence's opening markers and filler and sees whether it
// is a correction; a redirect's "not that" head goes, the rule stays.
func read(s string) reading {
	// The loop, classify and the readers after it ask the same of one
	// sentence several times.
	if c := lastRead.Load(); c != nil && c.s == s {
		return c.r
	}
	r := readUncached(s)
	lastRead.Store(&readMemo{s, r})
	return r
}

type readMemo struct {
	s string
	r reading
}

var lastRead atomic.Pointer[readMemo]

func readUncached(s string) reading {
	s = reInterjection.ReplaceAllString(s, "")
	if len(s) > 8 && strings.EqualFold(s[:8], "please, ") {
		s = s[:6] + s[7:] // "Please, no ternary operators in templates"
	}
	r := reading{}
	for {
		m := reLead.FindString(s)
		if m == "" || len(m) == len(s) {
			break
		}
		if rest := strings.ToLower(s[len(m):]); strings.HasPrefix(rest, "is ") || strings.HasPrefix(rest, "are ") || strings.HasPrefix(rest, "was ") || strings.HasPrefix(rest, "means ") {
			break // "howdy is the greeting we use": a word talked about, not a greeting
		}
		if reRedirect.MatchString(m) {
			r.correction = true
		}
		s = s[len(m):]
	}
	if n := reportedLead(asciiLower(s)); n > 0 && n < len(s) {
		s = s[n:] // "oskar said in standup we always…": the rule, not who said it
	}
	for _, dash := range []string{" — ", " – ", " - "} {
		head, rest, ok := strings.Cut(s, dash)
		if ok && len(strings.Fields(head)) <= 5 && reRedirectHead.MatchString(head) && !strings.Contains(head, ",") && len(strings.Fields(rest)) >= 3 && !ruleHead(head) {
			if reRedirect.MatchString(head) || strings.Contains(strings.ToLower(head), "let's not") || strings.Contains(strings.ToLower(head), "lets not") {
				r.correction = true
			}
			s, r.correction = rest, true
			break
		}
	}
	if m := rePoliteStop.FindStringSubmatchIndex(s); m != nil && !strings.HasSuffix(strings.TrimSpace(s), "?") && mayHold(s, standingMarks) {
		asked := s
		s = s[m[2]:] // "can we please stop reaching for a store for everything": "stop …"
		if w := strings.Fields(strings.ToLower(s)); len(w) > 1 && w[0] == "not" {
			switch {
			case slices.Contains([]string{"just", "rather", "see", "check", "first", "even", "simply"}, w[1]) || mayHold(s, []string{" yet", " for now", " today", " right now"}):
				// "can you not just use the style from the other file":
				// asks to do it, not to stop.
				s = asked
			default:
				s = "don't " + s[len("not "):] // "can u not put everything in one module": "don't put …"
			}
		}
	}
	if strings.HasPrefix(strings.ToLower(s), "i'd rather") || strings.HasPrefix(strings.ToLower(s), "let's not") {
		r.correction = true
	}
	r.text = reasonComma(withoutHedge(strings.TrimSpace(s)))
	return r
}

// withoutHedge drops a hope said after a statement: "1.8.0 goes out
// saturday the 16th, assuming my cat doesn't sit on the keyboard again"
// says when 1.8.0 goes out, and nothing of the past.
func withoutHedge(s string) string {
	if strings.IndexByte(s, ',') < 0 && !strings.Contains(s, " fingers") {
		return s // every hedge but one comes after a comma
	}
	l := asciiLower(s)
	for _, h := range []string{", assuming ", ", hopefully", ", fingers crossed", " fingers crossed", ", touch wood", ", knock on wood", ", if all goes well", ", if nothing breaks", ", god willing", ", inshallah", ", so yeah"} {
		if i := strings.Index(l, h); i > 0 && len(strings.Fields(l[:i])) >= 3 {
			return s[:i]
		}
	}
	return s
}

// reasonComma puts the comma a reason said first leaves out before the
// rule it explains: "since matter numbers are confidential dont put real
// ones in fixtures" reads as "since …confidential, dont put …".
func reasonComma(s string) string {
	l := asciiLower(s)
	if first, _, _ := strings.Cut(l, " "); !reasonOpener(first) {
		return s
	}
	at := -1 // where the rule starts: its first mark
	for _, mark := range []string{" dont ", " don't ", " do not ", " never ", " always ", " please ", " pls ", " plz ", " avoid ", " make sure ", " we never ", " we always ", " we dont ", " we don't ", " we do not "} {
		if i := strings.Index(l, mark); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 || strings.ContainsAny(l[:at], ",;:—–") || len(strings.Fields(l[:at])) < 3 {
		return s // no rule, said with its comma, or too short to be a reason
	}
	return s[:at] + "," + s[at:]
}

// ruleHead reports a head before a dash that is a rule of its own, not
// a redirect: "dont change the embedding model — re-embedding takes a
// week" (not "don't do that — use X", not "not like that — …").
func ruleHead(head string) bool {
	w := strings.Fields(asciiLower(head))
	for len(w) > 0 && (w[0] == "no" || w[0] == "please" || w[0] == "pls" || w[0] == "but" || w[0] == "so" || w[0] == "ok") {
		w = w[1:]
	}
	if len(w) < 4 || w[0] != "dont" && w[0] != "don't" && !(w[0] == "do" && w[1] == "not") {
		return false
	}
	return !pointsBack(w)
}

// isScheduled reports a project fact with a date: a thing that starts,
// ends, ships or freezes on a day the sentence names.
func isScheduled(s string, at time.Time) bool {
	if !mayHoldDate(s) {
		return false
	}
	if reNotProject.MatchString(s) {
		_, dated := AbsoluteDates(s, at)
		return dated && deliverable(s) // "I have to send chapter 3 to my supervisor the 15 of April"
	}
	past := rePast.MatchString(withoutReason(s)) // not "…, since the auditors flagged it last year"
	scheduled := reSchedule.MatchString(s) || datedFact(s) && !past
	if !scheduled {
		// Any statement that puts something of the team's ahead on a day:
		// "we're cutting over to arq on the 16th", "clicks.v1 gets deleted
		// october 15". Not a request, not the past.
		words := strings.Fields(strings.ToLower(s))
		scheduled = len(words) >= 4 && !imperatives()[words[0]] && (!firstPerson(words[0]) || someoneOf(words)) && !past && !reNowOnly.MatchString(s)
	}
	if !scheduled {
		return false
	}
	_, dated := AbsoluteDates(s, at)
	return (dated || monthEnd(s) || reRecurringDays.MatchString(s)) && !ownPlansOnly(s, at)
}

// deliverable reports the speaker's own errand that is owed to someone
// else: work handed to a supervisor, a client, a colleague by name ("i'm
// handing this project off to dana on friday"), which the team plans
// around, unlike "i'll try the silences tomorrow".
func deliverable(s string) bool {
	w := strings.Fields(asciiLower(s))
	if len(w) < 5 || w[0] != "i" && w[0] != "i'm" && w[0] != "im" {
		return false
	}
	verb := -1
	for i, x := range w[1:min(len(w), 5)] {
		switch x {
		case "send", "submit", "deliver", "present", "hand", "handing", "demo", "show", "ship":
			verb = i + 1
		}
		if verb >= 0 {
			break
		}
	}
	if verb < 0 {
		return false
	}
	for i := verb + 1; i+1 < len(w); i++ {
		if w[i] != "to" {
			continue
		}
		switch n := w[i+1]; n {
		case "my", "the", "our", "their":
			return i+2 < len(w) && (someoneOf(w[i+1:]) || w[i+2] == "team" || w[i+2] == "board" || w[i+2] == "committee" || w[i+2] == "reviewers" || w[i+2] == "editor")
		default:
			return !determiners()[n] && !prepositions()[n] && !pronounSubject(n) && len(n) > 2 && !dateWord(n) && n != "you" && n != "him" && n != "her" && n != "them" && n != "prod" // a name
		}
	}
	return false
}

// dateWord reports a word that says when, not who: "to monday".
func dateWord(w string) bool {
	_, day := weekdays[w]
	_, month := months[w]
	return day || month || w == "tomorrow" || w == "today"
}

// withoutReason is s up to the reason it gives after a comma: "risk
// committee review is june 3, they want it written up since the auditors
// flagged it" is a day ahead, whatever happened before it.
func withoutReason(s string) string {
	if !strings.Contains(s, ", ") {
		return s
	}
	for _, m := range reReason.FindAllStringSubmatchIndex(s, -1) {
		if i := strings.LastIndex(s[:m[2]], ", "); i > 0 && m[2] > 0 {
			return s[:i]
		}
	}
	return s
}

// monthEnd reports a named month's end that is one day, not every year's:
// "done by end of september" (periodEnds writes it in a project fact).
func monthEnd(s string) bool {
	return reEndOfMonth.MatchString(s) && !reYearly.MatchString(s) && !reRuleStart.MatchString(s) // not "never release at the end of december"
}

// reOwnPlan is the speaker's own plan, or where they will be: "tomorrow
// i'll try the silences", "need to sign off", "on the 25th i am onsite".
var reOwnPlan = gate(lazyre.New(`(?i)\bi(?:'ll| will|'m going to| am going to|'m gonna| need to| have to)\b|^(?:ok |so |anyway )?(?:need to|gotta|have to|got to)\b|\bi(?:'m|m| am) (?:onsite|on site|out|off|away|travell?ing|offline|at (?:the|a) \w+|in (?:meetings|a workshop|training))\b`))

// ownPlansOnly reports whether every clause of s that holds a date is the
// speaker's own plan, not a fact of the team's.
func ownPlansOnly(s string, at time.Time) bool {
	cuts := clauseCuts(s)
	for off := 0; ; {
		i := strings.Index(asciiLower(s[off:]), " and ")
		if i < 0 {
			break
		}
		cuts = append(cuts, cut{off + i, len(" and ")})
		off += i + len(" and ")
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	own := false
	for k := range cuts {
		clause, ok := clauseAt(s, cuts, k)
		if !ok {
			continue
		}
		if _, dated := AbsoluteDates(clause, at); !dated {
			continue
		}
		if !reOwnPlan.MatchString(strings.TrimSpace(clause)) {
			return false
		}
		own = true
	}
	return own
}

// rePast is a statement about what happened, not what is ahead.
var rePast = pastRe{gate(lazyre.New(`(?i)\b(?:yesterday|ago|last (?:week|month|night|time|friday|monday|tuesday|wednesday|thursday|saturday|sunday)|was|were|did|had|has been|have been|since|again|happened|broke|failed|crashed|flaked|went|got)\b|^(?:can|could|would|will|shall) (?:we|you|i)\b|^(?:talk to you|see you|have a (?:good|nice|great))|\bit would be (?:nice|good|great)\b`))}

// pastRe is rePast, save that what one has got is now: "we've got the
// site visit the tuesday after next".
type pastRe struct{ *gatedRe }

var haveGot = strings.NewReplacer("'ve got", "'ve", "’ve got", "’ve", "have got", "have", "'s got", "'s", "’s got", "’s")

func (p pastRe) MatchString(s string) bool {
	if !p.gatedRe.MatchString(s) {
		return false
	}
	if !strings.Contains(s, "ve got") && !strings.Contains(s, "s got") {
		return true // most past: "we got burned"
	}
	return p.gatedRe.MatchString(haveGot.Replace(s))
}

// datedFact reports a thing the team has, put on a day by its structure:
// a noun phrase as subject ("the DR drill with the auditors", "our
// contract renewal"), then "is"/"are", or any verb and "on", then the day
// — "is dec 16", "is friday", "is on december 18", "goes to 10% of users
// on monday". AbsoluteDates must still find a date in it.
func datedFact(s string) bool {
	l := strings.ToLower(s)
	if !strings.HasPrefix(l, "the ") && !strings.HasPrefix(l, "our ") && !strings.HasPrefix(l, "a ") && !strings.HasPrefix(l, "an ") {
		return false
	}
	if i := strings.IndexAny(l, ",;"); i > 0 {
		l = l[:i] // within the first clause
	}
	for _, verb := range []string{" is ", " are ", "'s ", " on "} {
		for off := 0; ; {
			i := strings.Index(l[off:], verb)
			if i < 0 {
				break
			}
			rest := l[off+i+len(verb):]
			off += i + len(verb)
			for _, w := range []string{"on ", "by ", "at ", "until ", "till ", "due ", "set for ", "planned for ", "scheduled for "} {
				if r, ok := strings.CutPrefix(rest, w); ok {
					rest = r
					break
				}
			}
			if reDayStart.MatchString(rest) {
				return true
			}
		}
	}
	return false
}

// reDayStart is a day at the start of a text: "16", "the 14th", "friday",
// "dec 16", "tomorrow", "next …".
var reDayStart = gate(lazyre.New(`^(?:(?:the\s+)?\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|today\b|tomorrow\b|next\s)`))

// causalReason is the reason a rule's user gave without "because": the
// clause that says what went wrong ("…, it caused double renders"), or a
// trailing clause with its own subject ("return an error, the CLI callers
// need to print hints").
func causalReason(s string) string {
	if m := reCausal.FindStringSubmatch(s); m != nil && len(strings.Fields(m[1])) >= 3 && strings.Index(s, m[1]) > 0 {
		return strings.TrimRight(m[1], ".!")
	}
	if m := reSubjectClause.FindStringSubmatch(s); m != nil {
		return strings.TrimRight(m[1], ".!")
	}
	return clauseReason(s)
}

// clauseReason is the reason a rule's user gave in a clause of its own,
// read by structure rather than by a causal word: of the sentence's
// clauses (cut at ", ", "; " and dashes), the last one after the first
// that states something (a subject and a verb) rather than asks for
// something (an imperative) — "keep it as plain functions, I need to be
// able to read it"; "use the nats dev server, we run 6 replicas even in
// dev" — or, for "X, so Y", the X that Y follows from ("the audit starts
// on the 7th, so every new component needs aria labels").
func clauseReason(s string) string {
	if len(s) > maxClauseText {
		return ""
	}
	lower := asciiLower(s)
	for _, sep := range []string{", so ", "; so ", " — so ", " so we ", " so no "} {
		if i := strings.Index(lower, sep); i > 0 {
			left := strings.TrimSpace(s[:i])
			if len(strings.Fields(left)) >= 3 && declarative(left) && len(strings.Fields(s[i+len(sep):])) >= 2 {
				return strings.TrimRight(left, ".!")
			}
		}
	}
	return trailingReason(s, nil)
}

type cut struct{ at, n int }

// clauseCuts are where s's clauses start: 0, then each separator.
func clauseCuts(s string) []cut {
	out := []cut{{0, 0}}
	for i := 0; i < len(s); i++ {
		for _, sep := range []string{", ", "; ", " — ", " – ", " - "} {
			if strings.HasPrefix(s[i:], sep) {
				out = append(out, cut{i, len(sep)})
				i += len(sep) - 1
				break
			}
		}
	}
	return out
}

// clauseAt is clause k of s as cuts cut it, and whether it has any text.
func clauseAt(s string, cuts []cut, k int) (string, bool) {
	end := len(s)
	if k+1 < len(cuts) {
		end = cuts[k+1].at
	}
	if end < cuts[k].at+cuts[k].n {
		return "", false
	}
	return s[cuts[k].at+cuts[k].n : end], true
}

// Declarative reports whether a clause states something ("Android crashes
// are in juniper-prod") rather than telling what to do ("indent with
// tabs", "never run terraform apply locally").
func Declarative(clause string) bool { return declarative(clause) }

// declarative reports whether clause states something: it does not open
// with an imperative or a negated request, and it has a subject's word
// first or a finite verb in it.
func declarative(clause string) bool {
	words := strings.Fields(strings.ToLower(strings.Trim(clause, " .!,;:")))
	if len(words) == 0 || imperatives()[strings.Trim(words[0], "\"'`")] {
		return false
	}
	if subjects()[words[0]] {
		return true
	}
	if quantifiers()[words[0]] && len(words) >= 3 && strings.HasSuffix(words[1], "s") {
		return true // "two teams consume it", "most users skip it"
	}
	for i := 1; i <= 2 && i < len(words) && len(words) >= 3; i++ {
		// A verb in the third person after a noun: "compliance flags it",
		// "mpirun bypasses the cgroup binding".
		w, prev := strings.Trim(words[i], ".,;:!\"'`()"), words[i-1]
		object := i+1 == len(words) || determiners()[words[i+1]] || words[i+1] == "it" || words[i+1] == "them" || words[i+1] == "us" ||
			// "merchandising changes prices by hand": a plural object, then
			// how or where.
			i+2 < len(words) && len(words[i+1]) >= 4 && strings.HasSuffix(words[i+1], "s") && !strings.HasSuffix(words[i+1], "ss") && prepositions()[words[i+2]]
		if len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") &&
			!strings.HasSuffix(w, "'s") && !determiners()[prev] && !prepositions()[prev] && !strings.ContainsAny(prev, "0123456789,") && object {
			return true
		}
	}
	for _, w := range words[1:] {
		w = strings.Trim(w, ".,;:!\"'`()")
		if finiteVerbs()[w] || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "'s") && w != "let's" ||
			len(w) >= 6 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") {
			return true
		}
	}
	return false
}

var (
	imperatives = sync.OnceValue(func() map[string]bool {
		return wordSet(`use always never don't dont do keep add put run make please avoid prefer try stop remember just only
		derive return log check go write call set follow test ask file attach schedule no skip ping tell let's lets read see
		change move rename delete remove start wait note open close pin bump ship merge push pull rebase squash review
		explain warn mention walk give describe summarize summarise confirm double-check ignore
		register wrap generate validate escape encode encrypt paginate mock`)
	})
	subjects = sync.OnceValue(func() map[string]bool {
		return wordSet(`we we're we've we'd it it's its they they're they've i i'm im ive i've i'd that that's this there there's
		our my your their someone somebody nobody everyone everybody people he she he's she's the a an every last`)
	})
	determiners = sync.OnceValue(func() map[string]bool {
		return wordSet(`the a an all our my your their his her its some any no every each these those this that both few many more most other which what`)
	})
	finiteVerbs = sync.OnceValue(func() map[string]bool {
		return wordSet(`is are was were has have had need needs got gets get bought took broke ran runs run made makes
		went goes go pay pays read reads do does did can can't cannot will won't would could should must may might costs cost
		bans ban breaks caused causes fails failed reject rejects support supports audits check checks want wants wanted
		uses use relies depends matches owns own sees lives am isnt arent wasnt werent doesnt didnt cant wont`)
	})
)

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// ruleClause is a rule a later clause of s asks for, with the reason a
// clause after it gives: one that opens like a rule ("never edit the json
// files in locales/ directly", "don't hand-edit hosts.ini", "every new
// component needs aria labels"), or, after a self-description's "so",
// any request ("so please keep tables out of your answers", "so document
// decisions for whoever comes next"). "" when there is none.
func ruleClause(s string, self bool) (rule, why string) {
	if len(s) > maxClauseText {
		return "", ""
	}
	cuts := clauseCuts(s)
	lower := asciiLower(s)
	for _, sep := range []string{" so ", " but ", " and dont ", " and don't ", " and never "} {
		if i := strings.Index(lower, sep); i > 0 && s[i-1] != ',' && s[i-1] != ';' {
			if strings.HasPrefix(sep, " and ") {
				cuts = append(cuts, cut{i, len(" and ")}) // "sync it from there and dont hardcode domains": the rule after "and"
				continue
			}
			cuts = append(cuts, cut{i, len(sep)})
		}
	}
	slices.SortFunc(cuts, func(a, b cut) int { return a.at - b.at })
	for k := 1; k < len(cuts); k++ {
		end := len(s)
		if k+1 < len(cuts) {
			end = cuts[k+1].at
		}
		if end < cuts[k].at+cuts[k].n {
			continue
		}
		sep := strings.TrimSpace(s[cuts[k].at : cuts[k].at+cuts[k].n])
		c := strings.TrimSpace(s[cuts[k].at+cuts[k].n : end])
		for {
			l := strings.ToLower(c)
			trimmed := false
			for _, lead := range []string{"and ", "but ", "so ", "also ", "please ", "pls ", "plz ", "whatever we do ", "whatever you do ", "no matter what "} {
				if strings.HasPrefix(l, lead) {
					c, trimmed = c[len(lead):], true
					break
				}
			}
			if !trimmed {
				break
			}
		}
		words := strings.Fields(strings.ToLower(c))
		if len(words) < 3 {
			continue
		}
		// After a self-description's "so", a standing request: an
		// imperative of four words or more ("so please keep tables out of
		// your answers"), not a permission or a remark ("you can be terse
		// about SQL", "skip the basics").
		after := lower[cuts[k].at+cuts[k].n:]
		request := self && (sep == "so" || sep == "but" || strings.HasPrefix(after, "so ") || strings.HasPrefix(after, "but ") || requestVerbs()[words[0]]) &&
			len(words) >= 4 && (imperatives()[words[0]] || requestVerbs()[words[0]]) && !declarative(c) // "c++ templates make me cry" asks nothing
		verbless := len(words) > 1 && prepositions()[words[1]] // "never in public GitHub issues": a fragment
		// "pin module versions by git tag never by branch": an order that
		// holds every time, said with its "never" inside.
		strong := imperatives()[words[0]] && !reRuleStart.MatchString(c) && len(words) >= 4 && reStrongCue.MatchString(c) && !reNotRuleClause.MatchString(c)
		if !request && !strong && (!reRuleStart.MatchString(c) || verbless) || reAnaphor.MatchString(c) || pointsBack(words) {
			continue // not a rule, or one that needs the clause before it ("no new features after that")
		}
		if (words[0] == "never" || words[0] == "dont" || words[0] == "don't") && !self {
			// "migrations live in db/migrations as sql files, never inline
			// in code": the clause before says where they go instead.
			if prev := strings.TrimSpace(s[cuts[k-1].at+cuts[k-1].n : cuts[k].at]); len(strings.Fields(prev)) >= 3 && len(locVerbEnds(prev)) > 0 {
				c = trimClauseLead(prev) + ", " + c
			}
		}
		if k+1 < len(cuts) && k+2 >= len(cuts) {
			// "keep the gdscript dead simple, no clever one-liners": the
			// "no …" after it says what the rule rules out.
			if more := strings.TrimSpace(s[cuts[k+1].at+cuts[k+1].n:]); strings.HasPrefix(asciiLower(more), "no ") && len(strings.Fields(more)) <= 8 {
				c, end = c+", "+strings.TrimRight(more, ".!"), len(s)
			}
		}
		if end < len(s) {
			why = trailingReason(s[end:], nil)
			if why == "" {
				if rest := strings.TrimLeft(s[end:], " ,;—–-"); len(strings.Fields(rest)) >= 3 && declarative(rest) {
					why = strings.TrimRight(rest, ".!")
				}
			}
		}
		if why == "" && (sep == "so" || strings.HasPrefix(after, "so ")) {
			// "we're doing an accessibility audit starting dec 7, so every
			// new component needs aria labels": the fact it follows from.
			if before := strings.TrimRight(strings.TrimSpace(s[:cuts[k].at]), ",;"); len(strings.Fields(before)) >= 3 && declarative(before) && !reQuestion.MatchString(before) {
				why = before
			}
		}
		if strings.HasPrefix(asciiLower(why), "but not ") {
			// "keep the python idiomatic but not clever": more of the rule,
			// and the reason, if any, in it ("… so i can still read it").
			c = c + " " + why
			why = reasonOf(c, "")
		}
		return strings.TrimRight(c, ".!"), why
	}
	return "", ""
}

// reAnaphor is a clause that points back at the one before it, which it
// needs to be understood.
var reAnaphor = gate(lazyre.New(`(?i)\b(?:after that|before that|by then|until then|that day|then|after it|before it)\s*[.!]?$`))

var prepositions = sync.OnceValue(func() map[string]bool { return wordSet(`in on at for to with from by during after before under over`) })

// quantifiers open a plural subject: "two teams consume it".
var quantifiers = sync.OnceValue(func() map[string]bool {
	return wordSet(`two three four five six seven eight nine ten some many most all both several few 2 3 4 5 6 7 8 9 10`)
})

// requestVerbs open a standing request after a self-description: "i'm a
// pentester not really a dev, keep the python idiomatic".
var requestVerbs = sync.OnceValue(func() map[string]bool {
	return wordSet(`keep explain skip flag avoid spell walk point comment prefer stick document leave include ping cc loop show label tag assume treat go`)
})

// reRuleStart is a clause that opens as a standing rule does.
var reRuleStart = gate(lazyre.New(`(?i)^(?:never|always|don'?t|do not|avoid|no new|(?:we|you) (?:can'?t|cannot) (?:keep|put|store|send|use|ship|log|touch|change|deploy|merge|share|commit|push)\b|(?:when(?:ever)?|if) you (?:ever |also )?(?:write|touch|add|change|work on|need|make|create|edit) (?:any |a |an )?(?:[a-z][\w.+#-]*)(?: (?:code|files?|tests?|scripts?|stuff|for us))?,?\s+(?:use|stick|put|keep|add|write|make|prefer|avoid|never|always|check|test|run|update|bump|regenerate|ping|tell)\b|every (?:new )?[\w-]+ (?:needs|must|has to|should|gets)|(?:can'?t|cannot) (?:keep|put|store|share)\b|ignore (?:anything|everything|any|all)\b|(?:we|you) (?:always|never|must|should)\b|(?:and )?(?:run|check|test|lint|format|rebase|ask|ping|tell|update|make sure)\b[^.!?]{0,60}\bbefore (?:you|u) (?:hand|give|send|show|push|open|submit|call|say|mark|merge|commit|ship|deploy|launch) (?:anything|something|any\b|it (?:is |as )?done|code|changes|your\b))`))

// maxClauseText bounds the sentences read clause by clause: a real
// sentence is far shorter, and a pasted line of thousands of commas must
// not cost time quadratic in its length.
const maxClauseText = 1000

// pointsBack reports a rule whose object is a pronoun for something in the
// clause before it ("don't touch it without asking her", "never paste it
// into chat"): it does not stand alone.
func pointsBack(words []string) bool {
	for i, w := range words {
		if i == 0 || i > 3 {
			continue
		}
		switch strings.Trim(w, ".,;!") {
		case "it", "them", "her", "him", "that", "this", "those", "these", "there":
			return true
		}
	}
	return false
}
