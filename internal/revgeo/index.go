package revgeo

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// A layer is a set of polygon features (countries, subdivisions or time zones) with a
// point-in-polygon index.
//
// # The index
//
// The index is a quadtree over the grid, computed by Encode and stored in the section, so
// loading it is only decoding arrays. Each leaf cell lists the features present in it; for
// each feature it holds whether the cell's reference point R lies inside the feature, and the
// feature's edges that touch the closed cell, as runs of consecutive edges of a ring. A point P in the cell is inside the feature when
// R is inside and the segment R→P crosses an even number of those edges, or R is outside and
// it crosses an odd number: since R and P are both in the cell, every edge the segment can
// cross touches the cell. Cells are split until they hold at most leafEdges edges or reach
// maxDepth (cells of 16 grid units, about 18 m).
//
// Whether R lies inside each feature is worked out at build time from the root down: the
// root's reference point by ray casting over every edge, each child's from its parent's by
// counting the crossings of the segment between the two points with the parent's edges. The
// build picks each reference point among refCandidates small offsets from the cell's centre
// so that it lies on no edge and the segment from the parent's reference point passes through
// no vertex; with exact integer predicates the parity is then exact, never an approximation.
type layer struct {
	v      []vtx     // ring vertices; each ring is closed (its first vertex repeated at its end)
	rings  []ring    // the rings, in vertex order, for the slow reference and validation
	tree   []uint32  // quadtree: entry 0 is the root; see leafBit
	leaves []uint32  // leaf records; see emitLeaf
	nfeat  int       // number of features; leaf records name features below it
	area   []float64 // area of each feature (sum over its rings), in square grid units
}

// computeAreas sets l.area: for each feature the sum of the absolute areas of its rings, in
// the longitude/latitude plane. Holes count positively, which makes it an overestimate for
// features with holes, but it serves only to rank overlapping features, where the smaller,
// more specific one (Martinique within the polygon of France, an enclave) wins.
func (l *layer) computeAreas() {
	l.area = make([]float64, l.nfeat)
	for _, r := range l.rings {
		a := 0.0
		for i := r.start; i+1 < r.end; i++ {
			p, q := l.v[i], l.v[i+1]
			a += float64(p.x)*float64(q.y) - float64(q.x)*float64(p.y)
		}
		l.area[r.feature] += math.Abs(a) / 2
	}
}

// smallest returns the hit whose feature has the smallest area, ties going to the lower id.
func (l *layer) smallest(hits []int32) int32 {
	best := hits[0]
	for _, h := range hits[1:] {
		if l.area[h] < l.area[best] {
			best = h
		}
	}
	return best
}

// ring is one closed ring of a feature's polygons: vertices v[start:end], with v[end-1] ==
// v[start].
type ring struct {
	start, end uint32
	feature    uint32
}

// A tree entry with leafBit set is a leaf: the rest is the offset of its record in leaves.
// Otherwise the entry is the index of the first of its four children, which follow one
// another in the order (low x, low y), (high x, low y), (low x, high y), (high x, high y), and
// always come after their parent, so that a descent cannot loop.
const leafBit = 1 << 31

// Index shape. leafEdges trades lookup time (edges tested per feature) against index size.
const (
	leafEdges = 32
	maxDepth  = rootLog - 4 // cells of 16 grid units
	maxHits   = 8           // features reported per point; layers rarely overlap at all
)

// query appends to hits the features that contain the grid point (px, py), in the order of
// their ids, and returns how many it found (at most len(hits)).
func (l *layer) query(px, py int64, hits []int32) int {
	if len(l.tree) == 0 {
		return 0
	}
	x0, y0, size := rootMin, rootMin, rootSize
	e := l.tree[0]
	for depth := 0; e&leafBit == 0; depth++ {
		if depth >= maxDepth {
			return 0 // only a corrupt section nests deeper; Decode rejects it
		}
		size >>= 1
		q := uint32(0)
		if px >= x0+size {
			q, x0 = 1, x0+size
		}
		if py >= y0+size {
			q, y0 = q|2, y0+size
		}
		e = l.tree[e+q]
	}
	rec := l.leaves[e&^leafBit:]
	dx, dy := refOffset(rec[0] & 0xff)
	rx, ry := x0+size/2+dx, y0+size/2+dy
	n, i := 0, 1
	for range rec[0] >> 8 {
		fb, nr := rec[i], int(rec[i+1])
		i += 2
		in := fb&1 == 1
		for range nr {
			start, end := rec[i], rec[i]+rec[i+1]
			i += 2
			for ed := start; ed < end; ed++ {
				if crosses(rx, ry, px, py, l.v[ed], l.v[ed+1]) {
					in = !in
				}
			}
		}
		if in && n < len(hits) {
			hits[n] = int32(fb >> 1)
			n++
		}
	}
	return n
}

// validate checks what query relies on, so that a decoded layer can never make it index out
// of range or loop: every ring closed and inside the vertex array, every leaf record well
// formed with its runs of edges inside one ring, every tree entry pointing forward to four
// children or to the start of a leaf record.
func (l *layer) validate() error {
	if err := l.validateRings(); err != nil {
		return err
	}
	starts, err := l.checkLeaves()
	if err != nil {
		return err
	}
	return l.validateTree(starts)
}

func (l *layer) validateRings() error {
	next := uint32(0)
	for i, r := range l.rings {
		if r.start != next || r.end < r.start+4 || uint64(r.end) > uint64(len(l.v)) {
			return fmt.Errorf("ring %d: bad bounds [%d,%d)", i, r.start, r.end)
		}
		if int(r.feature) >= l.nfeat {
			return fmt.Errorf("ring %d: feature %d of %d", i, r.feature, l.nfeat)
		}
		if l.v[r.start] != l.v[r.end-1] {
			return fmt.Errorf("ring %d: not closed", i)
		}
		next = r.end
	}
	if int(next) != len(l.v) {
		return errors.New("vertices outside rings")
	}
	for _, p := range l.v {
		if p.x < -180*unitsPerDegree || p.x > 180*unitsPerDegree || p.y < -90*unitsPerDegree || p.y > 90*unitsPerDegree {
			return fmt.Errorf("vertex (%d,%d) off the globe", p.x, p.y)
		}
	}
	return nil
}

func (l *layer) validateTree(recordStart []uint64) error {
	if len(l.tree) == 0 {
		return errors.New("empty tree")
	}
	for i, e := range l.tree {
		if e&leafBit == 0 {
			if e <= uint32(i) || uint64(e)+4 > uint64(len(l.tree)) {
				return fmt.Errorf("tree entry %d: child %d", i, e)
			}
			continue
		}
		off := uint64(e &^ leafBit)
		if off >= uint64(len(l.leaves)) || recordStart[off/64]&(1<<(off%64)) == 0 {
			return fmt.Errorf("tree entry %d: no leaf record at %d", i, off)
		}
	}
	// A descent takes at most maxDepth steps (query gives up after that), so no further
	// check of the tree's depth is needed.
	return nil
}

// checkLeaves checks the leaf records, which must fill l.leaves exactly, and returns a bitmap
// of the offsets where records start. Features must be ascending and below nfeat, runs
// non-empty and within one ring. The rings must have been validated.
func (l *layer) checkLeaves() ([]uint64, error) {
	ringEnd := make([]uint64, len(l.v)/64+1) // bit e: vertex e ends a ring, so no edge starts there
	for _, r := range l.rings {
		e := r.end - 1
		ringEnd[e/64] |= 1 << (e % 64)
	}
	starts := make([]uint64, len(l.leaves)/64+1)
	for i := 0; i < len(l.leaves); {
		starts[i/64] |= 1 << (i % 64)
		hdr := l.leaves[i]
		i++
		if hdr&0xff >= refCandidates {
			return nil, fmt.Errorf("leaf at %d: bad reference point", i-1)
		}
		last := int64(-1)
		for range hdr >> 8 {
			if len(l.leaves)-i < 2 {
				return nil, errors.New("leaf record truncated")
			}
			f, nr := int64(l.leaves[i]>>1), uint64(l.leaves[i+1])
			i += 2
			if f <= last || f >= int64(l.nfeat) {
				return nil, fmt.Errorf("leaf feature %d out of order or range", f)
			}
			last = f
			if nr > uint64(len(l.leaves)-i)/2 {
				return nil, errors.New("leaf runs truncated")
			}
			for range nr {
				start, n := uint64(l.leaves[i]), uint64(l.leaves[i+1])
				i += 2
				if n == 0 || start+n >= uint64(len(l.v)) {
					return nil, fmt.Errorf("edge run %d+%d out of range", start, n)
				}
				for e := start; e < start+n; e++ {
					if ringEnd[e/64]&(1<<(e%64)) != 0 {
						return nil, fmt.Errorf("edge run %d+%d crosses a ring's end", start, n)
					}
				}
			}
		}
	}
	return starts, nil
}

// shape is one feature's polygons as Encode receives them: rings on the grid, each closed.
type shape struct {
	feature int
	rings   [][]vtx
}

// buildLayer lays the shapes' rings out feature by feature and computes the index.
func buildLayer(shapes []shape, nfeat int) (layer, error) {
	l := layer{nfeat: nfeat}
	sorted := slices.Clone(shapes)
	slices.SortStableFunc(sorted, func(a, b shape) int { return a.feature - b.feature })
	for _, s := range sorted {
		if s.feature < 0 || s.feature >= nfeat {
			return layer{}, fmt.Errorf("shape of feature %d of %d", s.feature, nfeat)
		}
		for _, r := range s.rings {
			if len(r) < 4 || r[0] != r[len(r)-1] {
				return layer{}, fmt.Errorf("feature %d: ring of %d points is not closed", s.feature, len(r))
			}
			start := uint32(len(l.v))
			l.v = append(l.v, r...)
			l.rings = append(l.rings, ring{start: start, end: uint32(len(l.v)), feature: uint32(s.feature)})
		}
	}
	b := ixBuilder{l: &l, edgeFeat: make([]int32, len(l.v)), leafAt: map[string]uint32{}}
	var edges []uint32
	for i := range b.edgeFeat {
		b.edgeFeat[i] = -1
	}
	for _, r := range l.rings {
		for e := r.start; e+1 < r.end; e++ {
			b.edgeFeat[e] = int32(r.feature)
			edges = append(edges, e)
		}
	}
	l.leaves = []uint32{0} // offset 0: the empty leaf
	b.leafAt[""] = 0
	l.tree = []uint32{0}

	// The root's reference point, and which features contain it, by ray casting.
	cx, cy := rootMin+rootSize/2, rootMin+rootSize/2
	k, ok := b.pickRef(edges, cx, cy, cx, cy, false)
	if !ok {
		return layer{}, errors.New("no usable reference point for the root")
	}
	dx, dy := refOffset(k)
	rx, ry := cx+dx, cy+dy
	var inside []int32
	for f := range nfeat {
		if b.rayCast(f, rx, ry) {
			inside = append(inside, int32(f))
		}
	}
	if err := b.node(0, rootMin, rootMin, rootSize, 0, edges, inside, rx, ry, k); err != nil {
		return layer{}, err
	}
	return l, nil
}

type ixBuilder struct {
	l        *layer
	edgeFeat []int32 // feature of the edge that starts at each vertex; -1 at a ring's end
	leafAt   map[string]uint32
}

// rayCast reports whether the grid point (px, py) is inside feature f, by the even-odd rule
// over all its rings with a ray towards +x. The point must not lie on an edge.
func (b *ixBuilder) rayCast(f int, px, py int64) bool {
	in := false
	for _, r := range b.l.rings {
		if int(r.feature) == f && rayCrossings(b.l.v[r.start:r.end], px, py)%2 == 1 {
			in = !in
		}
	}
	return in
}

// rayCrossings counts the edges of the closed ring that a ray from (px, py) towards +x
// crosses (the classic crossing-number test, half-open in y, exact on the grid).
func rayCrossings(ring []vtx, px, py int64) int {
	n := 0
	for i := 0; i+1 < len(ring); i++ {
		ax, ay, bx, by := int64(ring[i].x), int64(ring[i].y), int64(ring[i+1].x), int64(ring[i+1].y)
		if (ay > py) == (by > py) {
			continue
		}
		// px < the edge's x at height py, with the comparison multiplied out by (by-ay).
		o := orient(ax, ay, bx, by, px, py)
		if (by > ay && o > 0) || (by < ay && o < 0) {
			n++
		}
	}
	return n
}

// pickRef chooses the reference point of a cell centred on (cx, cy): the first candidate
// offset that lies on none of edges and, when hasParent, whose segment from the parent's
// reference point (px, py) passes through none of their vertices.
func (b *ixBuilder) pickRef(edges []uint32, cx, cy, px, py int64, hasParent bool) (uint32, bool) {
next:
	for k := range uint32(refCandidates) {
		dx, dy := refOffset(k)
		rx, ry := cx+dx, cy+dy
		for _, e := range edges {
			a, c := b.l.v[e], b.l.v[e+1]
			ax, ay, bx, by := int64(a.x), int64(a.y), int64(c.x), int64(c.y)
			if onSegment(ax, ay, bx, by, rx, ry) {
				continue next
			}
			if hasParent && (onSegment(px, py, rx, ry, ax, ay) || onSegment(px, py, rx, ry, bx, by)) {
				continue next
			}
		}
		return k, true
	}
	return 0, false
}

// node fills tree slot with the cell [x0,x0+size)² whose reference point is (rx, ry)
// (candidate k), given the edges touching the cell and the features containing (rx, ry).
func (b *ixBuilder) node(slot int, x0, y0, size int64, depth int, edges []uint32, inside []int32, rx, ry int64, k uint32) error {
	if len(edges) <= leafEdges || depth >= maxDepth {
		b.emitLeaf(slot, edges, inside, k)
		return nil
	}
	l := b.l
	first := len(l.tree)
	l.tree = append(l.tree, 0, 0, 0, 0)
	l.tree[slot] = uint32(first)
	half := size / 2
	for q := range int64(4) {
		cx0, cy0 := x0+(q&1)*half, y0+(q>>1)*half
		var sub []uint32
		for _, e := range edges {
			if segmentTouchesBox(l.v[e], l.v[e+1], cx0, cy0, cx0+half, cy0+half) {
				sub = append(sub, e)
			}
		}
		cx, cy := cx0+half/2, cy0+half/2
		ck, ok := b.pickRef(edges, cx, cy, rx, ry, true)
		if !ok {
			return fmt.Errorf("no usable reference point in cell (%d,%d) size %d", cx0, cy0, half)
		}
		dx, dy := refOffset(ck)
		crx, cry := cx+dx, cy+dy
		subInside := b.propagate(edges, inside, rx, ry, crx, cry)
		if err := b.node(first+int(q), cx0, cy0, half, depth+1, sub, subInside, crx, cry, ck); err != nil {
			return err
		}
	}
	return nil
}

// propagate returns the features containing (qx, qy), given those containing (rx, ry) and
// the edges of a cell holding both points: a feature's membership flips with each crossing.
func (b *ixBuilder) propagate(edges []uint32, inside []int32, rx, ry, qx, qy int64) []int32 {
	flip := map[int32]bool{}
	for _, e := range edges {
		if crosses(rx, ry, qx, qy, b.l.v[e], b.l.v[e+1]) {
			f := b.edgeFeat[e]
			flip[f] = !flip[f]
		}
	}
	var out []int32
	for _, f := range inside {
		if !flip[f] {
			out = append(out, f)
		}
	}
	for f, fl := range flip {
		if fl && !slices.Contains(inside, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out
}

// emitLeaf writes the leaf record of a cell and points tree slot at it. A record is
//
//	header: number of features << 8 | reference-point candidate
//	per feature, ascending: feature << 1 | (1 if the reference point is inside), run count,
//	                        runs of consecutive edges as (first edge, number of edges)
//
// where an edge is named by the index of its first vertex.
// Identical records (most often "inside feature f, no edges") are stored once.
func (b *ixBuilder) emitLeaf(slot int, edges []uint32, inside []int32, k uint32) {
	feats := slices.Clone(inside)
	for _, e := range edges {
		feats = append(feats, b.edgeFeat[e])
	}
	slices.Sort(feats)
	feats = slices.Compact(feats)
	if len(feats) == 0 {
		b.l.tree[slot] = leafBit // the shared empty record at offset 0
		return
	}
	rec := []uint32{uint32(len(feats))<<8 | k}
	i := 0 // edges are ascending, so grouped by feature in feature order
	for _, f := range feats {
		bit := uint32(0)
		if slices.Contains(inside, f) {
			bit = 1
		}
		j := i
		for j < len(edges) && b.edgeFeat[edges[j]] == f {
			j++
		}
		head := len(rec)
		rec = append(rec, uint32(f)<<1|bit, 0)
		for k := i; k < j; {
			m := k + 1
			for m < j && edges[m] == edges[m-1]+1 {
				m++
			}
			rec = append(rec, edges[k], uint32(m-k))
			rec[head+1]++
			k = m
		}
		i = j
	}
	key := make([]byte, 0, 4*len(rec))
	for _, w := range rec {
		key = append(key, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	off, ok := b.leafAt[string(key)]
	if !ok {
		off = uint32(len(b.l.leaves))
		b.l.leaves = append(b.l.leaves, rec...)
		b.leafAt[string(key)] = off
	}
	b.l.tree[slot] = leafBit | off
}
