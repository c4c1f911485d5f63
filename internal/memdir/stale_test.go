package memdir_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// The stale field (issue 18): written only when it changes, cleared by an
// empty value, and a file without it is rewritten byte for byte.
func TestStale_RoundTrip(t *testing.T) {
	t.Parallel()
	const plain = "---\nname: Build\ndescription: run make build\ntype: project\nowner: me # mine\n---\nUse `make build`.\n"
	m, err := memdir.Parse("build.md", []byte(plain))
	if err != nil {
		t.Fatal(err)
	}
	if m.Stale != "" {
		t.Fatalf("Stale=%q, want empty", m.Stale)
	}
	if got := string(memdir.Format(m)); got != plain {
		t.Errorf("Format(Parse()) of a file without stale changed it:\n%s", got)
	}
	m.Stale = "make target build no longer exists (2026-11-25)"
	marked := string(memdir.Format(m))
	want := "---\nname: Build\ndescription: run make build\ntype: project\nowner: me # mine\nstale: make target build no longer exists (2026-11-25)\n---\nUse `make build`.\n"
	if marked != want {
		t.Errorf("Format() with stale=\n%s\nwant\n%s", marked, want)
	}
	back, err := memdir.Parse("build.md", []byte(marked))
	if err != nil {
		t.Fatal(err)
	}
	if back.Stale != m.Stale {
		t.Errorf("Parse().Stale=%q, want %q", back.Stale, m.Stale)
	}
	if got := string(memdir.Format(back)); got != marked {
		t.Errorf("Format(Parse()) of a file with stale changed it:\n%s", got)
	}
	back.Stale = ""
	if got := string(memdir.Format(back)); got != plain {
		t.Errorf("clearing stale gave\n%s\nwant\n%s", got, plain)
	}
}

func TestStore_SaveStaleKeepUpdated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := MustOpen(t, t0)
	if _, err := st.Save(ctx, memdir.Memory{Name: "Deploy", Description: "deploy with scripts/deploy.sh", Type: memdir.TypeProject}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	later, err := memdir.Open(st.Dir(), memdir.Options{Now: func() time.Time { return t0.Add(72 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	m, err := later.Get("deploy")
	if err != nil {
		t.Fatal(err)
	}
	m.Stale = "scripts/deploy.sh\nno longer exists (2026-11-25)"
	if _, err := later.Save(ctx, m, memdir.SaveOptions{KeepUpdated: true, KeepPrevious: true}); err != nil {
		t.Fatal(err)
	}
	got, err := later.Get("deploy")
	if err != nil {
		t.Fatal(err)
	}
	if got.Stale != "scripts/deploy.sh no longer exists (2026-11-25)" {
		t.Errorf("Stale=%q, want it on one line", got.Stale)
	}
	if !got.Updated.Equal(t0) {
		t.Errorf("Updated=%v, want %v kept by KeepUpdated", got.Updated, t0)
	}
	raw, _ := os.ReadFile(later.Path("deploy.md"))
	if !strings.Contains(string(raw), "\nstale: scripts/deploy.sh no longer exists (2026-11-25)\n") {
		t.Errorf("file lacks the stale line:\n%s", raw)
	}
}
