package learning

import (
	"fmt"
	"sort"
	"strings"
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
// polarity words) from which a flipped polarity is a contradiction. Both
// are tuned on route_test.go.
const (
	dupThreshold     = 0.6
	subjectThreshold = 0.6
)

func fullText(l Learning) string { return l.Title + " " + l.Description + " " + l.Lesson }

func normTitle(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// features are what dedupe and contradictions compare of a learning,
// computed once per entry (an item drops them when its lines change).
type features struct {
	scope, title     string          // lower-cased, title's spaces collapsed
	all, subj, tsubj map[string]bool // content words; less polarity words; the title's less polarity words
	pol              []int           // polarity, computed when first needed
	text             string
}

func featuresOf(l Learning) *features {
	t := fullText(l)
	return &features{scope: strings.ToLower(l.Scope), title: normTitle(l.Title), all: wordSet(t), subj: subject(t), tsubj: subject(l.Title), text: t}
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
// left out. Overlap rather than Jaccard: an update ("the filter is no
// longer needed: the rows were removed") often says more, or less, than
// the entry it replaces.
func subjectSim(a, b *features) float64 {
	t := jaccard(a.tsubj, b.tsubj)
	if o := overlap(a.subj, b.subj); o > t {
		return o
	}
	return t
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

// contradicted is the entry of f that l contradicts: same subject, opposite
// polarity. Pinned entries count only when their scope is l's (a pinned
// learning of another scope is never rewritten by routing).
func (f *File) contradicted(l Learning, lf *features) (entry, bool) {
	var best entry
	bestSim := 0.0
	for _, e := range f.entries() {
		if e.sec.name == Pinned && !strings.EqualFold(e.it.l.Scope, l.Scope) {
			continue
		}
		ef := e.it.feats()
		s := subjectSim(ef, lf)
		if s < subjectThreshold || s <= bestSim {
			continue
		}
		if flips(ef.polarity(), lf.polarity()) {
			best, bestSim = e, s
		}
	}
	return best, bestSim > 0
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
// that contradicts or updates an existing entry replaces it. today is
// written as the file's Last synthesized / Last updated date when it
// changes. It returns what it did.
//
// Route creates m.Global (from NewGlobal) or a project's file only when a
// learning is added to it; a nil m.Projects is made.
//
// In detail, for each learning in order: an undated one is dated today; an
// invalid one is skipped with the reason. If it flips the polarity of an
// entry on the same subject ("X is broken" → "X works now", "use X" →
// "don't use X"), that entry is replaced in place (op "update"): a Pinned
// entry only when its scope is the learning's, and it keeps its
// "*Pinned: …*" notes. Else if the file holds the concept already (any
// section, Pinned included, learnings added earlier in the same call too)
// it is skipped. Else it is added at the top of its section (the skill
// keeps the oldest at the bottom), after those added before it in the
// same call. New entries are rendered with Learning.Format; every other
// entry keeps its bytes.
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
		if e, ok := f.contradicted(l, lf); ok {
			old := e.it.learning()
			nl := l
			if e.sec.name == Pinned {
				for _, n := range old.Notes {
					if strings.HasPrefix(n, "*Pinned:") {
						nl.Notes = append(nl.Notes, n)
					}
				}
			}
			e.it.setLines(newItem(nl).lines)
			e.it.line = 0
			ops = append(ops, Op{Kind: "update", File: f.Name, Section: e.sec.name, Learning: nl,
				Reason: fmt.Sprintf("%s contradicts %s: replaced in place", quote(l), quote(old))})
		} else if e, ok := f.duplicate(lf); ok {
			ops = append(ops, Op{Kind: "skip", File: f.Name, Section: e.sec.name, Learning: l,
				Reason: fmt.Sprintf("already in ## %s: %s", e.sec.name, quote(*e.it.l))})
			continue
		} else {
			s, _ := f.ensureSection(sec)
			it := newItem(l)
			at := s.insertAt()
			if prev := cursor[s]; prev != nil {
				for i, x := range s.items {
					if x == prev {
						at = i + 1
					}
				}
			}
			s.insert(at, it)
			cursor[s] = it
			ops = append(ops, Op{Kind: "add", File: f.Name, Section: sec, Learning: l,
				Reason: fmt.Sprintf("[%s/%s] goes to ## %s", l.Scope, l.Type, sec)})
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
