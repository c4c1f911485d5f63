package memdir

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// TimeLayout is how memdir writes created and updated.
const TimeLayout = time.RFC3339

// Format returns the file bytes for m: a YAML frontmatter block and the body.
//
// For a memory read by Parse, only the fields whose value changed are
// rewritten; unknown fields, comments and the metadata block are kept, and
// when no field changed the original frontmatter bytes are reused exactly.
// A new memory gets the fields in canonical order, top-level (not under
// metadata:), empty ones left out.
func Format(m Memory) []byte {
	var buf bytes.Buffer
	if m.orig != nil && m.fieldsEqual(*m.orig) {
		buf.Write(m.rawHead)
		buf.WriteString(m.Body)
		return buf.Bytes()
	}
	var root *yaml.Node
	if m.front != nil {
		root = cloneNode(m.front)
	} else {
		root = &yaml.Node{Kind: yaml.MappingNode}
	}
	var orig Memory
	if m.orig != nil {
		orig = *m.orig
	}
	w := writer{root: root, inMeta: m.typeInMeta}
	setStr := func(key, v, was string) {
		if m.orig == nil || v != was {
			w.set(key, strNode(v), v == "")
		}
	}
	setStr(keyName, m.Name, orig.Name)
	setStr(keyDescription, m.Description, orig.Description)
	setStr(keyType, string(m.Type), string(orig.Type))
	setStr(keyScope, m.Scope, orig.Scope)
	setStr(keyAuthor, m.Author, orig.Author)
	setTime := func(key string, t, was time.Time) {
		if m.orig == nil || !t.Equal(was) {
			w.set(key, &yaml.Node{Kind: yaml.ScalarNode, Value: t.UTC().Format(TimeLayout)}, t.IsZero())
		}
	}
	setTime(keyCreated, m.Created, orig.Created)
	setTime(keyUpdated, m.Updated, orig.Updated)
	if m.orig != nil && !m.Updated.Equal(orig.Updated) && !m.Updated.IsZero() {
		touchModified(root, m.Updated)
	}
	setStr(keySource, m.Source, orig.Source)
	setStr(keyTrust, m.Trust, orig.Trust)
	if m.orig == nil || !slices.Equal(m.Refs, orig.Refs) {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		for _, r := range m.Refs {
			seq.Content = append(seq.Content, strNode(r))
		}
		w.set(keyRefs, seq, len(m.Refs) == 0)
	}
	setStr(keySupersededBy, m.SupersededBy, orig.SupersededBy)
	if m.orig == nil || m.Pinned != orig.Pinned {
		w.set(keyPinned, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}, !m.Pinned)
	}
	setStr(keyStale, m.Stale, orig.Stale)
	buf.WriteString("---\n")
	if len(root.Content) > 0 {
		out, err := yaml.Dump(root, yaml.WithIndent(2), yaml.WithLineWidth(-1))
		if err != nil {
			// Dump fails only on node trees it did not build itself, and
			// every node here came from Load or from strNode.
			panic("memdir: format frontmatter: " + err.Error())
		}
		buf.Write(out)
	}
	buf.WriteString("---\n")
	buf.WriteString(m.Body)
	return buf.Bytes()
}

// writer sets keys in a frontmatter mapping, preferring the place where the
// key already is: top level, or the metadata block when Claude Code wrote it
// there.
type writer struct {
	root   *yaml.Node
	inMeta bool
}

func (w writer) set(key string, v *yaml.Node, remove bool) {
	meta := lookup(w.root, keyMetadata)
	if meta != nil && meta.Kind != yaml.MappingNode {
		meta = nil
	}
	done := false
	for _, m := range []*yaml.Node{w.root, meta} {
		if m == nil {
			continue
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if m.Content[i].Value != key {
				continue
			}
			if remove {
				m.Content = slices.Delete(m.Content, i, i+2)
			} else {
				old := m.Content[i+1]
				v.HeadComment, v.LineComment, v.FootComment = old.HeadComment, old.LineComment, old.FootComment
				m.Content[i+1] = v
				if old.Anchor != "" {
					// Aliases of the old value keep it: the first takes the
					// anchored node itself, the later ones still name it.
					moveAnchor(w.root, old)
				}
			}
			done = true
			break
		}
	}
	if done || remove {
		return
	}
	w.root.Content = append(w.root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
}

// moveAnchor puts anchored in the place of the first alias of it under n
// (in document order), so the aliases after it stay valid.
func moveAnchor(n, anchored *yaml.Node) bool {
	for i, c := range n.Content {
		if c.Kind == yaml.AliasNode && c.Alias == anchored {
			n.Content[i] = anchored
			return true
		}
		if moveAnchor(c, anchored) {
			return true
		}
	}
	return false
}

// yaml11Words are plain scalars that YAML 1.1 parsers (still common in
// JavaScript) read as booleans or null; they are quoted so every reader sees
// a string.
var yaml11Words = map[string]bool{
	"y": true, "yes": true, "n": true, "no": true, "on": true, "off": true,
	"true": true, "false": true, "null": true, "~": true,
}

func strNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11Words[strings.ToLower(s)] {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

func cloneNode(n *yaml.Node) *yaml.Node {
	return cloneShared(n, map[*yaml.Node]*yaml.Node{})
}

// cloneShared copies each node once: an alias points at the copy of its
// anchor instead of a copy of its own, so nested aliases (a "billion
// laughs" block) cost their size in the file, not their expansion.
func cloneShared(n *yaml.Node, done map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	if c, ok := done[n]; ok {
		return c
	}
	c := new(yaml.Node)
	*c = *n
	done[n] = c
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, e := range n.Content {
		c.Content[i] = cloneShared(e, done)
	}
	if n.Alias != nil {
		c.Alias = cloneShared(n.Alias, done)
	}
	return c
}

// fieldsEqual reports whether the frontmatter fields of m and o are the same.
func (m Memory) fieldsEqual(o Memory) bool {
	return m.Name == o.Name && m.Description == o.Description && m.Type == o.Type &&
		m.Scope == o.Scope && m.Author == o.Author && m.Created.Equal(o.Created) && m.Updated.Equal(o.Updated) &&
		m.Source == o.Source && m.Trust == o.Trust && slices.Equal(m.Refs, o.Refs) &&
		m.SupersededBy == o.SupersededBy && m.Pinned == o.Pinned && m.Stale == o.Stale
}

// touchModified moves Claude Code's metadata.modified, where the file has
// one, to t: Claude Code reads that date before the file's mtime for a
// memory's age, so a stale one would make an update look months old. The
// value keeps its layout (a date, or a full time).
func touchModified(root *yaml.Node, t time.Time) {
	meta := lookup(root, keyMetadata)
	if meta == nil || meta.Kind != yaml.MappingNode {
		return
	}
	v := lookup(meta, keyModified)
	if v == nil || v.Kind != yaml.ScalarNode {
		return
	}
	layout := TimeLayout
	if len(v.Value) == len(time.DateOnly) {
		layout = time.DateOnly
	}
	v.Value, v.Tag, v.Style = t.UTC().Format(layout), "", 0
}
