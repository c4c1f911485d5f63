package recall

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomEntries makes n entries over a small vocabulary, files named
// from prefix.
func randomEntries(rng *rand.Rand, prefix string, n int) []Entry {
	vocab := []string{"deploy", "friday", "kafka", "retention", "mock", "test", "table", "cache", "index", "merge"}
	out := make([]Entry, n)
	for i := range out {
		e := Entry{Memory: Memory{File: fmt.Sprintf("%s%d.md", prefix, i), Name: prefix}, Size: int64(i), ModTime: int64(i), Ino: uint64(i + 1)}
		for f := range NumFields {
			e.Terms[f] = map[string]uint16{}
			for range rng.IntN(6 * (int(f) + 1)) {
				e.Terms[f][vocab[rng.IntN(len(vocab))]]++
			}
		}
		out[i] = e
	}
	return out
}

// TestSegments_ScoreAsOne: a base with tombstones and a delta scores every
// query exactly as one segment of the live documents (N, df and average
// lengths counted over the live ones), and numbers them densely: the
// base's live documents in order, then the delta's.
func TestSegments_ScoreAsOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		base := randomEntries(rng, "b", 1+rng.IntN(40))
		delta := randomEntries(rng, "d", rng.IntN(10))
		var tomb []int
		var live []Entry
		for i, e := range base {
			if rng.IntN(4) == 0 {
				tomb = append(tomb, i)
				continue
			}
			live = append(live, e)
		}
		live = append(live, delta...)
		h := Header{DirMtime: 1, Built: 2, Swept: 3, ID: 77}
		b := EncodeBase(base, h)
		// Tombstones in any order, repeated: the delta sorts them.
		shuffled := slices.Clone(tomb)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		if len(shuffled) > 0 {
			shuffled = append(shuffled, shuffled[0])
		}
		d := EncodeDelta(h, Header{DirMtime: 4, Built: 5, Swept: 6}, shuffled, delta)
		got, err := OpenSegments(b, d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Open(Encode(live, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != want.Len() || got.DirMtime() != 4 || got.Built() != 5 || got.Swept() != 6 || got.Header().ID != 77 {
			t.Fatalf("trial %d: len %d/%d, header %+v", trial, got.Len(), want.Len(), got.Header())
		}
		for i := range want.Len() {
			if got.File(i) != want.File(i) || got.Ino(i) != live[i].Ino {
				t.Fatalf("trial %d: doc %d is %s (ino %d), want %s", trial, i, got.File(i), got.Ino(i), want.File(i))
			}
		}
		for _, q := range [][]string{{"deploy"}, {"kafka", "retention"}, {"mock", "test", "table", "cache"}, {"absent"}} {
			g, w := got.Index(DefaultParams).Search(q), want.Index(DefaultParams).Search(q)
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Fatalf("trial %d, query %v:\n got %v\nwant %v", trial, q, g, w)
			}
		}
	}
}

// TestSegments_Refused: a delta over another base, cut short, grown or
// with a bit flipped is refused, never read.
func TestSegments_Refused(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := Header{ID: 5}
	b := EncodeBase(randomEntries(rng, "b", 5), h)
	d := EncodeDelta(h, h, []int{1}, randomEntries(rng, "d", 2))
	if _, err := OpenSegments(b, d); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSegments(EncodeBase(nil, Header{ID: 6}), d); err != ErrStaleDelta {
		t.Errorf("a delta over another base: %v", err)
	}
	flipped := slices.Clone(d)
	flipped[len(flipped)/2] ^= 1
	for name, bad := range map[string][]byte{"cut": d[:len(d)-1], "grown": append(slices.Clone(d), 0), "flipped": flipped, "empty": {}} {
		if _, err := OpenSegments(b, bad); err == nil {
			t.Errorf("%s delta read", name)
		}
	}
	for name, bad := range map[string][]byte{"cut": b[:len(b)-1], "grown": append(slices.Clone(b), 0)} {
		if _, err := Open(bad); err == nil {
			t.Errorf("%s base read", name)
		}
	}
}

// FuzzSnapshotDelta: a delta of any bytes over a good base is refused or
// read without panicking. Its checksum is set right, so that the fuzzer
// reaches what lies past it.
func FuzzSnapshotDelta(f *testing.F) {
	rng := rand.New(rand.NewPCG(5, 6))
	h := Header{ID: 9}
	base := EncodeBase(randomEntries(rng, "b", 6), h)
	f.Add(EncodeDelta(h, h, []int{0, 3}, randomEntries(rng, "d", 3)))
	f.Add(EncodeDelta(h, h, nil, nil))
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) >= 4 {
			binary.LittleEndian.PutUint32(d[len(d)-4:], crc32.Checksum(d[:len(d)-4], castagnoli()))
		}
		s, err := OpenSegments(base, d)
		if err != nil {
			return
		}
		s.Index(DefaultParams).Search([]string{"deploy", "kafka", "test"})
		for i := range min(s.Len(), 50) {
			s.Entry(i)
			s.Memory(i)
			s.Stat(i)
			s.File(i)
		}
	})
}
