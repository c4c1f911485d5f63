package workspace

import (
	"testing"

	"github.com/memdir/memdir/internal/learning"
	"github.com/memdir/memdir/internal/synthesis"
)

// TestRoutable: what a day's summary routes. A learning that came back
// after its old version went to the archive is routed (the archive holds
// another learning: another date); the same learning, archived, is not; a
// learning dated before its day is routed with its day; a day past the
// decay age routes nothing.
func TestRoutable(t *testing.T) {
	archive, err := learning.ParseArchive("# Decay Archive\n\n## Archived 2026-11-12\n" +
		"- **Arrow export broken** [api/error] (2026-11-10): pyarrow 15 breaks export\n  - *Source: api-long-term-memory.md*\n")
	if err != nil {
		t.Fatal(err)
	}
	m := &synthesis.Memory{Memory: learning.Memory{Archive: archive}}
	s := learning.DefaultSettings()
	again := learning.Learning{Title: "Arrow export broken", Scope: "api", Type: learning.Error, Date: "2026-11-20", Description: "broken again after the upgrade"}
	same := learning.Learning{Title: "Arrow export broken", Scope: "api", Type: learning.Error, Date: "2026-11-10", Description: "pyarrow 15 breaks export"}
	early := learning.Learning{Title: "Old habit", Scope: "api", Type: learning.BestPractice, Date: "2026-10-10", Description: "stated on the day, dated when it began"}
	got := routable([]learning.Learning{again, same, early}, m, s, "2026-11-21", "2026-11-20")
	if len(got) != 2 || got[0].Date != "2026-11-20" || got[1].Title != "Old habit" {
		t.Fatalf("routable = %+v, want the learning that came back and the early-dated one", got)
	}
	if got := routable([]learning.Learning{again}, m, s, "2026-12-31", "2026-11-20"); got != nil {
		t.Fatalf("a day past the decay age routed %+v", got)
	}
	if got := routable([]learning.Learning{again}, m, s, "2026-12-20", "2026-11-20"); len(got) != 1 {
		t.Fatalf("a day of exactly the decay age routed %+v", got)
	}
}
