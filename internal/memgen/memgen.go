// Package memgen generates realistic, seeded memory folders for
// benchmarks: memories of all four types about a software project, with
// code identifiers, paths, tools and the Why / How to apply lines of
// feedback and project memories. The same seed gives the same folder.
package memgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

var (
	subjects = strings.Fields(`api gateway cache loader payments service auth middleware session token
	database migration queue worker scheduler cron job search index frontend dashboard mobile app
	release pipeline deploy script config loader feature flag billing invoice webhook handler
	rate limiter retry policy logging tracing metrics alerting oncall runbook backup restore
	docker compose kubernetes chart terraform module grpc client http server websocket upload`)
	verbs = strings.Fields(`prefer avoid use never always check run keep pin document test mock
	retry cache validate log measure profile rotate migrate freeze review split rename`)
	tools  = strings.Fields(`docker kubectl psql redis-cli terraform make go npm pnpm yarn gh git jq curl grpcurl helm`)
	idents = strings.Fields(`parseConfig loadUser fetchInvoices RetryPolicy maxAttempts ctx.Done
	handleWebhook NewClient WithTimeout rateLimiter.Allow db.QueryContext cache.Get userID
	featureFlags.Enabled SessionStore tokenTTL backoffBase metrics.Observe`)
	files = strings.Fields(`internal/cache/loader.go cmd/api/main.go pkg/auth/middleware.go
	deploy/values.yaml Makefile docker-compose.yml internal/billing/invoice.go web/src/App.tsx
	migrations/0042_add_index.sql scripts/release.sh .github/workflows/ci.yml`)
	people = strings.Fields(`Ana Bo Chen Dara Eli Femi Gus Hana Ivo Jules Kai Lena`)
)

// Memory returns the i-th memory of the folder seeded with seed.
func Memory(seed uint64, i int) memdir.Memory {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	subject := pick(subjects) + " " + pick(subjects)
	verb := pick(verbs)
	types := []memdir.Type{memdir.TypeFeedback, memdir.TypeProject, memdir.TypeReference, memdir.TypeUser}
	t := types[r.IntN(len(types))]
	var name, desc, body string
	switch t {
	case memdir.TypeFeedback:
		name = fmt.Sprintf("%s %s %d", strings.ToUpper(verb[:1])+verb[1:], subject, i)
		desc = fmt.Sprintf("%s %s in %s; %s breaks otherwise", verb, pick(idents), pick(files), pick(idents))
		body = fmt.Sprintf("%s %s when touching %s.\n\n**Why:** %s asked after %s failed in review.\n**How to apply:** every change to %s; run `%s` first.",
			strings.ToUpper(verb[:1])+verb[1:], pick(idents), subject, pick(people), pick(idents), pick(files), pick(tools))
	case memdir.TypeProject:
		d := time.Date(2026, time.Month(1+r.IntN(12)), 1+r.IntN(28), 0, 0, 0, 0, time.UTC)
		name = fmt.Sprintf("%s decision %d", subject, i)
		desc = fmt.Sprintf("The %s moves to %s by %s", subject, pick(idents), d.Format("2006-01-02"))
		body = fmt.Sprintf("Decided with %s: %s replaces %s in %s.\n\n**Why:** %s.\n**How to apply:** new code calls %s.",
			pick(people), pick(idents), pick(idents), pick(files), subject+" latency", pick(idents))
	case memdir.TypeReference:
		tool := pick(tools)
		name = fmt.Sprintf("How to use %s for %s %d", tool, subject, i)
		desc = fmt.Sprintf("Usage: `%s` against the %s; dashboards at grafana/%s", tool, subject, strings.ReplaceAll(subject, " ", "-"))
		body = fmt.Sprintf("Run `%s %s` from %s.", tool, pick(verbs), pick(files))
	default:
		name = fmt.Sprintf("%s works on %s %d", pick(people), subject, i)
		desc = fmt.Sprintf("%s knows %s well; new to %s", pick(people), subject, pick(subjects))
		body = fmt.Sprintf("Explain %s in terms of %s.", pick(idents), subject)
	}
	return memdir.Memory{Name: name, Description: desc, Type: t, Body: body + "\n", Source: "memgen", Trust: memdir.TrustAgent,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(300*24)) * time.Hour)}
}

// Query returns the i-th benchmark query: half use words of a memory of
// the folder, half are about things the folder does not hold.
func Query(seed uint64, n, i int) string {
	r := rand.New(rand.NewPCG(seed^0xabcdef, uint64(i)))
	if i%2 == 1 {
		return []string{"what's the weather like today", "write a haiku about autumn", "explain quantum entanglement simply",
			"translate hello into spanish"}[r.IntN(4)]
	}
	m := Memory(seed, r.IntN(n))
	words := strings.Fields(m.Description)
	r.Shuffle(len(words), func(a, b int) { words[a], words[b] = words[b], words[a] })
	return "how should I handle " + strings.Join(words[:min(4, len(words))], " ") + "?"
}

// Write writes n memories into dir (created) as files, with no index: a
// benchmark fixture, not a user's folder. Each file's time is the day its
// memory was saved, as in a folder filled over months.
func Write(dir string, seed uint64, n int) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for i := range n {
		m := Memory(seed, i)
		m.File = fmt.Sprintf("m%06d.md", i)
		path := filepath.Join(dir, m.File)
		if err := os.WriteFile(path, memdir.Format(m), 0o600); err != nil {
			return err
		}
		if err := os.Chtimes(path, m.Created, m.Created); err != nil {
			return err
		}
	}
	return nil
}
