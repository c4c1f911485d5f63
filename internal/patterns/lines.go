package patterns

import (
	"github.com/memdir/memdir/internal/lexicon"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/lazyre"
	"github.com/memdir/memdir/internal/recall"
)

// Doc is one diary as the engine reads it: its name (the file's stem)
// and its entry. The caller leaves drafts out.
type Doc struct {
	ID    string
	Entry diary.Entry
}

// Line is one lesson line of one diary, with the features it is compared
// by.
type Line struct {
	Diary   string     `json:"diary"`
	Session string     `json:"session,omitempty"`
	Task    string     `json:"-"`
	Project string     `json:"project,omitempty"`
	Date    string     `json:"date,omitempty"`
	Kind    diary.Kind `json:"section"`
	Text    string     `json:"line"`

	sigs     []string           // error signatures and commands, normalised
	vec      map[string]float64 // weighted features, unit length once weighed
	words    []string           // its content stems, sorted, each once
	ranks    []int8             // how strong each word is in vec (strengths)
	keys     []string           // vec's features, sorted
	concepts []string           // the lexicon's concepts it names
	areas    []string           // ... and their fields
}

// lessonKinds are the sections lessons are read from, and how much a
// line of each counts when a pattern's wording is chosen. Sections of
// other names (notes, a drafted "Files changed") are not read.
var lessonKinds = map[diary.Kind]float64{
	diary.Patterns:  1.0,
	diary.Mistakes:  0.9,
	diary.Worked:    0.8,
	diary.Errors:    0.7,
	diary.EdgeCases: 0.8,
	diary.Attempted: 0.6,
}

// Lines reads the lesson lines of docs in order.
func Lines(docs []Doc) []Line {
	var out []Line
	for _, d := range docs {
		for _, s := range d.Entry.Sections {
			if _, ok := lessonKinds[s.Kind]; !ok {
				continue
			}
			for _, it := range s.Items {
				if strings.TrimSpace(it) == "" {
					continue
				}
				out = append(out, Line{Diary: d.ID, Session: d.Entry.Session, Task: d.Entry.Task, Project: d.Entry.Project, Date: d.Entry.Date, Kind: s.Kind, Text: it})
			}
		}
	}
	return out
}

// Signature patterns: what names the same failure in different words.
var (
	sigRes = []*lazyre.Regexp{
		lazyre.New(`\b[A-Z][A-Za-z]*(?:Error|Exception|Exit|Panic|Fault)\b`),
		lazyre.New(`\b(?:TS|E|CS|SC|PLW?|[A-Z]{1,3})\d{3,5}\b`),
		lazyre.New(`\bE(?:CONN(?:REFUSED|RESET|ABORTED)|ADDRINUSE|ADDRNOTAVAIL|NOENT|ACCES|PERM|TIMEDOUT|NOSPC|MFILE|PIPE|EXIST|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH|NOTEMPTY|ROFS|BADF|AGAIN)\b`),
		lazyre.New(`(?i)\bexit(?:ed)?(?: with)?(?: status| code)? (\d{1,3})\b`),
		lazyre.New(`(?i)\b(?:HTTP|status) ([45]\d\d)\b`),
		lazyre.New(`\bOOMKilled\b|\bCrashLoopBackOff\b|\bImagePullBackOff\b|\bSIGKILL\b|\bSIGSEGV\b|\bSIGTERM\b`),
	}
	codeSpan = lazyre.New("`([^`]{1,120})`")
	numOnly  = lazyre.New(`^\d+$`)
)

// signatures returns the normalised error signatures and command heads of
// a line: "exit 137", "TypeError", "TS2322", "cmd:make migrate".
func signatures(text string) []string {
	var out []string
	for _, re := range sigRes {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			s := m[0]
			if len(m) > 1 && m[1] != "" {
				s = "code " + m[1]
			}
			out = append(out, strings.ToLower(s))
		}
	}
	for _, m := range codeSpan.FindAllStringSubmatch(text, -1) {
		f := strings.Fields(m[1])
		if len(f) == 0 || strings.ContainsAny(f[0], "/.") && len(f) == 1 {
			continue // a path or a file name, not a command
		}
		head := f[0]
		if len(f) > 1 && !strings.HasPrefix(f[1], "-") && !strings.ContainsAny(f[1], "/.=") {
			head += " " + f[1]
		}
		out = append(out, "cmd:"+strings.ToLower(head))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// filler are words every lesson uses in some form: they say how a
// lesson is put, not what it is about. Negation stays out of similarity
// too; Polarity reads it for conflicts.
var filler = sync.OnceValue(func() map[string]bool {
	filler := map[string]bool{}
	for _, w := range []string{
		"forgot", "forget", "forgetting", "missed", "miss", "remember", "always", "never", "must", "should",
		"need", "needs", "needed", "make", "sure", "ensure", "use", "used", "using", "tried", "try", "work",
		"worked", "works", "fix", "fixed", "fixes", "instead", "again", "first", "initially", "later", "turned",
		"out", "actually", "also", "because", "before", "after", "when", "then", "every", "time", "times",
		"once", "step", "thing", "things", "way", "lesson", "learned", "pattern", "note", "noted", "realised",
		"realized", "found", "caused", "cause", "due", "got", "get", "gets", "took", "take", "run", "ran",
		"running", "do", "did", "does", "done", "don't", "not", "no", "without", "avoid", "stop", "help",
		"helped", "better", "good", "bad", "new", "old", "issue", "problem", "problems", "failed", "fails",
		"failing", "fail", "failure", "error", "errors", "wrong", "correct", "correctly", "properly", "right",
		"still", "just", "only", "very", "really", "one", "two", "three", "all", "any", "some", "each",
	} {
		for _, t := range recall.Default.Terms(w, nil) {
			filler[t] = true
		}
	}
	return filler
})

// synonyms map a word to the stem of the word a diary writer might as
// well have used, so "db" meets "database" and "rerun" meets "retry":
// general engineering shorthand and near-synonyms only, never a
// project's names.
var synonyms = sync.OnceValue(func() map[string]string {
	synonyms := map[string]string{}
	groups := [][]string{
		{"database", "db", "dbs"},
		{"dependency", "deps", "dep", "dependencies"},
		{"configuration", "config", "cfg", "configs", "settings"},
		{"environment", "env", "envs"},
		{"kubernetes", "k8s"},
		{"repository", "repo", "repos"},
		{"authentication", "auth", "authn", "login"},
		{"credentials", "creds", "credential"},
		{"permissions", "perms", "permission"},
		{"directory", "dir", "dirs", "folder"},
		{"timezone", "tz", "timezones"},
		{"production", "prod"},
		{"deployment", "deploy", "deployed", "deploying", "rollout"},
		{"migration", "migrations", "migrate", "migrated", "migrating"},
		{"test", "tests", "testing", "spec", "specs"},
		{"retry", "retried", "retries", "retrying", "rerun", "reran", "rerunning", "reruns", "replay", "replayed", "redelivery", "redeliveries", "redelivered"},
		{"duplicate", "duplicates", "duplicated", "twice", "doubled", "double"},
		{"mock", "mocks", "mocked", "mocking", "fake", "faked", "fakes", "stub", "stubs", "stubbed"},
		{"cache", "caches", "cached", "caching", "clearcache"},
		{"stale", "outdated"},
		{"timeout", "timeouts", "deadline"},
		{"memory", "oom", "ram", "rss"},
		{"lockfile", "lock-file"},
		{"secret", "secrets", "token", "tokens", "apikey"},
		{"flaky", "flake", "flakes", "flakiness", "intermittent", "intermittently"},
		{"upgrade", "upgraded", "bump", "bumped", "bumps"},
	}
	for _, g := range groups {
		head := recall.Default.Terms(g[0], nil)
		if len(head) != 1 {
			continue
		}
		for _, w := range g[1:] {
			if t := recall.Default.Terms(w, nil); len(t) == 1 && t[0] != head[0] {
				synonyms[t[0]] = head[0]
			}
		}
	}
	return synonyms
})

// placeholderRe matches what redaction left in a line: a placeholder
// is not a lesson, and three lines that each had a secret are no pattern.
var placeholderRe = lazyre.New(`\[REDACTED:[a-z-]+\]|\[private\]`)

// terms returns the content stems of text, in order, filler out and
// shorthand mapped to its long form.
func terms(text string) []string {
	ts := recall.Default.Terms(placeholderRe.ReplaceAllString(text, " "), nil)
	out := ts[:0]
	for _, t := range ts {
		if s, ok := synonyms()[t]; ok {
			t = s
		}
		if filler()[t] || numOnly.MatchString(t) || len(t) < 2 {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Weights of the features a line is compared by.
const (
	wTerm   = 1.0
	wBigram = 0.5
	wSig    = 1.5
	// rareBelow: a feature in fewer diaries than this is rare (weights.rare).
	rareBelow = DefaultMinTasks
)

// weigh gives every line its feature vector: tf-idf over the diaries
// (a term in many tasks says little), unit length, so a dot product is a
// cosine. It returns the diaries' word counts the likeness model reads.
func weigh(lines []Line, w weights) corpus {
	raw := make([]map[string]float64, len(lines))
	df := map[string]map[string]bool{} // feature → diaries
	tasks := map[string]bool{}
	for i := range lines {
		l := &lines[i]
		tasks[l.Diary] = true
		f := map[string]float64{}
		ts := terms(l.Text)
		for j, t := range ts {
			f[t] += wTerm
			if j > 0 {
				f["bi:"+ts[j-1]+"_"+t] += wBigram
			}
		}
		l.words = slices.Compact(slices.Sorted(slices.Values(ts)))
		l.sigs = signatures(placeholderRe.ReplaceAllString(l.Text, " "))
		for _, s := range l.sigs {
			f["sig:"+s] += wSig
		}
		cs, as := lexicon.Concepts(placeholderRe.ReplaceAllString(l.Text, " "))
		l.concepts, l.areas = cs, as
		for _, c := range cs {
			f["c:"+c] += w.concept
		}
		for _, a := range as {
			f["a:"+a] += w.area
		}
		raw[i] = f
		for k := range f {
			if df[k] == nil {
				df[k] = map[string]bool{}
			}
			df[k][l.Diary] = true
		}
	}
	n := float64(len(tasks))
	c := corpus{df: map[string]int{}, n: len(tasks)}
	for k, ds := range df {
		c.df[k] = len(ds)
	}
	for i := range lines {
		v := map[string]float64{}
		norm := 0.0
		// In sorted order: a sum in map order may differ in its last digit
		// from run to run, and the likeness model's buckets would see it.
		for _, k := range slices.Sorted(maps.Keys(raw[i])) {
			tf := raw[i][k]
			idf := math.Log(1 + n/float64(len(df[k])))
			x := (1 + math.Log(tf)) * idf
			if tf < 1 {
				x = tf * idf
			}
			if len(df[k]) < 2 {
				// In one diary only, it cannot tie two tasks together; it
				// still says the line is about more than what it shares.
				x *= w.singleton
				norm += x * x
				continue
			}
			if len(df[k]) < rareBelow {
				// In fewer diaries than a pattern needs, it cannot carry
				// one alone: two tasks that share a rare name are the
				// coincidence a pattern must not be.
				x *= w.rare
			}
			v[k] = x
			norm += x * x
		}
		if w.topK > 0 && len(v) > w.topK {
			// Only a line's strongest features: a long line full of
			// specifics should not weigh its lesson down.
			ks := make([]string, 0, len(v))
			for k := range v {
				ks = append(ks, k)
			}
			slices.SortFunc(ks, func(a, b string) int {
				if v[a] != v[b] {
					if v[a] > v[b] {
						return -1
					}
					return 1
				}
				return strings.Compare(a, b)
			})
			for _, k := range ks[w.topK:] {
				norm -= v[k] * v[k] * (1 - w.drop*w.drop)
				v[k] = 0
				delete(v, k)
			}
		}
		norm = math.Sqrt(norm)
		for k := range v {
			v[k] /= norm
		}
		if norm == 0 {
			v = nil
		}
		lines[i].vec = v
		lines[i].keys = slices.Sorted(maps.Keys(v))
		lines[i].ranks = strengths(&lines[i])
	}
	return c
}

// cosine is the dot product of two unit vectors, summed in the sorted
// order of their features: in map order its last digit may differ from
// run to run, and the edge of a bucket or a tie would see it.
func cosine(a, b map[string]float64) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	return dot(slices.Sorted(maps.Keys(a)), a, b)
}

// lineCosine is cosine of two lines' vectors, with the keys they keep.
func lineCosine(a, b *Line) float64 {
	if len(a.keys) > len(b.keys) {
		a, b = b, a
	}
	return dot(a.keys, a.vec, b.vec)
}

// dot sums a[k]·b[k] over keys, in their order.
func dot(keys []string, a, b map[string]float64) float64 {
	s := 0.0
	for _, k := range keys {
		s += a[k] * b[k]
	}
	return s
}
