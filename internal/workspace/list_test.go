package workspace

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

func listedFiles(t *testing.T, l *Listing, typ string, k Key) []string {
	t.Helper()
	var out []string
	for m, err := range l.All(typ, k) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m.File)
	}
	return out
}

// TestList_OrderAsListMemories: the listing of a folder's snapshot is in
// ListMemories' order, for every filter, with the same counts.
func TestList_OrderAsListMemories(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 60 {
		typ := memdir.Types[r.IntN(len(memdir.Types))]
		if _, err := ws.Store.Save(t.Context(), memdir.Memory{Name: fmt.Sprintf("memory %02d", 59-i), Description: "d", Type: typ, Body: "b"}, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(l.MemoryDir, "loose-a.md"), []byte("a loose note\n"), 0o600)
	os.WriteFile(filepath.Join(l.MemoryDir, "zz-odd-type.md"), []byte("---\nname: odd\ntype: diary\n---\nb\n"), 0o600)
	ls, _, err := List(t.Context(), ws.Store)
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"", Untyped, "user", "feedback", "project", "reference"} {
		mems, _, err := ListMemories(ws.Store, typ)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, m := range mems {
			want = append(want, m.File)
		}
		if got := listedFiles(t, ls, typ, Key{}); !slices.Equal(got, want) {
			t.Errorf("List(%q) = %v, want %v", typ, got, want)
		}
		if got := ls.Count(typ); got != len(want) {
			t.Errorf("Count(%q) = %d, want %d", typ, got, len(want))
		}
	}
}

// TestList_UnsortedSnapshot: a snapshot not in file order (a merged or
// appended one) is sorted, to the same order.
func TestList_UnsortedSnapshot(t *testing.T) {
	var entries []recall.Entry
	for i, f := range []string{"d.md", "a.md", "c.md", "b.md", "e.md"} {
		typ := []string{"project", "user", "", "user", "project"}[i]
		entries = append(entries, recall.NewEntry(recall.Memory{File: f, Name: f, Type: typ}, nil, 1, 1))
	}
	snap, err := recall.Open(recall.Encode(entries, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	ls, err := NewListing(snap)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := listedFiles(t, ls, "", Key{}), []string{"a.md", "b.md", "d.md", "e.md", "c.md"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, want := listedFiles(t, ls, "user", Key{Type: "user", File: "a.md"}), []string{"b.md"}; !slices.Equal(got, want) {
		t.Errorf("after a.md: got %v, want %v", got, want)
	}
}

// TestList_PagesByKey: pages cover the list once; between two pages,
// memories added or removed move no other memory.
func TestList_PagesByKey(t *testing.T) {
	env, l := testEnv(t)
	ws, err := Init(env, l)
	if err != nil {
		t.Fatal(err)
	}
	save := func(name string, typ memdir.Type) {
		if _, err := ws.Store.Save(context.Background(), memdir.Memory{Name: name, Description: "d", Type: typ, Body: "b"}, memdir.SaveOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 25 {
		save(fmt.Sprintf("m%02d", i), memdir.Types[i%len(memdir.Types)])
	}
	ls, _, err := List(t.Context(), ws.Store)
	if err != nil {
		t.Fatal(err)
	}
	all := listedFiles(t, ls, "", Key{})
	var paged []string
	var k Key
	for {
		page, more, err := ls.Page("", k, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range page {
			paged = append(paged, m.File)
		}
		if !more {
			break
		}
		k = page[len(page)-1].Key()
	}
	if !slices.Equal(paged, all) {
		t.Fatalf("pages %v, want %v", paged, all)
	}

	// A first page, then changes: one forgotten before the cursor, the
	// cursor's own memory forgotten, one saved after it.
	page, _, _ := ls.Page("", Key{}, 7)
	k = page[len(page)-1].Key()
	if _, err := ws.Store.Forget(t.Context(), page[0].File, true); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Store.Forget(t.Context(), k.File, true); err != nil {
		t.Fatal(err)
	}
	save("zz late", memdir.TypeReference)
	ls, _, err = List(t.Context(), ws.Store)
	if err != nil {
		t.Fatal(err)
	}
	// The rest is what followed the cursor, plus the new memory in its
	// place (the last reference).
	rest := listedFiles(t, ls, "", k)
	others := slices.DeleteFunc(slices.Clone(rest), func(f string) bool { return f == "zz-late.md" })
	if !slices.Equal(others, all[7:]) || len(rest) != len(all[7:])+1 {
		t.Errorf("after changes: %v, want %v and zz-late.md", rest, all[7:])
	}
}
