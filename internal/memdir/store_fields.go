package memdir

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/paths"
)

// normalizeSave prepares m as every save does: name and description on one
// line, valid UTF-8 where YAML needs text, a valid title or file name; then
// secrets are redacted. byName says the file is to be found from the name.
func normalizeSave(m *Memory) (byName bool, red []RedactionCount, err error) {
	m.Name = oneLine(m.Name)
	m.Description = oneLine(m.Description)
	m.Stale = oneLine(m.Stale)
	m.Author = oneLine(m.Author)
	// YAML cannot hold invalid UTF-8 as text: the encoder would write the
	// value as !!binary base64, which reads back as the base64 string.
	for _, f := range []*string{&m.Description, &m.Source, &m.Trust, &m.Scope, &m.Author, &m.SupersededBy, &m.Stale} {
		*f = strings.ToValidUTF8(*f, "\uFFFD")
	}
	m.Refs = slices.Clone(m.Refs)
	for i := range m.Refs {
		m.Refs[i] = strings.ToValidUTF8(m.Refs[i], "\uFFFD")
	}
	byName = m.File == ""
	if byName {
		if m.Name == "" {
			return false, nil, fmt.Errorf("%w: a memory needs a name", ErrInvalid)
		}
		// Any title will do: the file name is its slug, never the title.
		if err := validTitle(m.Name, maxTitleLen); err != nil {
			return false, nil, err
		}
	} else {
		if err := paths.ValidateName(m.File); err != nil {
			return false, nil, err
		}
		if !strings.HasSuffix(m.File, ".md") || IsIndexName(m.File) {
			return false, nil, fmt.Errorf("%w: file name %q must end in .md and not be %s", ErrInvalid, m.File, IndexFile)
		}
	}
	return byName, redactMemory(m), nil
}

// merge lays the fields set in m over the stored memory cur, keeping cur's
// parsed frontmatter so unknown fields survive.
func merge(cur, m Memory) Memory {
	if m.front != nil {
		return m // the caller parsed and edited the whole file
	}
	out := cur
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&out.Name, m.Name)
	set(&out.Description, m.Description)
	if m.Type != "" {
		out.Type = m.Type
	}
	set(&out.Scope, m.Scope)
	set(&out.Author, m.Author)
	set(&out.Source, m.Source)
	set(&out.Trust, m.Trust)
	set(&out.SupersededBy, m.SupersededBy)
	set(&out.Stale, m.Stale)
	if len(m.Refs) > 0 || m.refsSet {
		out.Refs = m.Refs
	}
	if m.Pinned {
		out.Pinned = true
	}
	if !m.Created.IsZero() {
		out.Created = m.Created
	}
	if m.Body != "" {
		out.Body = m.Body
	}
	return out
}

func memoryWarnings(m Memory) []string {
	var w []string
	if m.Description == "" {
		w = append(w, m.File+" has no description: recall matches on it first")
	}
	if strings.TrimSpace(m.Body) == "" {
		w = append(w, m.File+" has no body: recall can give only its name and description")
	}
	if n := jsLen(m.Description); n > 300 {
		w = append(w, fmt.Sprintf("%s: description is %d characters; keep it near 150", m.File, n))
	}
	if n := len(Format(m)); n > 4096 {
		w = append(w, fmt.Sprintf("%s is %d bytes: Claude Code shows only the first 4096; split or summarise it", m.File, n))
	}
	return w
}
