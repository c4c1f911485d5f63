package consolidate

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/lazyre"
)

// A memory that says it changed something ("alerts go to #oncall now",
// "staging moved to https://stg…", "deploy day is Thursday from now on")
// updates an older one about the same thing that holds another value: a
// merge would state both values, the old as true as the new.

var (
	// reChanged is a change said outright.
	reChanged = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:moved|switched|migrated|changed|went|upgraded|downgraded|renamed|repointed|bumped)\s+(?:[\w.+#/'’-]+\s+){0,3}?to\b|\bfrom now on\b|\bnowadays\b|\bthese days\b|\bany ?more\b|\bno longer\b|\b(?:took|taken) over\b|\bhanded (?:\w+\s+){0,2}?over\b|\bas of\b|\bis (?:gone|retired|deprecated|replaced)\b|\b(?:ignore|disregard)\s+the\s+(?:old|earlier|previous)\b` +
			`|\b(?:since|after)\s+the\s+(?:[\w./-]+\s+){0,3}?(?:refactor|migration|upgrade|switch|move|rewrite|redesign|split|cutover|change|reorg)\b`)
	})
	// reNow is "now" as a change ("alerts go to #oncall now"), not as a
	// moment ("right now", "for now", "now that").
	reNow = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(right|for|until|till|by|just|even)?\s*\bnow\b(\s+that)?`)
	})
	// reRichValue is a value that is no number and no name: an address, a
	// channel, a handle, a path, a code span.
	reRichValue = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("`[^`\n]+`|\\bhttps?://[^\\s)>\\]]+|(?:^|\\s)([#@][\\w.-]+)|(?:^|\\s)(~?/[\\w.-]+(?:/[\\w.-]+)+)")
	})
)

// saysNow reports whether a sentence says a change happened: outright
// (strong), or with a bare "now".
func saysNow(s string) (said, strong bool) {
	if reChanged().MatchString(s) {
		return true, true
	}
	for _, m := range reNow().FindAllStringSubmatch(s, -1) {
		if m[1] == "" && m[2] == "" {
			return true, false
		}
	}
	return false, false
}

// richValues is a sentence's values: its numbers and names, and its
// addresses, channels, handles, paths and code spans.
func richValues(s string) map[string]bool {
	out := values(s)
	for _, m := range reRichValue().FindAllStringSubmatch(s, -1) {
		v := m[0]
		if m[1] != "" {
			v = m[1]
		} else if m[2] != "" {
			v = m[2]
		}
		out[strings.ToLower(strings.Trim(strings.TrimSpace(v), ".,;:"))] = true
	}
	return out
}

// saidChange says how the newer memory b, saying it changed something,
// updates the older a: a sentence of b that says so is about what a
// sentence of a is about (a bare "now" needs more words in common), and
// each holds a value the other memory never states. "" when b says no
// change, or none that a holds another value of.
func saidChange(a, b item) (string, []string) {
	aText := strings.ToLower(a.Name + "\n" + a.Description + "\n" + a.Body)
	bText := strings.ToLower(b.Name + "\n" + b.Description + "\n" + b.Body)
	if reException().MatchString(b.Description + "\n" + b.Body) {
		return "", nil // an exception narrows the older memory; it changes none of it
	}
	// A line, not a sentence: "`make deploy` is gone; deploy with `ship`".
	for line := range strings.SplitSeq(unwrapped(b.Description+"\n\n"+b.Body), "\n") {
		said, strong := saysNow(line)
		if !said || reAlso().MatchString(line) {
			continue // "alerts also go to #oncall now": one more, none changed
		}
		need := 0.4
		if strong {
			need = 0.25
		}
		lineTerms := topicTerms(line)
		for _, o := range a.sents {
			if overlapOf(topicTerms(o.text), lineTerms) < need && !sameSlot(o.text, line) {
				continue
			}
			if staysSo(line, o.text) {
				continue // "their standup moved to 10:30; ours stays at 9:45": the older's value holds
			}
			from := onlyIn(richValues(o.text), bText)
			to := onlyIn(richValues(line), aText)
			if len(from) == 0 || len(to) == 0 || mixed(from) && mixed(to) {
				continue
			}
			return fmt.Sprintf("it says it changed %s to %s", strings.Join(from, ", "), strings.Join(to, ", ")), []string{quote(o.text), quote(line)}
		}
	}
	return "", nil
}

// staysSo reports a line that says a value of the older sentence stays
// as it is, beside what changed: "ours stays at 9:45".
func staysSo(line, old string) bool {
	l := strings.ToLower(line)
	if !strings.Contains(l, "stays") && !strings.Contains(l, "remains") && !strings.Contains(l, "unchanged") && !strings.Contains(l, "still") {
		return false
	}
	// Every number of the older sentence is still there: "targetSdk still
	// 35" beside "minSdk 29" keeps one of two, and 26 changed.
	// Beside it, another of its kind is new: "moved to 10:30; ours stays at
	// 9:45" tells two things; "still runs at 03:00, now from ops-2" one
	// that changed.
	nl, ol := values(line), values(old)
	clock := func(v string) bool { return strings.Contains(v, ":") }
	var kept, fresh []string
	for v := range ol {
		if strings.ContainsAny(v, "0123456789") {
			if !nl[v] {
				return false
			}
			kept = append(kept, v)
		}
	}
	for v := range nl {
		if !ol[v] && strings.Trim(v, "0123456789:.") == "" {
			fresh = append(fresh, v)
		}
	}
	return slices.ContainsFunc(kept, func(k string) bool {
		return slices.ContainsFunc(fresh, func(f string) bool { return clock(k) == clock(f) })
	})
}

// reSlot is a number and the word it belongs to: "port 5433",
// "localhost:5433", "Node 22", "v2".
var reSlot = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b([a-z][\w-]*)(?::|\s+(?:is\s+|=\s*|on\s+|at\s+)?)v?(\d[\d.]*\d|\d)\b`)
})

// sameSlot reports whether two sentences give one thing different
// numbers: "published on host port 5433 … localhost:5433" and "listens on
// localhost:55432".
func sameSlot(old, new string) bool {
	slots := func(s string) map[string]string {
		out := map[string]string{}
		for _, m := range reSlot().FindAllStringSubmatch(s, -1) {
			if w := strings.ToLower(m[1]); !stopSlot()[w] {
				out[w] = m[2]
			}
		}
		return out
	}
	so, sn := slots(old), slots(new)
	for w, v := range sn {
		if o, ok := so[w]; ok && o != v {
			return true
		}
	}
	return false
}

// stopSlot are words a number follows that name no thing (built on first
// use: nothing at the binary's start, which every hook pays).
var stopSlot = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"pr": true, "issue": true, "ticket": true, "step": true, "case": true, "line": true, "page": true, "item": true, "task": true, "the": true, "a": true, "an": true, "and": true, "or": true, "of": true, "in": true, "to": true, "by": true, "for": true, "with": true, "than": true, "every": true, "each": true, "about": true, "over": true, "under": true, "after": true, "before": true, "since": true, "until": true}
})

var reAlso = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:also|too|as well|besides|in addition|additionally)\b`)
})

// topicTerms is what a sentence is about: its stems less those of its
// values ("deploys happen on Tuesdays": deploy, happen).
func topicTerms(s string) map[string]bool {
	ts := termSet(s)
	for v := range richValues(s) {
		for t := range termSet(v) {
			delete(ts, t)
		}
	}
	return ts
}

// onlyIn lists the values of vs the other memory's text never states,
// sorted. (Two memories whose names give two values are two things, and
// never reach here: differentSubjects.)
func onlyIn(vs map[string]bool, other string) []string {
	var out []string
	for v := range vs {
		if !strings.Contains(other, strings.Trim(v, "`")) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// reOwner finds who owns what: "Dev Malhotra owns the EMQX cluster
// config" (owner, thing), "EMQX belongs to Tomasz's platform team" and
// "EMQX is the platform team's" (thing, owner).
var reOwner = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(\p{Lu}[\p{L}\w-]+(?:\s+\p{Lu}[\p{L}\w-]+)?)\s+(?:now\s+)?owns\s+(?:the\s+)?` + "`?" + `([\w.-]+)` +
		`|\b([\w.-]+)` + "`?" + `\s+(?:now\s+)?(?:belongs\s+to|is\s+(?:now\s+)?owned\s+by|is\s+(?:now\s+)?run\s+by|is\s+(?:now\s+)?maintained\s+by)\s+(?:the\s+)?((?:\p{Lu}[\p{L}\w-]*(?:'s)?\s*){1,2}(?:[a-z][\w-]*\s+)?(?:team)?)` +
		`|\b([\w.-]+)` + "`?" + `\s+is\s+(?:now\s+)?(?:the\s+)?([\w-]+(?:\s+[\w-]+)?\s+team)'s\b` +
		// "Inês Duarte is now the owner and reviewer for payments"
		`|(\p{Lu}[\p{L}\w-]+(?:\s+\p{Lu}[\p{L}\w-]+)?)\s+is\s+(?:now\s+)?the\s+owner(?:\s+and\s+\w+)?\s+(?:of|for)\s+(?:the\s+)?` + "`?" + `([\w.-]+)` +
		// "handed lodestar-dsp to Hana Sato", "Hana Sato took over the DSP
		// crate" (not "takes over … whenever Bo is on leave": a standing
		// arrangement)
		`|\bhanded\s+(?:over\s+)?(?:the\s+)?` + "`?" + `([\w.-]+)` + "`?" + `\s+(?:over\s+)?to\s+(\p{Lu}[\p{L}\w-]+(?:\s+\p{Lu}[\p{L}\w-]+)?)` +
		`|(\p{Lu}[\p{L}\w-]+(?:\s+\p{Lu}[\p{L}\w-]+)?)\s+(?:took|has\s+taken)\s+over\s+(?:the\s+)?` + "`?" + `([\w.-]+)` +
		// "Lucía looks after the Marqeta side", "Lucía is the person for
		// anything Marqeta", "… is the go-to for payments"
		// (one word that ends its clause: "the contact for Stripe payouts"
		// names payouts, not all of Stripe)
		`|(\p{Lu}[\p{L}\w-]+(?:\s+\p{Lu}[\p{L}\w-]+)?)\s+(?:now\s+)?(?:looks\s+after|is\s+(?:now\s+)?(?:the\s+|our\s+)?(?:person|contact|go-to(?:\s+person)?|point\s+person|lead)\s+for)\s+(?:the\s+|anything\s+|all\s+)?` + "`?" + `([\w-]+(?:\.[\w-]+)*)` + "`?" + `(?:[:;,.)]|\s*$|\s+(?:side|team|integration|stuff|things|now|and|these)\b)`)
})

var (
	// reOwnedEnds is where the name of what someone owns ends: "the release
	// process for the iOS app".
	reOwnedEnds = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\s(?:for|of|in|on|at|with|across|when|while)\s`)
	})
	// reForNow says an arrangement is for a while.
	reForNow = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:while|during|for\s+now|temporarily|on\s+leave|covers?|covering|until|whenever|away|vacation|holiday|parental)\b`)
	})
)

// owned is one thing a sentence says someone owns.
type owned struct {
	thing, owner, sentence string
	object                 map[string]bool // the stems of the words after "owns": "the Go PDF service (platen)"
}

// owners lists what a memory's sentences say who owns: the thing's first
// stem and the owner's words.
func owners(it item) []owned {
	var out []owned
	for _, s := range append([]sentence{{text: it.Name}}, it.sents...) {
		if !strings.Contains(s.text, "owns") && !strings.Contains(s.text, "belongs") && !strings.Contains(s.text, " by ") && !strings.Contains(s.text, "team's") &&
			!strings.Contains(s.text, "handed") && !strings.Contains(s.text, " over ") && !strings.Contains(s.text, "owner") &&
			!strings.Contains(s.text, "looks after") && !strings.Contains(s.text, " for ") {
			continue
		}
		if reForNow().MatchString(s.text) {
			continue // "… to Hana while he is on leave": for a while, not for good
		}
		for _, m := range reOwner().FindAllStringSubmatch(s.text, -1) {
			owner, thing := m[1], m[2]
			switch {
			case m[3] != "":
				thing, owner = m[3], m[4]
			case m[5] != "":
				thing, owner = m[5], m[6]
			case m[7] != "":
				owner, thing = m[7], m[8] // "… is now the owner of …"
			case m[9] != "":
				thing, owner = m[9], m[10] // "handed … to …"
			case m[11] != "":
				owner, thing = m[11], m[12] // "… took over …"
			case m[13] != "":
				owner, thing = m[13], m[14] // "… looks after …"
			}
			if t := stem(thing); t != "" && strings.TrimSpace(owner) != "" {
				obj := termSet(thing)
				if m[2] != "" { // "owns the Go PDF service (platen)": the rest of the clause names it too
					end := strings.Index(s.text, m[0]) + len(m[0])
					rest := s.text[end:]
					if i := strings.IndexAny(rest, ";,.:—"); i >= 0 {
						rest = rest[:i]
					}
					// "owns the release process for the iOS app": the process
					if loc := reOwnedEnds().FindStringIndex(rest); loc != nil {
						rest = rest[:loc[0]]
					}
					for w := range termSet(rest) {
						obj[w] = true
					}
				}
				out = append(out, owned{t, strings.TrimSpace(owner), s.text, obj})
			}
		}
	}
	return out
}

// ownerChange says how the newer memory b hands a thing the older a says
// someone owns to someone else, or "": "Dev owns the EMQX config", then
// "EMQX belongs to Tomasz's platform team". The thing is a rare word of
// the folder or both memories' topic, and the two owners share no word.
func (p *planner) ownerChange(a, b item) (string, []string) {
	if len(a.owns) == 0 || len(b.owns) == 0 {
		return "", nil
	}
	topicA, topicB := termSet(a.Name+"\n"+a.Description), termSet(b.Name+"\n"+b.Description)
	// a thing named by a rare word of the folder, or by both memories' topic
	named := func(t string) bool { return p.rare(t) || topicA[t] && topicB[t] }
	for _, o := range a.owns {
		for _, n := range b.owns {
			same := n.thing == o.thing && named(o.thing) || o.object[n.thing] && named(n.thing)
			if same && !sharesOwnerWord(o.owner, n.owner) && !otherEnvironment(o.sentence, n.sentence) {
				// Not said outright: for a person to confirm, never applied
				// by an automatic run.
				return fmt.Sprintf("its owner changed from %s to %s", o.owner, n.owner), []string{quote(o.sentence), quote(n.sentence)}
			}
		}
	}
	return "", nil
}

// sharesOwnerWord reports whether two owners share a word other than
// "the" and "team": "Priya" and "Priya's team" are one owner.
func sharesOwnerWord(a, b string) bool {
	words := func(s string) map[string]bool {
		out := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(strings.ReplaceAll(s, "'s", ""))) {
			if w != "the" && w != "team" {
				out[w] = true
			}
		}
		return out
	}
	wb := words(b)
	for w := range words(a) {
		if wb[w] {
			return true
		}
	}
	return false
}

// otherEnvironment reports whether two sentences name different
// environments: "the staging cluster", "the prod cluster".
func otherEnvironment(a, b string) bool {
	envs := func(s string) map[string]bool {
		out := map[string]bool{}
		for t := range termSet(s) {
			if allEnvironments([]string{t}) {
				out[t] = true
			}
		}
		return out
	}
	ea, eb := envs(a), envs(b)
	return len(ea) > 0 && len(eb) > 0 && !maps.Equal(ea, eb)
}

// reAdopted finds what a sentence says the team took up: "switched
// internal/store to sqlc", "moved the queue onto SQS", "adopted Biome".
var reAdopted = lazyre.New(`(?i)\b(?:switched|moved|migrated|changed|went|converted|ported|standardi[sz]ed)\b[^.;:]{0,40}?\b(?:to|onto)\s+(?:using\s+)?(?:the\s+|an?\s+)?` + "`?" + `([\w.+#/-]+)|\b(?:adopted|introduced|started using|now use|now uses)\s+(?:the\s+|an?\s+)?` + "`?" + `([\w.+#/-]+)`)

// adoption says how the newer memory b takes up what a sentence of the
// older a forbids: "Don't introduce sqlc", then "We switched
// internal/store to sqlc". The thing taken up must be a rare word, and the
// one the older negates: "switched payload logging to DEBUG" takes up no
// payload logging that "never log payloads" forbids.
func (p *planner) adoption(a, b item) (string, []string) {
	for _, s := range b.sents {
		for _, m := range reAdopted.FindAllStringSubmatch(s.text, -1) {
			what := unstop(cmp.Or(m[1], m[2]))
			for _, t := range slices.Sorted(maps.Keys(termSet(what))) {
				if !p.rare(t) || s.neg[t] {
					continue
				}
				for _, o := range a.sents {
					if o.neg[t] && !o.aff[t] && !elsewhereThan(o.text, b) {
						return fmt.Sprintf("it takes up %s, which the older forbids", what), []string{quote(o.text), quote(s.text)}
					}
				}
			}
		}
	}
	return "", nil
}

// elsewhereThan reports whether a sentence names a place (a path, a
// package, a URL) the memory it is weighed against never names: "Don't
// add sqlc to internal/billing" forbids nothing "We switched
// internal/store to sqlc" takes up.
func elsewhereThan(sentence string, other item) bool {
	text := lettersOf(other.Name + " " + other.Description + " " + other.Body)
	for _, f := range strings.Fields(sentence) {
		// A path names a place; a name in backticks ("use `date-fns`
		// instead") is what to use, not where.
		if !strings.Contains(f, "/") || strings.Contains(f, "://") {
			continue
		}
		if c := lettersOf(f); len(c) >= 3 && !strings.Contains(text, c) {
			return true
		}
	}
	return false
}
