package consolidate

import (
	"slices"
	"strings"
	"testing"
)

// Cases a second read-only review of the 2026-11-30 dream changes
// demonstrated: each failed on the engine of that day.
func TestHeuristic_Review1130b(t *testing.T) {
	sup := "supersede:new.md+old.md"
	t.Run("FutureMonthDayReadAsPast", func(t *testing.T) { // 31 Oct is 205 days ahead of 9 Apr, 160 behind
		it := Item{File: "m.md", Name: "Acme contract", Description: "Acme contract end", Type: "project", Created: date("2026-04-09"),
			Body: "The Acme contract runs until 31 October; after that we move to Bolt."}
		if got := absoluteIn(it.Body, it); !strings.Contains(got, "2026-10-31") {
			t.Errorf("undated: %q", got)
		}
		if p := Heuristic(Input{Now: now, Items: amongFillers([]Item{it}, "reference", "Run the tests with make test.")}); !slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("not expired: %v", reasons(p))
		}
	})
	t.Run("RecurringObligationExpired", func(t *testing.T) {
		it := Item{File: "m.md", Name: "Backup restore drill", Description: "Restore drills", Type: "project", Created: date("2026-01-10"),
			Body: "Every quarter the on-call must run a full restore drill, the next one by 2026-03-31."}
		if p := Heuristic(Input{Now: now, Items: amongFillers([]Item{it}, "reference", "Run the tests with make test.")}); slices.Contains(ids(p), "expire:m.md") {
			t.Errorf("a quarterly duty expired: %v", reasons(p))
		}
	})
	t.Run("AlternativeIsNoPlace", func(t *testing.T) { // elsewhereThan: `date-fns` is what to use instead, not where
		p := reviewPair(Item{Name: "date library", Description: "Date library for the frontend", Body: "Don't use `moment` in the frontend, use `date-fns` instead."},
			Item{Name: "frontend dates", Description: "The frontend switched to moment", Body: "We switched the frontend to moment for timezone support."})
		if !slices.Contains(ids(p), sup) {
			t.Errorf("no supersede: %v", reasons(p))
		}
	})
	t.Run("SlugHeadOwners", func(t *testing.T) { // two services, one slug prefix
		p := reviewPair(Item{Name: "svc-booking-api", Description: "Booking API service: who owns it and how it deploys", Body: "Ana Silva owns the service. It deploys with Argo CD from the main branch."},
			Item{Name: "svc-edi-gateway", Description: "EDI gateway service: who owns it and how it deploys", Body: "Marco Rossi owns the service. It deploys with Argo CD from the main branch."})
		if slices.Contains(ids(p), sup) {
			t.Errorf("superseded: %v", reasons(p))
		}
	})
	t.Run("ContactForTwoThings", func(t *testing.T) {
		p := reviewPair(Item{Name: "Stripe contacts", Description: "Who to ask about Stripe", Body: "Lucía Gómez is the contact for Stripe payouts."},
			Item{Name: "Stripe disputes", Description: "Who handles Stripe disputes", Body: "Marco Rossi is the contact for Stripe disputes."})
		if slices.Contains(ids(p), sup) {
			t.Errorf("superseded: %v", reasons(p))
		}
	})
	t.Run("OlderAmountOfAnotherThing", func(t *testing.T) { // older[to[0]]: "90 days" of the call logs
		p := reviewPair(Item{Name: "Consult recordings retention", Description: "Consult video recordings are copied to GCS and deleted after 30 days by a bucket lifecycle rule", Body: "Twilio compositions of each consult are copied to the recordings bucket and deleted from Twilio. The bucket's lifecycle rule deletes objects after 30 days. Call logs stay in Twilio for 90 days."},
			Item{Name: "Recordings bucket lifecycle", Description: "Lifecycle on gs://vetline-recordings-prod deletes consult recordings at 90 days (state board request)", Body: "Lifecycle rule on gs://vetline-recordings-prod: delete at 90 days. The state veterinary board asked us to keep consult recordings for 90."})
		if !slices.Contains(ids(p), sup) {
			t.Errorf("no supersede: %v", reasons(p))
		}
	})
	t.Run("NotFixedIn", func(t *testing.T) {
		for _, b := range []string{"Keep urllib3 pinned below 2.0: the proxy SSL bug is not fixed in 2.x.", "Keep the fallback uploader for Safari: the upload bug will only be fixed in 17.4."} {
			it := Item{File: "r.md", Type: "reference", Name: "Pinned deps", Description: "Why a dependency is pinned", Body: b, Created: date("2026-03-01"),
				Usage: Usage{Since: date("2026-01-01"), Injected: 3, LastInjected: date("2026-03-13")}}
			if p := Heuristic(Input{Now: now, Items: []Item{it}}); slices.Contains(ids(p), "prune:r.md") {
				t.Errorf("%q pruned: %v", b, reasons(p))
			}
		}
	})
	t.Run("LoneOrdinalBesideADroppedWeekday", func(t *testing.T) {
		in, p := validInput(), validPlan()
		in.Items[2].Body = "Run the last migration by hand, first on staging, next Friday."
		p.Ops[1].Edit = &Edit{Body: "Run the migration by hand, on staging, 2026-03-06."}
		if err := Validate(in, p); err == nil {
			t.Error("a date op dropping 'last' and 'first' passes once it also drops 'Friday'")
		}
	})
}
