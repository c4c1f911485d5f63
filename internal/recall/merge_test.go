package recall

import (
	"fmt"
	"slices"
	"testing"
)

// indexOf indexes memories given as name, description, body.
func indexOf(ms ...[3]string) *Index {
	docs := make([]Doc, len(ms))
	for i, m := range ms {
		docs[i] = Analyse(Memory{Name: m[0], Description: m[1], Body: m[2]})
	}
	return NewIndex(docs, DefaultParams)
}

// filler is n memories about other things.
func filler(n int) [][3]string {
	var out [][3]string
	for i := range n {
		out = append(out, [3]string{fmt.Sprintf("Note %d", i), "About the payments cache loader", "Retry with backoff when the loader times out."})
	}
	return out
}

// A clearly better memory outranks a weaker one whichever folder holds
// it, though the folders' sizes differ tenfold and the query's word is
// rare in one and common in the other: each folder's own idf would rank
// the big folder's passing mention first (see Merged).
func TestMergedBetterMemoryWins(t *testing.T) {
	strong := [3]string{"Deploy checklist", "Deploy through the staging checklist", "Run the deploy check on staging before every deploy."}
	weak := [3]string{"Payments retries", "How payments retry", "Once we talked about a deploy on staging as an aside."}
	other := [3]string{"Deploy window", "Deploys happen on weekdays", "Staging first."}
	terms, groups := Default.Prompt("deploy staging checklist")
	for _, tc := range []struct {
		name            string
		private, team   [][3]string
		wantPart        int
		wantFile, loser int
	}{
		{name: "team memory better", private: append(filler(40), weak), team: [][3]string{strong, other}, wantPart: 1},
		{name: "private memory better", private: append(filler(40), strong), team: [][3]string{weak, other}, wantPart: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			priv, team := indexOf(tc.private...), indexOf(tc.team...)
			// Each folder's own scores put the big folder's memory first.
			pOwn, tOwn := priv.SearchGroups(terms, groups), team.SearchGroups(terms, groups)
			if tc.wantPart == 1 && !(pOwn[0].Score > tOwn[0].Score) {
				t.Fatalf("the case does not show the problem: private %v, team %v", pOwn[0], tOwn[0])
			}
			mx := Merge(priv, team)
			got := mx.SearchGroups(terms, groups)
			part, local := mx.Locate(got[0].Doc)
			want := len(tc.private) - 1 // the strong or weak memory, last of the private folder
			if tc.wantPart == 1 {
				want = 0
			}
			if part != tc.wantPart || local != want {
				t.Fatalf("best is part %d doc %d (%+v), want part %d doc %d; ranking %+v", part, local, got[0], tc.wantPart, want, got)
			}
			top := mx.TopGroups(terms, groups, 1, DefaultPolicy.Threshold)
			if len(top) != 1 || top[0] != got[0] {
				t.Fatalf("TopGroups = %+v, want %+v", top, got[0])
			}
		})
	}
}

// Merged's TopGroups is its SearchGroups filtered by the gate and cut to
// k; a Merged of one index is that index, bit for bit.
func TestMergedTopGroups(t *testing.T) {
	a, b := indexOf(filler(7)...), indexOf(append(filler(3), [3]string{"Cache loader", "The loader warms the payments cache", "Backoff after a timeout."})...)
	mx := Merge(a, b)
	if mx.Len() != 11 || mx.Offset(1) != 7 {
		t.Fatalf("Len %d, Offset(1) %d", mx.Len(), mx.Offset(1))
	}
	for _, q := range []string{"payments cache loader", "backoff timeout", "loader", "nothing here at all"} {
		terms, groups := Default.Prompt(q)
		for _, k := range []int{1, 3, 20} {
			var want []Scored
			for _, s := range mx.SearchGroups(terms, groups) {
				if eligible(s, 0.4) && len(want) < k {
					want = append(want, s)
				}
			}
			if got := mx.TopGroups(terms, groups, k, 0.4); !slices.Equal(got, want) {
				t.Fatalf("%q k=%d: TopGroups %+v, want %+v", q, k, got, want)
			}
		}
		if got, want := Merge(a).SearchGroups(terms, groups), a.SearchGroups(terms, groups); !slices.Equal(got, want) {
			t.Fatalf("%q: one part %+v, want %+v", q, got, want)
		}
	}
	// Pooled idf: the df of both folders over both folders' documents.
	if got, want := mx.Part(0).IDF("loader"), idf(11, 11); got != want {
		t.Fatalf("pooled idf %v, want %v", got, want)
	}
}
