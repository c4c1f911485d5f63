package extract

import (
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/redact"
)

// ProseSecretKind is the kind of a credential stated in words (see
// ProseSecret), next to the redactor's kinds.
const ProseSecretKind = "password-in-words"

// secretKinds lists the kinds of potential secret in s: the redactor's,
// or ProseSecretKind when it finds none and s states one in words. None
// is nil.
func secretKinds(s string) []string {
	var kinds []string
	_, found := redact.String(s)
	for _, f := range found {
		if !slices.Contains(kinds, f.Kind) {
			kinds = append(kinds, f.Kind)
		}
	}
	if len(kinds) == 0 && ProseSecret(s) {
		kinds = append(kinds, ProseSecretKind)
	}
	return kinds
}

// skipSecret counts one sentence left out for holding the given kinds of
// secret.
func (sk *Skipped) skipSecret(kinds []string) {
	sk.Secrets++
	for _, k := range kinds {
		if !slices.Contains(sk.SecretKinds, k) {
			sk.SecretKinds = append(sk.SecretKinds, k)
		}
	}
}

var (
	// reKeyIs is a key stated with its value, named however: "the
	// stripe key is sk_live_…"; not a key id, a place of a key.
	reKeyIs = gate(lazyre.New(`(?i)\b(?:key|licen[cs]e)(?:\s+(?:in|for|of|from)\s+\S+)?\s+(?:is|=|:)\s+["'\x60]?([^\s"'\x60,;]+)`))
	// reProseSecret is a credential stated in words, which the redactor's
	// key=value rules do not see: "the password is Tr0ub4dor&3", "with
	// password hunter2x9", "use the token 8f3a9c…". The value must hold a
	// digit or a symbol, so "the password is required" and "the token
	// lives in vault" stay prose.
	reProseSecret = gate(lazyre.New(`(?i)\b(?:(?:passwords?|passphrases?|passwd|passcodes?)(?:\s+(?:is|was|=|:|of|to|for \S+ is))?|(?:pwd|tokens?|secrets?|api[ _-]?keys?|access[ _-]?keys?|private[ _-]?keys?|credentials?|[a-z][a-z0-9]*(?:_[a-z0-9]+)*_key)(?:\s+(?:is|was|=|:|to|for \S+ is))|(?:with|use|the) (?:tokens?|secrets?|api[ _-]?keys?|access[ _-]?keys?))\s+["'\x60]?([^\s"'\x60,;]*[0-9&%$#@!*^~+=/_-][^\s"'\x60,;]*)`))
	reEnvName     = gate(lazyre.New(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^\d+(?:-[a-z]+)?$|^[a-z]+-(?:bit|byte|bytes|signed|hashed|encoded|lived|only|user|rotated|scoped)$`))
)

// reFlagSecret is a secret given to a command's flag: "--token abc123",
// "--password=hunter2x9".
var reFlagSecret = gate(lazyre.New(`(?i)--(?:token|password|passwd|secret|api-key|apikey|access-key)(?:=|\s+)["'\x60]?([^\s"'\x60,;]*[0-9&%$#@!*^~+=/_-][^\s"'\x60,;]*)`))

// reCredPair is a user and a password given as a pair after a word for
// credentials: "creds for the grafana box: admin / hunter2x9".
var reCredPair = gate(lazyre.New(`(?i)\b(?:creds?|credentials?|logins?|user ?/ ?pass(?:word)?)\b[^.\n]{0,40}?[\w.@-]+\s*/\s*[^\s/]*[0-9&%$#@!*^~+=_][^\s/]*`))

// reTokenValue is a token's value said after its word, with or without
// "is": "my temp key is AKIAZ7QEXAMPLE93KD", "and token 7d1b9e0aa2f4".
// tokenLike decides whether the value is one.
var reTokenValue = gate(lazyre.New(`(?i)\b(?:tokens?|passwords?|passwd|pwd|pw|pass|secrets?|bearer|(?:temp|temporary|access|secret|api|private|signing|aws|prod|master|admin|license|my|the) keys?)(?:\s+(?:is|was|=|:)|:)?\s+["'\x60]?([A-Za-z0-9+=_!@#$%^&*-]{8,})`))

// ticketKey reports a tracker's key, never a secret: "INFRA-2041".
func ticketKey(w string) bool {
	name, num, ok := strings.Cut(w, "-")
	if !ok || len(name) < 2 || num == "" || name[0] < 'A' || name[0] > 'Z' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	for i := 0; i < len(num); i++ {
		if num[i] < '0' || num[i] > '9' {
			return false
		}
	}
	return true
}

// tokenLike reports a value made to be unguessable: eight characters or
// more with digits and letters, not a tracker's key, a path or a version
// ("INFRA-2041", "exports/2024/daily.parquet", "v2-alpha-1" are names).
func tokenLike(v string) bool {
	v = strings.TrimRight(v, ".,;:!?)")
	digits, letters := charKinds(v)
	symbols := len(v) - digits - letters
	if len(v) < 8 || ticketKey(v) || strings.Count(v, "-") >= 2 && symbols == strings.Count(v, "-") && len(v) < 16 {
		return false
	}
	return digits >= 3 && letters >= 3 || digits >= 1 && letters >= 3 && symbols > strings.Count(v, "-")+strings.Count(v, "_")
}

// charKinds counts the ASCII digits and letters of w.
func charKinds(w string) (digits, letters int) {
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		}
	}
	return digits, letters
}

// passwordLike reports a word that looks made up to be a password: eight
// characters or more, with a digit and three letters at least, that is no
// path, address, version or tracker key.
func passwordLike(w string) bool {
	if len(w) < 8 || strings.ContainsAny(w, "/\\") || strings.Contains(w, "://") || ticketKey(w) || strings.Count(w, ".") > 0 && !strings.ContainsAny(w, "!@#$%^&*") {
		return false
	}
	digits, letters := charKinds(w)
	symbol := strings.ContainsAny(w, "!@#$%^&*+=?~")
	// Not "1password", "v2.4.1", "RS256-signed".
	return (digits >= 2 && !strings.Contains(w, "-") || digits >= 1 && symbol) && letters >= 3 && !strings.HasPrefix(strings.ToLower(w), "v")
}

// mixedCaseSecret reports a word made up as a password of capitals,
// small letters and a digit, joined by a dash or an underscore: beside a
// word for a credential, "the borg passphrase … it's Mach3tt-Borg". Not a
// version, a path, a tracker key, a name of ordinary words ("Q3-Launch",
// "iPhone-15": one capital, or no small letters beside a digit).
func mixedCaseSecret(w string) bool {
	if len(w) < 8 || !strings.ContainsAny(w, "-_") || strings.ContainsAny(w, "/\\.:") || ticketKey(w) {
		return false
	}
	var upper, lower, digit int
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digit++
		}
	}
	if upper < 2 || lower < 3 || digit < 1 {
		return false
	}
	// A digit inside a word of letters ("Mach3tt"), as passwords are made,
	// not one that ends a name ("Sprint-12-Review").
	for i := 1; i+1 < len(w); i++ {
		if w[i] >= '0' && w[i] <= '9' && isLetter(w[i-1]) && isLetter(w[i+1]) {
			return true
		}
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// ProseSecret reports whether s states a credential in words.
func ProseSecret(s string) bool {
	if reCredPair.MatchString(s) {
		return true
	}
	if m := reKeyIs.FindStringSubmatch(s); m != nil && (tokenLike(m[1]) || passwordLike(m[1])) {
		return true // "the oban pro key in config/runtime.exs is oban_pro_k3y_9f8e7d"
	}
	for _, m := range reTokenValue.FindAllStringSubmatch(s, -1) {
		if tokenLike(m[1]) {
			return true
		}
	}
	if credentialish(s) {
		// "don't use the old password anymore, the new one is Tr0ub4dor&3":
		// beside a word for a credential, a word that looks like one.
		for _, w := range strings.Fields(s) {
			if w = strings.Trim(w, ".,;:!?()[]\"'\x60"); passwordLike(w) || mixedCaseSecret(w) {
				return true
			}
		}
	}
	for _, m := range append(reProseSecret.FindAllStringSubmatch(s, -1), reFlagSecret.FindAllStringSubmatch(s, -1)...) {
		v := strings.TrimRight(m[1], ".!?)")
		if len(v) >= 4 && !reURL.MatchString(v) && !strings.HasPrefix(v, "$") && !reEnvName.MatchString(v) {
			return true
		}
	}
	return false
}
