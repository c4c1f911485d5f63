package redact

import "strings"

// Building blocks of the key = value rules. The key may be quoted (also as
// \" inside a JSON string) or set in markdown bold; the separator is =, :,
// => or Go's :=. A value never starts with = or :, so comparisons (==, ===)
// are never assignments; after := only a quoted value counts, since a bare
// one is Go or Python code.
const (
	keyClose = `(?:\\?["'\x60])?(?:\*\*|__)?`
	sep      = `[ \t]*(?P<sep>:=|=>|=|:)(?:\*\*|__)?[ \t]*`
	openQ    = `(?P<q>\\?["'\x60])?`
	// value is a quoted string (its content is the secret) or a bare word.
	value = `(?:\\"(?P<esc>[^"\\\n]*)\\"` +
		`|"(?P<dq>(?:[^"\\\n]|\\.)*)"` +
		`|'(?P<sq>[^'\n]*)'` +
		`|(?P<bare>[^\s"'\x60,;(){}\[\]<>&=:][^\s"'\x60,;)}\]<>]*))`
)

var valueGroups = []string{"esc", "dq", "sq", "bare"}

// rules run in this order: specific token formats before the key = value
// rules, so a token is reported under its own kind.
var rules = []rule{
	{
		kind:    "private-key",
		anchors: []string{"PRIVATE KEY"},
		whole:   true,
		pattern: `-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----` +
			`(?:[\s\S]*?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----` +
			// No END line: a truncated block, if key material follows.
			`|(?:\s|\\[nr])*(?:[A-Za-z][A-Za-z-]*:[^\n]*\n\s*)*[A-Za-z0-9+/=]{16}[\s\S]*)`,
	},
	{
		kind:    "anthropic-key",
		anchors: []string{"sk-ant-"},
		pattern: `sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20,}`,
		edge:    isTokenByte,
	},
	{
		kind:    "openai-key",
		anchors: []string{"sk-"},
		pattern: `sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}` +
			`|sk-[A-Za-z0-9_-]{10,}T3BlbkFJ[A-Za-z0-9_-]{10,}` +
			`|sk-[A-Za-z0-9]{48}`,
		edge:  isTokenByte,
		valid: func(m *match) bool { return !strings.HasPrefix(m.text(), "sk-ant-") },
	},
	{
		kind:    "github-token",
		anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		pattern: `gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}`,
		edge:    isWordByte,
	},
	{
		kind:    "gitlab-token",
		anchors: []string{"glpat-"},
		pattern: `glpat-[A-Za-z0-9_-]{20,}`,
		edge:    isTokenByte,
	},
	{
		// HashiCorp Vault: hvs. service, hvb. batch, hvr. recovery tokens
		// (Vault 1.10+, 90 to 300 bytes) and the legacy s. + 24 form.
		kind:    "vault-token",
		anchors: []string{"hvs.", "hvb.", "hvr.", "s."},
		pattern: `hv[sbr]\.[A-Za-z0-9_-]{24,}(?:\.[A-Za-z0-9]{5})?|s\.[A-Za-z0-9]{24}`,
		edge:    isTokenByte,
		// The scan keeps an anchor only if 24 token bytes follow its dot.
		anchorNear: vaultNear,
		valid:      validVaultToken,
	},
	{
		kind:    "slack-webhook",
		anchors: []string{"https://hooks.slack.com/"},
		pattern: `https://hooks\.slack\.com/(?:services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]{8,}` +
			`|(?:workflows|triggers)/[A-Za-z0-9_/-]{20,})`,
		edge: isWordByte,
	},
	{
		kind:    "slack-token",
		anchors: []string{"xox"},
		pattern: `xox[abeoprs]-[A-Za-z0-9-]{10,}`,
		edge:    isTokenByte,
		valid:   func(m *match) bool { return strings.ContainsAny(m.text(), "0123456789") },
	},
	{
		kind:    "sendgrid-key",
		anchors: []string{"SG."},
		pattern: `SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}`,
		edge:    isTokenByte,
	},
	{
		kind:    "stripe-key",
		anchors: []string{"sk_live_", "rk_live_", "sk_test_", "rk_test_"},
		pattern: `[rs]k_(?:live|test)_[A-Za-z0-9]{16,}`,
		edge:    isWordByte,
	},
	{
		// A secret access key on the line of its key id, after it, with
		// no key word: "AKIA… wJal…", a credentials CSV row. Before the
		// key id's own rule, which would take the anchor away.
		kind:    "aws-secret-key",
		anchors: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		pattern: `(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}[^\n]{0,160}?[^A-Za-z0-9/+=](?P<v>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`,
		secret:  []string{"v"},
		lead:    isWordByte,
		valid:   validAWSSecretNearKeyID,
	},
	{
		// A password given to a command line: mysql -pSECRET (attached:
		// "-p db" prompts, and db is a database), sshpass -p SECRET.
		kind:    "password",
		anchors: []string{"mysql", "mariadb", "sshpass"},
		pattern: `(?:mysql(?:dump|admin|import|show)?|mariadb(?:-dump|-admin)?)[ \t][^\n|;&]*?(?:^|[ \t])-p(?P<dq>"[^"\n]+")` +
			`|(?:mysql(?:dump|admin|import|show)?|mariadb(?:-dump|-admin)?)[ \t][^\n|;&]*?(?:^|[ \t])-p(?P<sq>'[^'\n]+')` +
			`|(?:mysql(?:dump|admin|import|show)?|mariadb(?:-dump|-admin)?)[ \t][^\n|;&]*?(?:^|[ \t])-p(?P<bare>[^\s'"-][^\s'"]*)` +
			`|sshpass[ \t]+-p[ \t]*(?P<sdq>"[^"\n]+"|'[^'\n]+'|[^\s'"-][^\s'"]*)`,
		secret: []string{"dq", "sq", "bare", "sdq"},
		lead:   isWordByte,
	},
	{
		kind:    "aws-access-key",
		anchors: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		pattern: `(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}`,
		edge:    isWordByte,
	},
	{
		kind:    "gcp-api-key",
		anchors: []string{"AIza"},
		pattern: `AIza[A-Za-z0-9_-]{35}`,
		edge:    isTokenByte,
	},
	{
		kind:    "jwt",
		anchors: []string{"eyJ"},
		pattern: `eyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*`,
		edge:    isTokenByte,
	},
	{
		kind:    "gcp-service-account",
		anchors: []string{"private_key_id"},
		pattern: `private_key_id\\?"[ \t]*:[ \t]*\\?"(?P<v>[0-9a-f]{40})\\?"`,
		secret:  []string{"v"},
	},
	{
		kind:    "azure-storage-key",
		anchors: []string{"AccountKey="},
		pattern: `AccountKey=(?P<v>[A-Za-z0-9+/]{86,88}={0,2})`,
		secret:  []string{"v"},
		edge:    isBase64Byte,
	},
	{
		kind:    "aws-secret-key",
		anchors: []string{"secret"},
		fold:    true,
		key:     suffixKey("awssecretaccesskey", "awssecretkey", "secretaccesskey"),
		near:    assigned,
		pattern: keyClose + sep + openQ + `(?P<v>[A-Za-z0-9/+]{40})`,
		secret:  []string{"v"},
		valid: func(m *match) bool {
			return literal(m) && !byteIs(m.s, m.hi, isBase64Byte) && looksRandom(m.text(), 40)
		},
	},
	{
		// In words: "the aws secret key is …", "secret key: …",
		// "Secret Access Key is `…`".
		kind:    "aws-secret-key",
		anchors: []string{"secret"},
		fold:    true,
		lead:    func(c byte) bool { return isWordByte(c) && c != '_' },
		near:    awsInWordsNear,
		pattern: `(?i:secret(?:[ \t_-]*access)?(?:[ \t_-]*key)?)(?:\*\*|__)?` +
			`(?:` + verb + `[ \t]+|[ \t]*(?:=>|->|=|:)(?:\*\*|__)?[ \t]*|[ \t]+)` +
			`(?P<q>["'\x60])?(?P<v>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`,
		secret: []string{"v"},
		valid:  validAWSSecretInWords,
	},
	{
		kind:    "azure-client-secret",
		anchors: []string{"secret"},
		fold:    true,
		key:     suffixKey("clientsecret"),
		near:    assigned,
		pattern: keyClose + sep + openQ + `(?P<v>[A-Za-z0-9_~.-]{34,40})`,
		secret:  []string{"v"},
		valid: func(m *match) bool {
			v := m.text()
			return literal(m) && !byteIs(m.s, m.hi, isAzureSecretByte) && looksRandom(v, 34) &&
				(strings.Contains(v, "~") || strings.Contains(strings.ToLower(m.key), "azure"))
		},
	},
	{
		// A blockchain RPC endpoint with its key in the path: Alchemy's
		// /v2/<key>, Infura's /v3/<project id>, QuickNode's and Ankr's.
		kind:    "rpc-url-key",
		anchors: []string{"alchemy.com/v2/", "infura.io/v3/", "quiknode.pro/", "rpc.ankr.com/"},
		pattern: `(?:alchemy\.com/v2/|infura\.io/v3/|quiknode\.pro/|rpc\.ankr\.com/[a-z0-9_]+/)(?P<v>[A-Za-z0-9_-]{20,})`,
		secret:  []string{"v"},
		edge:    isTokenByte,
	},
	{
		kind:    "url-password",
		anchors: []string{"://"},
		back:    func(c byte) bool { return isTokenByte(c) && c != '_' || c == '+' || c == '.' },
		near:    userinfo,
		// The password runs to the last @ before the host: it may hold
		// @, # and ! (postgres://user:p@ss!w#rd@host/db).
		pattern: `[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@"'<>]*:(?P<v>[^\s/?"'<>]+)@`,
		secret:  []string{"v"},
		valid:   validURLPassword,
	},
	{
		kind:    "password",
		anchors: []string{"pass", "pwd"},
		fold:    true,
		key:     passwordKey,
		near:    assigned,
		pattern: keyClose +
			// A typed declaration: password: str = "x".
			`(?:[ \t]*:[ \t]*(?i:str|string|bytes|secretstr|optional\[str\])(?:[ \t]*\|[ \t]*(?i:none))?[ \t]*=[ \t]*` +
			`|` + sep + `)` + value,
		secret: valueGroups,
		valid:  validPassword,
	},
	{
		kind:    "password",
		anchors: []string{"pass"},
		fold:    true,
		key:     func(name string) bool { return strings.HasPrefix(name, "--") && passwordKey(name) },
		pattern: `[ \t]+` + value,
		secret:  valueGroups,
		valid:   validPassword,
	},
	{
		// <password>x</password>, as in Maven's settings.xml
		kind:    "password",
		anchors: []string{"pass", "pwd"},
		fold:    true,
		key:     passwordKey,
		near:    func(s string, lo, _ int) bool { return lo > 0 && s[lo-1] == '<' },
		pattern: `>(?P<xml>[^<>\n]+)</`,
		secret:  []string{"xml"},
		valid:   validPassword,
	},
	{
		// curl -u user:password, curl --user user:password
		kind:    "password",
		anchors: []string{"-u"},
		back:    func(c byte) bool { return c == '-' },
		pattern: `(?:-u|--user)(?:[ \t]+|=)["']?(?P<user>[^\s:"'@/\\$]+):(?P<v>[^\s"'\\]+)`,
		secret:  []string{"v"},
		lead:    isKeyByte,
		valid: func(m *match) bool {
			v := m.text()
			return !placeholder(v) && !(isDigits(m.sub("user")) && isDigits(v)) // docker -u 1000:1000
		},
	},
	{
		// In words: "the db password is hunter2!", "password for staging
		// is x", "pwd hunter2!", "pass is x".
		kind:    "password",
		anchors: []string{"pass", "pw"},
		fold:    true,
		key:     func(name string) bool { return passwordKey(name) || shortPasswordKey(name) },
		near:    passwordInWordsNear,
		pattern: passwordInWords,
		secret:  proseGroups,
		valid:   validPasswordInWords,
	},
	{
		kind:    "generic-secret",
		anchors: []string{"secret", "token", "api_key", "apikey", "api-key", "access_key", "accesskey", "access-key", "auth", "credential", "private", "_key"},
		fold:    true,
		key:     func(name string) bool { return genericSecretKey(name) || envKey(name) },
		near:    assigned,
		pattern: keyClose + sep + openQ + `(?:(?i:bearer|basic|token|bot)[ \t]+)?` +
			`(?P<v>[A-Za-z0-9+/_.~-][A-Za-z0-9+/=_.~-]{19,})`,
		secret: []string{"v"},
		valid: func(m *match) bool {
			v := m.text()
			return literal(m) && !byteIs(m.s, m.hi, func(c byte) bool { return c == '(' || c == '[' }) &&
				!(m.sub("q") == "" && identifierChars(v) && namesSecret(v)) &&
				!pathLike(v) && looksRandom(v, 20)
		},
	},
	{
		// In words, or assigned to a key the rule above does not know:
		// "webhook secret 9f86d0…", "signing key: …", "the API token is …".
		kind:    "generic-secret",
		anchors: []string{"secret", "token", "key"},
		fold:    true,
		key:     proseSecretKey,
		near:    secretInWordsNear,
		pattern: proseGlue + openQ + `(?:(?i:bearer|basic|token)[ \t]+)?` +
			`(?P<v>[A-Za-z0-9+/_.~-][A-Za-z0-9+/=_.~-]{19,})`,
		secret: []string{"v"},
		valid:  validSecretInWords,
	},
}

var genericSecretKey = containsKey("secret", "token", "apikey", "accesskey", "auth", "credential", "private")

// envKey reports an environment variable's name that ends in _KEY and
// names no kind of key that is not a secret: ALGOLIA_ADMIN_KEY and
// MAPBOX_KEY are credentials as surely as any _TOKEN; CACHE_KEY,
// PRIMARY_KEY and STRIPE_PUBLISHABLE_KEY are not.
func envKey(name string) bool {
	name = strings.Trim(name, "\"'`*_")
	head, ok := strings.CutSuffix(name, "_KEY")
	if !ok || head == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	last := head[strings.LastIndexByte(head, '_')+1:]
	switch last {
	case "CACHE", "PRIMARY", "FOREIGN", "PARTITION", "SORT", "SHARD", "IDEMPOTENCY", "DEDUPE", "DEDUP",
		"HASH", "LOOKUP", "MAP", "PUBLIC", "PUBLISHABLE", "PUB", "RANGE", "CLUSTER", "GROUP", "OBJECT":
		return false
	}
	return true
}

// namesSecret reports whether v, a bare word, holds a word that secret keys
// hold: it is then a variable such as testRSA2048PrivateKey, not a value.
var namesSecret = containsKey("secret", "token", "key", "auth", "credential", "private", "pass")

// squash lower-cases a key name and drops its separators, so that
// AWS_SECRET_ACCESS_KEY, aws-secret-access-key and awsSecretAccessKey are
// all awssecretaccesskey.
func squash(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '_' && c != '-' && c != '.' {
			b.WriteByte(lowerByte(c))
		}
	}
	return b.String()
}

// suffixKey accepts key names that end in one of the squashed suffixes.
func suffixKey(suffixes ...string) func(string) bool {
	return func(name string) bool {
		n := squash(name)
		for _, x := range suffixes {
			if strings.HasSuffix(n, x) {
				return true
			}
		}
		return false
	}
}

// containsKey accepts key names that contain one of the squashed words.
func containsKey(words ...string) func(string) bool {
	return func(name string) bool {
		n := squash(name)
		for _, w := range words {
			if strings.Contains(n, w) {
				return true
			}
		}
		return false
	}
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
func isTokenByte(c byte) bool       { return isWordByte(c) || c == '-' }
func isBase64Byte(c byte) bool      { return isWordByte(c) && c != '_' || c == '+' || c == '/' || c == '=' }
func isAzureSecretByte(c byte) bool { return isTokenByte(c) || c == '~' || c == '.' }

// assigned reports whether the key name around the anchor at p is
// followed by = or :, maybe after a closing quote, markdown bold or blanks;
// not by ==, nor by := and an unquoted value.
func assigned(s string, _, p int) bool {
	i, end := p, min(len(s), p+lookAhead)
	for i < end && isNameByte(s[i]) {
		i++
	}
	for i < end && strings.IndexByte("\\\"'`*_ \t", s[i]) >= 0 {
		i++
	}
	if i+1 >= len(s) || s[i] != '=' && s[i] != ':' || s[i] == '=' && s[i+1] == '=' {
		return false // no separator, or ==
	}
	if s[i] == ':' && s[i+1] == '=' {
		// := takes only a quoted value.
		rest := strings.TrimLeft(s[i+2:], " \t")
		return rest != "" && strings.IndexByte("\"'`", rest[0]) >= 0
	}
	return true
}

// userinfo reports whether the URL whose "://" is at p has a user:password@
// part.
func userinfo(s string, _, p int) bool {
	colon := false
	for i := p + 3; i < min(len(s), p+lookAhead); i++ {
		switch s[i] {
		case ':':
			colon = true
		case '@':
			return colon
		case '/', '?', '"', '\'', '<', '>', ' ', '\t', '\n', '\r':
			return false
		}
	}
	return false
}

// isNameByte reports whether c can be part of a key name.
func isNameByte(c byte) bool { return isTokenByte(c) || c == '.' }

// isKeyByte reports whether c can be part of a key name or a path, so that a
// key = value match cannot start after it.
func isKeyByte(c byte) bool { return isNameByte(c) || c == '/' || c == '\\' }

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
