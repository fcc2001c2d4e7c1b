package ipgeo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"runtime"
	"slices"
	"sync"
)

// Precomputed areas: the service-area estimate of every announced prefix that has one and
// the accuracy circle of every record, computed once when the snapshot is built (EncodeAreas,
// the snapshot's "areas" section) instead of per request. An estimate over a large prefix
// costs tens of microseconds; with random addresses a bounded memo of them rarely hits,
// while the whole table of a full dataset is a few tens of megabytes.
//
// # Section format
//
// Little-endian varints throughout (zig-zag for signed values):
//
//	"ipatlas-areas/1"
//	records            uvarint: the number of records of the ipgeo section it was made from
//	polygons           uvarint n, then n × (uvarint points, then per point the latitude and
//	                   longitude in 1e-5 degrees, each as the zig-zag difference from the
//	                   previous point's; the first point's from 0, 0)
//	record polygons    records × uvarint: 1 + the polygon of the record, 0 without coordinates
//	prefixes           uvarint n, then n × (byte 4 or 6, the address's first 4 or 8 bytes, byte
//	                   bits, uvarint polygon, 8 bytes radius in km as float64 bits, uvarint
//	                   countries, countries × (2 bytes ISO code, 8 bytes share as float64 bits))
//
// Identical polygons are stored once. Prefixes are in ascending order, without duplicates.

const areasMagic = "ipatlas-areas/1"

// areas is a decoded areas section.
type areas struct {
	recPoly  []uint32 // per record: 1 + polygon, 0 without coordinates
	polys    [][]int32
	prefixes map[netip.Prefix]estimate
}

func (t *areas) prefix(p netip.Prefix) (estimate, bool) {
	e, ok := t.prefixes[p]
	return e, ok
}

func (t *areas) record(db *DB, rec uint32) estimate {
	var poly []int32
	if k := t.recPoly[rec]; k > 0 {
		poly = t.polys[k-1]
	}
	return db.recordEstimate(rec, poly)
}

// EncodeAreas computes the estimates of the announced prefixes (the network data's, any
// order; duplicates and prefixes without an estimate of their own are skipped) and the
// accuracy circles of every record, on all CPUs, and returns them as an areas section for
// WithAreas. The output depends only on db and the set of prefixes.
func (db *DB) EncodeAreas(announced []netip.Prefix) []byte {
	pfxs := make([]netip.Prefix, 0, len(announced))
	for _, p := range announced {
		if p.IsValid() && (p.Addr().Is4() || p.Bits() <= 64) {
			pfxs = append(pfxs, p.Masked())
		}
	}
	slices.SortFunc(pfxs, comparePrefix)
	pfxs = slices.Compact(pfxs)

	recPolys := make([][]int32, len(db.records))
	parallel(len(recPolys), func(i int) { recPolys[i] = db.recordPolygon(uint32(i)) })
	ests := make([]estimate, len(pfxs))
	parallel(len(pfxs), func(i int) { ests[i] = db.prefixEstimate(pfxs[i]) })

	// Polygons in order of first use, each stored once.
	var polys [][]int32
	ids := map[string]uint64{}
	id := func(poly []int32) uint64 {
		if poly == nil {
			return 0
		}
		key := make([]byte, 0, 4*len(poly))
		for _, v := range poly {
			key = binary.LittleEndian.AppendUint32(key, uint32(v))
		}
		k, ok := ids[string(key)]
		if !ok {
			polys = append(polys, poly)
			k = uint64(len(polys))
			ids[string(key)] = k
		}
		return k
	}
	recIDs := make([]uint64, len(recPolys))
	for i, p := range recPolys {
		recIDs[i] = id(p)
	}
	var body []byte
	nPfx := 0
	for i, p := range pfxs {
		e := ests[i]
		if e.poly == nil {
			continue
		}
		nPfx++
		a := p.Addr().AsSlice()
		if p.Addr().Is4() {
			body = append(body, 4)
		} else {
			body = append(body, 6)
			a = a[:8]
		}
		body = append(body, a...)
		body = append(body, byte(p.Bits()))
		body = binary.AppendUvarint(body, id(e.poly)-1)
		body = binary.LittleEndian.AppendUint64(body, math.Float64bits(e.radiusKm))
		body = binary.AppendUvarint(body, uint64(len(e.countries)))
		for _, c := range e.countries {
			body = append(body, c.code...)
			body = binary.LittleEndian.AppendUint64(body, math.Float64bits(c.share))
		}
	}

	b := []byte(areasMagic)
	b = binary.AppendUvarint(b, uint64(len(db.records)))
	b = binary.AppendUvarint(b, uint64(len(polys)))
	for _, poly := range polys {
		b = binary.AppendUvarint(b, uint64(len(poly)/2))
		var prev [2]int32
		for j, v := range poly {
			b = binary.AppendVarint(b, int64(v)-int64(prev[j%2]))
			prev[j%2] = v
		}
	}
	for _, k := range recIDs {
		b = binary.AppendUvarint(b, k)
	}
	b = binary.AppendUvarint(b, uint64(nPfx))
	return append(b, body...)
}

// AreaCounts returns the number of precomputed prefix estimates and distinct polygons, or
// zeros without precomputed areas.
func (db *DB) AreaCounts() (prefixes, polygons int) {
	if db.areas == nil {
		return 0, 0
	}
	return len(db.areas.prefixes), len(db.areas.polys)
}

func comparePrefix(a, b netip.Prefix) int {
	if c := a.Addr().Compare(b.Addr()); c != 0 {
		return c
	}
	return a.Bits() - b.Bits()
}

// parallel calls f(i) for every 0 ≤ i < n on all CPUs.
func parallel(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				f(i)
			}
		})
	}
	wg.Wait()
}

// WithAreas returns a DB that answers Confidence from b, an areas section that EncodeAreas
// made from the same data as db (checked as far as the section allows: the number of
// records, and that every reference is in range). db itself is not changed. Malformed input
// is an error wrapping ErrFormat, never a panic.
func (db *DB) WithAreas(b []byte) (*DB, error) {
	t, err := decodeAreas(b, len(db.records))
	if err != nil {
		return nil, fmt.Errorf("%w: areas: %w", ErrFormat, err)
	}
	c := *db
	c.areas = t
	return &c, nil
}

// areaReader reads an areas section; the first error sticks and later reads return zeros.
type areaReader struct {
	b   []byte
	err error
}

func (r *areaReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

func (r *areaReader) uvarint(what string) uint64 { return readVarint(r, what, binary.Uvarint) }
func (r *areaReader) varint(what string) int64   { return readVarint(r, what, binary.Varint) }

func readVarint[T uint64 | int64](r *areaReader, what string, read func([]byte) (T, int)) T {
	v, n := read(r.b)
	if n <= 0 {
		r.fail("%s: bad varint", what)
		r.b = nil
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *areaReader) bytes(n int, what string) []byte {
	if len(r.b) < n {
		r.fail("%s: truncated", what)
		r.b = nil
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

// count reads a count of items of at least min bytes each, which the rest must be able to hold.
func (r *areaReader) count(min int, what string) int {
	n := r.uvarint(what)
	if n > uint64(len(r.b)/min) {
		r.fail("%s: %d items cannot fit in %d bytes", what, n, len(r.b))
		r.b = nil
		return 0
	}
	return int(n)
}

func decodeAreas(b []byte, records int) (*areas, error) {
	if len(b) < len(areasMagic) || string(b[:len(areasMagic)]) != areasMagic {
		return nil, errors.New("not an areas section")
	}
	r := &areaReader{b: b[len(areasMagic):]}
	if n := r.uvarint("records"); r.err == nil && n != uint64(records) {
		return nil, fmt.Errorf("made for %d records, the data has %d", n, records)
	}
	t := &areas{polys: make([][]int32, r.count(1, "polygons")), recPoly: make([]uint32, records)}
	for i := range t.polys {
		n := r.count(2, "points")
		poly := make([]int32, 2*n)
		var prev [2]int64
		for j := range poly {
			v := prev[j%2] + r.varint("point")
			if v < -180e5 || v > 180e5 || j%2 == 0 && (v < -90e5 || v > 90e5) {
				r.fail("polygon %d: point out of range", i)
			}
			poly[j], prev[j%2] = int32(v), v
		}
		if r.err == nil && !closedPolygons(poly) {
			r.fail("polygon %d is not closed", i)
		}
		t.polys[i] = poly
	}
	for i := range t.recPoly {
		k := r.uvarint("record polygon")
		if k > uint64(len(t.polys)) {
			r.fail("record %d: polygon %d of %d", i, k, len(t.polys))
		}
		t.recPoly[i] = uint32(k)
	}
	n := r.count(1+4+1+1+8+1, "prefixes")
	t.prefixes = make(map[netip.Prefix]estimate, n)
	codes := map[[2]byte]string{}
	var last netip.Prefix
	for i := 0; i < n && r.err == nil; i++ {
		var a netip.Addr
		switch fam := r.bytes(1, "family")[0]; fam {
		case 4:
			a = netip.AddrFrom4([4]byte(r.bytes(4, "address")))
		case 6:
			var a16 [16]byte
			copy(a16[:], r.bytes(8, "address"))
			a = netip.AddrFrom16(a16)
		default:
			r.fail("prefix %d: family %d", i, fam)
		}
		bits := int(r.bytes(1, "bits")[0])
		p := netip.PrefixFrom(a, bits)
		if r.err == nil && (!p.IsValid() || p.Masked() != p || a.Is6() && bits > 64) {
			r.fail("prefix %d: %s is not a masked prefix of at most 64 bits", i, p)
		}
		if i > 0 && comparePrefix(last, p) >= 0 {
			r.fail("prefix %d: %s is not after %s", i, p, last)
		}
		last = p
		k := r.uvarint("prefix polygon")
		if k >= uint64(len(t.polys)) {
			r.fail("prefix %s: polygon %d of %d", p, k, len(t.polys))
			break
		}
		e := estimate{poly: t.polys[k], radiusKm: math.Float64frombits(binary.LittleEndian.Uint64(r.bytes(8, "radius")))}
		if math.IsNaN(e.radiusKm) || e.radiusKm < 0 || math.IsInf(e.radiusKm, 0) {
			r.fail("prefix %s: radius %v", p, e.radiusKm)
		}
		e.countries = make([]countryShare, r.count(10, "countries"))
		for j := range e.countries {
			cc := [2]byte(r.bytes(2, "country"))
			code, ok := codes[cc]
			if !ok {
				if cc[0] < 'A' || cc[0] > 'Z' || cc[1] < 'A' || cc[1] > 'Z' {
					r.fail("prefix %s: country %q", p, cc[:])
				}
				code = string(cc[:])
				codes[cc] = code
			}
			share := math.Float64frombits(binary.LittleEndian.Uint64(r.bytes(8, "share")))
			if !(share >= 0 && share <= 1) {
				r.fail("prefix %s: share %v", p, share)
			}
			e.countries[j] = countryShare{code, share}
		}
		t.prefixes[p] = e
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%d bytes after the prefixes", len(r.b))
	}
	return t, nil
}

// closedPolygons reports whether v (as Polygons holds points) is one or more closed polygons
// of at least three distinct points each.
func closedPolygons(v []int32) bool {
	if len(v)%2 != 0 {
		return false
	}
	for i := 0; i < len(v); {
		j := closingPoint(v, i)
		if j == len(v) || !threeDistinct(v[i:j]) {
			return false
		}
		i = j + 2
	}
	return len(v) > 0
}

// threeDistinct reports whether the points of v include three different ones, the least that
// encloses an area ([A, B, B, A] closes but is a line).
func threeDistinct(v []int32) bool {
	b := -1 // index of a point other than the first
	for k := 2; k+1 < len(v); k += 2 {
		switch {
		case v[k] == v[0] && v[k+1] == v[1]:
		case b < 0:
			b = k
		case v[k] != v[b] || v[k+1] != v[b+1]:
			return true
		}
	}
	return false
}

// closingPoint returns the index in v of the point that closes the polygon starting at
// v[start] (the first point repeated), or len(v) when none does.
func closingPoint(v []int32, start int) int {
	j := start + 2
	for j+1 < len(v) && (v[j] != v[start] || v[j+1] != v[start+1]) {
		j += 2
	}
	return min(j, len(v))
}
