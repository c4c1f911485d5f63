package diary

import (
	"errors"
	"strings"
	"testing"
)

const seedEntry = `---
project: checkout-service
session: 7f3a2c10
date: 2026-10-03
outcome: success
tags: [auth, cors]
---
## Task: Add authentication to checkout flow
### Attempted approaches:
1. JWT tokens in localStorage - failed due to XSS concerns
2. HTTP-only cookies - worked but needed CORS config
3. Session tokens with Redis - chosen solution

### What worked:
- Redis session store with 24hr expiry
- CORS whitelist in production config

### Mistakes made:
- Forgot to handle token refresh initially

### Patterns discovered:
- Auth changes always need CORS update
`

func TestParseSeedFormat(t *testing.T) {
	e, err := Parse("x", []byte(seedEntry))
	if err != nil {
		t.Fatal(err)
	}
	if e.Project != "checkout-service" || e.Date != "2026-10-03" || e.Outcome != "success" || len(e.Tags) != 2 {
		t.Errorf("frontmatter = %+v", e)
	}
	if e.Task != "Add authentication to checkout flow" {
		t.Errorf("task = %q", e.Task)
	}
	if got := e.Items(Attempted); len(got) != 3 || got[2] != "Session tokens with Redis - chosen solution" {
		t.Errorf("attempted = %q", got)
	}
	if got := e.Items(Patterns); len(got) != 1 || got[0] != "Auth changes always need CORS update" {
		t.Errorf("patterns = %q", got)
	}
	if err := Validate(e); err != nil {
		t.Errorf("Validate: %v", err)
	}
	// Format then Parse keeps everything.
	again, err := Parse("x", Format(e))
	if err != nil {
		t.Fatal(err)
	}
	if string(Format(again)) != string(Format(e)) {
		t.Errorf("round trip changed the entry:\n%s\n---\n%s", Format(e), Format(again))
	}
	if !strings.Contains(string(Format(e)), "1. JWT tokens") || !strings.Contains(string(Format(e)), "- Redis session") {
		t.Errorf("format:\n%s", Format(e))
	}
}

func TestParseKeepsLinesOutsideSections(t *testing.T) {
	e, err := Parse("x", []byte("## Task: t\nloose note here\n### Something else\n- kept\n"))
	if err != nil {
		t.Fatal(err)
	}
	out := string(Format(e))
	for _, want := range []string{"loose note here", "### Something else", "- kept"} {
		if !strings.Contains(out, want) {
			t.Errorf("lost %q:\n%s", want, out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for name, in := range map[string]string{
		"unclosed":  "---\nproject: x\n## Task: t\n",
		"bad yaml":  "---\nproject: [x\n---\n## Task: t\n",
		"not utf-8": "## Task: \xff\xfe\n",
	} {
		_, err := Parse("f.md", []byte(in))
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "f.md") {
			t.Errorf("%s: err = %v, want a ParseError naming the file", name, err)
		}
	}
}

func TestValidateListsEveryProblem(t *testing.T) {
	e := Entry{Date: "2026-13-01", Outcome: "great", Sections: []Section{{Kind: Worked, Items: []string{"a\nb", strings.Repeat("x", maxItem+1)}}}}
	err := Validate(e)
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"task is empty", "not a calendar date", `"great" is not one of`, "line break", "split it"} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in %s", want, msg)
		}
	}
	big := Entry{Task: "t", Date: "2026-01-02"}
	for range 40 {
		big.Add(Worked, strings.Repeat("y", 500))
	}
	if err := Validate(big); err == nil || !strings.Contains(err.Error(), "over the 16384-byte limit") {
		t.Errorf("big entry: %v", err)
	}
	if err := Validate(Entry{Task: "t", Date: "2026-01-02"}); err == nil || !strings.Contains(err.Error(), "sections are empty") {
		t.Errorf("empty entry: %v", err)
	}
}

func TestRedact(t *testing.T) {
	e := Entry{Task: "rotate key", Date: "2026-01-02"}
	e.Add(Mistakes, "pasted AKIAIOSFODNN7EXAMPLE into the config", "<private>my notes</private> kept out")
	r, found := Redact(e)
	out := string(Format(r))
	if strings.Contains(out, "AKIAIOSFODNN7EXAMPLE") || strings.Contains(out, "my notes") {
		t.Errorf("secret kept:\n%s", out)
	}
	if len(found) == 0 {
		t.Errorf("no finding reported")
	}
	if strings.Contains(string(Format(e)), "[REDACTED") {
		t.Errorf("Redact changed its argument")
	}
}

func TestStem(t *testing.T) {
	e := Entry{Date: "2026-10-03", Task: "Add auth to /checkout (v2)!"}
	if got := Stem(e); got != "2026-10-03-add-auth-to-checkout-v2" || !ValidStem(got) {
		t.Errorf("Stem = %q", got)
	}
	for _, bad := range []string{"../x", "2026-10-03-../x", "x", "2026-10-03-", "2026-10-03-A"} {
		if ValidStem(bad) {
			t.Errorf("ValidStem(%q) = true", bad)
		}
	}
}

func TestValidateTagsAndProject(t *testing.T) {
	base := func() Entry {
		e := Entry{Task: "t", Date: "2026-01-02", Project: "shop"}
		e.Add(Worked, "x")
		return e
	}
	good := base()
	good.Tags = []string{"go", "db-migrations", "c++", "two words"}
	if err := Validate(good); err != nil {
		t.Fatalf("good tags: %v", err)
	}
	back, err := Parse("x", Format(good))
	if err != nil || strings.Join(back.Tags, "|") != strings.Join(good.Tags, "|") {
		t.Errorf("tags after a round trip = %q, %v", back.Tags, err)
	}
	for _, tag := range []string{"", "a]b", "a,b", "a[b", "{x}", "#go", "k:v", `say "hi"`, "it's", "a\nb", " go", "go ", strings.Repeat("x", 41), "[REDACTED:aws-key]"} {
		e := base()
		e.Tags = []string{"fine", tag}
		err := Validate(e)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Field != "tags" {
			t.Errorf("tag %q: err = %v, want one tags problem", tag, err)
		}
	}
	for _, p := range []string{"a/b", `a\b`, "..", "a..b", "a\nb", strings.Repeat("p", 101)} {
		e := base()
		e.Project = p
		err := Validate(e)
		var ve *ValidationError
		if !errors.As(err, &ve) || len(ve.Problems) != 1 || ve.Problems[0].Field != "project" {
			t.Errorf("project %q: err = %v, want one project problem", p, err)
		}
	}
	// Every problem at once: two bad tags and a bad project.
	e := base()
	e.Tags, e.Project = []string{"a,b", ""}, "x/y"
	var ve *ValidationError
	if !errors.As(Validate(e), &ve) || len(ve.Problems) != 3 {
		t.Errorf("problems = %+v, want 3", ve)
	}
}
