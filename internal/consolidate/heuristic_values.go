package consolidate

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/extract"
	"github.com/memdir/memdir/internal/lazyre"
)

// This file reads what a memory names: the values its sentences hold (a
// number, a version, a name), and the things two memories name alike
// (one template filled in twice, each thing with its own value). A value
// changed is a supersede; two things alike are never one memory.

// valueRE finds the tokens of a sentence that carry a value: a number, a
// version, a port, a date ("8085", "1.84", "v2", "2026-03-06"), and a
// capitalised word inside a sentence (a person's or a product's name).
var valueRE = lazyre.New(`\b[\p{L}_.-]*\d[\p{L}\d_.-]*\b|[^.!?:;\s]\s+(\p{Lu}\p{Ll}\p{L}*)`)

// values lists a sentence's value tokens.
func values(s string) map[string]bool {
	out := map[string]bool{}
	s = withoutThousands(s)
	for _, m := range valueRE.FindAllStringSubmatch(s, -1) {
		v := m[0]
		if m[1] != "" {
			v = m[1]
		}
		out[strings.ToLower(strings.Trim(v, ".-"))] = true
	}
	return out
}

// withoutThousands writes "1,000" as "1000": one number, not two.
func withoutThousands(s string) string {
	if !strings.Contains(s, ",") {
		return s
	}
	b := []byte(s)
	out := b[:0:0]
	for i := 0; i < len(b); i++ {
		if b[i] == ',' && i > 0 && isDigit(b[i-1]) && i+3 < len(b) && isDigit(b[i+1]) && isDigit(b[i+2]) && isDigit(b[i+3]) && (i+4 == len(b) || !isDigit(b[i+4])) {
			continue
		}
		out = append(out, b[i])
	}
	return string(out)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// valueChange says how the newer memory b changes a value the older a
// states, or "": two sentences that say the same thing (most of their
// words shared) but each with a value the other lacks ("the labeling UI
// runs on port 8085", then "… on port 9300"; "Priya owns iOS releases",
// then "Tomás owns …"). Such a pair is an update, never a duplicate: merged,
// it would state both values.
//
// A value a memory's name or file name holds names its subject instead
// ("billing-07 health port"): two memories differing there are about two
// things, not one thing changed.
func valueChange(a, b item) (string, []string) { return valueChangeOf(a, b, true) }

// valueChangeOf is valueChange; bySubject false reads a value the names
// hold too, where the newer memory says it changed.
func valueChangeOf(a, b item, bySubject bool) (string, []string) {
	sa, sb := subject(a), subject(b)
	if !bySubject {
		sa, sb = nil, nil
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			if overlapOf(o.terms, s.terms) < 0.4 || fragment(o.text) || fragment(s.text) {
				continue
			}
			from, to := valueDiff(o.text, s.text)
			if slices.ContainsFunc(from, func(v string) bool { return sa[v] }) || slices.ContainsFunc(to, func(v string) bool { return sb[v] }) {
				continue
			}
			if mixed(from) && mixed(to) {
				continue // "Postgres … 5432", "Redis … 6379": another thing with its own value
			}
			if codeSubjects(o.text, s.text, from, to) || stagingBeside(o.text, s.text) {
				continue // "queue `reminders` … concurrency 10", "queue `fhir_sync` … concurrency 2": each its own thing
			}
			if len(from) > 0 && len(to) > 0 && sameKind(from, to) {
				slices.Sort(from)
				slices.Sort(to)
				return fmt.Sprintf("it changes %s to %s", strings.Join(from, ", "), strings.Join(to, ", ")), []string{quote(o.text), quote(s.text)}
			}
		}
	}
	return "", nil
}

// subject is the values a memory's name and file name hold: what it is
// about when memories are written from one template ("billing-07").
func subject(it item) map[string]bool {
	if it.subj != nil {
		return it.subj
	}
	return subjectOf(it)
}

// subjectOf reads subject; the planner keeps it with each item.
func subjectOf(it item) map[string]bool {
	out := values(it.Name + " " + strings.TrimSuffix(it.File, ".md")) // its first word is no name
	// The slug a label names: "Queue: terminal-events", "Queue: invoice-pdf".
	if _, named, ok := strings.Cut(it.Name, ": "); ok {
		if w := strings.Trim(strings.TrimSpace(named), "\"'`"); reSlug.MatchString(w) {
			out[strings.ToLower(w)] = true
		}
	}
	// A proper name the name gives in brackets, which values() does not
	// read after "(": "Station PUQ (Punta Arenas)".
	for _, w := range strings.FieldsFunc(it.Name, func(r rune) bool { return r == ' ' || r == ')' || r == ',' }) {
		if name, ok := strings.CutPrefix(w, "("); ok {
			if r, _ := utf8.DecodeRuneInString(name); unicode.IsUpper(r) {
				out[strings.ToLower(name)] = true
			}
		}
	}
	// A file name that holds the memory's own value names no subject:
	// "device-offline-alert-10m.md" for "fires after 10 minutes".
	body := values(it.Description + " " + it.Body)
	for v := range out {
		if body[v] || values(it.Name)[v] {
			continue
		}
		parts := strings.Split(v, "-")
		if last := parts[len(parts)-1]; len(parts) > 1 && strings.Trim(last, "0123456789") == "" && (undotted(body)[last] || body[last] && !namesNumber(it.Description+" "+it.Body, parts[:len(parts)-1], last)) {
			// "ota-waves-200.md" for "waves of 200 meters": the value, not a name
			delete(out, v)
			continue
		}
		for i, part := range parts {
			// "10m", or "25" then "minutes": a quantity, not a name's number ("shard-3")
			n, u := amountUnit(part)
			if n != "" && (body[n] || body[part]) && (unitWord(u) || i+1 < len(parts) && unitWord(parts[i+1])) {
				delete(out, v)
				break
			}
		}
	}
	return out
}

// namesNumber reports whether text gives number n after one of the words
// of a file name ("kafka-broker-3.md" and "Broker 3's disk"): the number
// of a thing's name, not the memory's value ("waves of 200 meters").
func namesNumber(text string, words []string, n string) bool {
	ws := strings.Fields(strings.ToLower(text))
	for i := 1; i < len(ws); i++ {
		if strings.TrimRight(strings.Split(ws[i], "'")[0], ".,;:)") == n && slices.Contains(words, strings.Trim(ws[i-1], "(#")) {
			return true
		}
	}
	return false
}

// undotted is the numbers of vs written without their dots: "8.2" is the
// "82" of a file name "prod-php-82.md".
func undotted(vs map[string]bool) map[string]bool {
	out := map[string]bool{}
	for v := range vs {
		if strings.Contains(v, ".") && strings.Trim(v, "0123456789.") == "" {
			out[strings.ReplaceAll(v, ".", "")] = true
		}
	}
	return out
}

// differentSubjects reports whether two memories name different things in
// their names — each names one, and none is the other's — so that alike
// wording is a template, not a duplicate: two values ("billing-07",
// "billing-08"), or parallel names ("svc-booking-api", "svc-edi-gateway";
// "iOS release signing", "Android release signing") sharing a word, each
// with a word the other memory never uses.
func differentSubjects(a, b item) bool {
	if parallelNames(a, b) {
		return true
	}
	sa, sb := subject(a), subject(b)
	if len(sa) == 0 || len(sb) == 0 {
		return false
	}
	if kinds := func(m map[string]bool) (num, name bool) {
		for v := range m {
			if strings.ContainsAny(v, "0123456789") {
				num = true
			} else {
				name = true
			}
		}
		return
	}; true {
		// "local Postgres port" and "dev database on 55432": a name and a
		// number, which two templated things would not differ by.
		na, ma := kinds(sa)
		nb, mb := kinds(sb)
		if !(na && nb) && !(ma && mb) {
			return false
		}
	}
	for v := range sa {
		if sb[v] {
			return false
		}
	}
	// Each names the other's subject in its text: one thing named two
	// ways ("Mirth Connect version", "Integration server Mirth build").
	if mentionsAny(b, sa) && mentionsAny(a, sb) {
		return false
	}
	return true
}

// mentionsAny reports whether a memory's text holds one of the names
// among vs as a word. Numbers do not count: "Android minSdk 26" and "why
// Android 7 was dropped" name two versions, whichever text holds both.
func mentionsAny(it item, vs map[string]bool) bool {
	for v := range vs {
		if it.words[v] && !strings.ContainsAny(v, "0123456789") {
			return true
		}
	}
	return false
}

// parallelNames reports whether two memories' names are one template
// filled in twice: "Celery edi queue" and "Celery payments queue", each
// name's own word never used by the other memory; or two slugs,
// "svc-booking-api" and "svc-edi-gateway", sharing their first part.
// "Crash reporting in Bugsnag" and "… in Sentry" are one thing changed
// when the newer names the older's tool, and so are not parallel.
func parallelNames(a, b item) bool {
	na, nb := termSet(a.Name), termSet(b.Name)
	for _, w := range []string{"per", "via", "through"} { // "Passengers per online booking" and "Online booking passenger cap"
		delete(na, w)
		delete(nb, w)
	}
	amounts := func(n map[string]bool) (out []string) {
		for t := range n {
			if _, u := amountUnit(t); unitWord(u) {
				out = append(out, t)
			}
		}
		return out
	}
	// "platen client timeout" and "platen timeout is 45s now": the amount one
	// name gives is its value, not a second subject. "Thanos 5m retention"
	// and "Thanos 1h retention" are two things.
	if xa, xb := amounts(na), amounts(nb); len(xa) == 0 || len(xb) == 0 {
		for _, t := range append(xa, xb...) {
			delete(na, t)
			delete(nb, t)
		}
	}
	// "Release needs the CRN" and "CRN mandatory on release": words that
	// oblige name no thing.
	for t := range ruleStems() {
		delete(na, t)
		delete(nb, t)
	}
	// "Staging front end URL" and "Staging front end address" name one thing.
	for _, n := range []map[string]bool{na, nb} {
		for t := range addressStems() {
			if n[t] {
				delete(n, t)
				n["url"] = true
			}
		}
	}
	shared := intersection(na, nb)
	onlyA, onlyB := minus(na, nb), minus(nb, na)
	absent := func(ts []string, other item) bool {
		for _, t := range ts {
			if other.terms[t] {
				return false
			}
		}
		return len(ts) > 0
	}
	if len(onlyA) > 0 && len(onlyB) > 0 && shared >= 1 && allEnvironments(onlyA) && allEnvironments(onlyB) {
		// "Prod Service Bus" and "Staging Service Bus": one thing in two
		// environments, whichever mentions the other ("same names as
		// staging"), is two memories.
		return true
	}
	if !absent(onlyA, b) || !absent(onlyB, a) {
		return false
	}
	if len(onlyA) == 1 && len(onlyB) == 1 && shared >= 2 {
		return true
	}
	if oneSlugApart(a.Name, b.Name) {
		return true // "crew-dispatch queue settings", "leak-intake queue settings"
	}
	sa, sb := slugHead(a.Name), slugHead(b.Name)
	return sa != "" && sa == sb
}

// reSlug is a name written as one lower-case slug: "terminal-events",
// "invoice_pdf".
var reSlug = lazyre.New(`^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$`)

// reStagingWord names a non-production environment as a word.
var reStagingWord = lazyre.New(`(?i)\b(?:staging|stg|uat|sandbox|pre-?prod(?:uction)?)\b`)

// reScheme is a URL's scheme, which one memory writes and another leaves out.
var reScheme = lazyre.New(`(?i)\b[a-z][a-z0-9+]*://`)

// dottedRE finds a dotted name: com.apple.CoreData.SQLDebug, app.timezone.
var dottedRE = lazyre.New(`[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+`)

// unitWord reports a word that measures: "minutes", "days", "gb".
func unitWord(w string) bool {
	switch w = strings.ToLower(w); w {
	case "s", "ms", "m", "h", "d", "w", "k", "x", "%", "kb", "mb", "gb", "tb":
		return true
	}
	switch strings.TrimSuffix(w, "s") {
	case "min", "minute", "hr", "hour", "day", "week", "month", "year", "second", "sec", "percent", "pct":
		return true
	}
	return false
}

// allEnvironments reports whether every stem names a deployment
// environment.
func allEnvironments(stems []string) bool {
	for _, t := range stems {
		switch t {
		case "prod", "product", "stage", "stg", "dev", "develop", "test", "qa", "uat", "sandbox", "preprod", "pre", "perf", "local", "demo", "canari": // as stemmed: "production", "staging", "canary"
		default:
			return false
		}
	}
	return true
}

// slugHead is the first part of a name written as one slug
// ("svc-booking-api": "svc"), or "".
func slugHead(name string) string {
	if strings.ContainsAny(name, " \t") {
		return ""
	}
	head, _, ok := strings.Cut(strings.ReplaceAll(name, "_", "-"), "-")
	if !ok {
		return ""
	}
	return strings.ToLower(head)
}

// valueDiff lists the value tokens each of two sentences holds that the
// other does not, sorted.
func valueDiff(old, new string) (from, to []string) {
	vo, vs := values(old), values(new)
	return minusWords(minusAmounts(minus(vo, vs), vs), new), minusWords(minusAmounts(minus(vs, vo), vo), old)
}

// amounts reports whether every value token is an amount.
func amounts(vs []string) bool {
	return !slices.ContainsFunc(vs, func(v string) bool { return amount(v) == "" })
}

// minusAmounts drops the values that the other sentence states as the
// same amount in another form: "90-day" against "90" (of "90 days").
// "30m" against "30s" is a change: both give a unit, and not the same one.
func minusAmounts(vs []string, other map[string]bool) []string {
	return slices.DeleteFunc(vs, func(v string) bool {
		n, u := amountUnit(v)
		if n == "" {
			return false
		}
		for o := range other {
			on, ou := amountUnit(o)
			if on == n && (u == "" || ou == "" || u == ou) {
				return true
			}
		}
		return false
	})
}

// amount is the number a value token states with at most a unit after it
// ("90-day", "90", "2.5gb": 90, 90, 2.5), or "" for a version, a name or
// an address ("v2", "billing-07", "10.0.0.1").
func amount(v string) string {
	n, _ := amountUnit(v)
	return n
}

// amountUnit is amount, with its unit less a plural s ("days": "day").
func amountUnit(v string) (num, unit string) {
	i := strings.IndexFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i == 0 {
		return "", ""
	}
	if i < 0 {
		i = len(v)
	}
	num, unit = strings.TrimRight(v[:i], "."), strings.TrimPrefix(v[i:], "-")
	if num == "" || strings.Count(num, ".") > 1 || strings.ContainsFunc(unit, func(r rune) bool { return !unicode.IsLetter(r) && r != '%' }) {
		return "", ""
	}
	if len(unit) > 2 {
		unit = strings.TrimSuffix(unit, "s")
	}
	return num, unit
}

// minusWords drops the values a sentence names anyway, where they were
// not read as values: "Feast" opening one sentence and inside the other
// is one name in both. A name counts only written as one, capitalised or
// with a digit: "Will" the owner is not "will" the verb.
func minusWords(vs []string, s string) []string {
	names := nameWords(s)
	return slices.DeleteFunc(vs, func(v string) bool { return names[v] })
}

// nameWords is the set of s's words written as names (capitalised, or
// holding a digit), lower-cased as value tokens are, with their dots,
// dashes and underscores.
func nameWords(s string) map[string]bool {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '_' && r != '-'
	}) {
		w = strings.Trim(w, ".-")
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) || strings.ContainsAny(w, "0123456789") {
			words[strings.ToLower(w)] = true
		}
	}
	return words
}

// minus lists the members of a that b lacks, sorted.
func minus(a, b map[string]bool) []string {
	var out []string
	for v := range a {
		if !b[v] {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// sameKind reports whether two lists of value tokens share a kind, a
// number or a name: a value changes into another of its kind ("8085" to
// "9300", "Priya" to "Tomás"); "99.5" against "Play Console" is two
// sentences putting things differently.
func sameKind(a, b []string) bool {
	na, ma := valueKinds(a)
	nb, mb := valueKinds(b)
	return na && nb || ma && mb
}

// valueKinds reports whether value tokens hold a number, and a name. A
// day or a month counts as a number: "every 2 weeks" becomes "every
// Monday".
func valueKinds(vs []string) (num, name bool) {
	for _, v := range vs {
		if strings.ContainsAny(v, "0123456789") || calendarWord(v) {
			num = true
		} else {
			name = true
		}
	}
	return num, name
}

// calendarWord reports a lower-case weekday or month name.
func calendarWord(w string) bool {
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december":
		return true
	}
	return false
}

// amountChanged reports whether the newer memory of pr gives, in a
// sentence on the older one's topic, another amount of the same unit than
// the older ("deleted after 30 days", "delete at 90 days"), and if so sets
// the pair's contradiction to it.
func (p *planner) amountChanged(pr *pair) bool {
	a, b := p.items[pr.a], p.items[pr.b]
	if oneException(a, b) || narrows(a) || narrows(b) || reOverrideSaid().MatchString(b.Body) {
		return false // "live blogs are the exception: 10 seconds"; "AgroNorte's retention override: 5 years"
	}
	// An amount the older memory states already, of the same thing, is no
	// new one: "article pages 5 minutes, section fronts 1 minute" has both.
	statesAlready := func(s sentence, v string) bool {
		for _, o := range a.sents {
			if values(o.text)[v] && overlapOf(o.terms, s.terms) >= amountTopic {
				return true
			}
		}
		return false
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			if overlapOf(o.terms, s.terms) < amountTopic {
				continue
			}
			from, to := valueDiff(o.text, s.text)
			if len(from) != 1 || len(to) != 1 {
				// "every 15 minutes", then "every 30 minutes — `PERIOD_S=1800`":
				// the one amount of a unit each gives is what changed.
				from, to = withUnit(o.text, from), withUnit(s.text, to)
			}
			if len(from) != 1 || len(to) != 1 || statesAlready(s, to[0]) || codeSubjects(o.text, s.text, from, to) || stagingBeside(o.text, s.text) {
				continue
			}
			uf, ut := unitOf(o.text, from[0]), unitOf(s.text, to[0])
			if uf == "" || uf != ut {
				continue
			}
			pr.contra = fmt.Sprintf("it changes %s to %s", from[0], to[0])
			pr.quotes = []string{quote(o.text), quote(s.text)}
			return true
		}
	}
	return false
}

// withUnit is the values of vs that are amounts given with a unit in
// text.
func withUnit(text string, vs []string) []string {
	var out []string
	for _, v := range vs {
		if unitOf(text, v) != "" {
			out = append(out, v)
		}
	}
	return out
}

// amountTopic is how alike two sentences of two memories the model reads
// as one must be for another amount in one to be a change.
const amountTopic = 0.25

// unitOf is the unit an amount is given in: its own ("90d", "2gb") or the
// unit word after it in text ("90 days"), less a plural s; "" when v is
// no amount or gives no unit.
func unitOf(text, v string) string {
	n, u := amountUnit(v)
	if n == "" {
		return ""
	}
	if u != "" {
		return u
	}
	fields := strings.Fields(strings.ToLower(text))
	for i, f := range fields {
		if strings.Trim(f, "(),;:") == v && i+1 < len(fields) {
			w := strings.Trim(fields[i+1], ".,;:()")
			if unitWord(w) {
				if len(w) > 2 {
					w = strings.TrimSuffix(w, "s")
				}
				return w
			}
		}
	}
	return ""
}

// codeSubjects reports whether two alike sentences each quote code the
// other does not, other than the values that differ between them: the
// queue, flag, path or app each is about ("queue `reminders` … concurrency
// 10", "queue `fhir_sync` … concurrency 2"). Two things, not one that
// changed; "deploy with `fly deploy`", then "with `kamal deploy`" is a
// change, its code the changed value.
func codeSubjects(old, new string, from, to []string) bool {
	co, cn := codeNames(old), codeNames(new)
	var changed []string
	for _, v := range append(slices.Clone(from), to...) {
		if l := lettersOf(v); l != "" {
			changed = append(changed, l)
		}
	}
	// Code of one is the other's too when the other holds its letters in
	// a row, quoted or not: "docs/runbooks/x.md" and "`docs/runbooks/x.md`".
	own := func(x map[string][]string, other string) bool {
		other = lettersOf(other)
		for c, parts := range x {
			if strings.Contains(other, c) || slices.ContainsFunc(parts, func(p string) bool { return slices.Contains(changed, p) }) {
				continue
			}
			return true
		}
		return false
	}
	return own(co, new) && own(cn, old)
}

// stagingBeside reports whether one of two sentences is about a
// non-production environment and the other names none: "Staging for the
// share server: 1 machine" beside "the share server runs 2 machines" is
// the staging copy, not a change of the one. ("test" and "dev" are too
// often other words to count.)
func stagingBeside(a, b string) bool {
	env := func(s string) (staging, any bool) {
		staging = reStagingWord.MatchString(s) // "staging", not "in stages"; not "QA", also a team
		any = staging
		for t := range termSet(s) {
			any = any || allEnvironments([]string{t})
		}
		return staging, any
	}
	sa, aa := env(a)
	sb, ab := env(b)
	return sa && !ab || sb && !aa
}

// codeNames is the code a text quotes (codeRE, and dotted names such as
// -com.apple.CoreData.SQLDebug), each as its letters, lower-cased (the
// name without the values it holds), with its parts: "fly deploy" has
// "fly" and "deploy".
func codeNames(text string) map[string][]string {
	out := map[string][]string{}
	for _, m := range append(codeRE.FindAllString(text, -1), dottedRE.FindAllString(text, -1)...) {
		m = reScheme.ReplaceAllString(m, "")
		l := lettersOf(m)
		if len(l) < 3 {
			continue
		}
		for _, p := range strings.FieldsFunc(m, func(r rune) bool { return !unicode.IsLetter(r) }) {
			out[l] = append(out[l], strings.ToLower(p))
		}
	}
	return out
}

// lettersOf is s's letters, lower-cased.
func lettersOf(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// mixed reports whether value tokens hold both a name and a number: the
// sentence is about another thing, not the same thing's new value.
func mixed(vs []string) bool {
	num, name := valueKinds(vs)
	return name && num
}

// otherThing reports whether two memories state alike sentences about two
// things: each with its own value ("the local Postgres listens on 5432",
// "the local Redis listens on 6379"), or each naming its own subject with
// opposite rules ("write Go tests table-driven", "in Python, don't use
// table-driven tests"). Alike, never the same memory.
func otherThing(a, b item) bool {
	if saidTwoThings(a, b) {
		return true
	}
	for _, o := range a.sents {
		for _, s := range b.sents {
			alike := overlapOf(o.terms, s.terms)
			if alike < 0.3 {
				continue
			}
			from, to := valueDiff(o.text, s.text)
			if alike >= 0.4 && (mixed(from) && mixed(to) || len(from) > 0 && len(to) > 0 && codeSubjects(o.text, s.text, from, to) || stagingBeside(o.text, s.text)) {
				return true
			}
			if len(from) > 0 && len(to) > 0 && !(amounts(from) && amounts(to)) && extract.Contradiction(o.text, s.text) != "" {
				return true // "10 minutes" to "25 minutes" is one thing's value changed
			}
		}
	}
	return false
}

// ruleStems are the stems of words that oblige or forbid, which tell how a
// thing is held, not which thing it is.
var ruleStems = sync.OnceValue(func() map[string]bool {
	return termSet("need needs needed mandatory required requires require must always never rule rules policy forbidden forbids forbid allowed banned compulsory obligatory")
})

// fragment reports whether a sentence is too short to state a thing and
// its value: the tail of a hard-wrapped line ("GitHub Action;"), not a
// key and its value ("Runtime: nodejs18.x").
func fragment(s string) bool { return len(strings.Fields(s)) < 3 && !strings.Contains(s, ":") }

// addressStems are the stems of words for where a thing is reached.
var addressStems = sync.OnceValue(func() map[string]bool {
	return termSet("url urls address addresses link links domain domains endpoint endpoints hostname")
})

// oneSlugApart reports whether two names are one template filled in with
// two slugs: each has one word the other lacks, a slug of two parts or
// more sharing no part with the other's, and they share two words at least.
func oneSlugApart(x, y string) bool {
	words := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(strings.ToLower(s)) {
			m[strings.Trim(w, "`'\".,:;()")] = true
		}
		return m
	}
	wx, wy := words(x), words(y)
	ox, oy := minus(wx, wy), minus(wy, wx)
	if len(ox) != 1 || len(oy) != 1 || intersection(wx, wy) < 2 || !reSlug.MatchString(ox[0]) || !reSlug.MatchString(oy[0]) ||
		!strings.Contains(ox[0], "-") || !strings.Contains(oy[0], "-") {
		return false
	}
	// "gh-runner" and "github-actions-runner" are one runner spelled twice.
	px := map[string]bool{}
	for _, part := range strings.Split(ox[0], "-") {
		px[part] = true
	}
	for _, part := range strings.Split(oy[0], "-") {
		if px[part] {
			return false
		}
	}
	return true
}
