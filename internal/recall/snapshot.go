package recall

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"sort"
	"time"
)

// A snapshot is the ranking index in one byte slice, laid out so that a
// new process can answer a query without decoding it: fixed-width tables
// it reads in place, a sorted term dictionary it binary-searches, and the
// postings of only the query's terms decoded. Little-endian throughout:
//
//	header   "MDRI", version u32, dir mtime i64, built i64, n u32, terms u32,
//	         avglen [3]f64, id u64, swept i64, then the offsets of the
//	         sections (u32 each):
//	files    n × {size i64, stamp i64, inode u64, meta u32, name u32}
//	lens     n × [3]u32
//	dict     terms × {term u32, termLen u32, post u32, df u32}, sorted by term
//	blob     term bytes
//	postings per term, df × {doc u32, tf [3]u16}
//	meta     per document: strings as uvarint length + bytes, times as i64
//	forward  per document: its terms as dictionary indexes with their tf,
//	         to rebuild the snapshot when files change
//	names    the file names, together: checking the files against the
//	         folder reads this section and the file table, nothing else
//
// That layout is one segment. A snapshot is a base segment and, beside it,
// at most one small delta (see segments.go): the memories changed since
// the base was written, and tombstones for the base's documents they
// replace, so one changed memory rewrites the delta, not the base.

const (
	snapMagic   = "MDRI"
	snapVersion = 4
	numSections = 7
	headerLen   = 4 + 4 + 8 + 8 + 4 + 4 + 3*8 + 8 + 8 + numSections*4
	offsAt      = headerLen - numSections*4
	fileRecLen  = 32
	lenRecLen   = 12
	dictRecLen  = 16
	postRecLen  = 10
)

// Entry is one memory file in a snapshot.
type Entry struct {
	Memory           // Body is not stored: read the file to render it
	Refs    []string // the paths the memory names
	Size    int64
	ModTime int64  // the change stamp, nanoseconds; 0 is unknown (read again by a full check)
	Ino     uint64 // the file's inode, 0 when unknown: a name whose inode moved was replaced
	Terms   [NumFields]map[string]uint16
}

// NewEntry analyses m (with its body) into an entry.
func NewEntry(m Memory, refs []string, size, modTime int64) Entry {
	e := Entry{Memory: m, Refs: refs, Size: size, ModTime: modTime}
	e.Body = ""
	d := Analyse(m)
	for f := range NumFields {
		e.Terms[f] = map[string]uint16{}
		for _, t := range d.Terms[f] {
			if e.Terms[f][t] < math.MaxUint16 {
				e.Terms[f][t]++
			}
		}
	}
	return e
}

// Header is what a snapshot says of its look at the folder.
type Header struct {
	// DirMtime is the folder's mtime when the entries were listed.
	DirMtime int64
	// Built is when that look at the folder began (nanoseconds), against
	// which changes in the same clock tick are judged.
	Built int64
	// Swept is when the last full check of every file's stamp began.
	Swept int64
	// ID names a base segment, so that a delta is only ever read over the
	// base it was written for.
	ID uint64
}

// Encode lays entries out as a snapshot of one segment, swept when built.
func Encode(entries []Entry, dirMtime, built int64) []byte {
	return EncodeBase(entries, Header{DirMtime: dirMtime, Built: built, Swept: built})
}

// EncodeBase lays entries out as a base segment.
func EncodeBase(entries []Entry, h Header) []byte {
	dirMtime, built := h.DirMtime, h.Built
	n := len(entries)
	// Dictionary and postings.
	post := map[string][]posting{}
	var lens [][NumFields]uint32
	var total [NumFields]float64
	for d, e := range entries {
		var l [NumFields]uint32
		for f := range NumFields {
			for t, c := range e.Terms[f] {
				l[f] += uint32(c)
				ps := post[t]
				if len(ps) == 0 || ps[len(ps)-1].doc != int32(d) {
					ps = append(ps, posting{doc: int32(d)})
				}
				ps[len(ps)-1].tf[f] = c
				post[t] = ps
			}
			total[f] += float64(l[f])
		}
		lens = append(lens, l)
	}
	terms := make([]string, 0, len(post))
	for t := range post {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	termID := make(map[string]uint32, len(terms))
	for i, t := range terms {
		termID[t] = uint32(i)
	}

	var b []byte
	b = append(b, snapMagic...)
	b = binary.LittleEndian.AppendUint32(b, snapVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(dirMtime))
	b = binary.LittleEndian.AppendUint64(b, uint64(built))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(terms)))
	for f := range NumFields {
		avg := 0.0
		if n > 0 {
			avg = total[f] / float64(n)
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(avg))
	}
	b = binary.LittleEndian.AppendUint64(b, h.ID)
	b = binary.LittleEndian.AppendUint64(b, uint64(h.Swept))
	b = append(b, make([]byte, numSections*4)...)
	setOff := func(i int) { binary.LittleEndian.PutUint32(b[offsAt+4*i:], uint32(len(b))) }

	setOff(0) // files: meta offsets are patched below
	filesAt := len(b)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint64(b, uint64(e.Size))
		b = binary.LittleEndian.AppendUint64(b, uint64(e.ModTime))
		b = binary.LittleEndian.AppendUint64(b, e.Ino)
		b = binary.LittleEndian.AppendUint32(b, 0)
		b = binary.LittleEndian.AppendUint32(b, 0)
	}
	setOff(1)
	for _, l := range lens {
		for f := range NumFields {
			b = binary.LittleEndian.AppendUint32(b, l[f])
		}
	}
	setOff(2)
	dictAt := len(b)
	b = append(b, make([]byte, len(terms)*dictRecLen)...)
	setOff(3)
	for i, t := range terms {
		rec := b[dictAt+i*dictRecLen:]
		binary.LittleEndian.PutUint32(rec, uint32(len(b)))
		binary.LittleEndian.PutUint32(rec[4:], uint32(len(t)))
		b = append(b, t...)
	}
	setOff(4)
	for i, t := range terms {
		rec := b[dictAt+i*dictRecLen:]
		binary.LittleEndian.PutUint32(rec[8:], uint32(len(b)))
		binary.LittleEndian.PutUint32(rec[12:], uint32(len(post[t])))
		for _, p := range post[t] {
			b = binary.LittleEndian.AppendUint32(b, uint32(p.doc))
			for f := range NumFields {
				b = binary.LittleEndian.AppendUint16(b, p.tf[f])
			}
		}
	}
	setOff(5)
	for d, e := range entries {
		binary.LittleEndian.PutUint32(b[filesAt+d*fileRecLen+24:], uint32(len(b)))
		for _, s := range []string{e.Name, e.Description, e.Type, e.SupersededBy} {
			b = appendString(b, s)
		}
		b = binary.LittleEndian.AppendUint64(b, uint64(e.Saved.UnixNano()))
		b = binary.AppendUvarint(b, uint64(len(e.Refs)))
		for _, r := range e.Refs {
			b = appendString(b, r)
		}
		for f := range NumFields {
			ids := make([]uint32, 0, len(e.Terms[f]))
			for t := range e.Terms[f] {
				ids = append(ids, termID[t])
			}
			slices.Sort(ids)
			b = binary.AppendUvarint(b, uint64(len(ids)))
			for _, id := range ids {
				b = binary.AppendUvarint(b, uint64(id))
				b = binary.AppendUvarint(b, uint64(e.Terms[f][terms[id]]))
			}
		}
	}
	setOff(6)
	for d, e := range entries {
		binary.LittleEndian.PutUint32(b[filesAt+d*fileRecLen+28:], uint32(len(b)))
		b = appendString(b, e.File)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// segment is one encoded segment opened for reading.
type segment struct {
	data     []byte
	n, terms int
	hdr      Header
	avglen   [NumFields]float64
	off      [numSections]uint32
}

// ErrCorrupt says a snapshot's bytes do not hold together.
var ErrCorrupt = errors.New("recall index is corrupt")

// openSegment checks data's layout and opens it. Nothing is decoded yet.
func openSegment(data []byte) (*segment, error) {
	if len(data) < headerLen || string(data[:4]) != snapMagic || binary.LittleEndian.Uint32(data[4:]) != snapVersion {
		return nil, ErrCorrupt
	}
	s := &segment{data: data}
	s.hdr.DirMtime = int64(binary.LittleEndian.Uint64(data[8:]))
	s.hdr.Built = int64(binary.LittleEndian.Uint64(data[16:]))
	s.n = int(binary.LittleEndian.Uint32(data[24:]))
	s.terms = int(binary.LittleEndian.Uint32(data[28:]))
	for f := range NumFields {
		s.avglen[f] = math.Float64frombits(binary.LittleEndian.Uint64(data[32+8*int(f):]))
	}
	s.hdr.ID = binary.LittleEndian.Uint64(data[56:])
	s.hdr.Swept = int64(binary.LittleEndian.Uint64(data[64:]))
	for i := range s.off {
		s.off[i] = binary.LittleEndian.Uint32(data[offsAt+4*i:])
	}
	need := []int{s.n * fileRecLen, s.n * lenRecLen, s.terms * dictRecLen}
	for i, l := range need {
		if s.n < 0 || s.terms < 0 || int(s.off[i]) < headerLen || int(s.off[i])+l > len(data) {
			return nil, ErrCorrupt
		}
	}
	for i := 1; i < len(s.off); i++ {
		if s.off[i] < s.off[i-1] || int(s.off[i]) > len(data) {
			return nil, ErrCorrupt
		}
	}
	// The names come last, the last document's at the very end: a file cut
	// short (or grown) does not end there.
	end := int(s.off[6])
	if s.n > 0 {
		var ok bool
		if _, end, ok = s.fileSpan(s.n - 1); !ok {
			return nil, ErrCorrupt
		}
	}
	if end != len(data) {
		return nil, ErrCorrupt
	}
	return s, nil
}

// stat returns the size, stamp and inode recorded for document i.
func (s *segment) stat(i int) (size, stamp int64, ino uint64) {
	rec := s.data[int(s.off[0])+i*fileRecLen:]
	return int64(binary.LittleEndian.Uint64(rec)), int64(binary.LittleEndian.Uint64(rec[8:])), binary.LittleEndian.Uint64(rec[16:])
}

// reader decodes the meta section without panicking on bad bytes.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad, r.b = true, nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) str() string {
	l := r.uvarint()
	if l > uint64(len(r.b)) {
		r.bad, r.b = true, nil
		return ""
	}
	s := string(r.b[:l])
	r.b = r.b[l:]
	return s
}

func (r *reader) i64() int64 {
	if len(r.b) < 8 {
		r.bad, r.b = true, nil
		return 0
	}
	v := int64(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (s *segment) meta(i int) *reader {
	at := binary.LittleEndian.Uint32(s.data[int(s.off[0])+i*fileRecLen+24:])
	if at < s.off[5] || at > s.off[6] {
		return &reader{bad: true}
	}
	return &reader{b: s.data[at:]}
}

// fileBytes returns the file name of document i, in place.
func (s *segment) fileBytes(i int) []byte {
	from, to, ok := s.fileSpan(i)
	if !ok {
		return nil
	}
	return s.data[from:to]
}

// fileSpan returns where document i's file name lies in the data.
func (s *segment) fileSpan(i int) (from, to int, ok bool) {
	at := binary.LittleEndian.Uint32(s.data[int(s.off[0])+i*fileRecLen+28:])
	if at < s.off[6] || int(at) > len(s.data) {
		return 0, 0, false
	}
	l, n := binary.Uvarint(s.data[at:])
	if n <= 0 || l > uint64(len(s.data)-int(at)-n) {
		return 0, 0, false
	}
	return int(at) + n, int(at) + n + int(l), true
}

// entry decodes document i in full (metadata and terms).
func (s *segment) entry(i int) (Entry, error) {
	m, refs, r := s.decodeMeta(i)
	e := Entry{Memory: m, Refs: refs}
	e.Size, e.ModTime, e.Ino = s.stat(i)
	for f := range NumFields {
		cnt := r.uvarint()
		e.Terms[f] = make(map[string]uint16, min(cnt, 1<<12))
		for range min(cnt, 1<<20) {
			id, tf := r.uvarint(), r.uvarint()
			t, ok := s.term(int(id))
			if !ok || r.bad {
				return e, ErrCorrupt
			}
			e.Terms[f][t] = uint16(min(tf, math.MaxUint16))
		}
	}
	if r.bad {
		return e, ErrCorrupt
	}
	return e, nil
}

// memory decodes what selection needs of document i, and the refs it names.
func (s *segment) memory(i int) (Memory, []string, error) {
	m, refs, r := s.decodeMeta(i)
	if r.bad {
		return m, nil, ErrCorrupt
	}
	return m, refs, nil
}

// decodeMeta reads document i's metadata and returns the reader positioned
// at its terms.
func (s *segment) decodeMeta(i int) (Memory, []string, *reader) {
	r := s.meta(i)
	m := Memory{File: string(s.fileBytes(i))}
	m.Name, m.Description, m.Type, m.SupersededBy = r.str(), r.str(), r.str(), r.str()
	if ns := r.i64(); ns != zeroTime && ns != 0 {
		m.Saved = time.Unix(0, ns).UTC()
	}
	var refs []string
	for range min(r.uvarint(), 1<<16) {
		refs = append(refs, r.str())
	}
	return m, refs, r
}

func (s *segment) dictRec(i int) []byte { return s.data[int(s.off[2])+i*dictRecLen:] }

func (s *segment) term(i int) (string, bool) {
	if i < 0 || i >= s.terms {
		return "", false
	}
	rec := s.dictRec(i)
	at, l := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint32(rec[4:])
	if uint64(at)+uint64(l) > uint64(len(s.data)) {
		return "", false
	}
	return string(s.data[at : at+l]), true
}

// postings appends the decoded postings of term t to dst; none when the
// term is absent or its list corrupt.
func (s *segment) postings(t string, dst []posting) []posting {
	i := sort.Search(s.terms, func(i int) bool {
		rec := s.dictRec(i)
		at, l := binary.LittleEndian.Uint32(rec), binary.LittleEndian.Uint32(rec[4:])
		if uint64(at)+uint64(l) > uint64(len(s.data)) {
			return true
		}
		return bytes.Compare(s.data[at:at+l], []byte(t)) >= 0
	})
	if got, ok := s.term(i); !ok || got != t {
		return dst
	}
	rec := s.dictRec(i)
	at, df := binary.LittleEndian.Uint32(rec[8:]), binary.LittleEndian.Uint32(rec[12:])
	if uint64(at)+uint64(df)*postRecLen > uint64(len(s.data)) {
		return dst
	}
	start := len(dst)
	dst = slices.Grow(dst, int(df))
	out := dst[start : start+int(df)]
	for j := range out {
		p := s.data[int(at)+j*postRecLen:]
		doc := binary.LittleEndian.Uint32(p)
		if int(doc) >= s.n || j > 0 && int32(doc) <= out[j-1].doc {
			return dst[:start] // out of range or out of order: corrupt
		}
		out[j].doc = int32(doc)
		for f := range NumFields {
			out[j].tf[f] = binary.LittleEndian.Uint16(p[4+2*int(f):])
		}
	}
	return dst[:start+int(df)]
}

// lens returns document i's field lengths.
func (s *segment) lens(i int) (l [NumFields]int32) {
	base := int(s.off[1]) + i*lenRecLen
	for f := range NumFields {
		l[f] = int32(binary.LittleEndian.Uint32(s.data[base+4*int(f):]))
	}
	return l
}

// zeroTime is how Encode stores an unknown time.
var zeroTime = time.Time{}.UnixNano()
