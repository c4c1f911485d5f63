package claudeinstall

import "testing"

// TestDiff: removals come before the additions that replace them, context
// is cut to ctx lines with "…" for the gap, and equal texts give "".
func TestDiff(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"{}", "{}", ""},
		{"{}", "{\n  \"a\": 1\n}", "- {}\n+ {\n+   \"a\": 1\n+ }\n"},
		{"a\nb\nc\nd\ne\nf", "a\nb\nc\nd\ne\nF", "  …\n  e\n- f\n+ F\n"},
	} {
		if got := Diff(tc.a, tc.b, 1); got != tc.want {
			t.Errorf("Diff(%q, %q) =\n%q\nwant\n%q", tc.a, tc.b, got, tc.want)
		}
	}
}
