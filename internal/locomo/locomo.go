// Package locomo measures retrieval on the LoCoMo benchmark (Maharana et
// al., ACL 2024), following the protocol of the project's benchmark notes:
// one store per conversation, the question verbatim as the query, evidence
// ids normalised, documents ranked by score with ties to the earlier one,
// and recall R@k = |evidence ∩ ids(top k)| / |evidence| averaged per
// question, by category. The data (CC BY-NC 4.0) is read from a path; it
// is never copied into this repository.
package locomo

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/memdir/memdir/internal/lazyre"
)

// Turn is one utterance of a conversation.
type Turn struct {
	DiaID   string
	Speaker string
	Text    string
	Caption string // BLIP caption of a shared image, if any
	Session int
}

// QA is one question with its normalised evidence.
type QA struct {
	Question string
	Category int // 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
	Evidence []string
}

// Sample is one conversation and its questions.
type Sample struct {
	ID       string
	Turns    []Turn // in session order, then turn order
	Sessions []int  // session numbers, ascending
	QA       []QA
	Skipped  int // questions left without valid evidence
}

// Load reads a LoCoMo file (locomo10.json or a fixed version).
func Load(path string) ([]Sample, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var raw []struct {
		SampleID     string                     `json:"sample_id"`
		Conversation map[string]json.RawMessage `json:"conversation"`
		QA           []struct {
			Question string          `json:"question"`
			Category int             `json:"category"`
			Evidence json.RawMessage `json:"evidence"`
		} `json:"qa"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("%s is not a LoCoMo file: %w", path, err)
	}
	sessionKey := regexp.MustCompile(`^session_(\d+)$`)
	var out []Sample
	for _, r := range raw {
		s := Sample{ID: r.SampleID}
		for k, v := range r.Conversation {
			m := sessionKey.FindStringSubmatch(k)
			if m == nil || len(v) == 0 || v[0] != '[' {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			s.Sessions = append(s.Sessions, n)
		}
		sort.Ints(s.Sessions)
		valid := map[string]bool{}
		for _, n := range s.Sessions {
			var turns []struct {
				Speaker string `json:"speaker"`
				DiaID   string `json:"dia_id"`
				Text    string `json:"text"`
				Caption string `json:"blip_caption"`
			}
			if err := json.Unmarshal(r.Conversation["session_"+strconv.Itoa(n)], &turns); err != nil {
				return nil, fmt.Errorf("%s session %d: %w", r.SampleID, n, err)
			}
			for _, t := range turns {
				s.Turns = append(s.Turns, Turn{DiaID: t.DiaID, Speaker: t.Speaker, Text: t.Text, Caption: t.Caption, Session: n})
				valid[t.DiaID] = true
			}
		}
		if len(s.Sessions) == 0 {
			return nil, fmt.Errorf("%s: sample %s has no sessions", path, r.SampleID)
		}
		for _, q := range r.QA {
			var ev []string
			json.Unmarshal(q.Evidence, &ev) // a missing or odd evidence list is empty
			norm := NormEvidence(ev, valid)
			if len(norm) == 0 {
				s.Skipped++
				continue
			}
			s.QA = append(s.QA, QA{Question: q.Question, Category: q.Category, Evidence: norm})
		}
		out = append(out, s)
	}
	return out, nil
}

var (
	evSplit = lazyre.New(`[;,\s]+`)
	evID    = lazyre.New(`^D:?(\d+):(\d+)$`)
)

// NormEvidence normalises evidence strings: split on ; , and spaces, strip
// parentheses, accept D<s>:<t> and D:<s>:<t>, drop leading zeros, keep ids
// that exist, once each, in order.
func NormEvidence(ev []string, valid map[string]bool) []string {
	var out []string
	for _, e := range ev {
		for _, p := range evSplit.Split(e, -1) {
			m := evID.FindStringSubmatch(strings.Trim(p, "() "))
			if m == nil {
				continue
			}
			s, _ := strconv.Atoi(m[1])
			t, _ := strconv.Atoi(m[2])
			id := fmt.Sprintf("D%d:%d", s, t)
			if valid[id] && !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}

// Unit is what a document is.
type Unit string

const (
	TurnUnit    Unit = "turn"
	SessionUnit Unit = "session"
)

// Document is one retrievable unit: the turns it covers, in order.
type Document struct {
	IDs   []string
	Turns []Turn
}

// Documents cuts a sample into documents of the unit, in document order.
func Documents(s Sample, u Unit) []Document {
	var docs []Document
	switch u {
	case SessionUnit:
		for _, n := range s.Sessions {
			var d Document
			for _, t := range s.Turns {
				if t.Session == n {
					d.IDs = append(d.IDs, t.DiaID)
					d.Turns = append(d.Turns, t)
				}
			}
			docs = append(docs, d)
		}
	default:
		for _, t := range s.Turns {
			docs = append(docs, Document{IDs: []string{t.DiaID}, Turns: []Turn{t}})
		}
	}
	return docs
}

// Ranker ranks a sample's documents for a question: document numbers,
// best first. Documents it leaves out are ranked after, in document order.
type Ranker interface {
	Rank(question string) []int
}

// NewRanker builds a Ranker over one sample's documents.
type NewRanker func(s Sample, docs []Document) Ranker

// Ks are the cut-offs R@k is reported at.
var Ks = []int{1, 5, 10, 25, 50}

// Metrics are the per-bucket averages.
type Metrics struct {
	N      int                `json:"n"`
	Recall map[int]float64    `json:"recall"` // R@k
	Hit    map[int]float64    `json:"hit"`    // hit@k, k in 5, 10
	All10  float64            `json:"all@10"`
	NDCG10 float64            `json:"ndcg@10"`
	sum    map[string]float64 // accumulated
}

// Report holds the metrics by bucket: "1".."5", "1-4" and "all".
type Report struct {
	Unit    Unit                `json:"unit"`
	Buckets map[string]*Metrics `json:"buckets"`
	Skipped int                 `json:"skipped"` // questions without valid evidence
}

// Buckets lists the report's buckets in the order they are printed.
var Buckets = []string{"4", "1", "2", "3", "5", "1-4", "all"}

// CategoryNames names the categories by the authors' mapping.
var CategoryNames = map[string]string{"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop",
	"5": "adversarial", "1-4": "cats 1-4", "all": "all 5"}

// Evaluate ranks every question of every sample and averages the metrics.
func Evaluate(samples []Sample, u Unit, newRanker NewRanker) Report {
	rep := Report{Unit: u, Buckets: map[string]*Metrics{}}
	for _, b := range Buckets {
		rep.Buckets[b] = &Metrics{sum: map[string]float64{}}
	}
	for _, s := range samples {
		rep.Skipped += s.Skipped
		docs := Documents(s, u)
		r := newRanker(s, docs)
		for _, q := range s.QA {
			order := complete(r.Rank(q.Question), len(docs))
			keys := []string{strconv.Itoa(q.Category), "all"}
			if q.Category != 5 {
				keys = append(keys, "1-4")
			}
			m := score(q, docs, order)
			for _, k := range keys {
				b := rep.Buckets[k]
				b.N++
				for name, v := range m {
					b.sum[name] += v
				}
			}
		}
	}
	for _, b := range rep.Buckets {
		b.Recall, b.Hit = map[int]float64{}, map[int]float64{}
		if b.N == 0 {
			continue
		}
		n := float64(b.N)
		for _, k := range Ks {
			b.Recall[k] = b.sum["R@"+strconv.Itoa(k)] / n
		}
		b.Hit[5], b.Hit[10] = b.sum["hit@5"]/n, b.sum["hit@10"]/n
		b.All10, b.NDCG10 = b.sum["all@10"]/n, b.sum["ndcg@10"]/n
	}
	return rep
}

// complete appends the documents a ranking left out, in document order.
func complete(order []int, n int) []int {
	seen := make([]bool, n)
	out := make([]int, 0, n)
	for _, d := range order {
		if d >= 0 && d < n && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for d := range n {
		if !seen[d] {
			out = append(out, d)
		}
	}
	return out
}

func score(q QA, docs []Document, order []int) map[string]float64 {
	ev := map[string]bool{}
	for _, e := range q.Evidence {
		ev[e] = true
	}
	m := map[string]float64{}
	got := map[string]bool{}
	pos := 0
	for _, k := range []int{1, 5, 10, 25, 50} {
		for ; pos < k && pos < len(order); pos++ {
			for _, id := range docs[order[pos]].IDs {
				if ev[id] {
					got[id] = true
				}
			}
		}
		found := float64(len(got))
		m["R@"+strconv.Itoa(k)] = found / float64(len(ev))
		if k == 5 || k == 10 {
			m["hit@"+strconv.Itoa(k)] = b2f(found > 0)
		}
		if k == 10 {
			m["all@10"] = b2f(len(got) == len(ev))
		}
	}
	relevant := func(d int) bool {
		for _, id := range docs[d].IDs {
			if ev[id] {
				return true
			}
		}
		return false
	}
	var dcg, idcg float64
	nrel := 0
	for d := range docs {
		if relevant(d) {
			nrel++
		}
	}
	for i, d := range order[:min(10, len(order))] {
		if relevant(d) {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	for i := range min(nrel, 10) {
		idcg += 1 / math.Log2(float64(i+2))
	}
	if idcg > 0 {
		m["ndcg@10"] = dcg / idcg
	}
	return m
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
