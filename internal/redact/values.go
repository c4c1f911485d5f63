package redact

// Tests of candidate values: is this a literal secret, or code, a name, a
// stand-in or prose?

import (
	"math"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// standIns are values that stand for a secret in examples, schemas and
// code without being one. Compared lower-cased.
var standIns = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "passphrase": true, "secret": true,
	"token": true, "changeme": true, "change_me": true, "change-me": true, "example": true,
	"redacted": true, "hidden": true, "masked": true, "none": true, "null": true, "nil": true,
	"undefined": true, "true": true, "false": true, "yes": true, "no": true, "required": true,
	"optional": true, "string": true, "str": true, "bytes": true, "int": true, "number": true,
	"bool": true, "boolean": true, "any": true, "object": true, "text": true, "empty": true,
	"unset": true, "default": true, "todo": true, "tbd": true, "secretstr": true,
	// keywords that start an expression
	"await": true, "new": true, "yield": true, "async": true, "lambda": true, "function": true,
	"this": true, "self": true, "not": true, "typeof": true, "void": true, "input": true,
	// variable names common enough to be read as code
	"value": true, "val": true, "name": true, "data": true, "result": true, "line": true,
	"field": true, "arg": true, "args": true, "param": true, "params": true, "entry": true,
	"item": true, "key": true, "tmp": true, "temp": true, "user": true, "ctx": true,
	"credentials": true, "creds": true, "cred": true, "auth": true, "secrets": true, "passwords": true,
}

// placeholder reports whether v stands for a secret rather than being one:
// empty, a stand-in word, a variable or template reference ($X, ${X}, %X%,
// {{x}}, <password>), a run of one character (***, xxxx), or an example
// ("your-password", "...").
func placeholder(v string) bool {
	if v == "" {
		return true
	}
	switch v[0] {
	case '$', '%', '<', '{', '[', '(', '!', '*':
		return true
	}
	lv := strings.ToLower(v)
	if standIns[lv] || strings.Trim(lv, lv[:1]) == "" {
		return true
	}
	for _, w := range []string{"your", "example", "placeholder", "changeme", "xxxx", "..."} {
		if strings.Contains(lv, w) && (w != "your" || strings.HasPrefix(lv, w)) {
			return true
		}
	}
	return false
}

var (
	// callOrIndex: the value is an expression such as os.Getenv(...) or env["X"].
	callOrIndex = lazyre.New(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*[(\[{]`)
	// hexNumber: a numeric constant such as 0xc2.
	hexNumber = lazyre.New(`^0[xX][0-9a-fA-F]+$`)
	// dotted: a field or module path such as cfg.Password or args.pw.
	dotted = lazyre.New(`^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$`)
	// compound: a snake_case or camelCase identifier such as new_password.
	compound = lazyre.New(`^[A-Za-z_$]*(?:_[A-Za-z]|[a-z][A-Z])[A-Za-z_$]*[0-9]?$`)
	// namePart: a part of a name (letters, digits only at the end).
	namePart = lazyre.New(`^[A-Za-z$]*[0-9]{0,2}$`)
)

// validPassword accepts the value of a password key if it is a literal.
func validPassword(m *match) bool {
	if strings.HasSuffix(m.s[:m.start], "${") || inString(m) {
		return false // ${PASSWORD:-default}, "PASSWORD=" + pw
	}
	if i := strings.IndexByte(m.text(), '&'); i >= 0 && byteIs(m.s, m.start-1, func(c byte) bool { return c == '?' || c == '&' }) {
		m.hi = m.lo + i // a URL query: ?password=x&next=y
	}
	bare := m.group == "bare"
	if bare && m.hi == m.loc[1] && m.s[m.hi-1] == '.' {
		m.hi-- // the full stop of a sentence
	}
	v, lv := m.text(), strings.ToLower(m.text())
	if len(v) < 4 || placeholder(v) || pathLike(v) || lv == strings.ToLower(m.key) ||
		compound.MatchString(v) && (strings.Contains(lv, "pass") || strings.Contains(lv, "pwd")) {
		return false // encodeUserPassword: "encodeUserPassword"
	}
	if !bare {
		// A quoted message about the password is not one.
		return !(strings.Contains(v, " ") && strings.Contains(lv, "pass"))
	}
	sep := m.sub("sep")
	if sep == ":=" || callOrIndex.MatchString(v) || dotted.MatchString(v) || compound.MatchString(v) || hexNumber.MatchString(v) {
		return false
	}
	key := strings.ToLower(strings.TrimLeft(m.key, "-"))
	flag := strings.HasPrefix(m.key, "--")
	switch {
	case flag && v[0] == '-':
		return false // --password --next-flag
	case sep == ":" && (key == "pass" || key == "pwd" || key == "passwd"):
		return false // --- PASS: TestX, pwd: dir, passwd: files (nsswitch.conf)
	case sep == ":" && byteIs(m.s, m.start-1, func(c byte) bool { return c == ':' }):
		return false // name:password:uid:gid
	}
	tail := strings.TrimLeft(m.tail(), " \t")
	if tail != "" && strings.ContainsRune(";,)", rune(tail[0])) && identifierChars(v) &&
		(onlyLetters(v) || strings.Contains(lv, "pass") || strings.Contains(lv, "pwd")) {
		return false // password: hash, / Password: password16,
	}
	spaced := sep == "=" && byteIs(m.s, m.lo-1, func(c byte) bool { return c == ' ' || c == '\t' })
	if (flag || sep == ":" || spaced) && tail != "" && !strings.ContainsRune("#,;})]", rune(tail[0])) {
		// More words follow, as in prose: "Password: ask Bob".
		return passwordLike(v)
	}
	return true
}

// inString reports whether the key of m sits inside a string literal that
// the value's opening quote closes: "PASSWORD=" + pw.
func inString(m *match) bool {
	end := m.start + len(m.key)
	if m.start == 0 || end >= len(m.s) {
		return false
	}
	q := m.s[m.start-1]
	if q != '"' && q != '\'' || m.s[end] == q || strings.HasPrefix(m.s[end:], `\`+string(q)) {
		return false // not after a quote, or a quoted key: "password": "x"
	}
	return strings.IndexByte(m.s[end:m.lo], q) >= 0
}

// literal reports whether the value of a key rule's match (the group v,
// opened by the optional quote q) is a whole literal: after :=, only a
// quoted value is one; a quoted value runs to its closing quote; and the
// key is not inside a string the value's quote closes.
func literal(m *match) bool {
	q := m.sub("q")
	if q == "" {
		return m.sub("sep") != ":="
	}
	return strings.HasPrefix(m.s[m.hi:], q) && !inString(m)
}

// passwordKey reports whether a key name names a password: it ends in
// password, passwd or passphrase, or in pass or pwd as a word of its own
// (pass, DB_PASS, dbPwd; not bypass, OLDPWD), maybe followed by digits.
func passwordKey(name string) bool {
	k := strings.TrimRight(strings.TrimRight(name, "_"), "0123456789")
	lk := strings.ToLower(k)
	for _, w := range []string{"password", "passwd", "passphrase"} {
		if strings.HasSuffix(lk, w) {
			return true
		}
	}
	var n int
	switch {
	case strings.HasSuffix(lk, "pass"):
		n = 4
	case strings.HasSuffix(lk, "pwd"):
		n = 3
	default:
		return false
	}
	prefix := strings.TrimLeft(k[:len(k)-n], "-")
	if prefix == "" {
		return true
	}
	last, first := prefix[len(prefix)-1], k[len(k)-n]
	return last == '_' || last == '-' || last == '.' ||
		'a' <= last && last <= 'z' && 'A' <= first && first <= 'Z'
}

// passwordLike reports whether a bare word found in prose holds letters and
// also a digit or a symbol, as passwords do and words do not.
func passwordLike(v string) bool {
	var letter, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			letter = true
		case !strings.ContainsRune(".,'-!?", rune(c)):
			other = true
		}
	}
	return letter && other
}

func identifierChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isWordByte(s[i]) {
			return false
		}
	}
	return true
}

func onlyLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// pathLike reports whether v is a file path rather than a secret.
func pathLike(v string) bool {
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	if i := strings.LastIndexByte(v, '.'); i > 0 && strings.Contains(v[:i], "/") {
		return len(v)-i <= 6 && onlyLetters(v[i+1:]) // dir/name.ext
	}
	return false
}

// looksRandom reports whether v looks like a generated secret: at least n
// bytes, at least two of lower case, upper case and digits, 3.5 bits of
// entropy per byte, and not a name (see identifier).
func looksRandom(v string, n int) bool {
	if len(v) < n || placeholder(v) || identifier(v) || camelCase(v) {
		return false
	}
	var lower, upper, digit int
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z':
			lower = 1
		case 'A' <= c && c <= 'Z':
			upper = 1
		case '0' <= c && c <= '9':
			digit = 1
		}
	}
	return lower+upper+digit >= 2 && entropy(v) >= 3.5
}

// identifier reports whether v is a name (process.env.API_KEY,
// my-tls-secret-2, settings.AUTH_TOKEN_V2): split at . _ - and /, every
// part is letters with at most two digits at the end.
func identifier(v string) bool {
	for part := range strings.FieldsFuncSeq(v, func(r rune) bool { return strings.ContainsRune("._-/", r) }) {
		if !namePart.MatchString(part) {
			return false
		}
	}
	return true
}

// camelCase reports whether v reads as a camelCase or PascalCase name
// (getAuthTokenV2, oauth2ClientProvider): at least 70% of it is a leading
// lower-case word or capitalised words, of three letters or more.
func camelCase(v string) bool {
	isLower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	words := 0
	i := 0
	for i < len(v) && isLower(v[i]) {
		i++
	}
	if i >= 3 {
		words += i
	}
	for i < len(v) {
		j := i + 1
		if 'A' <= v[i] && v[i] <= 'Z' {
			for j < len(v) && isLower(v[j]) {
				j++
			}
			if j-i >= 3 {
				words += j - i
			}
		}
		i = j
	}
	return words*10 >= len(v)*7
}

// entropy returns the Shannon entropy of the bytes of s, in bits per byte.
func entropy(s string) float64 {
	var freq [256]int
	for i := 0; i < len(s); i++ {
		freq[s[i]]++
	}
	h, n := 0.0, float64(len(s))
	for _, c := range freq {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
