package learning

import (
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line string
		want       Learning
		ok         bool
		errHas     string
	}{
		{"Dated", "- **Permission glob syntax** [global/error] (2026-02-03): Used `:*` instead of `/*`",
			Learning{Title: "Permission glob syntax", Scope: "global", Type: Error, Date: "2026-02-03", Description: "Used `:*` instead of `/*`"}, true, ""},
		{"Undated", "- **T** [granada/data-quirk]: most rows are renewals",
			Learning{Title: "T", Scope: "granada", Type: DataQuirk, Description: "most rows are renewals"}, true, ""},
		{"CR", "- **T** [global/command] (2026-01-01): x\r",
			Learning{Title: "T", Scope: "global", Type: Command, Date: "2026-01-01", Description: "x"}, true, ""},
		{"PlainBullet", "- just a bullet", Learning{}, false, ""},
		{"BoldNoTag", "- **Bold** text", Learning{}, false, ""},
		{"UnknownType", "- **T** [global/nonsense] (2026-01-01): x", Learning{}, true, "unknown type"},
		{"ImpossibleDate", "- **T** [global/error] (2026-02-30): x", Learning{}, true, "impossible date"},
		{"NotADate", "- **T** [global/error] (soon): x", Learning{}, true, "not YYYY-MM-DD"},
		{"EmptyScope", "- **T** [/error] (2026-01-01): x", Learning{}, true, "empty scope"},
		{"NoColon", "- **T** [global/error] (2026-01-01) x", Learning{}, true, "description"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := ParseLine(tt.line)
			if ok != tt.ok {
				t.Fatalf("ParseLine(%q) ok=%v, want %v", tt.line, ok, tt.ok)
			}
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("ParseLine(%q) err=%v, want it to say %q", tt.line, err, tt.errHas)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseLine(%q) err=%v", tt.line, err)
			}
			if got.Title != tt.want.Title || got.Scope != tt.want.Scope || got.Type != tt.want.Type ||
				got.Date != tt.want.Date || got.Description != tt.want.Description {
				t.Fatalf("ParseLine(%q)=%+v, want %+v", tt.line, got, tt.want)
			}
		})
	}
}

func TestLearning_FormatParse(t *testing.T) {
	t.Parallel()
	l := Learning{Title: "Heap scans", Scope: "global", Type: BestPractice, Date: "2026-02-03",
		Description: "No indexes on Dataiku tables", Lesson: "Use row counts", Notes: []string{"*Source: x*"}}
	want := "- **Heap scans** [global/best-practice] (2026-02-03): No indexes on Dataiku tables\n  - Lesson: Use row counts\n  - *Source: x*"
	if got := l.Format(); got != want {
		t.Fatalf("Format()=%q, want %q", got, want)
	}
	lines := strings.Split(want, "\n")
	back, ok, err := ParseLine(lines[0])
	if !ok || err != nil {
		t.Fatalf("ParseLine: ok=%v err=%v", ok, err)
	}
	back.parseSubLines(lines[1:])
	if back.Format() != want {
		t.Fatalf("round trip %q, want %q", back.Format(), want)
	}
	if err := l.Validate(); err != nil {
		t.Fatalf("Validate()=%v", err)
	}
}

func TestLearning_Validate(t *testing.T) {
	t.Parallel()
	ok := Learning{Title: "T", Scope: "p", Type: Command, Description: "d"}
	bad := map[string]func(l *Learning){
		"NoTitle":      func(l *Learning) { l.Title = "" },
		"NoDesc":       func(l *Learning) { l.Description = " " },
		"SlashScope":   func(l *Learning) { l.Scope = "a/b" },
		"BracketScope": func(l *Learning) { l.Scope = "a]" },
		"Type":         func(l *Learning) { l.Type = "oops" },
		"Date":         func(l *Learning) { l.Date = "2026-13-01" },
		"Newline":      func(l *Learning) { l.Description = "a\nb" },
		"LessonNL":     func(l *Learning) { l.Lesson = "a\nb" },
		"StarsTitle":   func(l *Learning) { l.Title = "a** [x/error]: y" },
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("Validate(%+v)=%v", ok, err)
	}
	for name, f := range bad {
		t.Run(name, func(t *testing.T) {
			l := ok
			f(&l)
			if err := l.Validate(); err == nil {
				t.Fatalf("Validate(%+v)=nil, want an error", l)
			}
		})
	}
}

func TestLearning_Key(t *testing.T) {
	t.Parallel()
	a := Learning{Title: "Fixing queries", Scope: "Granada", Description: "the queries fixed"}
	b := Learning{Title: "Fixed query", Scope: "granada", Description: "fix the query"}
	if a.Key() != b.Key() {
		t.Fatalf("Key %q != %q", a.Key(), b.Key())
	}
	if !strings.HasPrefix(a.Key(), "granada|") {
		t.Fatalf("Key()=%q, want the scope first", a.Key())
	}
}
