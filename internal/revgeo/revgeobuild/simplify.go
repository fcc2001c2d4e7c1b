package revgeobuild

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Topology-preserving simplification.
//
// Neighbouring features in each source share their borders vertex for vertex. Simplifying
// every ring on its own would move the two copies of a border differently, opening gaps and
// overlaps along every land border. Instead, as TopoJSON does, the rings are cut at junctions
// (vertices where the set of neighbouring vertices differs between the rings passing through,
// i.e. where a border meets another), each arc between two junctions is simplified once with
// Douglas–Peucker, keeping its ends, and both features get the same simplified arc. A ring
// with no junction (an island, an enclave's border) is simplified as a closed loop from a
// canonical starting point, so that two features sharing it still agree.
//
// Douglas–Peucker keeps every vertex farther than the tolerance from the simplified line, so
// the simplified border stays within the tolerance of the original (measured in degrees, so
// within tolerance × 111 km north–south and less east–west away from the equator). Only points
// that close to a border can change sides. Rings that shrink to no area (islets smaller than
// the tolerance) disappear.

type pt = revgeo.Point

func lessPt(a, b pt) bool { return a.Lon < b.Lon || a.Lon == b.Lon && a.Lat < b.Lat }

// simplifyShapes returns shapes with every ring simplified to tolerance (degrees), shared
// borders identically. Rings that end up with fewer than three distinct points are dropped,
// and shapes left with no ring too. A tolerance of zero or less returns the shapes unchanged.
func simplifyShapes(shapes []revgeo.Shape, tolerance float64) []revgeo.Shape {
	if tolerance <= 0 {
		return shapes
	}
	// Open, de-duplicated rings.
	rings := make([][][]pt, len(shapes))
	for i, s := range shapes {
		for _, r := range s.Rings {
			if o := openRing(r); len(o) >= 3 {
				rings[i] = append(rings[i], o)
			}
		}
	}
	junction := findJunctions(rings)
	s := simplifier{tol: tolerance, done: map[string][]pt{}}
	out := make([]revgeo.Shape, 0, len(shapes))
	for i, sh := range shapes {
		ns := revgeo.Shape{Feature: sh.Feature}
		for _, r := range rings[i] {
			if sr := s.ring(r, junction); len(sr) >= 4 {
				ns.Rings = append(ns.Rings, sr)
			}
		}
		if len(ns.Rings) > 0 {
			out = append(out, ns)
		}
	}
	return out
}

// openRing returns r without its closing point and without repeated consecutive points.
func openRing(r []pt) []pt {
	o := make([]pt, 0, len(r))
	for _, p := range r {
		if len(o) == 0 || o[len(o)-1] != p {
			o = append(o, p)
		}
	}
	for len(o) > 1 && o[len(o)-1] == o[0] {
		o = o[:len(o)-1]
	}
	return o
}

// findJunctions returns the set of vertices at which rings meet or part: those whose
// (unordered) pair of neighbours is not the same in every ring that passes through them.
func findJunctions(rings [][][]pt) map[pt]bool {
	type pair struct{ a, b pt }
	first := map[pt]pair{}
	junction := map[pt]bool{}
	for _, fr := range rings {
		for _, r := range fr {
			n := len(r)
			for i, p := range r {
				a, b := r[(i+n-1)%n], r[(i+1)%n]
				if lessPt(b, a) {
					a, b = b, a
				}
				if q, ok := first[p]; !ok {
					first[p] = pair{a, b}
				} else if q != (pair{a, b}) {
					junction[p] = true
				}
			}
		}
	}
	return junction
}

type simplifier struct {
	tol  float64
	done map[string][]pt // canonical arc or loop → its simplified form
}

// ring simplifies one open ring and returns it closed.
func (s *simplifier) ring(r []pt, junction map[pt]bool) []pt {
	n := len(r)
	start := -1
	for i, p := range r {
		if junction[p] {
			start = i
			break
		}
	}
	if start < 0 {
		return s.loop(r)
	}
	out := []pt{r[start]}
	arc := []pt{r[start]}
	for k := 1; k <= n; k++ {
		p := r[(start+k)%n]
		arc = append(arc, p)
		if junction[p] {
			simp := s.arc(arc)
			out = append(out, simp[1:]...)
			arc = []pt{p}
		}
	}
	return out // ends at r[start], which closes it
}

// arc returns the simplified arc, computing it once per arc whichever direction it is
// walked in.
func (s *simplifier) arc(a []pt) []pt {
	rev := lessPt(a[len(a)-1], a[0])
	if a[0] == a[len(a)-1] && len(a) > 2 {
		rev = lessPt(a[len(a)-2], a[1])
	}
	canon := a
	if rev {
		canon = slices.Clone(a)
		slices.Reverse(canon)
	}
	key := pointsKey(canon)
	simp, ok := s.done[key]
	if !ok {
		simp = douglasPeucker(canon, s.tol)
		s.done[key] = simp
	}
	if rev {
		simp = slices.Clone(simp)
		slices.Reverse(simp)
	}
	return simp
}

// loop simplifies a ring without junctions from its canonical start (its smallest point),
// in its canonical direction, and returns it closed.
func (s *simplifier) loop(r []pt) []pt {
	n := len(r)
	m := 0
	for i := range r {
		if lessPt(r[i], r[m]) {
			m = i
		}
	}
	canon := make([]pt, 0, n+1)
	for k := range n {
		canon = append(canon, r[(m+k)%n])
	}
	if lessPt(canon[n-1], canon[1]) {
		slices.Reverse(canon[1:])
	}
	canon = append(canon, canon[0])
	key := pointsKey(canon)
	if simp, ok := s.done[key]; ok {
		return simp
	}
	// Split at the point farthest from the start, so both halves are proper arcs.
	far, best := 0, -1.0
	for i, p := range canon {
		if d := sqDist(p, canon[0]); d > best {
			far, best = i, d
		}
	}
	simp := douglasPeucker(canon[:far+1], s.tol)
	simp = append(simp[:len(simp):len(simp)], douglasPeucker(canon[far:], s.tol)[1:]...)
	s.done[key] = simp
	return simp
}

func pointsKey(ps []pt) string {
	b := make([]byte, 0, 16*len(ps))
	for _, p := range ps {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Lon))
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(p.Lat))
	}
	return string(b)
}

// douglasPeucker simplifies the polyline a, keeping its ends and every point that lies
// farther than tol from the simplified line.
func douglasPeucker(a []pt, tol float64) []pt {
	if len(a) <= 2 {
		return slices.Clone(a)
	}
	keep := make([]bool, len(a))
	keep[0], keep[len(a)-1] = true, true
	type span struct{ i, j int }
	stack := []span{{0, len(a) - 1}}
	tol2 := tol * tol
	for len(stack) > 0 {
		sp := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		far, best := -1, tol2
		for k := sp.i + 1; k < sp.j; k++ {
			if d := segDist2(a[k], a[sp.i], a[sp.j]); d > best {
				far, best = k, d
			}
		}
		if far >= 0 {
			keep[far] = true
			stack = append(stack, span{sp.i, far}, span{far, sp.j})
		}
	}
	out := make([]pt, 0, len(a)/4+2)
	for k, p := range a {
		if keep[k] {
			out = append(out, p)
		}
	}
	return out
}

func sqDist(a, b pt) float64 {
	dx, dy := a.Lon-b.Lon, a.Lat-b.Lat
	return dx*dx + dy*dy
}

// segDist2 is the squared distance from p to the segment a–b, in degrees.
func segDist2(p, a, b pt) float64 {
	dx, dy := b.Lon-a.Lon, b.Lat-a.Lat
	l2 := dx*dx + dy*dy
	if l2 == 0 {
		return sqDist(p, a)
	}
	t := ((p.Lon-a.Lon)*dx + (p.Lat-a.Lat)*dy) / l2
	t = max(0, min(1, t))
	return sqDist(p, pt{Lon: a.Lon + t*dx, Lat: a.Lat + t*dy})
}
