package redact

// Secrets stated in words rather than assigned ("the db password is
// hunter2!", "webhook secret 9f86d0…", "key AKIA… secret wJal…") and token
// formats found bare (Vault). The rules are in rules.go; these are their
// patterns and tests.

import (
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

const (
	// verb joins a key word to its value in a sentence: "is", "was now",
	// "is set to", "changed to", "->", maybe followed by a colon.
	verb = `[ \t]+(?:(?i:is|was|are)(?:[ \t]+(?i:now|still|actually|set[ \t]+to|changed[ \t]+to|reset[ \t]+to))?` +
		`|(?i:set|changed|reset|updated)[ \t]+to|->|→)(?:[ \t]*:)?`
	// proseGlue is what may stand between a key word and its value in a
	// sentence: a verb, an assignment (see sep) or blanks.
	proseGlue = `(?:` + verb + `[ \t]+|` + keyClose + sep + `|[ \t]+)`
	// proseValue is a quoted phrase or a bare word.
	proseValue = `(?:"(?P<dq>[^"\n]+)"|'(?P<sq>[^'\n]+)'|\x60(?P<bq>[^\x60\n]+)\x60` +
		`|(?P<bare>[^\s"'\x60=:;,(){}\[\]<>&|][^\s"'\x60]*))`
)

var proseGroups = []string{"dq", "sq", "bq", "bare"}

// passwordInWords is the pattern after a password key in a sentence:
// "password is x", "password for staging is x", "password x".
var passwordInWords = `(?:` +
	`[ \t]+(?P<for>(?i:for|of|on|to|in|at))(?:[ \t]+[A-Za-z0-9_.@-]+){1,3}` + verb +
	`|(?P<verb>` + verb + `|'s|’s)` +
	`|)[ \t]+` + proseValue

var (
	// technical: a bare word that names a thing, not a password:
	// sha256, argon2id, go1.26, v1.2.3, x86_64, utf8.
	technical = lazyre.New(`(?i)^(?:sha|md|bcrypt|argon|pbkdf|scrypt|aes|rsa|ecdsa|ed|hmac|crc|utf|base|x|v|go|py|python|node|java|http|tls|oauth|h|p|s|k|fips|rfc|iso)[0-9]`)
	// trackerKey: capitals, a dash and a number, the way trackers and
	// fleets name things: INFRA-2041, HELIO-3.
	trackerKey = lazyre.New(`^[A-Z]{2,}[0-9]*-[0-9]+$`)
	// sized: a number with a unit: 12-characters, 256-bit, 2FA-protected.
	sized = lazyre.New(`^[0-9]+[A-Za-z]*(?:-[A-Za-z]+)+$`)
)

// validPasswordInWords accepts the value after a password key in prose.
func validPasswordInWords(m *match) bool {
	key := squash(m.key)
	if strings.HasSuffix(strings.ToLower(m.key), "1password") && m.sub("verb") == "" {
		return false // the password manager: "taken from 1Password 'Quayside Dev'" names a vault
	}
	withVerb := m.sub("verb") != "" || m.sub("for") != ""
	if !withVerb && (shortPasswordKey(m.key) || !strings.HasSuffix(key, "password") && !strings.HasSuffix(key, "passwd") &&
		!strings.HasSuffix(key, "passphrase") && !strings.HasSuffix(key, "pwd")) {
		return false // "pass x" is English: pass it on, tests pass 42/42
	}
	if m.group != "bare" {
		v := m.text()
		return len(v) >= 4 && !placeholder(v) && !(strings.Contains(v, " ") && strings.Contains(strings.ToLower(v), "pass"))
	}
	// A bare word ends before the punctuation of the sentence.
	for m.hi > m.lo && strings.IndexByte(".,;:)]}?", m.s[m.hi-1]) >= 0 {
		m.hi--
	}
	v, lv := m.text(), strings.ToLower(m.text())
	if isDigits(v) {
		// the wifi password is 48291736; not: password is 20240101 format
		tail := strings.TrimLeft(m.s[m.hi:m.loc[1]]+m.tail(), " \t")
		return withVerb && len(v) >= 6 && (tail == "" || strings.IndexByte(".,;)!", tail[0]) >= 0)
	}
	if trackerKey.MatchString(v) {
		return false // a name of a ticket, a satellite, a model: "the first pass was HELIO-3", "INFRA-2041"
	}
	return len(v) >= 4 && passwordLike(v) && !placeholder(v) && !pathLike(v) &&
		!callOrIndex.MatchString(v) && !dotted.MatchString(v) && !compound.MatchString(v) &&
		!hexNumber.MatchString(v) && !technical.MatchString(v) && !sized.MatchString(v) &&
		!strings.Contains(lv, "pass") && !strings.Contains(lv, "pwd") && !strings.Contains(v, "://") &&
		!byteIs(m.s, m.loc[1], func(c byte) bool { return c == '(' })
}

// shortPasswordKey reports whether a key name is one that names a
// password only when a verb follows: "my pw is x", "the passcode is x".
func shortPasswordKey(name string) bool {
	n := strings.ToLower(name)
	return n == "pw" || n == "passcode"
}

// secretKeyWords: a key name holding one of these names a secret, in prose
// as in code (webhook_secret, API_TOKEN, signingKey).
var secretKeyWords = containsKey("secret", "token", "apikey", "accesskey", "signingkey", "hmackey",
	"privatekey", "encryptionkey", "masterkey", "authkey", "webhookkey", "licensekey", "sessionkey", "clientkey")

// keyQualifiers are the words that make a plain "key" name a secret:
// "signing key", "API key", "HMAC key".
var keyQualifiers = map[string]bool{
	"api": true, "access": true, "secret": true, "signing": true, "hmac": true, "encryption": true,
	"master": true, "auth": true, "webhook": true, "private": true, "license": true, "session": true,
	"client": true, "shared": true, "app": true, "jwt": true, "aes": true,
}

// proseSecretKey accepts the key name of a secret stated in words.
func proseSecretKey(name string) bool {
	return secretKeyWords(name) || squash(name) == "key" || envKey(name)
}

// prevWord returns the word before s[i], lower-cased, on the same line.
func prevWord(s string, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isWordByte(s[k-1]) {
		k--
	}
	return strings.ToLower(s[k:j])
}

// inWords reports whether the key at p is followed by blanks (a sentence)
// or assigned (see assigned).
func inWords(s string, lo, p int) bool {
	i := p
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	return i < len(s) && (s[i] == ' ' || s[i] == '\t') || assigned(s, lo, p) ||
		strings.HasPrefix(s[i:], "'s ") || strings.HasPrefix(s[i:], "’s ")
}

// passwordInWordsNear rules out most password key words before the
// regexp runs: the word after the key must be a verb or a preposition of
// passwordInWords, open a quote, or look like a password itself.
func passwordInWordsNear(s string, _, p int) bool {
	i := p
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	if strings.HasPrefix(s[i:], "'s ") || strings.HasPrefix(s[i:], "’s ") {
		return true
	}
	if i >= len(s) || s[i] != ' ' && s[i] != '\t' || assigned(s, p, p) {
		return false
	}
	word := func() string {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && j < i+64 && s[j] > ' ' {
			j++
		}
		w := s[i:j]
		i = j
		return w
	}
	w := word()
	switch strings.ToLower(strings.TrimSuffix(w, ":")) {
	case "":
		return false
	case "is", "was", "are", "->", "→", "for", "of", "on", "to", "in", "at":
		return true
	case "set", "changed", "reset", "updated":
		return strings.EqualFold(word(), "to")
	}
	return strings.IndexByte("\"'`", w[0]) >= 0 || passwordLike(w)
}

// valueAhead reports whether a run of n or more bytes of class starts on
// the line within 40 bytes after the name at p: the cheap test that rules
// out most key words in prose and code before the regexp runs.
func valueAhead(s string, p, n int, class func(byte) bool) bool {
	i := p
	for i < len(s) && isNameByte(s[i]) {
		i++
	}
	end, run := min(len(s), i+40+n), 0
	for ; i < end && s[i] != '\n'; i++ {
		if !class(s[i]) {
			run = 0
		} else if run++; run >= n {
			return true
		}
	}
	return false
}

func isSecretValueByte(c byte) bool { return isTokenByte(c) || strings.IndexByte("+/=.~", c) >= 0 }

// secretInWordsNear: a key word in words or assigned, with a value of 20
// bytes or more ahead.
func secretInWordsNear(s string, lo, p int) bool {
	return valueAhead(s, p, 20, isSecretValueByte) && inWords(s, lo, p)
}

// awsInWordsNear: "secret" with 40 base64 bytes ahead.
func awsInWordsNear(s string, _, p int) bool { return valueAhead(s, p, 40, isBase64Byte) }

// validSecretInWords accepts a random-looking value after a secret key in
// prose, with the checks of the generic-secret rule.
func validSecretInWords(m *match) bool {
	if squash(m.key) == "key" && !keyQualifiers[prevWord(m.s, m.start)] {
		return false // the key is 3f2a9c… (a commit), cache key e3b0…
	}
	v := m.text()
	return literal(m) && !byteIs(m.s, m.hi, func(c byte) bool { return c == '(' || c == '[' }) &&
		!byteIs(m.s, m.hi, isBase64Byte) &&
		!(m.sub("q") == "" && (identifierChars(v) && namesSecret(v) || fieldPath(v))) &&
		!pathLike(v) && looksRandom(v, 20)
}

// fieldPath reports whether v is a path of names (ek.encryptionKey1024,
// cfg.Auth.TokenV2), not a dotted token (ya29.a0AfH6SM…).
func fieldPath(v string) bool {
	if !dotted.MatchString(v) {
		return false
	}
	for part := range strings.SplitSeq(v, ".") {
		if !identifier(part) && !camelCase(part) {
			return false
		}
	}
	return true
}

// validAWSSecretInWords accepts 40 random base64 bytes after "secret" when
// the phrase is "secret key" or "secret access key", or the line names
// AWS before it; other secrets are left to the generic rule.
func validAWSSecretInWords(m *match) bool {
	v := m.text()
	if !looksRandom(v, 40) || isHex(v) || byteIs(m.s, m.lo-1, isBase64Byte) {
		return false
	}
	phrase := strings.ToLower(m.s[m.start:m.lo])
	if strings.Contains(phrase, "key") {
		return true
	}
	line := m.s[max(0, m.start-64):m.start]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	return strings.Contains(strings.ToLower(line), "aws")
}

// validAWSSecretNearKeyID accepts 40 random base64 bytes on the line of an
// AWS key id, after it: "AKIA… wJal…", a credentials CSV row.
func validAWSSecretNearKeyID(m *match) bool {
	v := m.text()
	return !byteIs(m.s, m.loc[0]+20, isWordByte) && !byteIs(m.s, m.lo-1, isBase64Byte) &&
		looksRandom(v, 40) && !isHex(v)
}

// validVaultToken accepts a Vault token whose body looks random.
func validVaultToken(m *match) bool {
	v := m.text()
	body := v[strings.IndexByte(v, '.')+1:]
	return looksRandom(body, 24) && strings.ContainsAny(body, "0123456789")
}

// vaultNear rules out most "s." anchors (s.Method, its.) before the
// regexp runs: the 24 bytes after the dot must be letters and digits.
func vaultNear(s string, p int) bool {
	i := strings.IndexByte(s[p:min(len(s), p+4)], '.') + p + 1
	if i+24 > len(s) {
		return false
	}
	legacy := s[p] == 's'
	for _, c := range []byte(s[i : i+24]) {
		if legacy && !(isWordByte(c) && c != '_') || !legacy && !isTokenByte(c) {
			return false
		}
	}
	return true
}

// validURLPassword accepts the password of a URL unless it stands for
// one; a leading ! is a password's, not a YAML tag's.
func validURLPassword(m *match) bool {
	v := m.text()
	if strings.HasPrefix(v, "!") && len(v) > 1 {
		v = v[1:]
	}
	return !placeholder(v)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
