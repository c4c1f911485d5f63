package learning

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Op is one change a decision made, with its reason.
type Op struct {
	Kind     string   `json:"op"` // add, skip, update, prune, archive, purge, pin, unpin, migrate
	File     string   `json:"file"`
	Section  string   `json:"section,omitempty"`
	Learning Learning `json:"learning"`
	Reason   string   `json:"reason"`
}

// Memory is every long-term file of the synthesis folder, parsed.
type Memory struct {
	Global   *File
	Projects map[string]*File // by project name
	Archive  *Archive
}

// files lists m's files: the global one, then the projects by name.
func (m *Memory) files() []*File {
	var out []*File
	if m.Global != nil && m.Global.doc != nil {
		out = append(out, m.Global)
	}
	names := make([]string, 0, len(m.Projects))
	for n := range m.Projects {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if f := m.Projects[n]; f != nil && f.doc != nil {
			out = append(out, f)
		}
	}
	return out
}

// SectionFor is where a learning of type t goes in a file of kind k (the
// skill's routing table).
func SectionFor(k Kind, t Type) string {
	if k == GlobalFile {
		switch t {
		case Error:
			return ErrorPatterns
		case BestPractice:
			return BestPractices
		case Decision:
			return PatternsPrefs
		default: // data-quirk, command
			return KeyLearnings
		}
	}
	switch t {
	case Error:
		return ErrorPatterns
	case BestPractice:
		return BestPractices
	case DataQuirk:
		return DataQuirks
	case Decision:
		return KeyDecisions
	default:
		return UsefulCommands
	}
}

// dupThreshold is the Jaccard similarity of two learnings' content words
// (title, description, lesson) from which the second is the same concept.
// subjectThreshold is the similarity of their subjects (content words less
// polarity words) from which a flipped polarity may be a contradiction:
// the add's reason says so, nothing is replaced. strongThreshold is the
// share of the smaller subject that must be shared for a replacement, and
// objectThreshold the share of the smaller object (what follows the verb)
// (see sameSubject). All are tuned on route_test.go.
const (
	dupThreshold     = 0.6
	subjectThreshold = 0.6
	strongThreshold  = 0.8
	objectThreshold  = 2.0 / 3
)

func fullText(l Learning) string { return l.Title + " " + l.Description + " " + l.Lesson }

func normTitle(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// looseTitle is a title lower-cased with its punctuation dropped and its
// spaces collapsed: "Don't use X!" and "don't use x" are the same.
func looseTitle(s string) string {
	f := strings.FieldsFunc(strings.ToLower(strings.ReplaceAll(s, "’", "'")), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_')
	})
	return strings.Join(f, " ")
}

// features are what dedupe and contradictions compare of a learning,
// computed once per entry (an item drops them when its lines change).
type features struct {
	scope, title     string          // lower-cased, title's spaces collapsed
	loose            string          // looseTitle
	all, subj, tsubj map[string]bool // content words; less polarity words; the title's less polarity words
	tseq             []string        // the title's content words less polarity words, in order
	obj              map[string]bool // the statement's object: subject words after its verb
	pol              []int           // polarity, computed when first needed
	text             string
}

func featuresOf(l Learning) *features {
	t := fullText(l)
	return &features{scope: strings.ToLower(l.Scope), title: normTitle(l.Title), loose: looseTitle(l.Title), all: wordSet(t),
		subj: subject(t), tsubj: subject(l.Title), tseq: subjectSeq(l.Title), obj: object(l), text: t}
}

func (f *features) polarity() []int {
	if f.pol == nil {
		f.pol = polarity(f.text)
	}
	return f.pol
}

// feats returns the item's features.
func (it *item) feats() *features {
	if it.f == nil {
		it.f = featuresOf(*it.l)
	}
	return it.f
}

// similar reports whether a and b are the same concept: identical titles
// in the same scope, or content words at least dupThreshold alike.
func similar(a, b *features) bool {
	if a.scope == b.scope && a.title == b.title {
		return true
	}
	return jaccard(a.all, b.all) >= dupThreshold
}

// subjectSim is how alike the subjects of a and b are: the better of their
// titles' Jaccard similarity and their whole texts' overlap (shared words
// over the smaller set's size, with at least two shared), polarity words
// left out. It only decides whether an add's reason says the learning may
// contradict an entry.
func subjectSim(a, b *features) float64 {
	t := jaccard(a.tsubj, b.tsubj)
	if o := overlap(a.subj, b.subj); o > t {
		return o
	}
	return t
}

// sameSubject reports whether a and b speak of the same thing closely
// enough that one, of flipped polarity, replaces the other: the same
// title (case and punctuation aside), or titles equal but for polarity
// words ("Arrow export broken", "Arrow export fixed") or subjects sharing
// strongThreshold of the smaller one's words, two at least — and then
// their objects overlapping too ("use vim for Go code" and "don't use vim
// for markdown" share vim, not what it is used for).
func sameSubject(a, b *features) bool {
	if a.loose != "" && a.loose == b.loose {
		return true
	}
	titles := len(a.tseq) >= 2 && slices.Equal(a.tseq, b.tseq)
	if !titles && overlap(a.subj, b.subj) < strongThreshold {
		return false
	}
	return share(a.obj, b.obj) >= objectThreshold
}

// overlap is |a ∩ b| / min(|a|, |b|), 0 when fewer than two words are shared.
func overlap(a, b map[string]bool) float64 {
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	if inter < 2 {
		return 0
	}
	return float64(inter) / float64(min(len(a), len(b)))
}

// share is |a ∩ b| / min(|a|, |b|) (0 when either is empty).
func share(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for w := range a {
		if b[w] {
			inter++
		}
	}
	return float64(inter) / float64(min(len(a), len(b)))
}

// protected reports whether entries of section are never replaced by a
// contradiction: Pinned (the user's) and the global file's auto-pinned
// profile sections.
func protected(section string) bool { return autoPinned[section] }

// contradicted is the entry of f that l replaces: opposite polarity, the
// same subject (sameSubject), in a section that is not protected; the
// most alike when several are. maybe lists the other entries l may
// contradict (a protected one, or a looser subject match), for the reason
// of its add.
func (f *File) contradicted(lf *features) (best entry, ok bool, maybe []entry) {
	bestSim := -1.0
	for _, e := range f.entries() {
		ef := e.it.feats()
		if !flips(ef.polarity(), lf.polarity()) {
			continue
		}
		s := subjectSim(ef, lf)
		switch {
		case sameSubject(ef, lf) && !protected(e.sec.name):
			if s > bestSim {
				best, bestSim = e, s
			}
		case sameSubject(ef, lf) || s >= subjectThreshold:
			maybe = append(maybe, e)
		}
	}
	return best, bestSim >= 0, maybe
}

// duplicate is the entry of f (any section, Pinned included) that already
// holds l's concept.
func (f *File) duplicate(lf *features) (entry, bool) {
	for _, e := range f.entries() {
		ef := e.it.feats()
		if similar(ef, lf) && !flips(ef.polarity(), lf.polarity()) {
			return e, true
		}
	}
	return entry{}, false
}

// quote is a learning as a reason quotes it.
func quote(l Learning) string { return fmt.Sprintf("%q", l.Title+": "+l.Description) }

// Route adds learnings to m: global ones to m.Global's section for their
// type, project ones to that project's file (created from the template
// when missing). A learning whose concept is already there is skipped; one
// that contradicts an existing entry on the same subject replaces it, and
// the replaced entry goes to the archive. today is written as the file's
// Last synthesized / Last updated date when it changes. It returns what it
// did.
//
// Route creates m.Global (from NewGlobal) or a project's file only when a
// learning is added to it, and m.Archive only when an entry is replaced; a
// nil m.Projects is made.
//
// In detail, for each learning in order: an undated one is dated today; an
// invalid one is skipped with the reason. If it flips the polarity of an
// entry on the same subject ("X is broken" → "X works now", "use X" →
// "don't use X"; sameSubject says how alike is the same) in a section that
// is not protected, that entry is replaced in place (op "update", its
// reason quoting both) and its old lines go to the archive under today's
// group with "*Source: file*" and "*Replaced by: <new title> (today)*":
// nothing is lost. Entries of Pinned and of the global file's auto-pinned
// sections (About Me, Current Projects, Technical Environment, Patterns &
// Preferences) are never replaced. Else if the file holds the concept
// already (any section, Pinned included, learnings added earlier in the
// same call too) it is skipped. Else it is added at the top of its section
// (the skill keeps the oldest at the bottom), after those added before it
// in the same call; when it may contradict an entry it did not replace (a
// protected one, or a looser subject match), the add's reason names it.
// New entries are rendered with Learning.Format; every other entry keeps
// its bytes.
func Route(m *Memory, learnings []Learning, today string) []Op {
	if m.Projects == nil {
		m.Projects = map[string]*File{}
	}
	var ops []Op
	var changed []*File
	touched := map[*File]bool{}
	cursor := map[*section]*item{}
	for _, l := range learnings {
		l.Line = 0
		if l.Date == "" && checkDate(today) == nil {
			l.Date = today
		}
		global := strings.EqualFold(l.Scope, Global)
		name := GlobalFileName
		if !global {
			name = ProjectFileName(l.Scope)
		}
		if err := l.Validate(); err != nil {
			ops = append(ops, Op{Kind: "skip", File: name, Learning: l, Reason: "not written: " + err.Error()})
			continue
		}
		if global && m.Global == nil {
			m.Global = NewGlobal()
		}
		f := m.Global
		if !global {
			f = m.Projects[l.Scope]
			if f == nil {
				f = NewProject(l.Scope)
				m.Projects[l.Scope] = f
			}
		}
		sec := SectionFor(f.Kind, l.Type)
		lf := featuresOf(l)
		c, replace, maybe := f.contradicted(lf)
		if replace && checkDate(today) == nil {
			old := c.it.learning()
			oldLines := c.it.lines
			c.it.setLines(newItem(l).lines)
			c.it.line = 0
			reason := fmt.Sprintf("%s contradicts %s: replaced in place; %q archived", quote(l), quote(old), old.Title)
			if !m.archiveLines(f, oldLines, today, fmt.Sprintf("*Replaced by: %s (%s)*", l.Title, today)) {
				reason = fmt.Sprintf("%s contradicts %s: replaced in place; %q was in the archive already", quote(l), quote(old), old.Title)
			}
			ops = append(ops, Op{Kind: "update", File: f.Name, Section: c.sec.name, Learning: l, Reason: reason})
		} else if e, ok := f.duplicate(lf); ok {
			ops = append(ops, Op{Kind: "skip", File: f.Name, Section: e.sec.name, Learning: l,
				Reason: fmt.Sprintf("already in ## %s: %s", e.sec.name, quote(*e.it.l))})
			continue
		} else {
			s, _ := f.ensureSection(sec)
			s.place(newItem(l), cursor)
			reason := fmt.Sprintf("[%s/%s] goes to ## %s", l.Scope, l.Type, sec)
			if replace {
				maybe = append([]entry{c}, maybe...)
			}
			for _, x := range maybe {
				why := "the subjects are not alike enough to replace it"
				if protected(x.sec.name) {
					why = "## " + x.sec.name + " is never replaced"
				}
				reason += fmt.Sprintf("; it may contradict %q (## %s), kept: %s", x.it.l.Title, x.sec.name, why)
			}
			ops = append(ops, Op{Kind: "add", File: f.Name, Section: sec, Learning: l, Reason: reason})
		}
		if !touched[f] {
			touched[f] = true
			changed = append(changed, f)
		}
	}
	for _, f := range changed {
		if checkDate(today) == nil {
			f.SetDate(today)
		}
	}
	return ops
}
