package workspace

import (
	"context"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestFillFromStored: a save that names a stored memory by its exact name
// keeps the type and description it leaves out; a memory found only by
// its file's stem, or none at all, fills nothing.
func TestFillFromStored(t *testing.T) {
	env, _ := testEnv(t)
	ws, err := Open(env, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Save(context.Background(), SaveRequest{Type: "feedback", Name: "Prefer tabs", Description: "indent with tabs", Body: "Tabs.\n",
		Defaults: memdir.Memory{Source: "manual", Trust: memdir.TrustUser}}); err != nil {
		t.Fatal(err)
	}
	r := SaveRequest{Name: "prefer tabs", Description: "tabs in Go and Makefiles"}
	if !ws.FillFromStored(&r) || r.Type != "feedback" || r.Description != "tabs in Go and Makefiles" {
		t.Errorf("by its name: %v %+v, want the stored type and the given description", r.Type, r)
	}
	for _, name := range []string{"prefer-tabs", "Tabs", "Nothing like it"} {
		r := SaveRequest{Name: name}
		if ws.FillFromStored(&r) || r.Type != "" || r.Description != "" {
			t.Errorf("%q filled %+v, want nothing", name, r)
		}
	}
}
