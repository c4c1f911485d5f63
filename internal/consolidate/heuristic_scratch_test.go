package consolidate

import (
	"encoding/json"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	d := func(s string) time.Time { t, _ := time.Parse(time.DateOnly, s); return t }
	in := Input{Now: d("2026-11-25"), Items: []Item{
		{File: "pnpm.md", Name: "pnpm", Type: "feedback", Body: "Use pnpm for installs, not npm. Run pnpm install --frozen-lockfile in CI.", Created: d("2026-01-02")},
		{File: "pnpm2.md", Name: "package manager pnpm", Type: "feedback", Body: "Use pnpm for installs in this repo. Lockfile must be frozen in CI with pnpm install --frozen-lockfile.", Created: d("2026-01-01")},
		{File: "host.md", Name: "hosting", Type: "project", Body: "We deploy the API on Heroku.", Created: d("2026-01-01")},
		{File: "host2.md", Name: "hosting moved", Type: "project", Body: "Moved hosting from Heroku to Fly.io in March.", Created: d("2026-04-01")},
		{File: "freeze.md", Name: "freeze", Type: "project", Body: "Merge freeze until next Friday for the release.", Created: d("2026-03-02")},
		{File: "demo.md", Name: "demo", Type: "project", Body: "The demo is on the 14th; prepare slides in two weeks.", Created: d("2026-11-02")},
		{File: "tabs.md", Name: "tabs", Type: "feedback", Body: "Indent with tabs.", Created: d("2026-01-01")},
		{File: "tabs2.md", Name: "no tabs", Type: "feedback", Body: "Don't indent with tabs, indent with spaces.", Created: d("2026-05-01")},
		{File: "old.md", Name: "old", Type: "project", Body: "Old.", Created: d("2026-01-01"), SupersededBy: "new.md"},
		{File: "long.md", Name: "long", Type: "reference", Description: "This is a very long description of the dashboard that goes on and on, naming Grafana, the on-call rotation, the alert routes, and the runbook link at length too", Body: "Grafana dashboard.", Created: d("2026-10-01")},
	}, Index: Index{Lines: 230}}
	p := Heuristic(in)
	b, _ := json.MarshalIndent(p, "", "  ")
	t.Log(string(b))
	if err := Validate(in, p); err != nil {
		t.Error(err)
	}
}
