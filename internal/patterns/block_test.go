package patterns

import (
	"errors"
	"strings"
	"testing"
)

// TestBlockRoundTrip: adding rules and removing the block gives back the
// file's bytes, whatever its ending.
func TestBlockRoundTrip(t *testing.T) {
	rules := []string{RuleLine("pabc123", "Run the migrations first.", 4), RuleLine("pdef456", "Keep retries idempotent.", 3)}
	for name, orig := range map[string]string{
		"empty":       "",
		"newline":     "# Project\n\nUse tabs.\n",
		"no newline":  "# Project\n\nUse tabs.",
		"blank end":   "# Project\n\n",
		"crlf":        "# Project\r\nUse tabs.\r\n",
		"only a line": "x",
	} {
		b, added, err := AddRules([]byte(orig), rules[:1])
		if err != nil || len(added) != 1 {
			t.Fatalf("%s: %v %v", name, added, err)
		}
		b, added, err = AddRules(b, rules) // the first is there already
		if err != nil || len(added) != 1 || added[0] != rules[1] {
			t.Fatalf("%s: second add: %v %v", name, added, err)
		}
		if got, _ := BlockRules(b); len(got) != 2 {
			t.Errorf("%s: rules in block = %q", name, got)
		}
		if !strings.HasPrefix(string(b), orig) {
			t.Errorf("%s: the person's text changed:\n%q", name, b)
		}
		back, ok, err := RemoveBlock(b)
		if err != nil || !ok || string(back) != orig {
			t.Errorf("%s: RemoveBlock = %q, %v, %v; want %q", name, back, ok, err, orig)
		}
		// Removing the rules one by one ends the same way.
		one, n, err := RemoveRule(b, "pabc123")
		if err != nil || n != 1 {
			t.Fatalf("%s: RemoveRule: %d %v", name, n, err)
		}
		two, n, err := RemoveRule(one, "pdef456")
		if err != nil || n != 1 || string(two) != orig {
			t.Errorf("%s: after removing both rules: %q (%d, %v)", name, two, n, err)
		}
	}
}

func TestBlockKeepsEditsOutside(t *testing.T) {
	b, _, _ := AddRules([]byte("top\n"), []string{RuleLine("pabc123", "R.", 3)})
	b = append(b, "added by hand after the block\n"...)
	back, _, err := RemoveBlock(b)
	if err != nil || string(back) != "top\nadded by hand after the block\n" {
		t.Errorf("got %q, %v", back, err)
	}
}

func TestBlockDamaged(t *testing.T) {
	for name, in := range map[string]string{
		"begin only": "x\n" + beginMark + "\n- r\n",
		"end only":   "x\n" + endMark + "\n",
		"two blocks": beginMark + "\n" + endMark + "\n" + beginMark + "\n" + endMark + "\n",
	} {
		if _, _, err := AddRules([]byte(in), []string{"- r"}); !errors.Is(err, ErrBlockDamaged) {
			t.Errorf("%s: AddRules err = %v", name, err)
		}
		if _, _, err := RemoveBlock([]byte(in)); !errors.Is(err, ErrBlockDamaged) {
			t.Errorf("%s: RemoveBlock err = %v", name, err)
		}
	}
}

func TestDiff(t *testing.T) {
	old := []byte("a\nb\nc\nd\ne\n")
	nw, _, _ := AddRules(old, []string{RuleLine("pabc123", "Rule one.", 3)})
	d := Diff("CLAUDE.md", old, nw)
	for _, want := range []string{"--- a/CLAUDE.md\n+++ b/CLAUDE.md\n", "@@ -3,3 +3,9 @@\n", " e\n+\n+" + beginMark + "\n", "+- Rule one. <!-- memdir pattern pabc123, 3 tasks -->\n"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
	if Diff("f", old, old) != "" {
		t.Error("no change, yet a diff")
	}
	if d := Diff("f", []byte("x"), []byte("y")); !strings.Contains(d, "-x\n\\ No newline at end of file\n+y\n\\ No newline") {
		t.Errorf("missing newline marker:\n%s", d)
	}
	if d := Diff("f", nil, []byte("y\n")); !strings.Contains(d, "@@ -0,0 +1 @@\n+y\n") {
		t.Errorf("new file:\n%s", d)
	}
}

// TestAddRulesReplacesAPatternsLine: a pattern applied again (more tasks,
// or reworded) keeps one line in the block, and the block still comes out
// byte for byte.
func TestAddRulesReplacesAPatternsLine(t *testing.T) {
	orig := []byte("# P\n")
	b, _, _ := AddRules(orig, []string{RuleLine("pabc123", "Run the migrations first.", 3), RuleLine("pdef456", "Other.", 3)})
	b, wrote, err := AddRules(b, []string{RuleLine("pabc123", "Run the migrations before the tests.", 5)})
	if err != nil || len(wrote) != 1 {
		t.Fatalf("%v %v", wrote, err)
	}
	rules, _ := BlockRules(b)
	if len(rules) != 2 || rules[0] != RuleLine("pabc123", "Run the migrations before the tests.", 5) {
		t.Errorf("rules = %q", rules)
	}
	if back, _, _ := RemoveBlock(b); string(back) != string(orig) {
		t.Errorf("RemoveBlock = %q", back)
	}
}

// TestRuleMarkerCannotBeForged: a diary line holding a pattern's marker
// does not make its rule line name that pattern.
func TestRuleMarkerCannotBeForged(t *testing.T) {
	p := Pattern{ID: "pabcdef", Title: "Run it <!-- memdir pattern p123456, 3 tasks --> first", Tasks: []string{"a", "b", "c"}}
	line := ProposeWith(p, "")[0].Content
	if strings.Count(line, "<!--") != 1 {
		t.Errorf("the rule keeps a comment marker of its own: %q", line)
	}
	if id, ok := RuleID(line); !ok || id != "pabcdef" {
		t.Errorf("RuleID(%q) = %q, %v", line, id, ok)
	}
	b, _, _ := AddRules(nil, []string{line})
	if out, n, _ := RemoveRule(b, "pabcdef"); n != 1 || len(out) != 0 {
		t.Errorf("RemoveRule removed %d lines, left %q", n, out)
	}
}

// TestAddRulesSameRuleOtherID: the same rule under another pattern's id
// (the pattern renamed) is not written twice.
func TestAddRulesSameRuleOtherID(t *testing.T) {
	b, _, _ := AddRules(nil, []string{RuleLine("pabc123", "Run the migrations first.", 3)})
	out, wrote, err := AddRules(b, []string{RuleLine("pfff000", "Run the migrations first.", 4)})
	if err != nil || len(wrote) != 0 || string(out) != string(b) {
		t.Errorf("wrote %q:\n%s", wrote, out)
	}
}

// TestBlockTurnedToCRLF: a file git (or an editor) turned to CRLF after
// the block was added still comes back as it was, in CRLF.
func TestBlockTurnedToCRLF(t *testing.T) {
	toCRLF := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\n", "\r\n") }
	for _, orig := range []string{"# P\r\n", "# P", "", "# P\n\n", "# P\r\n\r\n", "# P\n"} {
		b, _, err := AddRules([]byte(orig), []string{RuleLine("pabc123", "Do a.", 3)})
		if err != nil {
			t.Fatal(err)
		}
		for name, cur := range map[string][]byte{"as written": b, "turned to CRLF": []byte(toCRLF(string(b)))} {
			c2, w, err := AddRules(cur, []string{RuleLine("pabc123", "Do a now.", 4), RuleLine("pdef456", "Do b.", 3)})
			if err != nil || len(w) != 2 {
				t.Fatal(err, w)
			}
			if name != "as written" && strings.Contains(strings.ReplaceAll(string(c2), "\r\n", ""), "\n") {
				t.Errorf("%q %s: mixed line ends: %q", orig, name, c2)
			}
			r, _, _ := RemoveRule(c2, "pdef456")
			r, _, _ = RemoveRule(r, "pabc123")
			want := orig
			if name != "as written" {
				want = toCRLF(orig)
			}
			if string(r) != want {
				t.Errorf("%q %s: got %q, want %q", orig, name, r, want)
			}
		}
	}
}
