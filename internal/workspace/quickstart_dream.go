package workspace

import (
	"strings"

	"github.com/memdir/memdir/internal/memdir"
)

// QuickstartDream is what the quickstart's consolidation planned and
// applied.
type QuickstartDream struct {
	Planned []string `json:"planned"` // operation ids
	Batch   string   `json:"batch"`   // the batch 'memdir dream --undo' takes back
}

// dream saves what an agent typically adds over a few weeks — the same
// rule again in other words, a deadline in relative words — and shows the
// consolidation's plan, then applies it as one batch.
func (q *quickstart) dream() error {
	st := q.ws.Store
	at := q.o.Now.UTC()
	for _, m := range []memdir.Memory{
		{Name: "No mocked database in integration tests", Type: memdir.TypeFeedback,
			Description: "Integration tests never mock PostgreSQL; they use the real docker-compose database",
			Body:        "Integration tests use the real PostgreSQL from docker compose, never a mock or an in-memory fake: a mock missed a NOT NULL column once.\n",
			Created:     at.AddDate(0, 0, -3)},
		{Name: "Security audit", Type: memdir.TypeProject,
			Description: "The external security audit starts next Friday",
			Body:        "The external security audit starts next Friday; keep the audit-logs bucket read-only until then.\n",
			Created:     at.AddDate(0, 0, -1)},
	} {
		if _, err := st.Save(q.ctx, m, memdir.SaveOptions{Defaults: memdir.Memory{Source: "manual", Trust: memdir.TrustUser}}); err != nil {
			return err
		}
	}
	rep, err := q.ws.Dream(q.ctx, DreamOptions{Now: q.o.Now})
	if err != nil {
		return err
	}
	q.out.Dream.Planned = []string{}
	for _, op := range rep.Plan.Ops {
		q.out.Dream.Planned = append(q.out.Dream.Planned, op.ID)
	}
	q.say("\n11. memdir dream — an agent saved the same rule again in other words, and a deadline as \"next Friday\";\n    consolidation plans what to do, each step with its reason, and writes nothing yet:\n\n")
	var b strings.Builder
	if err := WriteDream(&b, rep); err != nil {
		return err
	}
	q.sayText("   ", b.String())
	applied, err := q.ws.Dream(q.ctx, DreamOptions{Now: q.o.Now, Apply: true})
	if err != nil {
		return err
	}
	if applied.Batch != nil {
		q.out.Dream.Batch = applied.Batch.ID
		q.say("\n   memdir dream --apply: %d operations written as one batch; 'memdir dream --undo' puts every file back.\n", len(applied.Applied))
	}
	return nil
}
