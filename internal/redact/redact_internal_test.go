package redact

import "testing"

// TestRules_AllCompile: a rule's regexp is compiled when an anchor of it
// is first found, so a bad pattern would panic only on some text; every
// one is compiled here, with its secret groups.
func TestRules_AllCompile(t *testing.T) {
	compileRules()
	for i := range rules {
		rules[i].ready()
		if rules[i].re == nil || len(rules[i].groups) != len(rules[i].secret) {
			t.Errorf("rule %s: regexp %v, groups %v for %v", rules[i].kind, rules[i].re, rules[i].groups, rules[i].secret)
		}
	}
}
