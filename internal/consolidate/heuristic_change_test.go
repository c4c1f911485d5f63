package consolidate

import (
	"fmt"
	"slices"
	"testing"
)

// Changes as the fresh8 and fresh9 labellers wrote them.
func TestHeuristic_SupersedeAsWritten(t *testing.T) {
	checkSupersedes(t, "2026-01-01", "2026-06-01", []changeCase{
		{"DontUseAnyMore",
			Item{File: "tests-localdb.md", Name: "Integration tests use LocalDB", Description: "Data-layer tests run against SQL Server LocalDB", Body: "The fixture creates and drops a LocalDB database per class."},
			Item{File: "tests-testcontainers.md", Name: "Integration tests use Testcontainers", Description: "Tests use SQL Server 2022 via Testcontainers", Body: "Don't use LocalDB for tests any more. SqlServerFixture starts SQL Server 2022 with Testcontainers."}, true},
		{"JobsDeleted",
			Item{File: "deploys.md", Name: "How deploys work", Type: "project", Description: "Staging and prod deploys run through the Jenkins job pylon-deploy", Body: "Deploys go through Jenkins job pylon-deploy; prod needs the confirm box."},
			Item{File: "argo.md", Name: "Deploys go through Argo CD", Type: "project", Description: "Merging to pylon-charts main syncs staging", Body: "We moved deploys to Argo CD. The Jenkins deploy jobs are deleted."}, true},
		// The file name holds the memory's own value, not its subject.
		{"FileNameHoldsItsValue",
			Item{File: "device-offline-alert-10m.md", Name: "device-offline alert threshold", Type: "project", Description: "device-offline fires after 10 minutes without telemetry from a hub", Body: "Grafana rule device-offline fires when a hub has sent no telemetry for 10 minutes."},
			Item{File: "device-offline-25-minutes.md", Name: "When a hub counts as offline", Type: "project", Description: "A hub counts as offline after 25 minutes without telemetry", Body: "A hub is offline after 25 minutes with no telemetry; that's the device-offline rule, evaluated every minute."}, true},
		// Ownership handed over, without "no longer".
		{"OwnerHandedOver",
			Item{File: "emqx-owner.md", Name: "EMQX owner", Type: "project", Description: "Dev owns the EMQX cluster config: ACLs, listeners, rule engine", Body: "Dev Malhotra owns the EMQX cluster config. Ask him before touching the chart values."},
			Item{File: "emqx-platform.md", Name: "EMQX questions go to platform", Type: "project", Description: "After the August reorg EMQX belongs to Tomasz's platform team", Body: "Since the reorg, EMQX is the platform team's. Questions go to #pylon-platform; ACL or listener changes need a platform reviewer."}, true},
		{"SameOwnerTeam",
			Item{File: "ledger-owner.md", Name: "Ledger owner", Type: "project", Description: "Priya owns the ledger service", Body: "Priya owns the ledger service and its alerts."},
			Item{File: "ledger-team.md", Name: "Ledger on-call", Type: "project", Description: "The ledger belongs to Priya's team", Body: "The ledger belongs to Priya's team; page them for ledger alerts."}, false},
		// One amount in two forms is no change.
		{"SameAmountOtherForm",
			Item{File: "certs-a.md", Name: "Device certificates come from Vault PKI", Type: "project", Description: "cert-broker issues thermostat certs from pki-devices; 90-day TTL, renewal at day 60", Body: "TTL is 90 days; firmware renews at day 60."},
			Item{File: "certs-b.md", Name: "How thermostats get their certs", Type: "project", Description: "Certs are signed by pki-devices via cert-broker; valid 90 days, renewed at day 60", Body: "cert-broker asks Vault to sign each thermostat's cert; lifetime is 90 days and firmware renews at day 60."}, false},
	})
}

// changeCase is an older and a newer memory, and whether the newer
// supersedes the older.
type changeCase struct {
	name       string
	old, new   Item
	supersedes bool
}

// checkSupersedes plans each case's two memories, written on oldAt and
// newAt (a memory with no type is feedback), among unrelated ones, so
// that idf tells rare words from common ones.
func checkSupersedes(t *testing.T, oldAt, newAt string, cases []changeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.old.Type, tc.old.Created = cmpOr(tc.old.Type, "feedback"), date(oldAt)
			tc.new.Type, tc.new.Created = cmpOr(tc.new.Type, "feedback"), date(newAt)
			items := amongFillers([]Item{tc.old, tc.new}, "reference", "Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
				"Dashboards live in Grafana.", "Keep one branch per feature.", "Only one deploy at a time.", "One reviewer is enough for docs.",
				"The rate sheet arrives every Friday.", "Merges to main need one approval.", "Mobile builds run on Bitrise.")
			p := Heuristic(Input{Now: now, Items: items})
			if got := slices.Contains(ids(p), opID(Supersede, []string{tc.new.File, tc.old.File})); got != tc.supersedes {
				t.Errorf("superseded %v, want %v (%v)", got, tc.supersedes, reasons(p))
			}
		})
	}
}

// A memory marked wrong that a newer one reverses is superseded (kept as
// history), not pruned; one marked wrong is never merged into another.
func TestHeuristic_MarkedWrong(t *testing.T) {
	wrong := Usage{Since: date("2026-01-01"), Injected: 8, LastInjected: date("2026-08-20"), Helpful: 1, Wrong: 2}
	old := Item{File: "old.md", Name: "Integration tests use LocalDB", Type: "feedback", Description: "Data-layer tests run against SQL Server LocalDB", Body: "The fixture creates a LocalDB database per class.", Created: date("2026-03-10"), Usage: wrong}
	new := Item{File: "new.md", Name: "Integration tests use Testcontainers", Type: "feedback", Description: "Tests use SQL Server via Testcontainers", Body: "Don't use LocalDB for tests any more; the fixture starts SQL Server with Testcontainers.", Created: date("2026-08-26")}
	p := Heuristic(Input{Now: now, Items: amongFillers([]Item{old, new}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.")})
	if got := ids(p); !slices.Contains(got, "supersede:new.md+old.md") || slices.Contains(got, "prune:old.md") {
		t.Errorf("ops %v, want the supersede and no prune", got)
	}
	// Two copies of one fact, one marked wrong: the wrong one goes alone.
	a := Item{File: "a.md", Name: "Staging database host", Type: "reference", Description: "The staging database is db-staging.internal on port 5432", Body: "Connect to db-staging.internal:5432 with the staging role.", Created: date("2026-03-01"), Usage: wrong}
	b := Item{File: "b.md", Name: "Staging database host", Type: "reference", Description: "The staging database is db-staging.internal on port 5432", Body: "Connect to db-staging.internal:5432 with the staging role; read-only for humans.", Created: date("2026-04-01")}
	p = Heuristic(Input{Now: now, Items: amongFillers([]Item{a, b}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.")})
	if got := ids(p); slices.Contains(got, "merge:a.md+b.md") || !slices.Contains(got, "prune:a.md") {
		t.Errorf("ops %v, want a.md pruned and no merge", got)
	}
}

func TestHeuristic_PruneStaleAndUndecided(t *testing.T) {
	unused := Usage{Since: date("2026-01-01")}
	used := Usage{Since: date("2026-01-01"), Injected: 4, LastInjected: date("2026-11-20")}
	for _, tc := range []struct {
		name, body, stale string
		usage             Usage
		want              bool
	}{
		{"StaleUnused", "pylon-legacy-bridge forwards v1 MQTT messages to the old REST ingest.", "services/legacy-bridge no longer exists (2026-07-02)", unused, true},
		{"StaleButUsed", "pylon-legacy-bridge forwards v1 MQTT messages to the old REST ingest.", "services/legacy-bridge no longer exists (2026-07-02)", used, false},
		{"NothingDecided", "Tried ktlint's experimental rules on a throwaway branch. Lots of noise, nothing decided.", "", unused, true},
		{"PlainFactNeverUsed", "pylon-api serves the dispatch endpoints behind the ALB.", "", unused, true}, // TestHeuristic_PruneNeverUsed
		{"PlainFactUsed", "pylon-api serves the dispatch endpoints behind the ALB.", "", used, false},
	} {
		it := Item{File: "m.md", Name: "m", Type: "project", Body: tc.body, Stale: tc.stale, Created: date("2026-03-03"), Usage: tc.usage}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "prune:m.md"); got != tc.want {
			t.Errorf("%s: pruned %v, want %v (%v)", tc.name, got, tc.want, reasons(p))
		}
	}
}

// A memory a merge keeps is not also pruned: two ops on one memory make
// the whole plan invalid.
func TestHeuristic_PruneSparesWhatAMergeKeeps(t *testing.T) {
	unused := Usage{Since: date("2026-01-01")}
	a := Item{File: "a.md", Name: "Redis eviction workaround", Type: "project", Description: "For now the session cache runs with allkeys-lru on redis-sessions", Body: "For now the session cache runs with maxmemory-policy allkeys-lru on redis-sessions until the leak is found.", Created: date("2026-02-01"), Usage: unused}
	b := Item{File: "b.md", Name: "Redis eviction workaround", Type: "project", Description: "For now the session cache runs with allkeys-lru on redis-sessions", Body: "For now the session cache on redis-sessions runs with maxmemory-policy allkeys-lru, until the leak is found.", Created: date("2026-02-03"), Usage: unused}
	in := Input{Now: now, Items: amongFillers([]Item{a, b}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.")}
	p := Heuristic(in)
	if err := Validate(in, p); err != nil {
		t.Fatalf("Validate: %v (ops %v)", err, ids(p))
	}
	if !slices.Contains(ids(p), "merge:a.md+b.md") {
		t.Errorf("ops %v, want the two merged", ids(p))
	}
}

// One thing in two environments is two memories, whichever mentions the
// other.
func TestHeuristic_EnvironmentTwins(t *testing.T) {
	prod := Item{File: "sb-prod.md", Name: "Prod Service Bus", Type: "reference", Description: "Prod namespace sb-marlin-prod: same appointment-events topic and subscriptions as staging", Body: "Namespace sb-marlin-prod. Topic appointment-events, subscriptions reminders, fhir-sync, analytics, same names as staging.", Created: date("2026-04-15")}
	stg := Item{File: "sb-stg.md", Name: "Staging Service Bus", Type: "reference", Description: "sb-marlin-stg: topic appointment-events, three subscriptions", Body: "Namespace sb-marlin-stg. Topic appointment-events, subscriptions reminders, fhir-sync, analytics.", Created: date("2026-04-14")}
	in := Input{Now: now, Items: amongFillers([]Item{prod, stg}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.", "Use one PR per change.", "Merges to main need one approval.")}
	p := Heuristic(in)
	if slices.Contains(ids(p), "merge:sb-prod.md+sb-stg.md") {
		t.Errorf("two environments merged: %v", reasons(p))
	}
	if !parallelNames(newPlanner(in, nil).items[0], newPlanner(in, nil).items[1]) {
		t.Error("Prod and Staging Service Bus are not read as one template")
	}
}

// A thing many memories name (the stack's broker) changes hands when both
// memories are about it.
func TestHeuristic_OwnerOfACommonThing(t *testing.T) {
	old := Item{File: "emqx-owner.md", Name: "EMQX owner", Type: "project", Description: "Dev owns the EMQX cluster config", Body: "Dev Malhotra owns the EMQX cluster config: ACLs and listeners.", Created: date("2026-04-02")}
	new := Item{File: "emqx-platform.md", Name: "EMQX questions go to platform", Type: "project", Description: "After the reorg EMQX belongs to Tomasz's platform team", Body: "ACL or listener changes need a platform reviewer.", Created: date("2026-08-31")}
	in := Input{Now: now, Items: amongFillers([]Item{old, new}, "reference", "Hubs publish telemetry to EMQX.", "EMQX rule engine forwards to Kafka.", "The EMQX dashboard is behind the VPN.",
		"EMQX listeners use mTLS.", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.")}
	if p := Heuristic(in); !slices.Contains(ids(p), opID(Supersede, []string{new.File, old.File})) {
		t.Errorf("ops %v", reasons(p))
	}
}

// A memory whose body gets a date rewrite and whose description is too
// long for the index: one operation per memory, so the date goes now and
// the cut waits for the next run. Both at once made 'memdir dream' refuse
// the whole plan (fresh12, blind).
func TestHeuristic_DateAndLongDescription(t *testing.T) {
	long := "Halvorsen's account has three quirks: invoices go to a shared AP mailbox, their PO numbers must be on every line, and their VAT number changed in the spring after the merger"
	it := Item{File: "h.md", Name: "Halvorsen quirks", Type: "project", Description: long, Body: "Their AP team moves to the new ERP next Friday.", Created: date("2026-11-23")}
	in := Input{Now: now, Items: []Item{it}}
	p := Heuristic(in)
	if err := Validate(in, p); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	if got := ids(p); !slices.Contains(got, "date:h.md") || slices.Contains(got, "shorten:h.md") {
		t.Errorf("ops %v, want the date rewrite alone", got)
	}
	if !slices.ContainsFunc(p.LeftForModel, func(c Candidate) bool { return c.Kind == Shorten && c.Files[0] == "h.md" }) {
		t.Errorf("the cut is not left for the next run: %v", p.LeftForModel)
	}
}

// Cases a read-only review of the rules above found wrong (2026-11-30):
// none may be a supersede an automatic run applies, and most none at all.
func TestHeuristic_SupersedeReview(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new Item
		want     string // "supersede", "unsure" (a supersede for a person only), "merge" or "" (none), or two of them

	}{
		{"UnitChanged",
			Item{File: "a.md", Name: "Session timeout", Type: "project", Description: "Session timeout is 30m", Body: "The session timeout is 30m for the admin console."},
			Item{File: "b.md", Name: "Session timeout", Type: "project", Description: "Session timeout is 30s", Body: "The session timeout is 30s for the admin console."}, "unsure"},
		{"SizeChanged",
			Item{File: "a.md", Name: "Worker memory", Type: "project", Description: "Workers get 512MB", Body: "Each ingest worker gets 512MB of memory."},
			Item{File: "b.md", Name: "Worker memory", Type: "project", Description: "Workers get 512GB", Body: "Each ingest worker gets 512GB of memory."}, "unsure"},
		{"RestOfTheClauseDropped",
			Item{File: "a.md", Name: "Load tests", Type: "project", Description: "k6 load tests run against staging", Body: "k6 load tests run against staging nightly."},
			Item{File: "b.md", Name: "Load tests and prod", Type: "project", Description: "No load tests against prod", Body: "Don't run k6 against prod any more; staging only."}, "unsure-or-none"},
		{"OwnersOfTwoEnvironments",
			Item{File: "a.md", Name: "Staging cluster owner", Type: "project", Description: "The staging cluster is run by the Platform team", Body: "The staging cluster is run by the Platform team; ask in #platform."},
			Item{File: "b.md", Name: "Prod cluster owner", Type: "project", Description: "The prod cluster is run by SRE", Body: "The prod cluster is run by SRE; page them for incidents."}, ""},
		{"OwnersOfTwoEnvironmentsByName", // the names say it, the sentences do not
			Item{File: "a.md", Name: "Staging cluster owner", Type: "project", Description: "Who runs the cluster", Body: "The cluster is run by the Platform team; ask in #platform."},
			Item{File: "b.md", Name: "Prod cluster owner", Type: "project", Description: "Who runs the cluster", Body: "The cluster is run by SRE; page them for incidents."}, ""},
		{"OwnersOfTwoEnvironmentsBySentence", // the sentences say it, the names do not
			Item{File: "a.md", Name: "Who runs which cluster", Type: "project", Description: "The staging cluster is run by the Platform team", Body: "The staging cluster is run by the Platform team; ask in #platform."},
			Item{File: "b.md", Name: "Cluster ownership", Type: "project", Description: "The prod cluster is run by SRE", Body: "The prod cluster is run by SRE; page them for incidents."}, ""},
		{"RetentionPolicy",
			Item{File: "a.md", Name: "Preview environments", Type: "project", Description: "Each PR gets a preview environment", Body: "Each PR gets a preview environment at pr-N.preview.example.com."},
			Item{File: "b.md", Name: "Preview cleanup", Type: "project", Description: "Preview environments are deleted after 7 days", Body: "Preview environments are deleted after 7 days by the janitor job."}, "merge-or-none"},
		{"TwoShards",
			Item{File: "shard-3.md", Name: "shard 3", Type: "project", Description: "Shard 3 holds 3 tenants", Body: "Shard 3 holds 3 tenants on db-3."},
			Item{File: "shard-4.md", Name: "shard 4", Type: "project", Description: "Shard 4 holds 4 tenants", Body: "Shard 4 holds 4 tenants on db-4."}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.old.Created, tc.new.Created = date("2026-01-01"), date("2026-06-01")
			p := Heuristic(Input{Now: now, Items: amongFillers([]Item{tc.old, tc.new}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.",
				"Mobile builds run on Bitrise.", "Use one PR per change.", "Merges to main need one approval.")})
			var got string
			for _, op := range p.Ops {
				switch {
				case op.Kind == Supersede && op.Lossless:
					got = "supersede"
				case op.Kind == Supersede:
					got = "unsure"
				case op.Kind == Merge && slices.Contains(op.Files, tc.old.File) && slices.Contains(op.Files, tc.new.File):
					got = "merge"
				}
			}
			// A merge keeps every fact of both: no reversal is read into them.
			if ok := got == tc.want || tc.want == "unsure-or-none" && (got == "unsure" || got == "") || tc.want == "merge-or-none" && (got == "merge" || got == ""); !ok {
				t.Errorf("got %q, want %q (%v)", got, tc.want, reasons(p))
			}
		})
	}
	// A newer memory marked wrong retires nothing: it is pruned itself.
	wrong := Usage{Since: date("2026-01-01"), Injected: 3, LastInjected: date("2026-08-20"), Wrong: 2}
	old := Item{File: "old.md", Name: "Integration tests use LocalDB", Type: "feedback", Description: "Data-layer tests run against SQL Server LocalDB", Body: "The fixture creates a LocalDB database per class.", Created: date("2026-03-10")}
	new := Item{File: "new.md", Name: "Integration tests use Testcontainers", Type: "feedback", Description: "Tests use SQL Server via Testcontainers", Body: "Don't use LocalDB for tests any more; the fixture starts SQL Server with Testcontainers.", Created: date("2026-08-26"), Usage: wrong}
	p := Heuristic(Input{Now: now, Items: amongFillers([]Item{old, new}, "reference", "Run the tests with make test.", "Dashboards live in Grafana.", "Mobile builds run on Bitrise.")})
	if got := ids(p); slices.Contains(got, "supersede:new.md+old.md") || !slices.Contains(got, "prune:new.md") {
		t.Errorf("ops %v, want new.md pruned and old.md kept", got)
	}
}

// Changes as the fresh12 and fresh13 labellers wrote them.
func TestHeuristic_SupersedeAsWrittenMore(t *testing.T) {
	wrong := Usage{Since: date("2026-01-01"), Injected: 9, LastInjected: date("2026-09-08"), Helpful: 2, Wrong: 1}
	checkSupersedes(t, "2026-03-15", "2026-09-09", []changeCase{
		// The older was marked wrong, the newer on its topic was not: it
		// replaced it, in words no rule reads.
		{"MarkedWrongAndReplaced",
			Item{File: "platen-timeout-15s.md", Name: "platen client timeout", Type: "project", Description: "PlatenClient uses a 15s read timeout; the render job retries 3 times", Body: "PlatenClient uses a 15s read timeout. RenderInvoicePdfJob retries 3 times with backoff.", Usage: wrong},
			Item{File: "platen-read-timeout-raised.md", Name: "platen timeout is 45s now", Type: "project", Description: "Read timeout for platen calls is 45s, set in config/platen.yml", Body: "Statements with 2k+ lines take 20-30s to render and kept timing out. The read timeout is 45s now, from config/platen.yml."}, true},
		{"NotMarkedWrong", // the same pair without the evidence: nothing said outright
			Item{File: "platen-timeout-15s.md", Name: "platen client timeout", Type: "project", Description: "PlatenClient uses a 15s read timeout; the render job retries 3 times", Body: "PlatenClient uses a 15s read timeout. RenderInvoicePdfJob retries 3 times with backoff."},
			Item{File: "platen-read-timeout-raised.md", Name: "platen timeout settings", Type: "project", Description: "Read timeout for platen calls, set in config/platen.yml", Body: "Statements with 2k+ lines take 20-30s to render. The read timeout comes from config/platen.yml."}, false},
		// The owned thing named in the rest of the clause, and a hand-over.
		{"OwnsTheServiceInBrackets",
			Item{File: "platen-felix.md", Name: "platen is Felix's", Type: "project", Description: "Felix Brandt owns the Go PDF service (platen); run render changes by him", Body: "platen turns invoice HTML into PDFs; tag Felix on render contract PRs."},
			Item{File: "platen-arjun.md", Name: "platen handed over to Arjun", Type: "project", Description: "Arjun took over platen when Felix moved to payments", Body: "Since the August reorg Arjun Mehta owns platen; platen PRs need Arjun's review."}, true},
		{"HandedTo",
			Item{File: "dsp-owner.md", Name: "lodestar-dsp owner", Type: "project", Description: "Tomasz Wierzbicki owns the Rust DSP crate", Body: "Tomasz Wierzbicki owns lodestar-dsp. Crate PRs need his review."},
			Item{File: "dsp-hana.md", Name: "Hana maintains lodestar-dsp", Type: "project", Description: "Hana Sato maintains the DSP crate", Body: "Tomasz moved to the RF team and handed lodestar-dsp to Hana Sato. Crate PRs need Hana's approval."}, true},
		{"TookOver",
			Item{File: "dsp-owner.md", Name: "lodestar-dsp owner", Type: "project", Description: "Tomasz Wierzbicki owns the Rust DSP crate", Body: "Tomasz Wierzbicki owns lodestar-dsp. Crate PRs need his review."},
			Item{File: "dsp-hana.md", Name: "Hana maintains lodestar-dsp", Type: "project", Description: "Hana Sato maintains the DSP crate", Body: "Hana Sato took over lodestar-dsp when Tomasz moved to the RF team."}, true},
		// A label and its contents is no instruction to reverse.
		{"BoardAgainstRule",
			Item{File: "board.md", Name: "Sidekiq board", Type: "reference", Description: "Board 'Bramble / Sidekiq': per-queue latency and size", Body: "Board 'Bramble / Sidekiq': per-queue latency and size, retries, dead set."},
			Item{File: "backlog.md", Name: "Checking the job backlog", Type: "reference", Description: "Watch queue latency, not size", Body: "Watch queue latency, not size; the PDF queue is big by design."}, false},
		// Two stations of one template, told by the names in brackets.
		{"TwoStations",
			Item{File: "station-awa.md", Name: "Station AWA (Awarua)", Type: "reference", Description: "Awarua, NZ: 5.4 m S/X-band dish", Body: "Antenna: 5.4 m S/X-band, rotator ACU on 10.40.1.20. SDR: USRP X310."},
			Item{File: "station-puq.md", Name: "Station PUQ (Punta Arenas)", Type: "reference", Description: "Punta Arenas, CL: 3.7 m S-band dish", Body: "Antenna: 3.7 m S-band only, rotator ACU on 10.40.3.20. SDR: USRP B210."}, false},
	})
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Half a year in the folder and never injected: proposed for pruning,
// unless it is kept for a rare event, or it is about the person.
func TestHeuristic_PruneNeverUsed(t *testing.T) {
	for _, tc := range []struct {
		name, typ, desc, created, since string
		injected                        int
		want                            bool
	}{
		// A rule of the person's, however rarely recalled, is theirs to drop
		// (a review: "Commit messages follow Conventional Commits").
		{"FeedbackKept", "feedback", "Python code uses 4-space indentation and double quotes", "2026-02-04", "2026-02-01", 0, false},
		{"DerivableReference", "reference", "Run rubocop with bin/rubocop", "2026-03-13", "2026-03-01", 0, true},
		{"UsedOnce", "reference", "Run rubocop with bin/rubocop", "2026-03-13", "2026-03-01", 1, false},
		{"TooRecent", "feedback", "Python code uses 4-space indentation and double quotes", "2026-07-01", "2026-02-01", 0, false},
		{"EvidenceTooRecent", "feedback", "Python code uses 4-space indentation and double quotes", "2026-02-04", "2026-08-01", 0, false},
		{"DisasterRunbook", "reference", "Regional failover: SQL failover group, Service Bus geo-DR alias", "2026-02-04", "2026-02-01", 0, false},
		{"AboutThePerson", "user", "The user is a backend lead, new to Blazor", "2026-02-04", "2026-02-01", 0, false},
		{"PlainFactOfTheCode", "reference", "Payment reminder emails are sent by the billing-worker cron through Postmark", "2026-01-05", "2026-01-01", 0, true},
		{"ALesson", "project", "Spot instances for CI did not pan out: builds got killed mid-run", "2026-01-05", "2026-01-01", 0, false},
		{"ARule", "feedback", "Always set sslmode=require on the RDS DSN", "2026-01-05", "2026-01-01", 0, false},
		{"APlaceElsewhere", "reference", "Benchmarking results live in the perf-results bucket", "2026-01-05", "2026-01-01", 0, false},
		{"AChannel", "reference", "Release questions go to #mobile-release", "2026-01-05", "2026-01-01", 0, false},
		{"AnAddress", "reference", "The status page is https://status.example.com", "2026-01-05", "2026-01-01", 0, false},
		{"ALocalAddress", "reference", "Swagger UI is at https://localhost:7081/swagger in Development", "2026-01-05", "2026-01-01", 0, true},
	} {
		u := Usage{Since: date(tc.since), Injected: tc.injected}
		if tc.injected > 0 {
			u.LastInjected = date("2026-11-01")
		}
		it := Item{File: "m.md", Name: "m", Type: tc.typ, Description: tc.desc, Body: tc.desc + ".", Created: date(tc.created), Usage: u}
		p := Heuristic(Input{Now: now, Items: []Item{it}})
		if got := slices.Contains(ids(p), "prune:m.md"); got != tc.want {
			t.Errorf("%s: pruned %v, want %v (%v)", tc.name, got, tc.want, reasons(p))
		}
	}
}

// Changes as the fresh16 labeller wrote them.
func TestHeuristic_SupersedeFresh16(t *testing.T) {
	checkSupersedes(t, "2026-03-05", "2026-08-24", []changeCase{
		// The names share the rule's word, the rest little.
		{"RuleReversedInTheName",
			Item{File: "squash.md", Name: "Squash-merge PRs", Type: "feedback", Description: "Always squash-merge; one commit per PR on main", Body: "Sam's preference: squash everything, and write the message as a conventional commit."},
			Item{File: "rebase.md", Name: "Rebase-merge, don't squash", Type: "feedback", Description: "Stop squash-merging; rebase-merge so release-please sees each commit", Body: "Changed when we adopted release-please: it reads individual commits. Tidy the branch first, then rebase-merge."}, true},
		// The version in the names changed, and the newer says so.
		{"VersionUpgradedInTheName",
			Item{File: "node-20.md", Name: "Node 20 runtime", Type: "project", Description: "All services run Node 20: node:20-slim images, .nvmrc 20, CI on 20", Body: "apps/api, apps/web and apps/worker Dockerfiles use node:20-slim. CI matrix is Node 20 only."},
			Item{File: "node-22.md", Name: "Upgraded to Node 22", Type: "project", Description: "api, web and worker images are on node:22-slim since the July upgrade; .nvmrc and CI follow", Body: "Upgrade merged in July. CI runs 22 only."}, true},
		{"TwoVersionsSideBySide", // no change said: two runtimes
			Item{File: "node-20.md", Name: "Node 20 for the worker", Type: "project", Description: "The worker runs Node 20 images", Body: "apps/worker uses node:20-slim."},
			Item{File: "node-22.md", Name: "Node 22 for the web app", Type: "project", Description: "The web app runs Node 22 images", Body: "apps/web uses node:22-slim."}, false},
		{"OtherThingUpgraded", // the names share no word: Postgres is no Node
			Item{File: "node-20.md", Name: "Node 20 runtime", Type: "project", Description: "All services run Node 20 images in CI and prod", Body: "CI and prod images use Node 20 for all services."},
			Item{File: "pg-16.md", Name: "Upgraded Postgres to 16", Type: "project", Description: "All services run against Postgres 16 in CI and prod", Body: "CI and prod use Postgres 16 for all services."}, false},
		// "… is now the owner of …", and the older's owner in its name.
		{"NowTheOwner",
			Item{File: "jun.md", Name: "Jun owns payments", Type: "project", Description: "Jun Park owns Stripe: Terminal readers, intents, refunds", Body: "Jun reviews every PR under apps/api/src/payments."},
			Item{File: "ines.md", Name: "Payments handed to Inês", Type: "project", Description: "Inês Duarte is now the owner and reviewer for payments and the card readers", Body: "Inês now reviews apps/api/src/payments; Jun moved to the mobile team."}, true},
		// Two queues of one template, told by the slug each label names.
		{"TwoQueues",
			Item{File: "queue-pdf.md", Name: "Queue: invoice-pdf", Type: "project", Description: "on invoice finalise; 3 attempts, exponential backoff from 30s", Body: "Consumer: quokka-worker. attempts: 3, backoff exponential, delay 30_000, removeOnComplete: 1000."},
			Item{File: "queue-terminal.md", Name: "Queue: terminal-events", Type: "project", Description: "from the Stripe Connect webhook; 10 attempts, fixed 5s backoff", Body: "Consumer: quokka-worker. attempts: 10, backoff fixed, delay 5_000, removeOnComplete: 5000."}, false},
	})
}

// Cases a second read-only review found wrong (2026-11-30).
func TestHeuristic_Review2(t *testing.T) {
	fill := func(items ...Item) []Item {
		return amongFillers(items, "reference", "Run the tests with make test.", "Staging is at staging.example.com.", "Use one PR per change.",
			"Dashboards live in Grafana.", "Keep one branch per feature.", "Only one deploy at a time.", "Merges to main need one approval.", "Mobile builds run on Bitrise.")
	}
	has := func(p Plan, id string) bool { return slices.Contains(ids(p), id) }
	// Two retentions of one tool, told apart by their amounts, stay two.
	a := Item{File: "ret-5m.md", Name: "Thanos 5m retention", Type: "project", Description: "The compactor keeps 5m downsampled blocks for 90 days", Body: "The compactor keeps 5m downsampled blocks for 90 days.", Created: date("2026-03-01")}
	b := Item{File: "ret-1h.md", Name: "Thanos 1h retention", Type: "project", Description: "The compactor keeps 1h downsampled blocks for 90 days", Body: "The compactor keeps 1h downsampled blocks for 90 days.", Created: date("2026-03-02")}
	many := fill(a, b)
	for i := range 25 { // a folder large enough to weigh its words
		many = append(many, Item{File: fmt.Sprintf("y%d.md", i), Name: fmt.Sprintf("note %d", i), Type: "project", Body: fmt.Sprintf("Service %d listens on port %d.", i, 8000+i), Created: date("2026-01-01")})
	}
	if p := Heuristic(Input{Now: now, Items: many}); has(p, "merge:ret-1h.md+ret-5m.md") {
		t.Errorf("two retentions merged: %v", reasons(p))
	}
	// A rule reversed around a clock time.
	a = Item{File: "old.md", Name: "Capistrano deploys", Type: "feedback", Description: "Deploy with Capistrano after 18:00", Body: "Deploy with Capistrano after 18:00, when traffic is low.", Created: date("2026-03-01")}
	b = Item{File: "new.md", Name: "Capistrano deploys", Type: "feedback", Description: "Don't deploy with Capistrano after 18:00", Body: "Don't deploy with Capistrano after 18:00; nobody is on call then.", Created: date("2026-09-01")}
	if p := Heuristic(Input{Now: now, Items: fill(a, b)}); !has(p, "supersede:new.md+old.md") {
		t.Errorf("a reversal around 18:00 not superseded: %v", reasons(p))
	}
	// Marked wrong once, helpful nine times: the evidence is not enough.
	a = Item{File: "old.md", Name: "Gateway timeout", Type: "project", Description: "API gateway kills requests after 30s", Body: "The API gateway kills requests after 30s; long exports go async.", Created: date("2026-03-01"), Usage: Usage{Since: date("2026-01-01"), Injected: 20, LastInjected: date("2026-11-01"), Helpful: 9, Wrong: 1}}
	b = Item{File: "new.md", Name: "Export job timeout", Type: "project", Description: "Sidekiq export jobs are killed after 15 minutes", Body: "Sidekiq kills export jobs after 15 minutes; split long exports.", Created: date("2026-09-01")}
	if p := Heuristic(Input{Now: now, Items: fill(a, b)}); has(p, "supersede:new.md+old.md") {
		t.Errorf("superseded on one wrong mark against nine helpful: %v", reasons(p))
	}
	// What someone owns ends before "for …"; an arrangement for a while
	// changes no owner.
	for _, pair := range [][2]Item{
		{{File: "old.md", Name: "iOS release owner", Type: "project", Description: "Priya owns the release process for the iOS app", Body: "Priya owns the release process for the iOS app.", Created: date("2026-03-01")},
			{File: "new.md", Name: "iOS app team", Type: "project", Description: "The iOS app belongs to the Mobile team", Body: "The iOS app belongs to the Mobile team; their board is MOB.", Created: date("2026-09-01")}},
		{{File: "old.md", Name: "lodestar-dsp owner", Type: "project", Description: "Bo owns lodestar-dsp", Body: "Bo owns lodestar-dsp and reviews its PRs.", Created: date("2026-03-01")},
			{File: "new.md", Name: "Hana reviews lodestar-dsp", Type: "project", Description: "Hana reviews lodestar-dsp PRs in June", Body: "Hana took over lodestar-dsp while Bo is on leave in June; she reviews its PRs.", Created: date("2026-05-20")}},
		{{File: "old.md", Name: "lodestar-dsp owner", Type: "project", Description: "Bo owns lodestar-dsp", Body: "Bo owns lodestar-dsp and reviews its PRs.", Created: date("2026-03-01")},
			{File: "new.md", Name: "lodestar-dsp reviews", Type: "project", Description: "Hana reviews lodestar-dsp PRs", Body: "Bo handed lodestar-dsp reviews to Hana.", Created: date("2026-05-20")}},
	} {
		if p := Heuristic(Input{Now: now, Items: fill(pair[0], pair[1])}); has(p, "supersede:new.md+old.md") {
			t.Errorf("%q: owner change read: %v", pair[1].Body, reasons(p))
		}
	}
	// Never-used prune spares what teaches, what was just edited, and what
	// supersedes another.
	unused := Usage{Since: date("2026-01-01")}
	for _, it := range []Item{
		{File: "m.md", Name: "tests", Type: "project", Body: "Integration tests hit a real Postgres, not mocks. **Why:** a mocked migration hid a broken index.", Created: date("2026-01-05"), Usage: unused},
		{File: "m.md", Name: "oom", Type: "project", Body: "When the Go build OOMs on CI, set `GOMEMLIMIT=3GiB` for the job.", Created: date("2026-01-05"), Usage: unused},
		{File: "m.md", Name: "pii", Type: "project", Body: "Customer PII is stored only in eu-west-1; the DPA forbids other regions.", Created: date("2026-01-05"), Usage: unused},
		{File: "m.md", Name: "engine", Type: "project", Body: "pylon-api serves the dispatch endpoints behind the ALB.", Created: date("2026-01-05"), Updated: date("2026-11-20"), Usage: unused},
	} {
		if p := Heuristic(Input{Now: now, Items: []Item{it}}); has(p, "prune:m.md") {
			t.Errorf("%q: pruned (%v)", it.Body, reasons(p))
		}
	}
	old := Item{File: "old.md", Name: "ci", Type: "project", Body: "CI runs on CircleCI.", Created: date("2026-01-05"), SupersededBy: "new.md", Usage: Usage{Since: date("2026-01-01"), Injected: 9, LastInjected: date("2026-09-01")}}
	cur := Item{File: "new.md", Name: "ci now", Type: "project", Body: "CI runs on GitHub Actions.", Created: date("2026-02-01"), Usage: unused}
	if p := Heuristic(Input{Now: now, Items: []Item{old, cur}}); has(p, "prune:new.md") {
		t.Errorf("the memory that supersedes another was pruned: %v", reasons(p))
	}
}

// One memory saved twice under two names is merged, whatever the model
// weighs (a retrained model once scored such a pair under the bar).
func TestHeuristic_SameTextMerged(t *testing.T) {
	// The folder of cmd/memdir's dream tests: four services, each saved
	// twice under two names, word for word.
	var items []Item
	for i := range 4 {
		svc := fmt.Sprintf("billing-%02d", i)
		body := fmt.Sprintf("The %s service answers health checks on port %d; the load balancer probes /healthz there every 10 seconds.\n", svc, 8100+i)
		for j, name := range []string{svc + " health port", "Health checks of " + svc} {
			items = append(items, Item{File: fmt.Sprintf("%s-%d.md", svc, j), Name: name, Type: "reference", Body: body,
				Description: fmt.Sprintf("Health checks of %s go to port %d", svc, 8100+i), Created: date(fmt.Sprintf("2026-0%d-1%d", 1+j, i))})
		}
	}
	items = append(items, Item{File: "pinned-rule.md", Name: "Never push to main", Type: "feedback", Description: "All changes go through a pull request", Body: "All changes go through a pull request; never push to main.", Pinned: true, Created: date("2025-01-01")},
		Item{File: "claude-layout.md", Name: "user-role", Type: "user", Description: "The user is a data engineer who reads Go but writes Python", Body: "Data engineer; reads Go, writes Python."})
	p := Heuristic(Input{Now: now, Items: items})
	for i := range 4 {
		if id := fmt.Sprintf("merge:billing-%02d-0.md+billing-%02d-1.md", i, i); !slices.Contains(ids(p), id) {
			t.Errorf("no %s: %v", id, ids(p))
		}
	}
}
