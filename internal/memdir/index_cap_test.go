package memdir_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// fillFolder writes n memory files of type typ, the i-th dated t0 minus
// n-i hours (the last is the newest), and returns their file names.
func fillFolder(tb testing.TB, st *memdir.Store, prefix string, n int, typ memdir.Type) []string {
	tb.Helper()
	var files []string
	for i := range n {
		m := memdir.Memory{
			File: fmt.Sprintf("%s-%03d.md", prefix, i), Name: fmt.Sprintf("%s %d", prefix, i),
			Description: "fact " + prefix, Type: typ, Created: t0.Add(-time.Duration(n-i) * time.Hour),
		}
		if err := os.WriteFile(st.Path(m.File), memdir.Format(m), 0o600); err != nil {
			tb.Fatal(err)
		}
		files = append(files, m.File)
	}
	return files
}

// checkCapped asserts that MEMORY.md fits memdir's budget, that every
// entry is the exact line of an existing memory, listed once, and that it
// holds the hand-written line.
func checkCapped(tb testing.TB, st *memdir.Store, hand string) memdir.Index {
	tb.Helper()
	b := []byte(readIndex(tb, st))
	u := memdir.IndexUsage(string(b))
	if u.Lines > memdir.IndexBudgetLines || u.Chars > memdir.IndexBudgetChars {
		tb.Fatalf("MEMORY.md is %d lines, %d characters: over the budget", u.Lines, u.Chars)
	}
	ix := memdir.ParseIndex(b)
	seen := map[string]bool{}
	for _, l := range ix.Lines {
		if l.File == "" {
			continue
		}
		m, err := st.Read(l.File)
		if err != nil || seen[l.File] || l.Text != memdir.EntryLine(m) {
			tb.Fatalf("line %q: %v (listed before: %v)", l.Text, err, seen[l.File])
		}
		seen[l.File] = true
	}
	if hand != "" && !bytes.Contains(b, []byte(hand+"\n")) {
		tb.Fatalf("the hand-written line %q is gone:\n%s", hand, b)
	}
	return ix
}

// TestSave_PastTheCap (issue 13): past the budget a save never grows
// MEMORY.md. A new memory takes the place of the least useful line — the
// oldest project memory — in place; one less useful than every listed
// memory is saved without a line, and the index is not rewritten.
func TestSave_PastTheCap(t *testing.T) {
	ctx := context.Background()
	st := MustOpen(t, t0)
	const hand = "# Notes I keep by hand"
	projects := fillFolder(t, st, "project", 200, memdir.TypeProject)
	os.WriteFile(st.Path(memdir.IndexFile), []byte(hand+"\n"), 0o600)
	res, err := st.RebuildIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix := checkCapped(t, st, hand)
	listed := len(ix.Files())
	if listed != memdir.IndexBudgetLines-1 || res.LeftOut != 200-listed {
		t.Fatalf("rebuild listed %d (left out %d), want %d: the budget less the hand-written line", listed, res.LeftOut, memdir.IndexBudgetLines-1)
	}
	// The newest are listed: the oldest 61 are not.
	if strings.Contains(readIndex(t, st), "("+projects[60]+")") || !strings.Contains(readIndex(t, st), "("+projects[61]+")") {
		t.Fatalf("rebuild did not keep the newest memories:\n%s", readIndex(t, st))
	}

	before := readIndex(t, st)
	sr, err := st.Save(ctx, memdir.Memory{Name: "Deploy freeze", Description: "no deploys on Friday", Type: memdir.TypeProject}, memdir.SaveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	after := readIndex(t, st)
	if sr.NotIndexed || len(sr.Unlisted) != 1 || sr.Unlisted[0] != projects[61] {
		t.Fatalf("save into a full index: not indexed %v, unlisted %v; want %s replaced", sr.NotIndexed, sr.Unlisted, projects[61])
	}
	if want := strings.Replace(before, memdir.EntryLine(mustRead1(t, st, projects[61])), sr.IndexLine, 1); after != want {
		t.Errorf("the new line did not take the old one's place:\n%s", after)
	}
	checkCapped(t, st, hand)
	for _, w := range sr.Warnings {
		if strings.Contains(w, "MEMORY.md") {
			t.Errorf("a save within the budget warned: %s", w)
		}
	}

	// A memory less useful than all listed: only user and feedback lines.
	other := MustOpen(t, t0)
	fillFolder(t, other, "person", 150, memdir.TypeFeedback)
	if _, err := other.RebuildIndex(ctx); err != nil {
		t.Fatal(err)
	}
	full := readIndex(t, other)
	sr, err = other.Save(ctx, memdir.Memory{Name: "Release date", Description: "ships in May", Type: memdir.TypeProject}, memdir.SaveOptions{})
	if err != nil || !sr.NotIndexed {
		t.Fatalf("save of a project memory into an index of feedback: not indexed %v, %v", sr.NotIndexed, err)
	}
	if got := readIndex(t, other); got != full {
		t.Errorf("MEMORY.md changed though the memory got no line")
	}
	if _, err := os.Stat(other.Path(sr.File)); err != nil {
		t.Errorf("the memory was not saved: %v", err)
	}
	// A pinned memory outranks them all.
	sr, err = other.Save(ctx, memdir.Memory{Name: "Never force-push", Description: "main is protected", Type: memdir.TypeProject, Pinned: true}, memdir.SaveOptions{})
	if err != nil || sr.NotIndexed || len(sr.Unlisted) != 1 {
		t.Fatalf("pinned save: not indexed %v, unlisted %v, %v", sr.NotIndexed, sr.Unlisted, err)
	}
	checkCapped(t, other, "")
}

func mustRead1(tb testing.TB, st *memdir.Store, file string) memdir.Memory {
	tb.Helper()
	m, err := st.Read(file)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestSave_HugeIndex (issue 13): a MEMORY.md over memdir's 8 MiB read limit
// (an older memdir wrote one line per memory, 72,000 of them) never makes a
// save fail: the save leaves it alone and says once how to fix it, and
// index --rebuild cuts it to the budget, keeping the lines written by hand.
func TestSave_HugeIndex(t *testing.T) {
	ctx := context.Background()
	st := MustOpen(t, t0)
	fillFolder(t, st, "kept", 20, memdir.TypeUser)
	const hand = "## Written by hand, in the middle"
	var big strings.Builder
	for i := 0; big.Len() <= memdir.MaxIndexSize; i++ {
		if i == 1000 {
			big.WriteString(hand + "\n")
		}
		fmt.Fprintf(&big, "- [Old memory %d](old-%06d.md) — a line an older memdir wrote for a memory forgotten since\n", i, i)
	}
	huge := []byte(big.String())
	os.WriteFile(st.Path(memdir.IndexFile), huge, 0o600)

	res, err := st.Save(ctx, memdir.Memory{Name: "New fact", Description: "d", Type: memdir.TypeProject}, memdir.SaveOptions{})
	if err != nil {
		t.Fatalf("save with a %d-byte MEMORY.md: %v", len(huge), err)
	}
	var hints []string
	for _, w := range res.Warnings {
		if strings.Contains(w, "memdir index --rebuild") {
			hints = append(hints, w)
		}
	}
	if !res.NotIndexed || len(hints) != 1 {
		t.Errorf("save: not indexed %v, warnings %q; want one naming 'memdir index --rebuild'", res.NotIndexed, res.Warnings)
	}
	if b, _ := os.ReadFile(st.Path(memdir.IndexFile)); !bytes.Equal(b, huge) {
		t.Errorf("the save rewrote the huge index (%d bytes now)", len(b))
	}
	if _, err := os.Stat(res.Path); err != nil {
		t.Errorf("the memory was not saved: %v", err)
	}

	rr, err := st.RebuildIndex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ix := checkCapped(t, st, hand)
	if got := len(ix.Files()); got != 21 || rr.LeftOut != 0 || len(rr.Added) != 21 {
		t.Errorf("rebuild: %d listed, %d added, %d left out; want all 21 memories", got, len(rr.Added), rr.LeftOut)
	}
	if r, err := st.CheckIndex(); err != nil || !r.OK() {
		t.Errorf("CheckIndex after the rebuild: %+v, %v", r, err)
	}
	if again, err := st.RebuildIndex(ctx); err != nil || again.Changed {
		t.Errorf("a second rebuild changed something: %+v, %v", again, err)
	}
}

// TestSave_OverTheCapsLeavesIndexAlone: an index past Claude Code's caps
// but small enough to read (300 lines an older memdir wrote) is not
// trimmed by a save — only a rebuild chooses what it lists — and the save
// says so once.
func TestSave_OverTheCapsLeavesIndexAlone(t *testing.T) {
	ctx := context.Background()
	st := MustOpen(t, t0)
	files := fillFolder(t, st, "m", 300, memdir.TypeProject)
	var ix strings.Builder
	for _, f := range files {
		ix.WriteString(memdir.EntryLine(mustRead1(t, st, f)) + "\n")
	}
	os.WriteFile(st.Path(memdir.IndexFile), []byte(ix.String()), 0o600)
	res, err := st.Save(ctx, memdir.Memory{Name: "New", Description: "d", Type: memdir.TypeProject}, memdir.SaveOptions{})
	if err != nil || !res.NotIndexed {
		t.Fatalf("save: not indexed %v, %v", res.NotIndexed, err)
	}
	if got := readIndex(t, st); got != ix.String() {
		t.Error("the save rewrote an index past the caps")
	}
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w, "memdir index --rebuild") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %q: want one naming 'memdir index --rebuild'", res.Warnings)
	}
	// Its line replaced, a memory already listed is saved as before.
	if res, err := st.Save(ctx, memdir.Memory{File: files[0], Description: "changed"}, memdir.SaveOptions{}); err != nil || res.NotIndexed {
		t.Fatalf("update of a listed memory: %+v, %v", res, err)
	}
	if !strings.Contains(readIndex(t, st), "— changed\n") {
		t.Error("the listed memory's line was not updated")
	}
}
