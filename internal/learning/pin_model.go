package learning

import (
	"fmt"
	"strings"
)

// Candidate is a learning a pin may move: one of a decay-eligible section
// of File (the file's name relative to the synthesis folder).
type Candidate struct {
	File     string   `json:"file"`
	Section  string   `json:"section"`
	Learning Learning `json:"learning"`
}

// Pinnable lists the learnings of m's decay-eligible sections: the global
// file's first, then each project's by name, in file order. They are what
// a model engine reviews against the skill's pinning criteria, after
// Migrate has pinned by its own.
func Pinnable(m *Memory) []Candidate {
	var out []Candidate
	for _, f := range m.files() {
		for _, e := range f.entries() {
			if decayEligible(f.Kind, e.sec.name) {
				out = append(out, Candidate{File: f.Name, Section: e.sec.name, Learning: e.it.learning()})
			}
		}
	}
	return out
}

// PinLearning moves one learning, l of the file named file, from its
// decay-eligible section to the top of the file's Pinned section with the
// note "*Pinned: reason*" (the skill's example: "*Pinned: Hard-won lesson,
// applies across all projects using subagents*"), and writes today as
// the file's date. It is how a model engine's choices are applied.
//
// l is found by its content (title, scope, type, date, description,
// lesson) and, when l.Line is set, by the line it was parsed from: a
// Candidate of Pinnable on the same files finds its entry. A learning that
// is not there (the file changed meanwhile, or it is pinned already), an
// empty or multi-line reason, or a bad today gives no ops: nothing moves.
func PinLearning(m *Memory, file string, l Learning, reason, today string) []Op {
	reason = strings.TrimSpace(reason)
	if reason == "" || strings.ContainsAny(reason, "\r\n") || checkDate(today) != nil {
		return nil
	}
	for _, f := range m.files() {
		if f.Name != file {
			continue
		}
		for _, e := range f.entries() {
			if !decayEligible(f.Kind, e.sec.name) || !sameLearning(e.it, l) {
				continue
			}
			pinned, _ := f.ensureSection(Pinned)
			e.it.addNote("*Pinned: " + reason + "*")
			moveTo(e.it, e.sec, pinned, map[*section]*item{})
			f.SetDate(today)
			return []Op{{Kind: "pin", File: f.Name, Section: Pinned, Learning: e.it.learning(),
				Reason: fmt.Sprintf("%s; moved from ## %s", reason, e.sec.name)}}
		}
	}
	return nil
}

// sameLearning reports whether it is the entry l was taken from.
func sameLearning(it *item, l Learning) bool {
	x := it.l
	return x.Title == l.Title && x.Scope == l.Scope && x.Type == l.Type && x.Date == l.Date &&
		x.Description == l.Description && x.Lesson == l.Lesson && (l.Line == 0 || it.line == l.Line)
}
