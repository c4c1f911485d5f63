package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Cases a read-only review of the 2026-11-30 dream changes demonstrated:
// each failed on the engine of that day.
func TestHeuristic_Review1130(t *testing.T) {
	sup := func(t *testing.T, old, new Item, want bool) {
		t.Helper()
		p := reviewPair(old, new)
		if got := slices.Contains(ids(p), "supersede:new.md+old.md"); got != want {
			t.Errorf("superseded %v, want %v: %v", got, want, reasons(p))
		}
	}
	t.Run("AdoptionElsewhere", func(t *testing.T) { // the older forbids sqlc in billing; the newer adopts it in store
		sup(t, Item{Name: "Hand-written SQL in the billing store", Body: "Don't add sqlc to internal/billing: its queries are written by hand with pgx because of the dynamic filters."},
			Item{Name: "Store package queries", Body: "We switched internal/store to sqlc. New queries go in internal/store/queries/*.sql; run make generate."}, false)
	})
	for name, b := range map[string]string{"AdoptionQuoted": "We switched internal/store to `sqlc`.", "AdoptionThe": "We switched internal/store to the sqlc generator."} {
		t.Run(name, func(t *testing.T) {
			sup(t, Item{Name: "Hand-written SQL in the store", Body: "Don't add sqlc or any query generator: queries in internal/store are written by hand with pgx."},
				Item{Name: "Store package queries", Body: b + " New queries go in internal/store/queries/*.sql; run make generate."}, true)
		})
	}
	t.Run("OverridesNounIsNoException", func(t *testing.T) {
		sup(t, Item{Name: "Feature flags", Description: "Feature flags are served by Flagsmith", Body: "Feature flags are served by Flagsmith; the SDK reads them at boot."},
			Item{Name: "Feature flags", Description: "Feature flags moved from Flagsmith to LaunchDarkly; per-user overrides live in the LD dashboard", Body: "Feature flags moved from Flagsmith to LaunchDarkly. Per-user overrides are set in the LD dashboard."}, true)
	})
	t.Run("OlderExceptionKept", func(t *testing.T) { // oneException's own example, the exception written first
		sup(t, Item{Name: "Live blog cache TTL", Description: "Live blog pages are the exception to the article TTL: 10 seconds at the CDN", Body: "Live blog pages are cached at the CDN for 10 seconds."},
			Item{Name: "Article cache TTL", Description: "Article pages are cached at the CDN for 5 minutes", Body: "Article pages are cached at the CDN for 300 seconds."}, false)
	})
	t.Run("AmountOfAnotherSubject", func(t *testing.T) { // the older's section-front TTL is lost
		sup(t, Item{Name: "CDN cache TTL", Description: "Article pages are cached 5 minutes at the CDN, section fronts 1 minute", Body: "Article pages are cached at the CDN for 5 minutes. Section fronts are cached in the CDN only 1 minute, since they change often."},
			Item{Name: "CDN cache TTL", Description: "Article pages are cached 5 minutes at the CDN", Body: "Article pages are cached at the CDN for 5 minutes."}, false)
	})
	t.Run("StagesAreNoStaging", func(t *testing.T) {
		sup(t, Item{Name: "Android rollout", Description: "Android releases roll out to 10% of users first", Body: "Android releases roll out to 10% of users first, then 100% after a day."},
			Item{Name: "Android rollout", Description: "Android releases now roll out in stages: 20% of users first", Body: "Android releases now roll out in stages: 20% of users first, then 100% after a day."}, true)
	})
	expire := func(t *testing.T, desc, body, created string) {
		t.Helper()
		p := Heuristic(Input{Now: now, Items: []Item{{File: "m.md", Name: "m", Description: desc, Type: "project", Body: body, Created: date(created)}}})
		if !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("not expired: %v", reasons(p))
		}
	}
	t.Run("OneOffWeekdayEvent", func(t *testing.T) {
		expire(t, "The Saturday maintenance window takes the API down 02:00-04:00 UTC", "The Saturday maintenance window takes the API down from 02:00 to 04:00 UTC while the primary is resized.", "2026-11-04")
	})
	t.Run("DayAfterAnEvent", func(t *testing.T) {
		in := "We ship the Monday right after launch."
		if got := absoluteIn(in, Item{Type: "project", Created: date("2026-11-04"), Body: in}); got == in {
			t.Errorf("%q left undated", in)
		}
	})
	t.Run("DueEndOfQ1", func(t *testing.T) {
		expire(t, "SOC2 evidence pack due end of Q1", "SOC2 evidence pack due end of Q1; Dana collects it.", "2026-01-10")
	})
	t.Run("DayOfEachMonth", func(t *testing.T) {
		for _, in := range []string{"Billing runs on the 1st and 15th of each month.", "On the 1st of each quarter a Lambda archives old parquet."} {
			if got := absoluteIn(in, Item{Type: "project", Created: date("2026-07-06"), Body: in}); got != in {
				t.Errorf("%q dated as %q", in, got)
			}
		}
	})
	t.Run("ValidateFirstLast", func(t *testing.T) {
		in, p := validInput(), validPlan()
		in.Items[2].Body = "Run the last migration by hand, first on staging, next Friday."
		p.Ops[1].Edit = &Edit{Body: "Run the migration by hand, on staging, Friday 2026-03-06."}
		if err := Validate(in, p); err == nil || !strings.Contains(err.Error(), "drops") {
			t.Errorf("a date op dropping 'last' and 'first' passes: %v", err)
		}
	})
	t.Run("TodoInCodeBlock", func(t *testing.T) {
		body := "Restore one table from the nightly dump:\n\n```sh\npg_restore --data-only -t orders -d app nightly.dump\n# TODO: add --no-owner once staging has its own role\n```\n"
		it := Item{File: "r.md", Type: "reference", Name: "Restoring a table", Description: "How to restore one table from the nightly pg_dump", Body: body, Created: date("2026-03-11"),
			Usage: Usage{Since: date("2026-01-01"), Injected: 3, LastInjected: date("2026-03-13")}}
		if p := Heuristic(Input{Now: now, Items: []Item{it}}); slices.Contains(ids(p), "prune:r.md") {
			t.Errorf("a runbook pruned for a code comment: %v", reasons(p))
		}
	})
}
