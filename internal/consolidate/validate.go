package consolidate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/memdir/memdir/internal/lazyre"
)

// isoDate is an absolute date as a date rewrite writes it.
var isoDate = lazyre.New(`\b\d{4}-\d{2}-\d{2}\b`)

// maxName bounds a merged memory's new name.
const maxName = 100

// Validate checks a plan from any engine against its input before anything
// is written: every file it names exists, every kind is known, no pinned
// memory is retired, no memory is retired twice or both kept and retired,
// and each operation keeps its kind's rules — a merge joins two memories or
// more of one type and scope and loses none of their facts, a supersede
// retires the one it does not keep, a date rewrite changes only date words,
// an expire or prune keeps nothing, a shorten brings a description within
// 150 characters. Its errors wrap ErrInvalid and name the operation.
func Validate(in Input, p Plan) error {
	items := map[string]Item{}
	for _, it := range in.Items {
		items[it.File] = it
	}
	retired, kept, edited := map[string]string{}, map[string]string{}, map[string]string{}
	for _, op := range p.Ops {
		id := op.ID
		if id == "" {
			id = opID(op.Kind, op.Files)
		}
		fail := func(format string, a ...any) error {
			return fmt.Errorf("%w: op %s: %s", ErrInvalid, id, fmt.Sprintf(format, a...))
		}
		if err := validateOp(in, items, op, fail); err != nil {
			return err
		}
		for _, f := range op.Retire {
			if other, ok := retired[f]; ok {
				return fail("%s is retired twice (also by %s)", f, other)
			}
			if other, ok := kept[f]; ok {
				return fail("%s is retired here and kept by %s", f, other)
			}
			retired[f] = id
		}
		if op.Keep != "" && !items[op.Keep].ReadOnly { // a read-only memory is kept unchanged: by any number of ops
			if other, ok := retired[op.Keep]; ok {
				return fail("%s is kept here and retired by %s", op.Keep, other)
			}
			if op.Edit != nil {
				if other, ok := edited[op.Keep]; ok {
					// Two edits of one memory: the second would replace the first's text.
					return fail("%s is changed here and by %s: one operation per memory", op.Keep, other)
				}
				edited[op.Keep] = id
			}
			// Kept unchanged (a supersede's newer memory) by any number of ops.
			kept[op.Keep] = id
		}
	}
	return nil
}

// validateOp checks one operation on its own.
func validateOp(in Input, items map[string]Item, op Op, fail func(string, ...any) error) error {
	switch op.Kind {
	case Merge, Supersede, Date, Expire, Prune, Shorten:
	default:
		return fail("unknown kind %q", op.Kind)
	}
	if len(op.Files) == 0 {
		return fail("names no file")
	}
	index := op.Kind == Shorten && op.Keep == IndexFile
	seen := map[string]bool{}
	for _, f := range op.Files {
		if seen[f] {
			return fail("names %s twice", f)
		}
		seen[f] = true
		if _, ok := items[f]; !ok && !(index && f == IndexFile) {
			return fail("names %s, which is not in the folder", f)
		}
	}
	if op.Keep != "" && !seen[op.Keep] {
		return fail("keeps %s, which is not among its files", op.Keep)
	}
	for _, f := range op.Retire {
		if !seen[f] {
			return fail("retires %s, which is not among its files", f)
		}
		if f == op.Keep {
			return fail("both keeps and retires %s", f)
		}
		if items[f].Pinned {
			return fail("retires %s, which is pinned", f)
		}
		if items[f].ReadOnly {
			return fail("retires %s, which belongs to another folder: read only here", f)
		}
	}
	if k, ok := items[op.Keep]; ok && k.ReadOnly && op.Edit != nil {
		return fail("changes %s, which belongs to another folder: read only here", op.Keep)
	}
	switch op.Kind {
	case Merge:
		return validateMerge(items, op, fail)
	case Supersede:
		if len(op.Files) != 2 || op.Keep == "" || len(op.Retire) != 1 {
			return fail("a supersede names exactly two memories, keeps one and retires the other")
		}
		if op.Edit != nil {
			return fail("a supersede edits nothing: the newer memory stays as written")
		}
	case Date:
		return validateDate(items, op, fail)
	case Expire, Prune:
		if op.Keep != "" || op.Edit != nil {
			return fail("%s keeps and edits nothing", map[Kind]string{Expire: "an expire", Prune: "a prune"}[op.Kind])
		}
		if len(op.Retire) != len(op.Files) {
			return fail("an %s retires every memory it names", op.Kind)
		}
	case Shorten:
		if index {
			if len(op.Files) != 1 || len(op.Retire) != 0 {
				return fail("a shorten of %s names it alone and retires nothing", IndexFile)
			}
			return nil
		}
		if len(op.Files) != 1 || op.Keep != op.Files[0] || len(op.Retire) != 0 {
			return fail("a shorten names one memory, keeps it and retires nothing")
		}
		if op.Edit == nil || op.Edit.Description == "" {
			return fail("a shorten gives no new description")
		}
		if n := utf8.RuneCountInString(op.Edit.Description); n > maxDescription {
			return fail("the new description is %d characters, over %d", n, maxDescription)
		}
		if op.Edit.Body != "" || op.Edit.Name != "" {
			return fail("a shorten changes only the description")
		}
	}
	return nil
}

// validateMerge checks a merge: two memories or more, of one type and
// scope, the merged text holding every sentence-level fact of each.
func validateMerge(items map[string]Item, op Op, fail func(string, ...any) error) error {
	if len(op.Files) < 2 || op.Keep == "" {
		return fail("a merge joins two memories or more into the one it keeps")
	}
	if len(op.Retire) != len(op.Files)-1 {
		return fail("a merge retires every memory but the one it keeps")
	}
	k := items[op.Keep]
	edit := op.Edit
	if k.ReadOnly {
		// Merged into a memory of another folder, which stays as it is:
		// it must already hold every fact of the copies.
		edit = &Edit{Body: k.Body}
	}
	if edit == nil || strings.TrimSpace(edit.Body) == "" {
		return fail("a merge gives no merged body")
	}
	for _, f := range op.Files {
		if it := items[f]; it.Type != k.Type || it.Scope != k.Scope {
			return fail("merges %s (%s) with %s (%s): never across types or scopes", f, kindOf(it), k.File, kindOf(k))
		}
	}
	if n := edit.Name; n != "" {
		if strings.ContainsRune(n, '\n') || utf8.RuneCountInString(n) > maxName || strings.IndexFunc(n, unicode.IsControl) >= 0 {
			return fail("the new name %q is not one line of at most %d printable characters", n, maxName)
		}
	}
	merged := edit.Body + "\n" + edit.Description + "\n" + edit.Name
	if edit.Description == "" {
		merged += "\n" + k.Description
	}
	if edit.Name == "" {
		merged += "\n" + k.Name
	}
	terms := termSet(merged)
	mergedSents := sentences(merged)
	for _, f := range op.Files {
		it := items[f]
		for _, s := range sentences(it.Description + "\n\n" + it.Body) {
			if c := max(covered(s, terms), covered(absolute(s, it.Created), terms)); c < factKept {
				return fail("the merged memory loses a fact of %s (%.0f%% of its words kept): %q", f, 100*c, quote(s))
			}
			if m, w := flipped(s, mergedSents); w != "" {
				return fail("the merged memory turns a fact of %s around (%q): %q became %q", f, w, quote(s), quote(m))
			}
		}
	}
	return nil
}

// flipped finds a negated fact the merged text states without its
// negation ("never push to main" merged as "push to main to ship"): the
// fact negates some words and the merged text negates none of them. It
// returns the merged sentence that holds most of the fact's words and the
// first such word, or "". The merged text is read whole, as a fact may
// span its lines; a negation's reach is polarity's guess.
func flipped(s string, merged []string) (string, string) {
	sn, _ := polarity(s)
	if len(sn) == 0 {
		return "", ""
	}
	for _, m := range merged {
		mn, _ := polarity(m)
		for w := range sn {
			if mn[w] {
				return "", ""
			}
		}
	}
	best, bestCover := "", -1.0
	for _, m := range merged {
		if c := covered(s, termSet(m)); c > bestCover {
			best, bestCover = m, c
		}
	}
	return best, slices.Sorted(maps.Keys(sn))[0]
}

// validateDate checks a date rewrite: one memory, kept, whose body and
// description change only in their date words.
func validateDate(items map[string]Item, op Op, fail func(string, ...any) error) error {
	if len(op.Files) != 1 || op.Keep != op.Files[0] || len(op.Retire) != 0 {
		return fail("a date rewrite names one memory, keeps it and retires nothing")
	}
	if op.Edit == nil || op.Edit.Body == "" && op.Edit.Description == "" || op.Edit.Name != "" {
		return fail("a date rewrite gives a new body or description, and nothing else")
	}
	it := items[op.Keep]
	for _, c := range []struct{ field, before, after string }{
		{"body", it.Body, op.Edit.Body},
		{"description", it.Description, op.Edit.Description},
	} {
		if c.after == "" {
			continue
		}
		// A month, quarter or year counted from the memory's day ("next
		// month", "in two months", "next year") goes as a whole, and comes
		// back as one ("in December 2026", "in Q1 2027", "in 2027"): never
		// "year" alone, nor a year for a span ("for a year" → "for 2027").
		before := reCoarseSaid.ReplaceAllString(isoDate.ReplaceAllString(c.before, " isodate "), " coarsedate ")
		after := reCoarseWritten.ReplaceAllString(isoDate.ReplaceAllString(c.after, " isodate "), " coarsedate ")
		removed, added := wordDiff(before, after)
		years := map[string]bool{} // of the dates the rewrite writes: "the end of Q1 2027" → 2027-03-31
		for _, d := range isoDate.FindAllString(c.after, -1) {
			years[d[:4]] = true
		}
		// An ordinal goes with its weekday ("the first Monday of next
		// month"), never alone ("first on staging").
		withDay := map[string]bool{}
		for _, m := range reOrdinalWeekday.FindAllStringSubmatch(c.before, -1) {
			withDay[strings.ToLower(m[1])] = true
		}
		for _, m := range reShortWeekday.FindAllStringSubmatch(c.before, -1) {
			withDay[strings.ToLower(m[1])] = true // "Sat 17 Oct": the weekday of a day written out
		}
		for _, w := range removed {
			if !relativeWord(w) && !years[w] && !withDay[w] {
				return fail("the new %s drops %q, which is no date word", c.field, w)
			}
		}
		for _, w := range added {
			if !absoluteWord(w) {
				return fail("the new %s adds %q, which is no date", c.field, w)
			}
		}
	}
	return nil
}

// wordDiff lists the words, lower-cased, that after has fewer (removed) and
// more (added) of than before.
func wordDiff(before, after string) (removed, added []string) {
	count := map[string]int{}
	for _, w := range words(before) {
		count[w]++
	}
	for _, w := range words(after) {
		count[w]--
	}
	for _, w := range slices.Sorted(maps.Keys(count)) {
		for n := count[w]; n > 0; n-- {
			removed = append(removed, w)
		}
		for n := count[w]; n < 0; n++ {
			added = append(added, w)
		}
	}
	return removed, added
}

// words splits text into lower-cased runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// relativeWord reports whether a word may be part of a relative date
// ("next Friday", "in two weeks", "on the 14th", "end of the quarter").
func relativeWord(w string) bool {
	if d := strings.TrimRight(w, "stndrh"); allDigits(d) && len(d) <= 2 {
		return true // 14th, 3 (a day of the month, a count of days or weeks; never a port or a version)
	}
	switch w {
	case "today", "tonight", "tomorrow", "yesterday", "next", "this", "coming", "week", "weeks", "day", "days",
		"month", "months", "quarter", "end", "of", "the", "in", "on", "by", "one", "two", "three", "four", "five", "six",
		"seven", "eight", "nine", "ten", "eleven", "twelve", "fortnight", "until", "till", "before", "after", "from", "starting",
		"q1", "q2", "q3", "q4", "eod", "eow", "eom", "eoq", "eoy", "coarsedate":
		return true
	}
	return weekdayOrMonth(w)
}

// reCoarseSaid is a month, quarter or year counted from now, as extract's
// dates read it; reCoarseWritten is what they write for it.
var (
	reCoarseSaid    = lazyre.New(`(?i)\bnext\s+(?:month|quarter|year)\b|\bin\s+(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})\s+(?:months?|quarters?)\b`)
	reCoarseWritten = lazyre.New(`(?i)\b(?:in\s+)?(?:(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{4}|q[1-4]\s+\d{4})\b|\bin\s+\d{4}\b|\b\d{4}'s\b`)
)

// reOrdinalWeekday is an ordinal with its weekday: "the first Monday".
var reOrdinalWeekday = lazyre.New(`(?i)\b(first|second|third|fourth|last)\s+(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekday|weekend|business\s+day|working\s+day)\b`)

// reShortWeekday is a weekday cut short before the day of a date: "Sat
// 17 Oct", "Thu 3/12".
var reShortWeekday = lazyre.New(`(?i)\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?,?\s+\d{1,2}\b`)

// absoluteWord reports whether a word may be part of an absolute date as
// the rewrite writes it ("Friday 2026-03-06", "by 2026-03-16", "the week
// of 2026-03-09").
func absoluteWord(w string) bool {
	switch w {
	case "isodate", "coarsedate", "by", "the", "week", "of", "on", "to", "starting": // "2026-09-14 to 2026-09-18", "next sprint (starting 2026-11-30)"
		return true
	}
	return weekdayOrMonth(w)
}

func allDigits(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

func weekdayOrMonth(w string) bool {
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
		"jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul", "july",
		"aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec", "december":
		return true
	}
	return false
}
