package claudeinstall

import (
	"bytes"
	"encoding/json"
	"strings"
)

// How Parse found a document written, kept so that Encode changes only
// what an edit changed: every untouched value is written back as its
// original bytes, a removed member takes its comma and the space before
// it along, and an added one copies its neighbours' layout.

// objSrc is an object as written.
type objSrc struct {
	raw     string      // '{' to '}'
	canon   string      // compact encoding when parsed: equal now means untouched
	members []memberSrc // in source order
	inner   string      // an empty object: what stood between the braces
	closing string      // between the last value and '}'
	doc     *docSrc     // the top-level object only
}

// memberSrc is one member as written.
type memberSrc struct {
	key   string
	lead  string // between '{' or ',' and the key
	mid   string // the key as written, through the colon and the space after it
	trail string // between the value and the comma after it ("" for the last)
	val   valSrc
}

// valSrc is a value as written.
type valSrc struct {
	raw, canon string
	arr        *arrSrc // an array's elements
	obj        *Object // the object Parse made: found again by identity
}

type arrSrc struct {
	elems          []elemSrc
	inner, closing string
}

type elemSrc struct {
	lead, trail string
	val         valSrc
}

// style is how a document lays out what is added to it.
type style struct {
	nl, unit, colon string // line end, one level of indentation, what follows ':'
	multiline       bool   // members on lines of their own
}

// docSrc is what surrounds the top-level object, and the document's style.
type docSrc struct {
	prefix, suffix string
	style
}

// infer reads the style off the document: its line end, the smallest
// indentation of a member or element on a line of its own, and the most
// common spacing after a colon.
func (d *docSrc) infer(o *Object, b []byte) {
	d.nl, d.unit, d.colon = "\n", "", " "
	if bytes.Contains(b, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	var leads []string
	colons := map[string]int{}
	var walk func(valSrc)
	walk = func(v valSrc) {
		if v.obj != nil {
			for _, m := range v.obj.src.members {
				leads = append(leads, m.lead)
				colon := m.mid[strings.LastIndexByte(m.mid, ':')+1:]
				if colons[colon]++; colons[colon] > colons[d.colon] {
					d.colon = colon // the most common spacing
				}
				walk(m.val)
			}
		}
		if v.arr != nil {
			for _, e := range v.arr.elems {
				leads = append(leads, e.lead)
				walk(e.val)
			}
		}
	}
	walk(valSrc{obj: o})
	for _, l := range leads {
		i := strings.LastIndexByte(l, '\n')
		if i < 0 {
			continue
		}
		if ind := l[i+1:]; ind != "" && (d.unit == "" || len(ind) < len(d.unit)) {
			d.unit = ind
		}
	}
	if d.unit == "" {
		d.unit = "  "
	}
	if len(o.src.members) > 0 {
		m := o.src.members[0]
		d.multiline = strings.Contains(m.lead, "\n")
	} else {
		d.multiline = true
	}
}

// scanner reads JSON that json.Valid accepted, keeping positions.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) && strings.IndexByte(" \t\r\n", s.b[s.i]) >= 0 {
		s.i++
	}
}

func (s *scanner) value() (any, valSrc) {
	start := s.i
	var v any
	var vs valSrc
	switch c := s.b[s.i]; {
	case c == '{':
		o := s.object()
		return o, valSrc{raw: o.src.raw, canon: o.src.canon, obj: o}
	case c == '[':
		v, vs.arr = s.array()
	case c == '"':
		s.skipString()
		var str string
		json.Unmarshal(s.b[start:s.i], &str)
		v = str
	case c == 't':
		s.i += 4
		v = true
	case c == 'f':
		s.i += 5
		v = false
	case c == 'n':
		s.i += 4
	default:
		for s.i < len(s.b) && strings.IndexByte("+-0123456789.eE", s.b[s.i]) >= 0 {
			s.i++
		}
		v = json.Number(s.b[start:s.i])
	}
	vs.raw, vs.canon = string(s.b[start:s.i]), compact(v)
	return v, vs
}

func (s *scanner) skipString() {
	for s.i++; s.b[s.i] != '"'; s.i++ {
		if s.b[s.i] == '\\' {
			s.i++
		}
	}
	s.i++
}

func (s *scanner) object() *Object {
	o, src := NewObject(), &objSrc{}
	o.src = src
	start := s.i
	s.i++
	p := s.i
	s.ws()
	if s.b[s.i] == '}' {
		src.inner = string(s.b[p:s.i])
	}
	for s.b[s.i] != '}' {
		m := memberSrc{lead: string(s.b[p:s.i])}
		k := s.i
		s.skipString()
		json.Unmarshal(s.b[k:s.i], &m.key)
		s.ws()
		s.i++ // ':'
		s.ws()
		m.mid = string(s.b[k:s.i])
		var v any
		v, m.val = s.value()
		o.Set(m.key, v) // a repeated key: the last value wins, as in JavaScript
		p = s.i
		s.ws()
		if s.b[s.i] == ',' {
			m.trail = string(s.b[p:s.i])
			s.i++
			p = s.i
			s.ws()
		} else {
			src.closing = string(s.b[p:s.i])
		}
		src.members = append(src.members, m)
	}
	s.i++
	src.raw, src.canon = string(s.b[start:s.i]), compact(o)
	return o
}

func (s *scanner) array() ([]any, *arrSrc) {
	a, src := []any{}, &arrSrc{}
	s.i++
	p := s.i
	s.ws()
	if s.b[s.i] == ']' {
		src.inner = string(s.b[p:s.i])
	}
	for s.b[s.i] != ']' {
		e := elemSrc{lead: string(s.b[p:s.i])}
		var v any
		v, e.val = s.value()
		a = append(a, v)
		p = s.i
		s.ws()
		if s.b[s.i] == ',' {
			e.trail = string(s.b[p:s.i])
			s.i++
			p = s.i
			s.ws()
		} else {
			src.closing = string(s.b[p:s.i])
		}
		src.elems = append(src.elems, e)
	}
	s.i++
	return a, src
}

// compact is v's encoding without any space: two values with the same
// compact encoding are the same value.
func compact(v any) string {
	var b bytes.Buffer
	(&encoder{style: style{}}).fresh(&b, v, "")
	return b.String()
}

// encoder writes an edited document in its own style.
type encoder struct{ style }

// value writes v, which Parse found written as vs (nil: not known), on a
// line indented by indent.
func (e *encoder) value(b *bytes.Buffer, v any, vs *valSrc, indent string) {
	switch v := v.(type) {
	case *Object:
		if v.src == nil {
			e.fresh(b, v, indent)
		} else if compact(v) == v.src.canon {
			b.WriteString(v.src.raw)
		} else {
			e.object(b, v, indent)
		}
		return
	case []any:
		if vs != nil && vs.arr != nil {
			if compact(v) == vs.canon {
				b.WriteString(vs.raw)
			} else {
				e.array(b, v, vs.arr, indent)
			}
			return
		}
	default:
		if vs != nil && compact(v) == vs.canon {
			b.WriteString(vs.raw) // keeps escapes and number spelling
			return
		}
	}
	e.fresh(b, v, indent)
}

func (e *encoder) object(b *bytes.Buffer, o *Object, indent string) {
	src := o.src
	b.WriteByte('{')
	if len(o.Keys) == 0 {
		if len(src.members) == 0 {
			b.WriteString(src.inner)
		}
		b.WriteByte('}')
		return
	}
	srcOf := map[string]*memberSrc{}
	for i := range src.members {
		srcOf[src.members[i].key] = &src.members[i] // a repeated key: the last
	}
	lead, closing := e.layout(len(src.members) > 0, indent, func(yield func(string) bool) {
		for _, m := range src.members {
			if !yield(m.lead) {
				return
			}
		}
	})
	if len(src.members) > 0 {
		closing = src.closing
	}
	for i, k := range o.Keys {
		if i > 0 {
			b.WriteByte(',')
		}
		if m := srcOf[k]; m != nil {
			b.WriteString(m.lead + m.mid)
			e.value(b, o.Vals[k], &m.val, indentOf(m.lead, indent))
			if i < len(o.Keys)-1 {
				b.WriteString(m.trail)
			}
			continue
		}
		b.WriteString(lead)
		writeString(b, k)
		b.WriteString(":" + e.colon)
		e.within(lead).fresh(b, o.Vals[k], indentOf(lead, indent))
	}
	b.WriteString(closing)
	b.WriteByte('}')
}

func (e *encoder) array(b *bytes.Buffer, a []any, src *arrSrc, indent string) {
	b.WriteByte('[')
	if len(a) == 0 {
		if len(src.elems) == 0 {
			b.WriteString(src.inner)
		}
		b.WriteByte(']')
		return
	}
	lead, closing := e.layout(len(src.elems) > 0, indent, func(yield func(string) bool) {
		for _, el := range src.elems {
			if !yield(el.lead) {
				return
			}
		}
	})
	if len(src.elems) > 0 {
		closing = src.closing
	}
	used, next := make([]bool, len(src.elems)), 0
	for i, v := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		j := e.match(v, src, used, next)
		if j < 0 {
			b.WriteString(lead)
			e.within(lead).fresh(b, v, indentOf(lead, indent))
			continue
		}
		used[j], next = true, j+1
		el := &src.elems[j]
		b.WriteString(el.lead)
		e.value(b, v, &el.val, indentOf(el.lead, indent))
		if i < len(a)-1 {
			b.WriteString(el.trail)
		}
	}
	b.WriteString(closing)
	b.WriteByte(']')
}

// match finds the element of src that v was: the same object, or the next
// unused element with v's value.
func (e *encoder) match(v any, src *arrSrc, used []bool, next int) int {
	if o, ok := v.(*Object); ok {
		for j, el := range src.elems {
			if !used[j] && el.val.obj == o {
				return j
			}
		}
		if o.src != nil {
			return -1
		}
	}
	c := compact(v)
	for j := next; j < len(src.elems); j++ {
		if !used[j] && src.elems[j].val.obj == nil && src.elems[j].val.canon == c {
			return j
		}
	}
	return -1
}

// layout is the lead of an added member or element and the closing space
// of a container that had none: its first member's lead when it had some,
// else a line of its own one level in (or nothing, in a one-line document).
func (e *encoder) layout(had bool, indent string, leads func(func(string) bool)) (lead, closing string) {
	if had {
		for l := range leads {
			lead = l
		}
		return lead, ""
	}
	if e.multiline {
		return e.nl + indent + e.unit, e.nl + indent
	}
	return "", ""
}

// within is the encoder for a value added after lead: on one line when
// its neighbours are on one line, even in a document laid out on many.
func (e *encoder) within(lead string) *encoder {
	c := *e
	c.multiline = strings.Contains(lead, "\n")
	return &c
}

// indentOf is the indentation of a line starting with lead, or the
// enclosing one when lead stays on the same line.
func indentOf(lead, enclosing string) string {
	if i := strings.LastIndexByte(lead, '\n'); i >= 0 {
		return lead[i+1:]
	}
	return enclosing
}

// fresh writes a value Parse did not read, in the encoder's style: on
// lines of their own one level in when multiline, else on one line.
func (e *encoder) fresh(b *bytes.Buffer, v any, indent string) {
	open := func(c byte, n int, each func(i int)) {
		b.WriteByte(c)
		if n == 0 {
			b.WriteByte(c + 2) // '}' or ']'
			return
		}
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
				if !e.multiline && e.colon != "" {
					b.WriteByte(' ')
				}
			}
			if e.multiline {
				b.WriteString(e.nl + indent + e.unit)
			}
			each(i)
		}
		if e.multiline {
			b.WriteString(e.nl + indent)
		}
		b.WriteByte(c + 2)
	}
	switch v := v.(type) {
	case *Object:
		open('{', len(v.Keys), func(i int) {
			writeString(b, v.Keys[i])
			b.WriteString(":" + e.colon)
			e.fresh(b, v.Vals[v.Keys[i]], indent+e.unit)
		})
	case []any:
		open('[', len(v), func(i int) { e.fresh(b, v[i], indent+e.unit) })
	default:
		writeValue(b, v, indent)
	}
}
