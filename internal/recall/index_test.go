package recall

import (
	"math"
	"slices"
	"testing"
)

func analyse(name, description, body string) Doc {
	var d Doc
	d.Terms[Name] = Default.Terms(name, nil)
	d.Terms[Description] = Default.Terms(description, nil)
	d.Terms[Body] = Default.Terms(body, nil)
	return d
}

// TestWorkedExample checks the package doc's example, term by term, with
// the parameters named.
func TestWorkedExample(t *testing.T) {
	docs := []Doc{
		analyse("Deploy freeze", "No deploys on Fridays", "Ask the release manager."),
		analyse("Table tests", "Write table-driven tests", "Use t.Run for each case."),
	}
	if got := docs[0].Terms; !slices.Equal(got[Name], []string{"deploy", "freez"}) ||
		!slices.Equal(got[Description], []string{"no", "deploy", "friday"}) {
		t.Fatalf("d0 analyses to %q", got)
	}
	if got := docs[1].Terms[Description]; !slices.Equal(got, []string{"write", "tabl", "driven", "test"}) {
		t.Fatalf("d1 description analyses to %q", got)
	}
	query := Default.Terms("can we deploy on friday?", nil)
	if !slices.Equal(query, []string{"deploy", "friday"}) {
		t.Fatalf("query analyses to %q", query)
	}
	const (
		k1    = 1.2
		b     = 0.75
		wName = 3.0
		wDesc = 2.0
	)
	idf := math.Log(1 + (2-1+0.5)/(1+0.5)) // N=2, df=1: ln 2
	bName := 1 - b + b*2/2.0               // d0's name has 2 terms, names average 2
	bDesc := 1 - b + b*3/3.5               // d0's description has 3, descriptions average 3.5
	tfDeploy := wName*1/bName + wDesc*1/bDesc
	tfFriday := wDesc * 1 / bDesc
	want := idf*tfDeploy*(k1+1)/(tfDeploy+k1) + idf*tfFriday*(k1+1)/(tfFriday+k1)

	ix := NewIndex(docs, DefaultParams)
	got := ix.Search(query)
	if len(got) != 1 || got[0].Doc != 0 {
		t.Fatalf("Search = %+v, want d0 alone", got)
	}
	if math.Abs(got[0].Score-want) > 1e-12 {
		t.Errorf("score %.6f, want %.6f", got[0].Score, want)
	}
	if got[0].Coverage != 1 {
		t.Errorf("coverage %v, want 1", got[0].Coverage)
	}
	byField := ix.Explain(0, query)
	if sum := byField[Name] + byField[Description] + byField[Body]; math.Abs(sum-want) > 1e-12 || byField[Body] != 0 {
		t.Errorf("Explain = %v (sum %v), want a split of %v with nothing from the body", byField, sum, want)
	}
	t.Logf("idf %.3f, bDesc %.4f, tf'(deploy) %.3f, tf'(friday) %.3f, score %.3f", idf, bDesc, tfDeploy, tfFriday, want)
}

func TestTokenize(t *testing.T) {
	for in, want := range map[string][]string{
		"parseHTTPConfig":             {"parse", "http", "config", "parsehttpconfig"},
		"snake_case_name":             {"snake", "case", "name", "snakecasename"},
		"internal/recall/index.go":    {"internal", "recall", "index", "go"},
		"Don't use `go vet` v2Client": {"don", "t", "use", "go", "vet", "v2", "client", "v2client"},
		"MEMDIR_HOME=~/x":             {"memdir", "home", "memdirhome", "x"},
		"Café naïve":                  {"café", "naïve"},
		"__init__ _private trailing_": {"init", "private", "trailing"},
		"HTTPServer2 getX":            {"http", "server2", "httpserver2", "get", "x", "getx"},
	} {
		if got := Tokenize(in); !slices.Equal(got, want) {
			t.Errorf("Tokenize(%q) = %q, want %q", in, got, want)
		}
	}
}
