package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The lazy decoder reads the few fields memdir needs from a Claude Code
// record by walking the line's structure and jumping over every other
// value (IndexByte on quotes, vectorised), instead of decoding it whole
// with encoding/json, whose scanner reads every byte several times. Tool
// output, which is most of a real transcript's bytes, is then never
// decoded: its summary comes from the raw string.
//
// It is lenient where it does not look: a malformed value it skips is not
// reported. Whenever a field it reads is not what it expects (a key that
// only matches without case, a string field holding a number, a structure
// it cannot walk), it gives up and the caller decodes the line with
// encoding/json, which reports the error precisely.

// lazyOff turns the lazy decoder off, for tests that compare both.
var lazyOff = false

// decodeRecord fills rec from line: lazily when it can, else with
// encoding/json. Byte slices in rec point into line.
func decodeRecord(line []byte, rec *ccRecord) error {
	if !lazyOff && lazyRecord(line, rec) {
		return nil
	}
	*rec = ccRecord{}
	return json.Unmarshal(line, rec)
}

var recordKeys = []string{"type", "uuid", "sessionId", "timestamp", "cwd", "gitBranch", "version", "isSidechain", "isMeta",
	"isCompactSummary", "isApiErrorMessage", "message", "attachment"}

func lazyRecord(line []byte, rec *ccRecord) bool {
	*rec = ccRecord{}
	ok := true
	end := eachMember(line, skipSpace(line, 0), func(k []byte, v []byte) bool {
		switch string(k) {
		case "type":
			rec.Type, ok = lazyString(v)
		case "uuid":
			rec.UUID, ok = lazyString(v)
		case "sessionId":
			rec.SessionID, ok = lazyString(v)
		case "timestamp":
			rec.Timestamp, ok = lazyString(v)
		case "cwd":
			rec.CWD, ok = lazyString(v)
		case "gitBranch":
			rec.GitBranch, ok = lazyString(v)
		case "version":
			rec.Version, ok = lazyString(v)
		case "isSidechain":
			rec.IsSidechain, ok = lazyBool(v)
		case "isMeta":
			rec.IsMeta, ok = lazyBool(v)
		case "isCompactSummary":
			rec.IsCompactSummary, ok = lazyBool(v)
		case "isApiErrorMessage":
			rec.IsAPIError, ok = lazyBool(v)
		case "message":
			rec.Message, ok = lazyMessage(v)
		case "attachment":
			if string(v) == "null" {
				rec.Attachment = nil
				break
			}
			rec.Attachment = new(ccAttachment)
			ok = json.Unmarshal(v, rec.Attachment) == nil
		default:
			ok = !foldsTo(k, recordKeys)
		}
		return ok
	})
	return ok && end >= 0 && skipSpace(line, end) == len(line)
}

// foldsTo reports whether k matches one of keys only without case, which
// encoding/json would accept and the lazy decoder does not.
func foldsTo(k []byte, keys []string) bool {
	for _, key := range keys {
		if bytes.EqualFold(k, []byte(key)) {
			return true
		}
	}
	return false
}

var messageKeys = []string{"id", "role", "content"}

func lazyMessage(v []byte) (*ccMessage, bool) {
	if string(v) == "null" {
		return nil, true
	}
	m := &ccMessage{}
	ok := true
	end := eachMember(v, 0, func(k, val []byte) bool {
		switch string(k) {
		case "id":
			m.ID, ok = lazyString(val)
		case "role":
			m.Role, ok = lazyString(val)
		case "content":
			m.Content = val
		default:
			ok = !foldsTo(k, messageKeys)
		}
		return ok
	})
	return m, ok && end == len(v)
}

// lazyString decodes a JSON string value (or null, as encoding/json
// leaves a string field empty for null).
func lazyString(v []byte) (string, bool) {
	if string(v) == "null" {
		return "", true
	}
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	return unquote(v[1 : len(v)-1])
}

// unquote decodes the body of a JSON string as encoding/json does (a lone
// surrogate becomes U+FFFD). The caller has checked the line is valid
// UTF-8. ok is false for an escape JSON does not allow.
func unquote(body []byte) (string, bool) {
	i := bytes.IndexByte(body, '\\')
	if i < 0 {
		return string(body), true
	}
	out := make([]byte, 0, len(body))
	for {
		out = append(out, body[:i]...)
		body = body[i:]
		if len(body) < 2 {
			return "", false
		}
		switch c := body[1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(body[2:])
			if !ok {
				return "", false
			}
			body = body[6:]
			if utf16.IsSurrogate(r) {
				r2, ok := rune(-1), false
				if len(body) >= 6 && body[0] == '\\' && body[1] == 'u' {
					r2, ok = hex4(body[2:])
				}
				if dec := utf16.DecodeRune(r, r2); ok && dec != utf8.RuneError {
					r = dec
					body = body[6:]
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			i = bytes.IndexByte(body, '\\')
			if i < 0 {
				return string(append(out, body...)), true
			}
			continue
		default:
			return "", false
		}
		body = body[2:]
		i = bytes.IndexByte(body, '\\')
		if i < 0 {
			return string(append(out, body...)), true
		}
	}
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func lazyBool(v []byte) (bool, bool) {
	switch string(v) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}

// members walks the object at b[i]. For each member it calls fn with the
// key (raw, without quotes) and the index of its value; fn returns the
// index past the value, or -1 to stop. members returns the index past the
// object, or -1 when fn stopped, the object cannot be walked, or a key holds
// an escape (which encoding/json would decode and this walk does not).
func members(b []byte, i int, fn func(k []byte, v int) int) int {
	if i >= len(b) || b[i] != '{' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return -1
		}
		end := skipString(b, i)
		if end < 0 {
			return -1
		}
		k := b[i+1 : end-1]
		if bytes.IndexByte(k, '\\') >= 0 {
			return -1
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return -1
		}
		if i = skipSpace(b, i+1); i >= len(b) {
			return -1
		}
		if i = fn(k, i); i < 0 {
			return -1
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == '}' {
			return i + 1
		}
		if i >= len(b) || b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

// elements walks the array at b[i] like members walks an object.
func elements(b []byte, i int, fn func(v int) int) int {
	if i >= len(b) || b[i] != '[' {
		return -1
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1
	}
	for {
		if i >= len(b) {
			return -1
		}
		if i = fn(i); i < 0 {
			return -1
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ']' {
			return i + 1
		}
		if i >= len(b) || b[i] != ',' {
			return -1
		}
		i = skipSpace(b, i+1)
	}
}

// eachMember calls fn with each key and raw value of the object at b[i],
// stopping when fn returns false; it returns what members returns.
func eachMember(b []byte, i int, fn func(k, v []byte) bool) int {
	return members(b, i, func(k []byte, v int) int {
		end := skipValue(b, v)
		if end < 0 || !fn(k, b[v:end]) {
			return -1
		}
		return end
	})
}

// eachElement calls fn with each raw element of the array v, stopping when
// fn returns false. It reports whether it walked the whole array.
func eachElement(v []byte, fn func(e []byte) bool) bool {
	end := elements(v, 0, func(i int) int {
		end := skipValue(v, i)
		if end < 0 || !fn(v[i:end]) {
			return -1
		}
		return end
	})
	return end == len(v)
}

var blockKeys = []string{"type", "id", "text", "name", "input", "content", "is_error", "tool_use_id"}

// lazyBlocks reads content blocks like json.Unmarshal into []ccBlock
// would, with Input and Content raw. ok is false when it cannot.
func lazyBlocks(raw []byte) (blocks []ccBlock, ok bool) {
	walked := eachElement(raw, func(e []byte) bool {
		if string(e) == "null" {
			blocks = append(blocks, ccBlock{})
			return true
		}
		var b ccBlock
		good := true
		end := eachMember(e, 0, func(k, v []byte) bool {
			switch string(k) {
			case "type":
				b.Type, good = lazyString(v)
			case "id":
				b.ID, good = lazyString(v)
			case "text":
				b.Text, good = lazyString(v)
			case "name":
				b.Name, good = lazyString(v)
			case "tool_use_id":
				b.ToolUseID, good = lazyString(v)
			case "input":
				b.Input = v
			case "content":
				b.Content = v
			case "is_error":
				b.IsError, good = lazyBool(v)
			default:
				good = !foldsTo(k, blockKeys)
			}
			return good
		})
		blocks = append(blocks, b)
		return good && end == len(e)
	})
	return blocks, walked
}

// summarizeRawString summarises a JSON string value of tool output like
// summarizeOutput does its decoded text, decoding only a prefix. ok is
// false when the prefix does not suffice.
func summarizeRawString(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	// Count the newlines: "\n" escapes, not "\\n".
	lines := 1
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '\\')
		if j < 0 || i+j+1 >= len(body) {
			break
		}
		i += j
		if body[i+1] == 'n' {
			lines++
		}
		i += 2
	}
	// Decode a prefix, cut at a character boundary outside escapes: a
	// short one first, a longer one when the first line goes on past it.
	for _, prefixLen := range []int{512, 4096} {
		if sum, ok := summarizePrefix(body, prefixLen, lines); ok {
			return sum, true
		}
	}
	return "", false
}

func summarizePrefix(body []byte, prefixLen, lines int) (string, bool) {
	cut := len(body)
	if cut > prefixLen {
		cut = 0
		for i := 0; i < prefixLen; {
			if body[i] == '\\' {
				i += 2
				if i <= len(body) && body[i-1] == 'u' {
					i += 4
				}
			} else {
				_, n := utf8.DecodeRune(body[i:])
				i += n
			}
			if i <= prefixLen {
				cut = i
			}
		}
	}
	text, ok := unquote(body[:cut])
	if !ok {
		return "", false
	}
	trimmed := strings.TrimSpace(text)
	first, _, found := strings.Cut(trimmed, "\n")
	whole := cut == len(body)
	if !whole && !found && len(strings.Join(strings.Fields(first), " ")) <= 200 {
		return "", false // the first line may go on past the prefix
	}
	if !whole && trimmed == "" {
		return "", false
	}
	if lines > 1 {
		return clip(first, 120) + " (" + itoa(lines) + " lines)", true
	}
	return clip(first, 160), true
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}
