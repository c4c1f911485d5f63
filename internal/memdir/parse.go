package memdir

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// MaxFileSize bounds a memory file read from disk. Claude Code asks for files
// under 4 KB; anything past 1 MiB is not a memory.
const MaxFileSize = 1 << 20

// Keys of the frontmatter fields memdir reads and writes, in the order a new
// file lists them.
const (
	keyName         = "name"
	keyDescription  = "description"
	keyType         = "type"
	keyScope        = "scope"
	keyAuthor       = "author"
	keyCreated      = "created"
	keyUpdated      = "updated"
	keySource       = "source"
	keyTrust        = "trust"
	keyRefs         = "refs"
	keySupersededBy = "superseded_by"
	keyPinned       = "pinned"
	keyStale        = "stale"
	keyMetadata     = "metadata"
	keyModified     = "modified" // metadata.modified, written by Claude Code
)

var bom = []byte("\xef\xbb\xbf")

// splitFrontmatter splits b into its YAML frontmatter and body. The first line
// must be exactly "---" (after an optional byte order mark, with an optional
// CR); the block ends at the next line that is "---" or "...". ok is false
// when b has no frontmatter; then the body is all of b. bodyLine is the 1-based
// line in b where the YAML starts.
func splitFrontmatter(b []byte) (front, body []byte, ok bool, err error) {
	b = bytes.TrimPrefix(b, bom)
	first, rest, found := bytes.Cut(b, []byte("\n"))
	if !found || string(bytes.TrimSuffix(first, []byte("\r"))) != "---" {
		return nil, b, false, nil
	}
	off := 0
	for off <= len(rest) {
		line, _, more := bytes.Cut(rest[off:], []byte("\n"))
		t := string(bytes.TrimSuffix(line, []byte("\r")))
		if t == "---" || t == "..." {
			end := off + len(line)
			if more {
				end++
			}
			return rest[:off], rest[end:], true, nil
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return nil, nil, true, errors.New("frontmatter starts with --- but is never closed")
}

// Parse reads a memory file's bytes. file is its base name, used in errors
// and kept in the Memory. Both frontmatter layouts Claude Code accepts are
// read: top-level "type:" and "metadata: {type: …}" (the metadata block wins
// on a clash, as in Claude Code). A file without frontmatter or without a
// type still parses; an invalid type, a malformed block or a field of the
// wrong shape is a *FrontmatterError naming the line.
func Parse(file string, b []byte) (Memory, error) {
	m, err := parse(file, b)
	if err != nil {
		return m, err
	}
	o := m
	o.Refs = slices.Clone(m.Refs)
	m.orig = &o
	m.rawHead = b[:len(b)-len(m.Body)]
	return m, nil
}

func parse(file string, b []byte) (Memory, error) {
	m := Memory{File: file}
	front, body, ok, err := splitFrontmatter(b)
	if err != nil {
		return m, &FrontmatterError{File: file, Line: 1, Err: err}
	}
	m.Body = string(body)
	if !ok {
		return m, nil
	}
	var doc yaml.Node
	err = yaml.Load(front, &doc)
	if err != nil && bytes.ContainsRune(front, '\t') {
		// Claude Code reads a block indented with tabs by turning them
		// into spaces and trying again: so does memdir.
		var retry yaml.Node
		if yaml.Load(bytes.ReplaceAll(front, []byte("\t"), []byte("  ")), &retry) == nil {
			doc, err = retry, nil
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "no documents") {
			return m, nil // an empty block
		}
		return m, yamlError(file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return m, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return m, nil
	}
	if root.Kind != yaml.MappingNode {
		return m, &FrontmatterError{File: file, Line: root.Line + 1, Err: errors.New("frontmatter is not a mapping of keys to values")}
	}
	m.front = root
	p := fieldParser{file: file}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		p.field(&m, k.Value, v, false)
	}
	if meta := lookup(root, keyMetadata); meta != nil && meta.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(meta.Content); i += 2 {
			k, v := meta.Content[i], meta.Content[i+1]
			switch k.Value {
			case keyType, keyName, keyDescription:
				p.field(&m, k.Value, v, true)
			case keyModified:
				if m.Updated.IsZero() {
					if t, err := parseTime(scalar(v)); err == nil {
						m.Updated = t
					}
				}
			}
		}
	}
	if p.err != nil {
		return m, p.err
	}
	return m, nil
}

// fieldParser decodes known fields and keeps the first error.
type fieldParser struct {
	file string
	err  error
}

func (p *fieldParser) fail(v *yaml.Node, format string, args ...any) {
	if p.err == nil {
		p.err = &FrontmatterError{File: p.file, Line: v.Line + 1, Err: fmt.Errorf(format, args...)}
	}
}

func (p *fieldParser) str(key string, v *yaml.Node) string {
	if v.Kind == yaml.ScalarNode {
		if v.Tag == "!!null" {
			return ""
		}
		return v.Value
	}
	p.fail(v, "%s must be a single value", key)
	return ""
}

func (p *fieldParser) field(m *Memory, key string, v *yaml.Node, inMeta bool) {
	switch key {
	case keyName:
		if !inMeta || m.Name == "" {
			m.Name = oneLine(p.str(key, v))
		}
	case keyDescription:
		if !inMeta || m.Description == "" {
			m.Description = oneLine(p.str(key, v))
		}
	case keyType:
		s := p.str(key, v)
		if s == "" {
			return
		}
		t, err := ParseType(s)
		if err != nil {
			p.fail(v, "%v", err)
			return
		}
		m.Type = t
		m.typeInMeta = inMeta
	case keyScope:
		m.Scope = p.str(key, v)
		if m.Scope != "" && m.Scope != ScopePrivate && m.Scope != ScopeTeam {
			p.fail(v, "invalid scope %q: want private or team", m.Scope)
		}
	case keyCreated, keyUpdated:
		s := p.str(key, v)
		if s == "" {
			return
		}
		t, err := parseTime(s)
		if err != nil {
			p.fail(v, "%s: %v", key, err)
			return
		}
		if key == keyCreated {
			m.Created = t
		} else {
			m.Updated = t
		}
	case keySource:
		m.Source = p.str(key, v)
	case keyAuthor:
		m.Author = p.str(key, v)
	case keyTrust:
		m.Trust = p.str(key, v)
		switch m.Trust {
		case "", TrustUser, TrustAgent, TrustToolOutput:
		default:
			p.fail(v, "invalid trust %q: want user, agent or tool-output", m.Trust)
		}
	case keyRefs:
		switch v.Kind {
		case yaml.SequenceNode:
			m.Refs = nil
			for _, e := range v.Content {
				if s := p.str(key, e); s != "" {
					m.Refs = append(m.Refs, s)
				}
			}
		default:
			if s := p.str(key, v); s != "" {
				m.Refs = []string{s}
			}
		}
	case keySupersededBy:
		m.SupersededBy = p.str(key, v)
	case keyStale:
		m.Stale = oneLine(p.str(key, v))
	case keyPinned:
		s := p.str(key, v)
		if s == "" {
			return
		}
		b, err := strconv.ParseBool(strings.ToLower(s))
		if err != nil {
			p.fail(v, "pinned must be true or false, not %q", s)
			return
		}
		m.Pinned = b
	}
}

// yamlError turns a YAML load error into a FrontmatterError whose line counts
// from the top of the file (the opening --- is line 1).
func yamlError(file string, err error) error {
	line := 0
	var le *yaml.LoadError
	if errors.As(err, &le) {
		line = le.Mark.Line
		if line == 0 {
			line = le.ContextMark.Line
		}
		if line > 0 {
			line++
		}
		err = errors.New(le.Message)
	}
	return &FrontmatterError{File: file, Line: line, Err: fmt.Errorf("malformed frontmatter: %w", err)}
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

// timeLayouts are the date forms accepted in created and updated. memdir
// writes the first.
var timeLayouts = []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

func parseTime(s string) (time.Time, error) {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (want YYYY-MM-DD or RFC 3339)", s)
}
