package paths

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// The long example was checked against the real Claude Code 2.1.328 binary
// (see shared/docs/claude-code-facts.md §1).
func TestSanitize(t *testing.T) {
	t.Parallel()
	var segs []string
	for i := 1; i <= 20; i++ {
		segs = append(segs, "longsegment_"+twoDigits(i))
	}
	long := "/home/user/" + strings.Join(segs, "/")
	tests := []struct {
		name, in, want string
	}{
		{"Plain", "/home/user/ccp3", "-home-user-ccp3"},
		{"Windows", `C:\Users\me\src\api`, "C--Users-me-src-api"},
		{"Dots", "/home/user/my.project_v2", "-home-user-my-project-v2"},
		{"NonASCII", "/home/josé/src", "-home-jos--src"},
		{"Emoji", "/tmp/😀x", "-tmp---x"},
		{"Over200", long, "-home-user-longsegment-01-longsegment-02-longsegment-03-longsegment-04-longsegment-05-longsegment-06-longsegment-07-longsegment-08-longsegment-09-longsegment-10-longsegment-11-longsegment-12-longsegme-ss1on4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q)=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if len(long) != 310 {
		t.Fatalf("the worked example is %d characters, want 310", len(long))
	}
}

func twoDigits(i int) string {
	return string(rune('0'+i/10)) + string(rune('0'+i%10))
}

func TestSanitize_Boundary(t *testing.T) {
	t.Parallel()
	at200 := "/" + strings.Repeat("a", 199)
	if got := Sanitize(at200); got != "-"+strings.Repeat("a", 199) {
		t.Errorf("200 units were cut: %q", got)
	}
	at201 := "/" + strings.Repeat("a", 200)
	got := Sanitize(at201)
	if !strings.HasPrefix(got, "-"+strings.Repeat("a", 199)+"-") || len(got) <= 201 {
		t.Errorf("201 units: %q, want 200 units, '-', and a hash", got)
	}
	// Emoji count as two UTF-16 units each, so 100 of them reach the cap
	// with 200 units and 101 pass it.
	if got := Sanitize(strings.Repeat("😀", 100)); got != strings.Repeat("-", 200) {
		t.Errorf("100 emoji: %q", got)
	}
	if got := Sanitize(strings.Repeat("😀", 101)); len(got) <= 201 {
		t.Errorf("101 emoji were not cut and hashed: %q", got)
	}
}

func TestJavaHash(t *testing.T) {
	t.Parallel()
	// "hello".hashCode() in Java is 99162322; "polygenelubricants" is
	// math.MinInt32, whose absolute value JavaScript keeps as 2147483648.
	if got := javaHash(utf16Units("hello")); got != 99162322 {
		t.Errorf("javaHash(hello)=%d, want 99162322", got)
	}
	h := javaHash(utf16Units("polygenelubricants"))
	if h != -2147483648 || abs64(h) != 2147483648 {
		t.Errorf("javaHash(polygenelubricants)=%d, abs=%d", h, abs64(h))
	}
}

func utf16Units(s string) []uint16 {
	var u []uint16
	for _, r := range s {
		u = append(u, uint16(r))
	}
	return u
}

func FuzzSanitize(f *testing.F) {
	f.Add("/home/user/ccp3")
	f.Add(strings.Repeat("/x😀", 90))
	f.Add("\xff\xfe")
	ok := regexp.MustCompile(`^[A-Za-z0-9-]*$`)
	f.Fuzz(func(t *testing.T, p string) {
		got := Sanitize(p)
		if !ok.MatchString(got) || len(got) > 200+1+7 {
			t.Fatalf("Sanitize(%q)=%q", p, got)
		}
		if Sanitize(p) != got {
			t.Fatal("not deterministic")
		}
	})
}

func TestValidateName(t *testing.T) {
	t.Parallel()
	for _, ok := range []string{"prefer-tabs", "prefer-tabs.md", "Prefer tabs", "CI: deploy", "a.b.md", "日本語"} {
		if err := ValidateName(ok); err != nil {
			t.Errorf("ValidateName(%q)=%v, want nil", ok, err)
		}
	}
	tests := map[string]string{
		"":                       "empty",
		"../x":                   "path separator",
		"a/b":                    "path separator",
		`a\b`:                    "path separator",
		"..":                     `".."`,
		"x..y":                   `".."`,
		".hidden":                "starts with a dot",
		"a\x00b":                 "control character",
		"a\nb":                   "control character",
		strings.Repeat("a", 201): "longer than 200",
	}
	for in, why := range tests {
		err := ValidateName(in)
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), why) {
			t.Errorf("ValidateName(%q)=%v, want ErrInvalidName saying %q", in, err, why)
		}
	}
}
