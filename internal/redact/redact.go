// Package redact finds credentials in text and replaces them with
// [REDACTED:<kind>] markers, before anything is written to disk.
//
// Kinds: aws-access-key, aws-secret-key, gcp-api-key, gcp-service-account,
// azure-storage-key, azure-client-secret, github-token, gitlab-token,
// slack-token, slack-webhook, stripe-key, openai-key, anthropic-key, jwt,
// private-key, url-password, password and generic-secret.
//
// Rules for key=value forms keep the key and the separator and replace the
// value only. The rules are tuned against false positives in ordinary code
// and prose: commit hashes, UUIDs, `password := r.FormValue("password")`.
package redact

import (
	"math"
	"regexp"
	"sort"
	"strings"
)

// Finding counts the secrets of one kind that were replaced.
type Finding struct {
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// rule replaces matches of re. When group > 0 only that submatch is
// replaced; check, when set, must accept the secret for it to count.
type rule struct {
	kind  string
	need  []string // the rule runs only if s holds one of these
	fold  bool     // match need against the lower-cased text
	re    *regexp.Regexp
	group int
	check func(secret string) bool
}

// rules run in order; specific token formats come before generic ones so a
// token is reported under its own kind.
var rules = []rule{
	{kind: "private-key", need: []string{"PRIVATE KEY"}, re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[\s\S]*$)`)},
	{kind: "anthropic-key", need: []string{"sk-ant-"}, re: regexp.MustCompile(`\bsk-ant-[a-z]+[0-9]*-[A-Za-z0-9_\-]{20,}`)},
	{kind: "openai-key", need: []string{"sk-"}, re: regexp.MustCompile(`\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,}|\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b|\bsk-[A-Za-z0-9]{48}\b`)},
	{kind: "github-token", need: []string{"gh", "github_pat_"}, re: regexp.MustCompile(`\bgh[pousr]_[A-Za-z0-9]{36,255}\b|\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b`)},
	{kind: "gitlab-token", need: []string{"glpat-"}, re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`)},
	{kind: "slack-webhook", need: []string{"hooks.slack.com"}, re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9+/_\-]{20,}`)},
	{kind: "slack-token", need: []string{"xox"}, re: regexp.MustCompile(`\bxox[bpars]-[A-Za-z0-9\-]{10,}`)},
	{kind: "stripe-key", need: []string{"k_live_", "k_test_"}, re: regexp.MustCompile(`\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b`)},
	{kind: "aws-access-key", need: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`)},
	{kind: "aws-secret-key", need: []string{"secret"}, fold: true, re: regexp.MustCompile(`(?i)(aws_?secret_?(?:access_?)?key\s*["']?\s*[:=]\s*["']?)([A-Za-z0-9/+]{40})\b`), group: 2},
	{kind: "gcp-api-key", need: []string{"AIza"}, re: regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
	{kind: "gcp-service-account", need: []string{"private_key_id"}, re: regexp.MustCompile(`("private_key_id"\s*:\s*")([0-9a-f]{40})"`), group: 2},
	{kind: "azure-storage-key", need: []string{"AccountKey="}, re: regexp.MustCompile(`(AccountKey=)([A-Za-z0-9+/]{86,88}={0,2})`), group: 2},
	{kind: "azure-client-secret", need: []string{"secret"}, fold: true, re: regexp.MustCompile(`(?i)((?:azure_)?client_?secret\s*["']?\s*[:=]\s*["']?)([A-Za-z0-9_~.\-]{34,40})`), group: 2},
	{kind: "jwt", need: []string{"eyJ"}, re: regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`)},
	{kind: "url-password", need: []string{"://"}, re: regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@]+:)([^\s@/]+)@`), group: 2, check: notPlaceholder},
	{kind: "password", need: []string{"pass", "pwd"}, fold: true, re: regexp.MustCompile(`(?i)((?:^|[\s"'{,(])["']?(?:[a-z0-9_.\-]*(?:password|passwd|passphrase)|pwd|pass)["']?\s*[:=]\s*)("[^"\n]+"|'[^'\n]+'|[^\s"',;)}]+)`), group: 2, check: literalPassword},
	{kind: "generic-secret", need: []string{"secret", "token", "key", "auth", "credential", "private"}, fold: true, re: regexp.MustCompile(`(?i)((?:^|[\s"'{,(])["']?[a-z0-9_.\-]*(?:secret|token|api_?key|access_?key|auth|credential|private)[a-z0-9_.\-]*["']?\s*[:=]\s*["']?)([A-Za-z0-9+/=_\-.~]{20,})`), group: 2, check: highEntropy},
}

// String redacts s and reports what was replaced, one Finding per kind,
// sorted by kind. It is pure, safe for concurrent use and idempotent.
func String(s string) (string, []Finding) {
	counts := map[string]int{}
	lower := strings.ToLower(s)
	for _, r := range rules {
		if !r.wanted(s, lower) {
			continue
		}
		if out := r.apply(s, counts); out != s {
			s, lower = out, strings.ToLower(out)
		}
	}
	var out []Finding
	for k, n := range counts {
		out = append(out, Finding{Kind: k, Count: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kind < out[j].Kind })
	return s, out
}

// wanted is a cheap literal prefilter: Go's regexp engine has no DFA, so
// running every rule over every text would cost milliseconds per file.
func (r rule) wanted(s, lower string) bool {
	if r.fold {
		s = lower
	}
	for _, n := range r.need {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

func (r rule) apply(s string, counts map[string]int) string {
	locs := r.re.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		start, end := loc[0], loc[1]
		if r.group > 0 {
			start, end = loc[2*r.group], loc[2*r.group+1]
		}
		secret := s[start:end]
		if strings.HasPrefix(secret, "[REDACTED:") {
			continue
		}
		if r.check != nil && !r.check(secret) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString("[REDACTED:" + r.kind + "]")
		last = end
		counts[r.kind]++
	}
	b.WriteString(s[last:])
	return b.String()
}

// placeholders are values that stand for a secret without being one.
var placeholders = map[string]bool{
	"": true, "password": true, "passwd": true, "secret": true, "changeme": true, "example": true,
	"xxx": true, "xxxx": true, "***": true, "****": true, "...": true, "null": true, "none": true, "true": true, "false": true,
}

func notPlaceholder(v string) bool {
	v = strings.Trim(v, `"'`)
	lv := strings.ToLower(v)
	if placeholders[lv] || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{") ||
		strings.HasPrefix(v, "%") || strings.Trim(v, "*xX.") == "" || strings.HasPrefix(v, "[REDACTED:") {
		return false
	}
	return true
}

// literalPassword accepts a password value that is a literal, not code:
// quoted strings, or bare words that are not identifiers being assigned
// from or compared with (password := r.FormValue(...), password == x).
func literalPassword(v string) bool {
	if !notPlaceholder(v) {
		return false
	}
	if v[0] == '"' || v[0] == '\'' {
		return len(v) > 4
	}
	// A bare value followed by code punctuation is an expression.
	if strings.ContainsAny(v, "()[]") || v == "=" || strings.HasPrefix(v, "=") {
		return false
	}
	return len(v) >= 4
}

// codeRef matches values that name a secret rather than hold one: dotted
// identifiers (process.env.API_KEY, settings.token) and environment
// variable names (OPENAI_API_KEY).
var codeRef = regexp.MustCompile(`^(?:[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)$`)

// highEntropy accepts values that look random: at least two character
// classes and 3.5 bits of Shannon entropy per character.
func highEntropy(v string) bool {
	if !notPlaceholder(v) || codeRef.MatchString(v) {
		return false
	}
	classes := 0
	for _, set := range []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789"} {
		if strings.ContainsAny(v, set) {
			classes++
		}
	}
	return classes >= 2 && entropy(v) >= 3.5
}

func entropy(s string) float64 {
	freq := map[rune]float64{}
	n := 0.0
	for _, r := range s {
		freq[r]++
		n++
	}
	h := 0.0
	for _, c := range freq {
		p := c / n
		h -= p * math.Log2(p)
	}
	return h
}
