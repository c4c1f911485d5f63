package consolidate

import (
	"slices"
	"testing"
)

// TestHeuristic_NotSure: alike memories about different things are never
// superseded or merged unattended. Each case is two memories a user saved
// (from a review of the automatic run, which applied all of them once);
// what the plan may hold for them is listed, and no operation on them may
// be sure (Lossless: what the automatic run applies).
func TestHeuristic_NotSure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, b    Item
		allowed []Kind // operations the plan may propose for a person
	}{
		{"TwoServicesTwoPorts",
			Item{Name: "Postgres port", Type: "reference", Body: "The local Postgres listens on port 5432."},
			Item{Name: "Redis port", Type: "reference", Body: "The local Redis listens on port 6379."}, nil},
		{"TwoLanguagesTwoRules",
			Item{Name: "Go tests", Type: "feedback", Body: "Write Go tests table-driven."},
			Item{Name: "Python tests", Type: "feedback", Body: "In Python, don't use table-driven tests; use pytest fixtures."}, nil},
		{"TwoDatabasesTwoVersions",
			Item{Name: "Staging database", Type: "reference", Body: "Staging runs Postgres 15 on host db-staging."},
			Item{Name: "Prod database", Type: "reference", Body: "Production runs Postgres 16 on host db-prod."}, []Kind{Supersede}},
		{"TwoFlags",
			Item{Name: "Server trace flag", Type: "reference", Body: "Run `server --trace` to see every request."},
			Item{Name: "Server verbose flag", Type: "reference", Body: "Run `server --verbose` to see every log line."}, []Kind{Merge}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.a.File, tc.a.Created = "a.md", date("2026-02-01")
			tc.b.File, tc.b.Created = "b.md", date("2026-03-01")
			items := amongFillers([]Item{tc.a, tc.b}, "project", "Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
				"Dashboards live in Grafana.", "Keep one branch per feature.", "Only one deploy at a time.")
			p := Heuristic(Input{Now: now, Items: items})
			for _, op := range p.Ops {
				if !slices.Contains(op.Files, "a.md") || !slices.Contains(op.Files, "b.md") {
					continue
				}
				if op.Lossless {
					t.Errorf("%s is sure (an automatic run would apply it): %s", op.ID, op.Reason)
				}
				if !slices.Contains(tc.allowed, op.Kind) {
					t.Errorf("%s planned: %s", op.ID, op.Reason)
				}
			}
		})
	}
	t.Run("SameTime", func(t *testing.T) {
		a := Item{File: "a.md", Name: "deploys", Type: "project", Body: "Deploys go through ArgoCD.", Created: date("2026-02-01")}
		b := Item{File: "b.md", Name: "deploys now", Type: "project", Body: "We moved deploys from ArgoCD to GitHub Actions.", Created: date("2026-02-01")}
		p := Heuristic(Input{Now: now, Items: []Item{a, b}})
		if len(p.Ops) != 0 || len(p.LeftForModel) != 1 {
			t.Errorf("two memories written at the same time: ops %v, left %v; want it left for a model", ids(p), p.LeftForModel)
		}
	})
}
