package claudeinstall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Object is a JSON object that keeps its keys in order, so that a settings
// file memdir rewrites keeps the shape its owner gave it.
type Object struct {
	Keys []string
	Vals map[string]any // *Object, []any, string, json.Number, bool or nil
	src  *objSrc        // how Parse found it written; nil for a new object
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{Vals: map[string]any{}} }

// Get returns the value of key.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.Vals[key]
	return v, ok
}

// Set sets key, appending it when new.
func (o *Object) Set(key string, v any) {
	if _, ok := o.Vals[key]; !ok {
		o.Keys = append(o.Keys, key)
	}
	o.Vals[key] = v
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if _, ok := o.Vals[key]; !ok {
		return
	}
	delete(o.Vals, key)
	for i, k := range o.Keys {
		if k == key {
			o.Keys = append(o.Keys[:i], o.Keys[i+1:]...)
			break
		}
	}
}

// Parse reads a JSON document whose top level is an object. An empty
// document is an empty object. The objects it returns remember how they
// were written, so that Encode gives back the same bytes for every part an
// edit did not touch.
func Parse(b []byte) (*Object, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return NewObject(), nil
	}
	// Decoded, not only checked: a number past float64 ("1E700") is valid
	// JSON that encoding/json cannot read, and neither can memdir edit it.
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, err // the decoder says what is wrong and where
	}
	s := &scanner{b: b}
	s.ws()
	if s.b[s.i] != '{' {
		return nil, errors.New("the top level is not a JSON object")
	}
	prefix := string(b[:s.i])
	o := s.object()
	o.src.doc = &docSrc{prefix: prefix, suffix: string(b[s.i:])}
	o.src.doc.infer(o, b)
	return o, nil
}

// Encode writes o. A document Parse read keeps its bytes wherever it was
// not changed, and what was added follows its indentation, line ends and
// spacing; a new document gets two-space indentation and a final newline.
func Encode(o *Object) []byte {
	var b bytes.Buffer
	if o.src == nil || o.src.doc == nil {
		writeValue(&b, o, "")
		b.WriteByte('\n')
		return b.Bytes()
	}
	d := o.src.doc
	e := encoder{style: d.style}
	b.WriteString(d.prefix)
	e.value(&b, o, nil, "")
	b.WriteString(d.suffix)
	return b.Bytes()
}

func writeValue(b *bytes.Buffer, v any, indent string) {
	switch v := v.(type) {
	case *Object:
		if len(v.Keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, k := range v.Keys {
			b.WriteString(indent + "  ")
			writeString(b, k)
			b.WriteString(": ")
			writeValue(b, v.Vals[k], indent+"  ")
			if i < len(v.Keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(indent + "  ")
			writeValue(b, e, indent+"  ")
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case string:
		writeString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		fmt.Fprint(b, v)
	case nil:
		b.WriteString("null")
	default:
		enc, _ := json.Marshal(v)
		b.Write(enc)
	}
}

func writeString(b *bytes.Buffer, s string) {
	var sb strings.Builder
	enc := json.NewEncoder(&sb)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	b.WriteString(strings.TrimSuffix(sb.String(), "\n"))
}
