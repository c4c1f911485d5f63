package consolidate

import (
	"slices"
	"strings"
	"testing"
)

func TestSteps(t *testing.T) {
	got := steps("j", 0.12, fracLadder)
	want := []string{"j≥0.03", "j≥0.05", "j≥0.07", "j≥0.09", "j≥0.11"}
	if !slices.Equal(got, want) {
		t.Errorf("steps(0.12) = %v, want %v", got, want)
	}
	if got := steps("j", 0.01, fracLadder); len(got) != 0 {
		t.Errorf("steps(0.01) = %v, want none", got)
	}
}

// The embedded model parses and has learned something: weights for the
// overlap ladders, and a negative bias (most compared pairs are two
// memories).
func TestSameness_Embedded(t *testing.T) {
	m := sameness()
	if len(m.Weights) < 20 {
		t.Fatalf("%d weights: the model is a placeholder", len(m.Weights))
	}
	if m.Bias >= 0 {
		t.Errorf("bias %.2f: a pair of memories would be one memory by default", m.Bias)
	}
	if lo, hi := m.Score(steps("j", 0.05, fracLadder)), m.Score(steps("j", 0.4, fracLadder)); hi <= lo {
		t.Errorf("sharing 40%% of weighted words scores %.2f, 5%% %.2f: want more for more", hi, lo)
	}
}

func TestCodeSet(t *testing.T) {
	got := slices.Sorted(func(yield func(string) bool) {
		for k := range codeSet("Run `make test-fast` or ./bin/check --nomigrations; see https://wiki.example.com/x).") {
			if !yield(k) {
				return
			}
		}
	})
	want := []string{"--nomigrations", "./bin/check", "https://wiki.example.com/x", "make test-fast"}
	if !slices.Equal(got, want) {
		t.Errorf("codeSet = %q, want %q", got, want)
	}
}

// An op the validator would refuse is left for a model with its reason,
// and the rest of the plan stands: once, a merge whose text turned a fact
// around made 'memdir dream' fail on a whole folder.
func TestAdd_InvalidOpLeftForModel(t *testing.T) {
	in := Input{Now: now, Items: []Item{
		{File: "a.md", Name: "webhook body", Type: "feedback", Body: "Never touch the body before the HMAC is checked.", Created: date("2026-02-01")},
		{File: "b.md", Name: "webhook hmac", Type: "feedback", Body: "Hash the raw body with HMAC-SHA256.", Created: date("2026-03-01")},
	}}
	p := newPlanner(in, nil)
	p.add(Op{Kind: Merge, Files: []string{"a.md", "b.md"}, Keep: "b.md", Retire: []string{"a.md"},
		Edit: &Edit{Body: "Hash the raw body with HMAC-SHA256; touch the body before the HMAC is checked."}})
	if len(p.ops) != 0 {
		t.Fatalf("planned %v, want the merge refused", p.ops)
	}
	if len(p.left) != 1 || !strings.Contains(p.left[0].Why, "turns a fact") || p.retired["a.md"] {
		t.Errorf("left = %+v, retired = %v: want the merge left for a model with the validator's reason", p.left, p.retired)
	}
	p.add(Op{Kind: Merge, Files: []string{"a.md", "b.md"}, Keep: "b.md", Retire: []string{"a.md"},
		Edit: &Edit{Body: "Hash the raw body with HMAC-SHA256. Never touch the body before the HMAC is checked."}})
	if len(p.ops) != 1 || !p.retired["a.md"] {
		t.Fatalf("a valid merge was not planned: ops %v", p.ops)
	}
	// A later step (a date rewrite folded into the merge) changes its text:
	// the plan validates it again.
	p.ops[0].Edit.Body = "Hash the raw body with HMAC-SHA256."
	if plan := p.plan(); len(plan.Ops) != 0 || len(plan.LeftForModel) != 2 {
		t.Errorf("plan %+v: want the merge that now loses a fact left for a model", plan)
	}
}

// Groups grow by mean likeness: A like B and B like C do not make A one
// memory with C when A and C were never found alike.
func TestMerge_NoChains(t *testing.T) {
	in := Input{Now: now}
	for _, f := range []string{"a.md", "b.md", "c.md"} {
		in.Items = append(in.Items, Item{File: f, Name: f, Type: "feedback", Body: "Fact of " + f + ".", Created: date("2026-02-01")})
	}
	p := newPlanner(in, nil)
	p.same[[2]int{0, 1}] = 5
	p.same[[2]int{1, 2}] = 4
	p.merge([]pair{{a: 0, b: 1, same: 5, jaccard: 0.5}, {a: 1, b: 2, same: 4, jaccard: 0.4}})
	if got := ids(Plan{Ops: p.ops}); !slices.Equal(got, []string{"merge:a.md+b.md"}) {
		t.Errorf("ops %v, want a.md and b.md merged, c.md left apart", got)
	}
	p = newPlanner(in, nil)
	p.same[[2]int{0, 1}], p.same[[2]int{1, 2}], p.same[[2]int{0, 2}] = 5, 4, 3
	p.merge([]pair{{a: 0, b: 1, same: 5, jaccard: 0.5}, {a: 1, b: 2, same: 4, jaccard: 0.4}})
	if got := ids(Plan{Ops: p.ops}); !slices.Equal(got, []string{"merge:a.md+b.md+c.md"}) {
		t.Errorf("ops %v, want the three merged: each is like the others", got)
	}
}

// A capitalised name inside a sentence is a value whole: "BigQuery", not
// "Big" (which once read "Feast … BigQuery" against "BigQuery … Feast" as
// a change of value).
func TestValues_CamelCaseName(t *testing.T) {
	got := values("Prod Feast offline store lives in BigQuery project sable-fs-prod")
	for _, want := range []string{"feast", "bigquery"} {
		if !got[want] {
			t.Errorf("values = %v, want %q among them", got, want)
		}
	}
	if got["big"] {
		t.Errorf("values = %v: a name cut at its second capital", got)
	}
}

// A value one sentence names anyway is no value changed: "Feast" opens
// one sentence (so it is not read as a value) and sits inside the other.
func TestValueDiff_NamedAnyway(t *testing.T) {
	from, to := valueDiff("Prod Feast offline store: BigQuery project sable-fs-prod.", "Feast prod offline store lives in BigQuery project sable-fs-prod.")
	if len(from) != 0 || len(to) != 0 {
		t.Errorf("valueDiff = %v, %v; want nothing changed", from, to)
	}
}

// fillers are ordinary memories of one project, so that a folder's idf
// tells its rare words from its common ones.
var fillers = []string{
	"Run the unit tests with make test; CI runs the same target.", "Staging is at staging.example.com, behind the VPN.",
	"Use one PR per change and keep the title in the imperative.", "Dashboards live in Grafana under the Platform folder.",
	"Keep one branch per feature and rebase before review.", "Only one deploy at a time: the deploy job holds a lock.",
	"One reviewer is enough for docs-only PRs.", "The API is a Django app under api/; Celery workers under worker/.",
	"Postgres 16 in every environment; Redis 7 for the Celery broker.", "Frontend is Next.js in web/, built with pnpm.",
	"On-call rotates weekly; the schedule is in PagerDuty.", "Feature flags live in LaunchDarkly, one project per app.",
	"Logs go to Datadog; search by service:api or service:worker.", "Secrets are in AWS Secrets Manager, read at start-up.",
	"Release notes are drafted from merged PRs labelled release-notes.", "The design system is in the ui/ package; no inline styles.",
}

// One lesson saved twice, once as the rule and once from the deploy it
// broke, shares few words; the sameness model merges it. Two memories of
// one template with their own values are never merged (whether the newer
// replaced the older is the supersede rules' to say).
func TestHeuristic_MergesParaphrase(t *testing.T) {
	items := amongFillers([]Item{
		{File: "rule.md", Name: "Don't edit applied migrations", Type: "feedback", Created: date("2026-03-02"),
			Description: "Never change a migration that already ran on staging or prod; add a new one",
			Body:        "A migration applied anywhere is frozen: write a new migration instead of editing or renumbering it.\n**Why:** editing 0042 broke a prod deploy."},
		{File: "incident.md", Name: "InconsistentMigrationHistory on deploy", Type: "feedback", Created: date("2026-07-14"),
			Description: "Prod deploy failed with InconsistentMigrationHistory after an applied migration was renumbered",
			Body:        "The prod deploy failed with InconsistentMigrationHistory: a PR renumbered a migration that prod had already applied.\nApplied migrations are never edited or renumbered; add a new migration instead."},
		{File: "staging-db.md", Name: "Staging database", Type: "reference", Created: date("2026-02-01"), Body: "Staging runs Postgres 16 on host db-staging, port 5432."},
		{File: "prod-db.md", Name: "Production database", Type: "reference", Created: date("2026-02-03"), Body: "Production runs Postgres 16 on host db-prod, port 6432."},
	}, "project", fillers...)
	p := Heuristic(Input{Now: now, Items: items})
	got := ids(p)
	if !slices.Contains(got, "merge:incident.md+rule.md") {
		t.Errorf("ops %v: want the rule and its incident merged", got)
		for _, c := range p.LeftForModel {
			t.Log(c.Files, c.Why)
		}
	}
	for _, id := range got {
		if strings.HasPrefix(id, "merge:") && strings.Contains(id, "db.md") {
			t.Errorf("ops %v: the two databases are two memories", got)
		}
	}
}

// A merge adds each sentence of a retired memory the kept text does not
// say in so many words: most of its words are not enough when its command
// or its point is missing.
func TestSaid(t *testing.T) {
	kept := "Runbook for failed DAGs: Confluence space COB, page \"Cobalt Data On-call Runbook\". User wants the diff shown first, then at most three lines of explanation."
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"Runbook for failed DAGs: Confluence space COB.", true},
		{"Failed DAGs: the COB runbook has the `airflow tasks clear` commands.", false},
		{"Show the diff first, then at most three lines of why.", false},
		{"User wants the diff shown first, then at most three lines.", true},
	} {
		if got := said(tc.s, kept); got != tc.want {
			t.Errorf("said(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// A merge of two memories that first read as opposite polarities (a
// rule and the incident that taught it) waits for a person: an automatic
// run applies none.
func TestHeuristic_SoftenedMergeNotSure(t *testing.T) {
	items := amongFillers([]Item{
		{File: "incident.md", Name: "Stale trainer image", Type: "feedback", Created: date("2026-02-20"),
			Description: "churn-train pulled a cached trainer:latest image",
			Body:        "The churn-train pipeline pulled a cached trainer:latest image on the GKE node."},
		{File: "rule.md", Name: "Stale trainer image", Type: "feedback", Created: date("2026-09-11"),
			Description: "Never let churn-train pull a cached trainer:latest image",
			Body:        "Never let the churn-train pipeline pull a cached trainer:latest image on the GKE node."},
	}, "project", fillers...)
	p := newPlanner(Input{Now: now, Items: items}, nil)
	var softened bool
	for _, pr := range p.compared() {
		softened = softened || pr.softened
	}
	if !softened {
		t.Fatal("the pair did not read as opposite polarities: the case tests nothing")
	}
	plan := Heuristic(Input{Now: now, Items: items})
	for _, op := range plan.Ops {
		if op.Kind == Merge && op.Lossless {
			t.Errorf("%s is marked sure: an automatic run would apply it", op.ID)
		}
	}
	if !slices.Contains(ids(plan), "merge:incident.md+rule.md") {
		t.Errorf("ops %v: want the two merged, for a person to confirm", ids(plan))
	}
}

// TestPlan_LeftForModelLikeliestFirst: a plan lists what it left for a
// reason of its own first, then the pairs only the sameness model left
// undecided, most likely one memory first, so that a model judging the
// first MaxJudged of a large folder reads the likeliest; ties by id.
func TestPlan_LeftForModelLikeliestFirst(t *testing.T) {
	p := &planner{left: []Candidate{
		{Kind: Merge, Files: []string{"c.md", "d.md"}, odds: -0.5, scored: true},
		{Kind: Merge, Files: []string{"g.md", "h.md"}, odds: 1.2, scored: true},
		{Kind: Supersede, Files: []string{"e.md", "f.md"}},
		{Kind: Merge, Files: []string{"a.md", "b.md"}, odds: 1.2, scored: true},
	}}
	var got []string
	for _, c := range p.plan().LeftForModel {
		got = append(got, c.Files[0])
	}
	if want := []string{"e.md", "a.md", "g.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
