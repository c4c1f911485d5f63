package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTextHit(t *testing.T) {
	for _, tc := range []struct {
		line, needle string
		want         bool
	}{
		{`{"type":"user","message":{"role":"user","content":"use tabs"}}`, "tabs", true},
		{`{"type":"assistant","message":{"content":[{"type":"text","text":"use tabs"}]}}`, "tabs", true},
		{`{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"tabs?"}]}}`, "tabs", false},
		{`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash","input":{"command":"grep tabs"}}]}}`, "tabs", false},
		{`{"type":"user","message":{"content":[{"type":"tool_result","content":"tabs\n"}]},"toolUseResult":{"stdout":"tabs"}}`, "tabs", false},
		{`{"type":"user","message":{"content":[{"type":"tool_result","content":[{"type":"text","text":"tabs"}]}]}}`, "tabs", true},
		{`{"type":"attachment","attachment":{"content":"tabs"}}`, "tabs", false},
		{`{"type":"user","message":{"content":"say \"tabs\" here \\"}}`, "tabs", true},
		{`{"type":"user","cwd":"/tabs","message":{"content":"other"}}`, "tabs", false},
		{`{"timestamp":"x","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"tabs"}]}}`, "tabs", true},
		{`{"broken": "tabs`, "tabs", true}, // cannot walk: let the decoder decide
	} {
		var offs []int
		for i := 0; ; {
			j := strings.Index(tc.line[i:], tc.needle)
			if j < 0 {
				break
			}
			offs = append(offs, i+j)
			i += j + 1
		}
		if got := TextHit([]byte(tc.line), offs); got != tc.want {
			t.Errorf("TextHit(%s, %q)=%v, want %v", tc.line, tc.needle, got, tc.want)
		}
	}
}

// FuzzTextHit: TextHit never panics, and never says no for a line whose
// decoded message text holds the needle where the raw line does too.
func FuzzTextHit(f *testing.F) {
	for _, name := range []string{"claude-records.jsonl", "codex-rollout.jsonl"} {
		for _, l := range bytes.Split(open(f, name), []byte("\n")) {
			f.Add(l, "tabs")
		}
	}
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"a\\\"b"}]}}`), "b")
	f.Fuzz(func(t *testing.T, line []byte, needle string) {
		var offs []int
		if needle != "" {
			for i := 0; i < len(line); {
				j := bytes.Index(line[i:], []byte(needle))
				if j < 0 {
					break
				}
				offs = append(offs, i+j)
				i += j + 1
			}
		}
		hit := TextHit(line, offs)
		enc, _ := json.Marshal(needle)
		if needle == "" || !bytes.Equal(enc[1:len(enc)-1], []byte(needle)) || len(offs) == 0 {
			return // the raw line spells the needle differently
		}
		for _, d := range []Dialect{ClaudeCode, Codex} {
			if m, ok := LineMessage(d, line); ok && strings.Contains(m.Text, needle) && !hit {
				// The text may hold the needle only through escapes
				// (\u0074abs): then the raw hit is elsewhere and a miss
				// is expected. Check that the text really is spelled
				// raw in the line.
				if !rawSpelled(line, m.Text, needle) {
					continue
				}
				t.Fatalf("TextHit=false, but the %s message text %q holds %q", d, m.Text, needle)
			}
		}
	})
}

// rawSpelled reports whether the needle's occurrence in text comes from raw
// bytes of the line: the JSON encoding of the text is in the line.
func rawSpelled(line []byte, text, needle string) bool {
	enc, _ := json.Marshal(text)
	return bytes.Contains(line, enc[1:len(enc)-1])
}

func TestTextHit_KeysAsTheDecoderReadsThem(t *testing.T) {
	for _, line := range []string{
		`{"type":"user","Message":{"CONTENT":"tabs"}}`,
		`{"type":"user","message":{"content":[{"type":"text","TeXt":"tabs"}]}}`,
		`{"type":"user","message":{"cont\u0065nt":"tabs"}}`,
	} {
		i := strings.Index(line, "tabs")
		if !TextHit([]byte(line), []int{i}) {
			t.Errorf("TextHit(%s)=false", line)
		}
		if m, ok := LineMessage(ClaudeCode, []byte(line)); !ok || m.Text != "tabs" {
			t.Errorf("LineMessage(%s)=%+v,%v: the decoder does read it", line, m, ok)
		}
	}
}

// FuzzUnquote: wherever encoding/json decodes a string body, unquote
// decodes it the same.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`plain`, `a\nb\t\"c\"\\`, `\u00e9\ud83d\ude00`, `\ud800\u0041`, `\udc00x`, `\u12`, `\x`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if !utf8.Valid(body) {
			return // lines are checked for UTF-8 before they are decoded
		}
		var want string
		if json.Unmarshal(append(append([]byte{'"'}, body...), '"'), &want) != nil {
			return
		}
		got, ok := unquote(body)
		if !ok || got != want {
			t.Fatalf("unquote(%q) = %q, %v; encoding/json gives %q", body, got, ok, want)
		}
	})
}
