// Package redact finds credentials in text and replaces them with
// [REDACTED:<kind>] markers, so that no secret reaches a memory file.
//
// Kinds, most specific first (a secret matched by an earlier kind is not
// reported again under a later one):
//
//	private              what a person marked <private>…</private>, tags and all, replaced by
//	                     "[private]" (see Private); an unclosed tag hides the rest of the text
//	private-key          a PEM/OpenSSH/PGP "-----BEGIN ... PRIVATE KEY-----" block up to its
//	                     END line, or to the end of the text when the END line is missing
//	anthropic-key        sk-ant-api03-..., sk-ant-admin01-... and other sk-ant- keys
//	openai-key           sk-proj-, sk-svcacct-, sk-admin- keys; legacy sk-<48> and sk-...T3BlbkFJ...
//	github-token         ghp_, gho_, ghu_, ghs_, ghr_ tokens; github_pat_ fine-grained tokens
//	gitlab-token         glpat- personal access tokens
//	vault-token          HashiCorp Vault hvs., hvb., hvr. tokens and the legacy s.<24> form
//	slack-webhook        https://hooks.slack.com/services/T.../B.../... (and workflows/, triggers/)
//	slack-token          xoxb-, xoxp-, xoxa-, xoxr-, xoxs- tokens
//	sendgrid-key         SG.<22>.<43> API keys
//	stripe-key           sk_live_, rk_live_, sk_test_, rk_test_ keys
//	aws-access-key       AKIA/ASIA/ABIA/ACCA key ids
//	gcp-api-key          AIza... API keys
//	jwt                  eyJ....eyJ....signature
//	gcp-service-account  the "private_key_id" of a service-account JSON file
//	azure-storage-key    AccountKey=... in a storage connection string
//	aws-secret-key       aws_secret_access_key / SecretAccessKey = <40 characters>; 40 random
//	                     base64 characters after a key id on its line (AKIA… wJal…), or in
//	                     words after "secret key", "secret access key" or "aws … secret"
//	azure-client-secret  client_secret / AZURE_CLIENT_SECRET = <34-40 characters>, when the key
//	                     names Azure or the value has the "~" of Azure's secret format
//	rpc-url-key          the key in an RPC endpoint's path: alchemy.com/v2/<key>,
//	                     infura.io/v3/<id>, quiknode.pro/<key>, rpc.ankr.com/<chain>/<key>
//	url-password         the password in scheme://user:password@host (it may hold @ # !)
//	password             the value assigned to a password key, or given in words (see below)
//	generic-secret       a random-looking value of 20 or more characters assigned to a key
//	                     whose name contains secret, token, api_key, access_key, auth,
//	                     credential or private, or to an environment variable's name
//	                     ending in _KEY (ALGOLIA_ADMIN_KEY; not CACHE_KEY, PRIMARY_KEY,
//	                     PUBLISHABLE_KEY and other keys that are no secret); or in words
//	                     after secret, token or a
//	                     signing/HMAC/API/encryption/... key ("webhook secret 9f86d0…")
//
// Only the secret is replaced: a key = value rule keeps the key, the
// separator and any quotes, so password=hunter22 becomes
// password=[REDACTED:password] and "password": "x1y2" becomes
// "password": "[REDACTED:password]". A private key block is replaced whole.
//
// # Password
//
// Keys: password, passwd, passphrase, and pass or pwd as a name of their
// own or the last part of one (DB_PASS, dbPwd; not bypass, OLDPWD), in any
// case, maybe quoted, followed by =, :, =>, := or a typed declaration
// (password: str = "x"). Also --password value, <password>x</password> and
// curl's -u user:password. The value must be a literal:
//
//   - A quoted value is one, unless it is a message ("Password is
//     required") or the key sits in a string the quote closes ("PWD=" + dir).
//   - A bare value is code, not a literal, after := or when it is a call,
//     index, field or composite (os.Getenv("PW"), cfg.Password, pass{}), a
//     camelCase or snake_case name (userPassword, new_password), a keyword
//     or a common variable name (None, await, value), or a name followed by
//     , ; or ) (password: hash,).
//   - Stand-ins are never redacted: values shorter than four bytes; stand-in
//     words (password, secret, changeme, example, string, null, ...); values
//     starting with $ % < { [ ( ! or *, or with "your"; one character
//     repeated (xxxx); values holding "example", "placeholder", "xxxx" or
//     "..."; file paths; 0x numbers.
//   - After a colon or a --flag, or after " = ", a bare word followed by more
//     words on its line is prose ("Password: ask Bob") unless it holds
//     letters and a digit or symbol. A bare pass, pwd or passwd key with a
//     colon is never a password key ("--- PASS: TestX", "pwd: /src").
//
// In words (issue 12), a password key is followed by a verb, maybe after
// "for <up to three words>": "the db password is x", "password for staging
// is x", "password was set to x", "the password's x", "pw is x", "passcode
// is x". Or, for password, passwd, passphrase and pwd only, directly by
// the value: "pwd hunter2!". A bare value must then look like a password
// (letters and a digit or symbol; after a verb, six digits or more ending
// the sentence also count), and not be a name (DB_PASSWORD, sha256,
// argon2id, 256-bit, 1Password); a quoted one must not be a message.
// "the password field is required", "password reset flow", "set a strong
// password", "passwordless login" are prose.
//
// So none of these is redacted:
//
//	password := r.FormValue("password")   password == x   password string
//	password = os.Getenv("PW")            password: cfg.Password
//	password = userPassword               password: string
//	password: ${DB_PASSWORD}              password=<password>   password: "***"
//	password: changeme                    pwd: /home/me
//
// # Generic secrets
//
// The value of a generic-secret (and of aws-secret-key and
// azure-client-secret) must look random: at least two of lower case, upper
// case and digits, 3.5 bits of Shannon entropy per byte, and not a name. A
// value is a name if, split at . _ - and /, each part is letters with at
// most two digits at the end (process.env.API_KEY, my-tls-secret-2), if 70%
// of it is words of a camelCase name (getAuthTokenV2), or if it is a bare
// word holding a key word (testRSA2048PrivateKey). A secret of letters only
// is therefore not reported as generic-secret.
//
// # Idempotence
//
// Text inside a marker is never matched, so String(String(s)) == String(s).
package redact

import (
	"cmp"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Finding counts the secrets of one kind that String replaced.
type Finding struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

const markerPrefix = "[REDACTED:"

// String redacts s and reports what was replaced, one Finding per kind in a
// stable order (sorted by kind). Pure and safe for concurrent use.
// Idempotent: String(String(s)) changes nothing more.
func String(s string) (string, []Finding) {
	compileRules()
	counts := map[string]int{}
	if out, n := Private(s); n > 0 {
		s, counts["private"] = out, n
	}
	// A replacement by a later rule can change what an earlier rule would
	// match, so run passes until one changes nothing. This ends: every
	// replacement turns at least one byte outside markers into a marker, and
	// no match overlaps a marker.
	for {
		out, changed := redactOnce(s, counts)
		if !changed {
			break
		}
		s = out
	}
	if len(counts) == 0 {
		return s, nil
	}
	found := make([]Finding, 0, len(counts))
	for k, n := range counts {
		found = append(found, Finding{Kind: k, Count: n})
	}
	slices.SortFunc(found, func(a, b Finding) int { return cmp.Compare(a.Kind, b.Kind) })
	return s, found
}

// redactOnce applies every rule once, in order, and adds what it replaced
// to counts.
func redactOnce(s string, counts map[string]int) (string, bool) {
	t := &text{s: s}
	changed := false
	for i := range rules {
		r := &rules[i]
		ms := r.find(t)
		if len(ms) == 0 {
			continue
		}
		t.replace(ms, markerPrefix+r.kind+"]")
		counts[r.kind] += len(ms)
		changed = true
	}
	return t.s, changed
}

// A rule finds one kind of secret.
type rule struct {
	kind string
	// anchors are literals of which every match holds at least one; they
	// match regardless of ASCII case when fold is set. A match starts at an
	// anchor, or, if back is set, at the start of the run of back bytes that
	// ends at the anchor (a key name around "password", a URL scheme before
	// "://").
	anchors []string
	fold    bool
	back    func(byte) bool
	// key, if set, makes this a key = value rule: the match starts with the
	// run of key name bytes around the anchor, key must accept that name,
	// and pattern matches what follows it. back defaults to isNameByte and
	// lead to isKeyByte.
	key func(name string) bool
	// near, if set, must accept an anchor at p whose match would start at
	// lo before the regexp runs: a cheap test that rules most anchors out.
	near func(s string, lo, p int) bool
	// anchorNear, if set, must accept an anchor at i when the text is
	// scanned, or it is not kept: for an anchor as common as "s.", so that
	// the scan does not record one every few lines.
	anchorNear func(s string, i int) bool
	// whole searches the whole text instead (for matches that span lines).
	whole bool
	// pattern is the regexp; unless whole is set it is matched only at
	// the start found from an anchor (after the key name, for a key rule),
	// and never across a line end.
	pattern string
	// secret names the groups that can hold the secret; the first that
	// took part in the match is replaced. Empty: the whole match.
	secret []string
	// edge, if set, rejects a match that has such a byte just before or
	// just after it: the match is part of a longer token.
	edge func(byte) bool
	// lead, if set, rejects a match that has such a byte just before it.
	lead func(byte) bool
	// valid, if set, must accept the match. It may shorten the secret.
	valid func(*match) bool

	once   sync.Once
	re     *regexp.Regexp
	groups []int // indices of the secret groups
	index  int   // position in rules
}

// A match is a candidate secret: one match of a rule's regexp, with indices
// into the whole text.
type match struct {
	s      string
	re     *regexp.Regexp
	loc    []int  // the regexp's match
	start  int    // the start of the match, key name included
	key    string // the key name, for a key rule
	lo, hi int    // the secret is s[lo:hi]
	group  string // the group holding the secret; "" for the whole match
}

func (m *match) text() string { return m.s[m.lo:m.hi] }

// sub returns the named group, or "" if it did not take part.
func (m *match) sub(name string) string {
	i := m.re.SubexpIndex(name)
	if i < 0 || m.loc[2*i] < 0 {
		return ""
	}
	return m.s[m.loc[2*i]:m.loc[2*i+1]]
}

// tail returns the rest of the line after the match.
func (m *match) tail() string {
	rest := m.s[m.loc[1]:]
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// compileRules readies the rules and builds their anchor table on first
// use, not at start-up: most memdir commands never redact. A rule's regexp
// is compiled when an anchor of it is first found (rule.ready): the hook
// redacts what it injects, and most texts hold the anchors of few rules.
// String calls it before any scan.
var compileRules = sync.OnceFunc(func() {
	prepare(rules)
	anchors = buildAnchors(rules)
})

// prepare sets the defaults of rs's key rules.
func prepare(rs []rule) []rule {
	for i := range rs {
		r := &rs[i]
		if r.key != nil && r.back == nil {
			r.back = isNameByte
		}
		if r.key != nil && r.lead == nil {
			r.lead = isKeyByte
		}
	}
	return rs
}

// ready compiles r's pattern and resolves its secret group names, once.
func (r *rule) ready() {
	r.once.Do(func() {
		if r.whole {
			r.re = regexp.MustCompile(r.pattern)
		} else {
			r.re = regexp.MustCompile(`^(?:` + r.pattern + `)`)
		}
		for _, name := range r.secret {
			g := r.re.SubexpIndex(name)
			if g < 0 {
				panic("redact: rule " + r.kind + " has no group " + name)
			}
			r.groups = append(r.groups, g)
		}
	})
}

// find returns the accepted matches of r in t, in order and with secrets
// that do not overlap.
func (r *rule) find(t *text) []match {
	hits := t.anchorHits(r)
	if len(hits) == 0 {
		return nil
	}
	r.ready()
	var out []match
	if r.whole {
		for _, loc := range r.re.FindAllStringSubmatchIndex(t.s, -1) {
			if m, ok := r.accept(t, loc[0], "", loc); ok {
				out = append(out, m)
			}
		}
		return out
	}
	// As in a leftmost-first search, a candidate that starts inside an
	// earlier match is not tried; with the other checks made before the
	// regexp runs, this keeps the work linear.
	done, last := 0, -1
	prevP, prevStart := -1, 0
	for _, h := range hits {
		p, lo := h.lo, h.lo
		if r.back != nil {
			lo = runStart(t.s, p, r.back, prevP, prevStart)
			prevP, prevStart = p, lo
		}
		if p-lo > lookBehind || lo < done || lo == last ||
			r.edge != nil && byteIs(t.s, lo-1, r.edge) || r.lead != nil && byteIs(t.s, lo-1, r.lead) {
			continue
		}
		last = lo
		if r.near != nil && !r.near(t.s, lo, p) {
			continue
		}
		hi := min(len(t.s), lo+lookAhead)
		if j := strings.IndexByte(t.s[p:hi], '\n'); j >= 0 {
			hi = p + j
		}
		at, key := lo, ""
		if r.key != nil {
			for at = p; at < hi && isNameByte(t.s[at]); at++ {
			}
			if key = t.s[lo:at]; !r.key(key) {
				continue
			}
		}
		loc := r.re.FindStringSubmatchIndex(t.s[at:hi])
		if loc == nil {
			continue
		}
		for i := range loc {
			if loc[i] >= 0 {
				loc[i] += at
			}
		}
		done = loc[1]
		if m, ok := r.accept(t, lo, key, loc); ok {
			out = append(out, m)
		}
	}
	return out
}

// Limits of a candidate match: how far back from its anchor it may start,
// and how far past its start it may end. A match never spans a line end.
const (
	lookBehind = 256
	lookAhead  = 4096
)

// runStart returns the start of the run of back bytes that ends at p. If
// the run reaches prevP, the previous anchor, it starts where that one's
// did, prevStart; so each byte is looked at once.
func runStart(s string, p int, back func(byte) bool, prevP, prevStart int) int {
	lo := p
	for lo > 0 && back(s[lo-1]) {
		if lo--; lo == prevP {
			return prevStart
		}
	}
	return lo
}

// accept checks one match of r that starts at start, with indices into t.s.
func (r *rule) accept(t *text, start int, key string, loc []int) (match, bool) {
	s := t.s
	m := match{s: s, re: r.re, loc: loc, start: start, key: key, lo: loc[0], hi: loc[1]}
	for j, g := range r.groups {
		if loc[2*g] >= 0 {
			m.lo, m.hi, m.group = loc[2*g], loc[2*g+1], r.secret[j]
			break
		}
	}
	switch {
	case m.hi <= m.lo || len(r.groups) > 0 && m.group == "":
	case r.edge != nil && (byteIs(s, start-1, r.edge) || byteIs(s, loc[1], r.edge)):
	case r.lead != nil && byteIs(s, start-1, r.lead):
	case t.overlapsMarker(m.lo, m.hi):
	case r.valid != nil && (!r.valid(&m) || m.hi <= m.lo):
	default:
		return m, true
	}
	return match{}, false
}

func byteIs(s string, i int, f func(byte) bool) bool {
	return i >= 0 && i < len(s) && f(s[i])
}
