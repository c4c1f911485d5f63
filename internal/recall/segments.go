package recall

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"slices"
	"sync"
)

// A snapshot is read from two segments, as search engines keep an index
// (Lucene's segments, an LSM tree's levels): a large base, written whole
// now and then, and a small delta written on every change. The delta holds
//
//	header      "MDRD", version u32, base id u64, dir mtime i64, built i64,
//	            swept i64, tombstones u32
//	tombstones  the base's documents that are gone or replaced, as sorted
//	            u32 document numbers
//	segment     the changed and added memories, a segment of their own
//	crc         CRC-32C of all the above, u32: the delta is small, so a
//	            bit flipped anywhere in it is caught for a few microseconds
//
// and its header's times replace the base's. A delta names the base it
// was written over by the base's id: a delta left beside a newer base (a
// writer killed between the two writes) is never read over it.
//
// Documents are numbered densely: the base's live documents first, in
// their order, then the delta's. The scores are those of one segment
// holding the same memories: N, each term's df and the average field
// lengths count live documents only.
const (
	deltaMagic   = "MDRD"
	deltaVersion = 1
	deltaHdrLen  = 4 + 4 + 8 + 8 + 8 + 8 + 4
)

// Snapshot is an encoded index opened for reading: a base segment and at
// most one delta. It is safe for concurrent use.
type Snapshot struct {
	defaultIx func() *Index // Index(DefaultParams), built once
	base      *segment
	delta     *segment // nil without a delta
	tomb      []uint32 // the base's dead documents, sorted
	live      int      // the base's live documents
	hdr       Header   // the delta's times when there is one
	alive     func() []uint32
	owner     *Snapshot // the snapshot whose base this one reads (its mapping must outlive this one)
}

// Open opens a snapshot of one segment (no delta). Nothing is decoded yet.
func Open(data []byte) (*Snapshot, error) { return OpenSegments(data, nil) }

// OpenSegments opens a base segment and the delta written over it (nil
// for none). A delta that is corrupt or was written over another base is
// an error: the caller rebuilds rather than trusting either alone.
func OpenSegments(base, delta []byte) (*Snapshot, error) {
	b, err := openSegment(base)
	if err != nil {
		return nil, err
	}
	return openOver(b, delta)
}

func openOver(b *segment, delta []byte) (*Snapshot, error) {
	var err error
	s := &Snapshot{base: b, live: b.n, hdr: b.hdr}
	if delta != nil {
		if len(delta) < deltaHdrLen+4 || string(delta[:4]) != deltaMagic || binary.LittleEndian.Uint32(delta[4:]) != deltaVersion {
			return nil, ErrCorrupt
		}
		end := len(delta) - 4
		if crc32.Checksum(delta[:end], castagnoli()) != binary.LittleEndian.Uint32(delta[end:]) {
			return nil, ErrCorrupt
		}
		delta = delta[:end]
		if binary.LittleEndian.Uint64(delta[8:]) != b.hdr.ID {
			return nil, ErrStaleDelta
		}
		s.hdr = Header{DirMtime: int64(binary.LittleEndian.Uint64(delta[16:])), Built: int64(binary.LittleEndian.Uint64(delta[24:])),
			Swept: int64(binary.LittleEndian.Uint64(delta[32:])), ID: b.hdr.ID}
		nt := int(binary.LittleEndian.Uint32(delta[40:]))
		at := deltaHdrLen + 4*nt
		if nt > b.n || at > len(delta) {
			return nil, ErrCorrupt
		}
		s.tomb = make([]uint32, nt)
		for i := range s.tomb {
			s.tomb[i] = binary.LittleEndian.Uint32(delta[deltaHdrLen+4*i:])
			if int(s.tomb[i]) >= b.n || i > 0 && s.tomb[i] <= s.tomb[i-1] {
				return nil, ErrCorrupt
			}
		}
		if s.delta, err = openSegment(delta[at:]); err != nil {
			return nil, err
		}
		s.live = b.n - nt
	}
	s.defaultIx = sync.OnceValue(func() *Index { return s.Index(DefaultParams) })
	s.alive = sync.OnceValue(func() []uint32 {
		out := make([]uint32, 0, s.live)
		k := 0
		for d := range uint32(b.n) {
			if k < len(s.tomb) && s.tomb[k] == d {
				k++
				continue
			}
			out = append(out, d)
		}
		return out
	})
	return s, nil
}

// WithDelta opens delta over s's base, which it shares: s is kept alive
// as long as the result is.
func (s *Snapshot) WithDelta(delta []byte) (*Snapshot, error) {
	out, err := openOver(s.base, delta)
	if err != nil {
		return nil, err
	}
	out.owner = s
	return out, nil
}

// ErrStaleDelta says a delta was written over another base than the one
// beside it.
var ErrStaleDelta = errors.New("recall delta belongs to another base")

// EncodeDelta lays out a delta over the base whose header is base: the
// base documents tombstones removes (any order) and the entries that
// come after the base's live ones. h's ID is ignored: the delta takes
// the base's.
func EncodeDelta(base Header, h Header, tombstones []int, entries []Entry) []byte {
	ts := make([]uint32, 0, len(tombstones))
	for _, t := range tombstones {
		ts = append(ts, uint32(t))
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	b := make([]byte, 0, deltaHdrLen+4*len(ts))
	b = append(b, deltaMagic...)
	b = binary.LittleEndian.AppendUint32(b, deltaVersion)
	b = binary.LittleEndian.AppendUint64(b, base.ID)
	b = binary.LittleEndian.AppendUint64(b, uint64(h.DirMtime))
	b = binary.LittleEndian.AppendUint64(b, uint64(h.Built))
	b = binary.LittleEndian.AppendUint64(b, uint64(h.Swept))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ts)))
	for _, t := range ts {
		b = binary.LittleEndian.AppendUint32(b, t)
	}
	b = append(b, EncodeBase(entries, Header{DirMtime: h.DirMtime, Built: h.Built, Swept: h.Swept})...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli()))
}

// castagnoli is made on first use: its tables cost 0.2 ms, and a prompt
// that finds no delta segment never needs them.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Len returns the number of memories.
func (s *Snapshot) Len() int {
	if s.delta == nil {
		return s.live
	}
	return s.live + s.delta.n
}

// Header returns the snapshot's times (the delta's, when it has one) and
// its base's id.
func (s *Snapshot) Header() Header { return s.hdr }

// DirMtime returns the folder mtime the snapshot was taken at.
func (s *Snapshot) DirMtime() int64 { return s.hdr.DirMtime }

// Built returns when the snapshot's look at the folder began, in
// nanoseconds.
func (s *Snapshot) Built() int64 { return s.hdr.Built }

// Swept returns when the snapshot's last check of every file's stamp
// began, in nanoseconds.
func (s *Snapshot) Swept() int64 { return s.hdr.Swept }

// BaseLen returns the number of documents of the base segment, dead ones
// included.
func (s *Snapshot) BaseLen() int { return s.base.n }

// DeltaLen returns the number of documents of the delta.
func (s *Snapshot) DeltaLen() int {
	if s.delta == nil {
		return 0
	}
	return s.delta.n
}

// Tombstones returns the base's dead documents (base numbers), sorted.
func (s *Snapshot) Tombstones() []int {
	out := make([]int, len(s.tomb))
	for i, t := range s.tomb {
		out[i] = int(t)
	}
	return out
}

// BaseDoc returns memory i's number in the base segment, or false when
// it lives in the delta.
func (s *Snapshot) BaseDoc(i int) (int, bool) {
	if i >= s.live {
		return 0, false
	}
	if len(s.tomb) == 0 {
		return i, true
	}
	return int(s.alive()[i]), true
}

// at returns the segment and its document number for memory i.
func (s *Snapshot) at(i int) (*segment, int) {
	if d, ok := s.BaseDoc(i); ok {
		return s.base, d
	}
	return s.delta, i - s.live
}

// Stat returns the size and change stamp recorded for memory i.
func (s *Snapshot) Stat(i int) (size, stamp int64) {
	seg, d := s.at(i)
	size, stamp, _ = seg.stat(d)
	return size, stamp
}

// Ino returns the inode recorded for memory i (0 when unknown).
func (s *Snapshot) Ino(i int) uint64 {
	seg, d := s.at(i)
	_, _, ino := seg.stat(d)
	return ino
}

// File returns the file name of memory i.
func (s *Snapshot) File(i int) string {
	seg, d := s.at(i)
	return string(seg.fileBytes(d))
}

// FileBytes is File without a copy: the bytes stay valid as long as the
// snapshot.
func (s *Snapshot) FileBytes(i int) []byte {
	seg, d := s.at(i)
	return seg.fileBytes(d)
}

// Entry decodes memory i in full (metadata and terms).
func (s *Snapshot) Entry(i int) (Entry, error) {
	seg, d := s.at(i)
	return seg.entry(d)
}

// Memory decodes what selection needs of memory i, and the refs it names.
func (s *Snapshot) Memory(i int) (Memory, []string, error) {
	seg, d := s.at(i)
	return seg.memory(d)
}

// postings appends term t's postings over the live documents, renumbered
// densely and sorted by document, to dst.
func (s *Snapshot) postings(t string, dst []posting) []posting {
	start := len(dst)
	dst = s.base.postings(t, dst)
	if len(s.tomb) > 0 {
		// Both lists are sorted: one walk drops the dead and renumbers the
		// rest by the dead before them.
		out, k := dst[:start], 0
		for _, p := range dst[start:] {
			for k < len(s.tomb) && s.tomb[k] < uint32(p.doc) {
				k++
			}
			if k < len(s.tomb) && s.tomb[k] == uint32(p.doc) {
				continue
			}
			p.doc -= int32(k)
			out = append(out, p)
		}
		dst = out
	}
	if s.delta != nil {
		at := len(dst)
		dst = s.delta.postings(t, dst)
		for i := at; i < len(dst); i++ {
			dst[i].doc += int32(s.live)
		}
	}
	return dst
}

// DefaultIndex is Index(DefaultParams), built on first use and kept.
func (s *Snapshot) DefaultIndex() *Index { return s.defaultIx() }

// Index returns an Index over the snapshot that decodes postings on demand.
// The average field lengths are summed here, in integers, over the live
// documents: the same figures a single segment of them would give.
func (s *Snapshot) Index(p Params) *Index {
	n := s.Len()
	if len(s.tomb) == 0 && s.DeltaLen() == 0 {
		// One segment, all live: its length table is read in place (Open
		// checked its bounds) and its stored averages are the live ones —
		// Encode sums the lengths exactly, as below — so a process opening
		// a snapshot of 100,000 memories copies nothing.
		return &Index{p: p, n: n, avglen: s.base.avglen, lensLE: s.base.data[s.base.off[1]:], lookup: s.postings}
	}
	ix := &Index{p: p, n: n, lens: make([][NumFields]int32, n), lookup: s.postings}
	var total [NumFields]int64
	d := 0
	k := 0
	for b := range s.base.n {
		if k < len(s.tomb) && s.tomb[k] == uint32(b) {
			k++
			continue
		}
		ix.lens[d] = s.base.lens(b)
		d++
	}
	for j := range s.DeltaLen() {
		ix.lens[d] = s.delta.lens(j)
		d++
	}
	for _, l := range ix.lens {
		for f := range NumFields {
			total[f] += int64(l[f])
		}
	}
	for f := range NumFields {
		if n > 0 {
			ix.avglen[f] = float64(total[f]) / float64(n)
		}
	}
	return ix
}
