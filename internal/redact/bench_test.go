package redact

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The clean corpus: text that holds no secret, read at test time (never
// copied into the repo). Code is this repo's Go sources, except this
// package, whose tests hold fake credentials on purpose. Prose is the
// repo's markdown and, when present, the shared docs and seed notes.
//
// REDACT_CORPUS_REPO and REDACT_CORPUS_SHARED override the two roots, so
// that the same benchmark can run against an older copy of the package.

type corpusFile struct{ path, text string }

func corpusRoots() (repo, shared string) {
	repo, shared = "../..", "/work/shared"
	if v := os.Getenv("REDACT_CORPUS_REPO"); v != "" {
		repo = v
	}
	if v := os.Getenv("REDACT_CORPUS_SHARED"); v != "" {
		shared = v
	}
	return repo, shared
}

// readCorpus returns the files under root whose names end in one of exts,
// skipping .git and, for root "", nothing.
func readCorpus(tb testing.TB, root string, skip func(rel string) bool, exts ...string) []corpusFile {
	tb.Helper()
	var out []corpusFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" || skip != nil && skip(filepath.ToSlash(rel)) {
				return filepath.SkipDir
			}
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				out = append(out, corpusFile{filepath.ToSlash(rel), string(b)})
				break
			}
		}
		return nil
	})
	if err != nil {
		tb.Skipf("corpus %s: %v", root, err)
	}
	return out
}

func codeCorpus(tb testing.TB) []corpusFile {
	repo, _ := corpusRoots()
	// Ordinary code: test files and test data hold made-up secrets on
	// purpose, and a new test must not have to be judged here.
	var files []corpusFile
	for _, f := range readCorpus(tb, repo, func(rel string) bool { return rel == "internal/redact" }, ".go") {
		if !strings.HasSuffix(f.path, "_test.go") && !strings.Contains(f.path, "testdata/") {
			files = append(files, f)
		}
	}
	// REDACT_CORPUS_EXTRA_CODE adds a tree of Go code (e.g. a part of
	// GOROOT/src) for a one-off measurement.
	if extra := os.Getenv("REDACT_CORPUS_EXTRA_CODE"); extra != "" {
		for _, f := range readCorpus(tb, extra, nil, ".go") {
			f.path = "extra/" + f.path
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		tb.Skip("no Go sources under " + repo)
	}
	return files
}

func proseCorpus(tb testing.TB) []corpusFile {
	repo, shared := corpusRoots()
	files := readCorpus(tb, repo, nil, ".md")
	// docs and seed notes; LoCoMo's conversations (JSON) and a Claude
	// Code transcript (JSONL) as prose people and agents write.
	for _, dir := range []string{"docs", "seeds", "bench/locomo", "fixtures"} {
		if _, err := os.Stat(filepath.Join(shared, dir)); err == nil {
			for _, f := range readCorpus(tb, filepath.Join(shared, dir), nil, ".md", ".txt", "locomo10.json", ".jsonl") {
				f.path = "shared/" + dir + "/" + f.path
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		tb.Skip("no prose under " + repo)
	}
	return files
}

func benchCorpus(b *testing.B, files []corpusFile) {
	var n int64
	for _, f := range files {
		n += int64(len(f.text))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, f := range files {
			String(f.text)
		}
	}
	// CPU-MB/s: bytes per CPU second (all threads, GC included), steadier
	// than MB/s when other processes share the cores.
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds()/1e6, "CPU-MB/s")
	}
}

// BenchmarkCorpusProse and BenchmarkCorpusCode redact the clean corpus
// file by file, as a save or an extraction would.
func BenchmarkCorpusProse(b *testing.B) { benchCorpus(b, proseCorpus(b)) }
func BenchmarkCorpusCode(b *testing.B)  { benchCorpus(b, codeCorpus(b)) }

// knownInCorpus are the redactions on the clean corpus that are right: the
// text there is a deliberate fake credential in another package's tests or
// comments. Each is a file and the kinds found in it; anything else found
// is a false positive.
var knownInCorpus = map[string][]string{
	// examples of secrets in words, which extract's ProseSecret skips:
	// "the password is Tr0ub4dor&3", "with password hunter2x9"
	"internal/extract/secrets.go": {"password"},
	// image URLs signed with a real JWT (?token=eyJ…): a bearer token
	"shared/bench/locomo/locomo10.json": {"jwt"},
}

// TestCorpusFalsePositives redacts the clean corpus and fails on any
// redaction not listed in knownInCorpus, printing each with its context.
func TestCorpusFalsePositives(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the repo and shared corpus")
	}
	var bytes, found int
	for _, set := range [][]corpusFile{proseCorpus(t), codeCorpus(t)} {
		for _, f := range set {
			bytes += len(f.text)
			out, fs := String(f.text)
			if fs == nil {
				continue
			}
			for _, line := range redactedLines(f.text, out) {
				found++
				known := true
				for _, m := range markers(line) {
					kind := line[m.lo+len(markerPrefix) : m.hi-1]
					known = known && slices.Contains(knownInCorpus[f.path], kind)
				}
				if known {
					t.Logf("known: %s: %s", f.path, line)
				} else {
					t.Errorf("false positive: %s: %s", f.path, line)
				}
			}
		}
	}
	t.Logf("corpus: %d bytes, %d redacted lines", bytes, found)
}

// redactedLines returns the lines of out that differ from in, each with
// its original, when redaction kept the line count (it always does: no
// rule's secret spans a line end except a private key block).
func redactedLines(in, out string) []string {
	a, b := strings.Split(in, "\n"), strings.Split(out, "\n")
	if len(a) != len(b) {
		return []string{"(line count changed)"}
	}
	var res []string
	for i := range a {
		if a[i] != b[i] {
			res = append(res, strings.TrimSpace(a[i])+"  =>  "+strings.TrimSpace(b[i]))
		}
	}
	return res
}
