package revgeo

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// slowContains is the obviously correct reference: ray casting over every ring of feature f.
// Its ray is half-open in y and counts an edge through the point as not crossed, which makes
// it the answer for the point moved by (ε, ε²) that the index gives (see crosses), on edges
// and vertices too.
func slowContains(l *layer, f int, px, py int64) bool {
	in := false
	for _, r := range l.rings {
		if int(r.feature) == f && rayCrossings(l.v[r.start:r.end], px, py)%2 == 1 {
			in = !in
		}
	}
	return in
}

// randomShapes makes features that stress the index: a grid of squares sharing edges and
// vertices (so reference segments meet vertices and collinear edges), random star polygons
// with holes, overlapping one another, and thin slivers, all within a few degrees of (0, 0).
func randomShapes(rng *rand.Rand) ([]shape, int) {
	var shapes []shape
	f := 0
	const cell = 40000 // 0.4°
	for i := range 6 {
		for j := range 6 {
			x0, y0 := int32(-120000+i*cell), int32(-120000+j*cell)
			shapes = append(shapes, shape{feature: f, rings: [][]vtx{{
				{x0, y0}, {x0 + cell/2, y0}, {x0 + cell, y0}, {x0 + cell, y0 + cell}, {x0, y0 + cell}, {x0, y0},
			}}})
			f++
		}
	}
	for range 20 {
		cx, cy := rng.Int32N(400000)-200000, rng.Int32N(400000)-200000
		s := shape{feature: f}
		for h := range 2 {
			n := 3 + rng.IntN(60)
			r := make([]vtx, 0, n+1)
			for k := range n {
				rad := float64(5000 + rng.IntN(80000))
				if h == 1 {
					rad /= 4 // a hole (or an island, if it pokes out: even-odd either way)
				}
				a := 2 * 3.141592653589793 * float64(k) / float64(n)
				r = append(r, vtx{cx + int32(rad*cos(a)), cy + int32(rad*sin(a))})
			}
			r = append(r, r[0])
			s.rings = append(s.rings, r)
		}
		shapes = append(shapes, s)
		f++
	}
	for range 5 { // slivers: long, thin, nearly collinear
		x, y := rng.Int32N(200000)-100000, rng.Int32N(200000)-100000
		shapes = append(shapes, shape{feature: f, rings: [][]vtx{{{x, y}, {x + 150000, y + 1}, {x + 150000, y + 3}, {x, y}}}})
		f++
	}
	return shapes, f
}

// cos and sin by Taylor series are plenty for shaping test polygons, and keep math out of the
// way of the exactness the test is about.
func cos(a float64) float64 { return sin(a + 3.141592653589793/2) }
func sin(a float64) float64 {
	for a > 3.141592653589793 {
		a -= 2 * 3.141592653589793
	}
	s, term := 0.0, a
	for k := 1; k < 20; k += 2 {
		s += term
		term *= -a * a / float64((k+1)*(k+2))
	}
	return s
}

func TestIndexDifferential(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 42))
			shapes, nfeat := randomShapes(rng)
			l, err := buildLayer(shapes, nfeat)
			if err != nil {
				t.Fatal(err)
			}
			if err := l.validate(); err != nil {
				t.Fatal(err)
			}
			var pts [][2]int64
			for range 20000 {
				pts = append(pts, [2]int64{rng.Int64N(500000) - 250000, rng.Int64N(500000) - 250000})
			}
			for range 2000 { // on the lines of the square grid and at vertices
				pts = append(pts, [2]int64{-120000 + rng.Int64N(7)*40000, rng.Int64N(500000) - 250000})
				v := l.v[rng.IntN(len(l.v))]
				pts = append(pts, [2]int64{int64(v.x), int64(v.y)}, [2]int64{int64(v.x) + 1, int64(v.y)})
			}
			mismatches := 0
			hits := make([]int32, 64)
			for _, p := range pts {
				n := l.query(p[0], p[1], hits)
				got := slices.Clone(hits[:n])
				for f := range nfeat {
					want := slowContains(&l, f, p[0], p[1])
					if slices.Contains(got, int32(f)) == want {
						continue
					}
					mismatches++
					if mismatches <= 5 {
						t.Errorf("point (%d, %d), feature %d: index says %v, ray casting %v", p[0], p[1], f, !want, want)
					}
				}
			}
			t.Logf("%d points, %d features, %d tree entries, %d leaf words", len(pts), nfeat, len(l.tree), len(l.leaves))
			if mismatches > 0 {
				t.Errorf("%d mismatches", mismatches)
			}
		})
	}
}
