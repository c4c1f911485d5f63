package memdir

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v4"

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
	clean(&m.Author)
	clean(&m.SupersededBy)
	clean(&m.Stale)
	m.Refs = slices.Clone(m.Refs)
	for i := range m.Refs {
		clean(&m.Refs[i])
	}
	clean(&m.Body)
	if m.front != nil {
		// Fields memdir does not know, and comments, are written back as
		// they are: a secret typed there must not reach the disk either.
		before := len(order) + sumCounts(counts)
		m.front = cloneNode(m.front)
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Kind == yaml.ScalarNode {
				clean(&n.Value)
			}
			if n.Kind == yaml.MappingNode {
				// A key names what its value is: a "db_password" key and its value
				// is a secret that neither half is alone.
				for i := 0; i+1 < len(n.Content); i += 2 {
					k, v := n.Content[i], n.Content[i+1]
					if k.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && v.Value != "" {
						cleanPair(k.Value, &v.Value, counts, &order)
					}
				}
			}
			clean(&n.HeadComment)
			clean(&n.LineComment)
			clean(&n.FootComment)
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(m.front)
		if len(order)+sumCounts(counts) != before {
			m.orig = nil // the original bytes hold the secret: write the tree
		}
	}
	var out []RedactionCount
	for _, k := range order {
		out = append(out, RedactionCount{Kind: k, Count: counts[k]})
	}
	return out
}

func sumCounts(c map[string]int) int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// cleanPair redacts value when "key: value" reads as a secret, counting
// what it found as clean does.
func cleanPair(key string, value *string, counts map[string]int, order *[]string) {
	prefix := key + ": "
	out, found := redact.String(prefix + *value)
	if len(found) == 0 {
		return
	}
	if rest, ok := strings.CutPrefix(out, prefix); ok {
		*value = rest
	} else {
		*value = "[REDACTED]" // the key itself was part of the match
	}
	for _, f := range found {
		if counts[f.Kind] == 0 {
			*order = append(*order, f.Kind)
		}
		counts[f.Kind] += f.Count
	}
}
