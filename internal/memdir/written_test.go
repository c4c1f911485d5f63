package memdir_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestWrittenSince: the written log accounts for the folder's mtime moving
// only while every move was memdir's own, linked hold to hold; another
// program's change, a link rotated away or a torn link line leaves it
// unable to tell.
func TestWrittenSince(t *testing.T) {
	st := MustOpen(t, t0)
	mtime := func() int64 {
		t.Helper()
		fi, err := os.Stat(st.Dir())
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime().UnixNano()
	}
	saveNamed := func(name string) string {
		t.Helper()
		res, err := st.Save(t.Context(), memdir.Memory{Name: name, Description: "d", Type: memdir.TypeProject, Body: "b\n"}, memdir.SaveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return res.File
	}
	check := func(what string, from, to int64, want []string, wantOK bool) {
		t.Helper()
		got, ok := st.WrittenSince(from, to)
		if ok != wantOK || !slices.Equal(got, want) {
			t.Errorf("%s: WrittenSince = %d names %.200v, %v; want %v, %v", what, len(got), got, ok, want, wantOK)
		}
	}
	st.MakeCacheDir()
	m0 := mtime()
	a := saveNamed("Alpha")
	m1 := mtime()
	b := saveNamed("Beta")
	m2 := mtime()
	c := saveNamed("Gamma")
	m3 := mtime()
	check("the first link, nothing before it", m0, m1, nil, false)
	check("two saves", m1, m3, []string{b, c}, true)
	// Links past the time asked (writes since the caller's stat) add
	// their files: read again, they do no harm.
	check("one save, then another", m1, m2, []string{b, c}, true)
	check("nothing since", m3, m3, nil, true)
	check("a time no link ends at", m1, m3+1, nil, false)
	_ = a

	// Another program adds a file, then memdir saves: the chain is broken
	// at the add; it starts again after it.
	if err := os.WriteFile(st.Path("by-hand.md"), []byte("---\nname: By hand\n---\nx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m4 := mtime()
	d := saveNamed("Delta")
	m5 := mtime()
	check("across another program's add", m3, m5, nil, false)
	check("after another program's add", m4, m5, []string{d}, true)

	// Forget logs the name that left.
	if _, err := st.Forget(t.Context(), d, false); err != nil {
		t.Fatal(err)
	}
	m6 := mtime()
	check("a forget", m5, m6, []string{d}, true)

	// A torn link line ends every chain through it.
	f, err := os.OpenFile(st.Path(memdir.WrittenLog), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "@%d garbage\n", m6)
	f.Close()
	e := saveNamed("Epsilon")
	m7 := mtime()
	check("through a torn link", m5, m7, nil, false)
	check("after a torn link", m6, m7, []string{e}, true)

	// A hold that lost a name says so: no chain passes it, even one that
	// asks for no move at all (a write in the same clock tick).
	f, err = os.OpenFile(st.Path(memdir.WrittenLog), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "@%d !\n", m7)
	f.Close()
	check("a hold that lost a name, same time", m7, m7, nil, false)
	check("a hold that lost a name", m6, m7, nil, false)

	// Hundreds of saves rotate the log: a chain that starts in a
	// generation gone cannot be told; one that starts in a kept one can.
	var recent []string
	var mMid int64
	memdir.WrittenLogMaxForTest(t, 2<<10)
	long := strings.Repeat("a long name to fill the log ", 3)
	for i := range 6 { // batches of 10 memories: 60 names of 90 bytes, past two generations of 2 KB
		if i == 5 {
			mMid = mtime()
		}
		var b memdir.Batch
		for j := range 10 {
			b.Save = append(b.Save, memdir.Memory{Name: fmt.Sprintf("%d %d %s", i, j, long), Description: "d", Type: memdir.TypeProject, Body: "b\n"})
		}
		res, err := st.Apply(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		if i == 5 {
			recent = res.Written
		}
	}
	mEnd := mtime()
	check("from a rotated generation", m7, mEnd, nil, false)
	check("within the kept generations", mMid, mEnd, recent, true)

	// A folder that folds case (its lock file found by another spelling):
	// the log's spelling of a name need not be the listing's.
	if err := os.WriteFile(st.Path(strings.ToUpper(memdir.LockFile)), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	check("a folder that folds case", mMid, mEnd, nil, false)
}
