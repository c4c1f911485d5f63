package archtest

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/memdir/memdir"

// TestImportRules checks the rules against the module's real import
// graph: a forbidden import added anywhere fails here, and so CI.
func TestImportRules(t *testing.T) {
	g := loadGraph(t)
	for _, v := range check(g, rules) {
		t.Error(v)
	}
}

// TestCheck_ReportsForbiddenImports is the test of the test: a graph that
// keeps every rule, then that graph with one forbidden import added, must
// give exactly the violations named, each message naming its rule, the
// import and where the rule is written down.
func TestCheck_ReportsForbiddenImports(t *testing.T) {
	good := graph{
		"cmd/memdir":             {"internal/hooks", "internal/mcpserver", "internal/workspace", "internal/memdir"},
		"cmd/memdir-bench":       {"internal/locomo", "internal/memgen", "internal/workspace"},
		"cmd/gencorpus":          {"internal/corpus"},
		"internal/hooks":         {"internal/workspace"},
		"internal/mcpserver":     {"internal/workspace", "internal/search"},
		"internal/workspace":     {"internal/memdir", "internal/recall", "internal/llm", "internal/extract"},
		"internal/memdir":        {"internal/atomicfile", "internal/lockfile", "internal/paths", "internal/redact"},
		"internal/search":        {"internal/sessions", "internal/transcript"},
		"internal/sessions":      {"internal/transcript"},
		"internal/extract":       {"internal/paths", "internal/redact"},
		"internal/locomo":        {"internal/recall"},
		"internal/memgen":        {"internal/memdir"},
		"internal/corpus":        {"internal/paths"},
		"internal/llm/llmtest":   {"internal/llm"},
		"internal/llm":           {"internal/redact"},
		"internal/recall":        nil,
		"internal/testenv":       nil,
		"internal/claudeinstall": nil,
	}
	if vs := check(good, rules); len(vs) != 0 {
		t.Fatalf("a graph that keeps every rule gave %v", vs)
	}
	for _, tc := range []struct {
		from, to string
		want     []string // rules broken, in the order of rules
	}{
		{"internal/memdir", "internal/recall", []string{"store-imports-no-ranker"}},
		{"internal/memdir", "internal/search", []string{"store-imports-no-ranker"}},
		{"internal/recall", "internal/memdir", []string{"layers", "pure-imports-pure"}},
		{"internal/extract", "internal/llm", []string{"layers", "pure-imports-pure"}},
		{"internal/transcript", "internal/atomicfile", []string{"pure-imports-pure"}},
		{"internal/hooks", "cmd/memdir", []string{"layers", "internal-imports-no-cmd"}},
		{"internal/memdir", "internal/workspace", []string{"layers", "store-imports-no-ranker", "workspace-importers"}},
		{"internal/claudeinstall", "internal/hooks", []string{"layers"}},
		{"cmd/memdir", "internal/locomo", []string{"bench-helpers-importers", "release-binary"}},
		{"internal/search", "internal/corpus", []string{"layers", "bench-helpers-importers", "release-binary"}},
		{"internal/sessions", "internal/testenv", []string{"layers", "test-only", "release-binary"}},
		{"internal/workspace", "internal/llm/llmtest", []string{"layers", "test-only", "release-binary"}},
		{"internal/memdir", "internal/newthing", []string{"layers"}},
	} {
		t.Run(tc.from+"→"+tc.to, func(t *testing.T) {
			g := graph{}
			for p, imps := range good {
				g[p] = slices.Clone(imps)
			}
			g[tc.from] = append(g[tc.from], tc.to)
			var got []string
			for _, v := range check(g, rules) {
				got = append(got, v.rule)
				msg := v.String()
				if !strings.Contains(msg, `rule "`+v.rule+`"`) || !strings.Contains(msg, ruleDoc) || !strings.Contains(msg, tc.to) {
					t.Errorf("message %q does not name the rule, %s and %s", msg, ruleDoc, tc.to)
				}
				t.Log(msg)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("broken rules %v, want %v", got, tc.want)
			}
		})
	}
}

// TestCheck_ReleaseBinaryNamesThePath: a helper pulled in indirectly is
// reported with the chain of imports that pulls it in.
func TestCheck_ReleaseBinaryNamesThePath(t *testing.T) {
	g := graph{"cmd/memdir": {"internal/workspace"}, "internal/workspace": {"internal/memgen"}, "internal/memgen": nil}
	r := notInDeps("release-binary", "", "cmd/memdir", benchHelpers)
	got := r.check(g)
	want := []string{"cmd/memdir depends on internal/memgen (cmd/memdir → internal/workspace → internal/memgen)"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestAgentsMDMatchesLayers: AGENTS.md's diagram puts the packages of the
// layers table in the same layers, and names no other package.
func TestAgentsMDMatchesLayers(t *testing.T) {
	f, err := os.Open("../../AGENTS.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc := parseDiagram(t, f)
	for _, l := range layers {
		got, want := slices.Sorted(slices.Values(doc[l.name])), slices.Sorted(slices.Values(l.pkgs))
		if !slices.Equal(got, want) {
			t.Errorf("AGENTS.md's layer %q lists %v; internal/archtest/rules_test.go has %v", l.name, got, want)
		}
		delete(doc, l.name)
	}
	for name := range doc {
		t.Errorf("AGENTS.md draws a layer %q that internal/archtest/rules_test.go does not have", name)
	}
}

// parseDiagram reads the layer diagram of AGENTS.md: the fenced block after
// the line "<!-- layers: checked by internal/archtest -->". A line that
// starts with a word names a layer; every cmd/… and internal/… word on it
// and on the indented lines under it is a package of that layer.
func parseDiagram(t *testing.T, r io.Reader) map[string][]string {
	t.Helper()
	sc := bufio.NewScanner(r)
	for sc.Scan() && !strings.Contains(sc.Text(), "<!-- layers: checked by internal/archtest -->") {
	}
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "```") {
	}
	out := map[string][]string{}
	cur := ""
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "```") {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if line[0] != ' ' && !strings.ContainsAny(fields[0], "/│↓|v") {
			cur = fields[0]
			if _, ok := out[cur]; !ok {
				out[cur] = nil
			}
		}
		for _, w := range fields {
			w = strings.Trim(w, "`,;()")
			if strings.HasPrefix(w, "cmd/") || strings.HasPrefix(w, "internal/") {
				if cur == "" {
					t.Fatalf("AGENTS.md's diagram names %s before any layer", w)
				}
				out[cur] = append(out[cur], w)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("AGENTS.md has no layer diagram (a fenced block after <!-- layers: checked by internal/archtest -->)")
	}
	return out
}

// loadGraph asks the go command for the module's non-test imports, for
// each of linux, darwin and windows (files with build tags import
// differently), and merges them.
func loadGraph(t *testing.T) graph {
	t.Helper()
	// go test puts its own go command first on PATH.
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command on PATH: %v", err)
	}
	g := graph{}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command(goTool, "list", "-json=ImportPath,Imports", module+"/...")
		cmd.Dir = "../.."
		cmd.Env = append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=0", "GOFLAGS=")
		out, err := cmd.Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				t.Fatalf("GOOS=%s go list: %v\n%s", goos, err, ee.Stderr)
			}
			t.Fatalf("GOOS=%s go list: %v", goos, err)
		}
		dec := json.NewDecoder(strings.NewReader(string(out)))
		for {
			var p struct {
				ImportPath string
				Imports    []string
			}
			if err := dec.Decode(&p); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			from := rel(p.ImportPath)
			if _, ok := g[from]; !ok {
				g[from] = nil
			}
			for _, imp := range p.Imports {
				if to := rel(imp); to != imp && !slices.Contains(g[from], to) {
					g[from] = append(g[from], to)
				}
			}
		}
	}
	if len(g["cmd/memdir"]) == 0 {
		t.Fatalf("go list gave no imports for cmd/memdir: %v", g)
	}
	return g
}

// rel is path relative to the module, or path itself outside it.
func rel(path string) string {
	if r, ok := strings.CutPrefix(path, module+"/"); ok {
		return r
	}
	return path
}
