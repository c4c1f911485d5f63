package claudeinstall

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// settingsFiles are settings as people write them: each must come back
// byte for byte after an install and an uninstall.
var settingsFiles = map[string]string{
	"minified":        `{"model":"opus","env":{"A":"1"},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify-send done"}]}]}}`,
	"two spaces":      "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\"Bash(go test:*)\", \"Read\"]\n  }\n}\n",
	"four spaces":     "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\"type\": \"command\", \"command\": \"notify-send done\"}\n                ]\n            }\n        ]\n    }\n}\n",
	"tabs":            "{\n\t\"model\": \"opus\",\n\t\"env\": {\n\t\t\"A\": \"1\"\n\t}\n}\n",
	"crlf":            "{\r\n  \"model\": \"opus\",\r\n  \"env\": {\r\n    \"A\": \"1\"\r\n  }\r\n}\r\n",
	"no final nl":     "{\n  \"model\": \"opus\"\n}",
	"unicode":         "{\n  \"statusLine\": \"été ✓ \\u00e9 日本\",\n  \"n\": 1.50e3,\n  \"x\": [ 1,2 ,3 ]\n}\n",
	"empty object":    "{}\n",
	"one line spaced": `{ "model": "opus", "env": { "A": "1" } }` + "\n",
	"hooks first":     "{\n  \"hooks\": {\n    \"PreCompact\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"backup.sh\"}]}]\n  },\n  \"model\": \"opus\"\n}\n",
	"odd spacing":     "\n\n{  \"model\" :  \"opus\" ,\n\n   \"env\":{}   }  \n\n",
}

// TestApply_RoundTripKeepsBytes: install then uninstall gives back the
// exact bytes of the settings file and of ~/.claude.json, and install's
// diff only adds lines (a line that gains the comma before an addition
// reappears with it).
func TestApply_RoundTripKeepsBytes(t *testing.T) {
	for name, orig := range settingsFiles {
		t.Run(name, func(t *testing.T) { roundTrip(t, orig, orig) })
	}
}

// TestApply_RoundTripGenerated: the same over settings rendered with
// random indentation, line ends, spacing and final newlines.
func TestApply_RoundTripGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		s, c := render(r), render(r)
		t.Run(fmt.Sprint(i), func(t *testing.T) { roundTrip(t, s, c) })
	}
}

func roundTrip(t *testing.T, settingsText, claudeJSON string) {
	l := testLayout(t)
	l.Home = filepath.Join(filepath.Dir(l.Home), ".claude") // so .claude.json is beside it, as ~/.claude.json
	settings := filepath.Join(l.Home, "settings.json")
	global := filepath.Join(filepath.Dir(l.Home), ".claude.json")
	write(t, settings, settingsText)
	write(t, global, claudeJSON)
	now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	plan, err := Plan(Options{Layout: l, Scope: "local", Binary: bin, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if res.MCP == nil || res.MCP.File != global {
		t.Fatalf("MCP edit: %+v", res.MCP)
	}
	installed := read(t, settings)
	if doc, err := Parse([]byte(installed)); err != nil || len(Installed(doc)) != len(Handlers) {
		t.Fatalf("installed settings do not parse or lack hooks (%v):\n%s", err, installed)
	}
	if strings.Contains(settingsText, "\r\n") && strings.Count(installed, "\n") != strings.Count(installed, "\r\n") {
		t.Errorf("a CRLF file got LF lines:\n%q", installed)
	}
	for _, d := range []string{res.Diff, res.MCP.Diff, plan.MCP.Diff} {
		onlyAdds(t, d)
	}
	if !subsequence(settingsText, installed) || !subsequence(claudeJSON, readOr(global)) {
		t.Errorf("install did more than add to the files:\n%s", installed)
	}
	if again, err := Apply(Options{Layout: l, Scope: "user", Binary: bin, Now: now.Add(time.Second)}); err != nil || again.Changed || again.MCP.Changed {
		t.Errorf("a second install changed something: %v %+v", err, again)
	}
	if _, err := Apply(Options{Layout: l, Scope: "user", Uninstall: true, Now: now.Add(2 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	if got := readOr(settings); got != settingsText && !(strings.TrimSpace(settingsText) == "{}" && got == "") {
		t.Errorf("settings.json after install and uninstall:\n%q\nwant\n%q", got, settingsText)
	}
	if got := readOr(global); got != claudeJSON && !(strings.TrimSpace(claudeJSON) == "{}" && got == "") {
		t.Errorf(".claude.json after install and uninstall:\n%q\nwant\n%q", got, claudeJSON)
	}
}

func readOr(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// onlyAdds fails unless every line a diff removes comes back within the
// added ones with only additions (the comma before an added member, or the
// line breaks that open an empty object).
func onlyAdds(t *testing.T, diff string) {
	t.Helper()
	lines := strings.Split(diff, "\n")
	var added []string
	for _, l := range lines {
		if s, ok := strings.CutPrefix(l, "+ "); ok {
			added = append(added, s)
		}
	}
	for _, l := range lines {
		s, ok := strings.CutPrefix(l, "- ")
		if !ok {
			continue
		}
		if !subsequence(s, strings.Join(added, "\n")) {
			t.Errorf("the diff removes %q:\n%s", s, diff)
		}
		if strings.Contains(s, "\r") {
			t.Errorf("the diff shows a CR: %q", s)
		}
	}
}

// subsequence reports whether b holds every byte of a, in order.
func subsequence(a, b string) bool {
	for i := 0; i < len(a); i++ {
		j := strings.IndexByte(b, a[i])
		if j < 0 {
			return false
		}
		b = b[j+1:]
	}
	return true
}

// render writes a settings document with random formatting.
func render(r *rand.Rand) string {
	units := []string{"", " ", "  ", "   ", "    ", "\t"}
	nls := []string{"\n", "\r\n"}
	unit, nl := units[r.IntN(len(units))], nls[r.IntN(2)]
	colon := []string{":", ": ", " : "}[r.IntN(3)]
	var b strings.Builder
	var obj func(depth int, keys []string)
	lead := func(depth int) string {
		if unit == "" {
			return ""
		}
		return nl + strings.Repeat(unit, depth)
	}
	vals := []string{`"opus"`, `1`, `true`, `null`, `[]`, `["a", "b"]`, `"ü ✓"`, `{}`}
	obj = func(depth int, keys []string) {
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(lead(depth+1) + `"` + k + `"` + colon)
			if r.IntN(4) == 0 && depth < 2 {
				obj(depth+1, []string{"x", "y"}[:1+r.IntN(2)])
			} else {
				b.WriteString(vals[r.IntN(len(vals))])
			}
		}
		if len(keys) > 0 {
			b.WriteString(lead(depth))
		}
		b.WriteString("}")
	}
	keys := []string{"model", "env", "permissions", "verbose", "theme"}[:r.IntN(6)]
	obj(0, keys)
	if r.IntN(3) > 0 {
		b.WriteString(nl)
	}
	return b.String()
}

// FuzzParse: any JSON object comes back byte for byte when nothing is
// changed, means what encoding/json reads in it, and still does after an
// install and an uninstall.
func FuzzParse(f *testing.F) {
	for _, s := range settingsFiles {
		f.Add(s)
	}
	f.Add(`{"a":"\"}\\","b":[[],[{}],-1.5E+3],"a":2}`)
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := Parse([]byte(s))
		if err != nil || len(strings.TrimSpace(s)) == 0 {
			return
		}
		if got := string(Encode(doc)); got != s {
			t.Fatalf("Encode(Parse(%q)) = %q", s, got)
		}
		var want any
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("Parse took %q, encoding/json does not: %v", s, err)
		}
		if _, err := Install(doc, bin); err != nil {
			return // "hooks" is not an object: refused
		}
		installed := Encode(doc)
		doc2, err := Parse(installed)
		if err != nil {
			t.Fatalf("installed %q does not parse: %v\n%s", s, err, installed)
		}
		Uninstall(doc2)
		var got any
		if err := json.Unmarshal(Encode(doc2), &got); err != nil {
			t.Fatalf("uninstalled %q: %v", s, err)
		}
	})
}
