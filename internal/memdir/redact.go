package memdir

import (
	"slices"

	"github.com/memdir/memdir/internal/redact"
)

// redactMemory removes credentials from every text field of m and its body,
// and returns what it removed, summed by kind.
func redactMemory(m *Memory) []RedactionCount {
	counts := map[string]int{}
	var order []string
	clean := func(s *string) {
		out, found := redact.String(*s)
		*s = out
		for _, f := range found {
			if counts[f.Kind] == 0 {
				order = append(order, f.Kind)
			}
			counts[f.Kind] += f.Count
		}
	}
	clean(&m.Name)
	clean(&m.Description)
	clean(&m.Source)
	clean(&m.SupersededBy)
	m.Refs = slices.Clone(m.Refs)
	for i := range m.Refs {
		clean(&m.Refs[i])
	}
	clean(&m.Body)
	var out []RedactionCount
	for _, k := range order {
		out = append(out, RedactionCount{Kind: k, Count: counts[k]})
	}
	return out
}
