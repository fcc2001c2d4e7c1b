package revgeobuild

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// wiggly returns a border from (x, y0) to (x, y1) that zigzags ±amp degrees around x, with n
// vertices between its ends.
func wiggly(rng *rand.Rand, x, y0, y1, amp float64, n int) []revgeo.Point {
	pts := []revgeo.Point{{Lat: y0, Lon: x}}
	for i := 1; i <= n; i++ {
		y := y0 + (y1-y0)*float64(i)/float64(n+1)
		pts = append(pts, revgeo.Point{Lat: y, Lon: x + amp*(2*rng.Float64()-1)})
	}
	return append(pts, revgeo.Point{Lat: y1, Lon: x})
}

// twoCountries returns two features sharing a wiggly border along longitude 1, the first walked
// one way, the second the other, plus an island in the sea and an enclave inside the first.
func twoCountries(rng *rand.Rand, amp float64) []revgeo.Shape {
	border := wiggly(rng, 1, 0, 1, amp, 400) // south to north
	west := []revgeo.Point{{Lat: 1, Lon: 0}, {Lat: 0, Lon: 0}}
	west = append(west, border...) // ... (0,1) then up the border to (1,1)
	west = append(west, revgeo.Point{Lat: 1, Lon: 0})
	rev := slices.Clone(border)
	slices.Reverse(rev)
	east := append([]revgeo.Point{{Lat: 0, Lon: 2}, {Lat: 1, Lon: 2}}, rev...)
	east = append(east, revgeo.Point{Lat: 0, Lon: 2})
	var enclave []revgeo.Point
	for k := range 50 {
		a := 2 * math.Pi * float64(k) / 50
		enclave = append(enclave, revgeo.Point{Lat: 0.5 + 0.1*math.Sin(a), Lon: 0.5 + 0.1*math.Cos(a)})
	}
	islet := []revgeo.Point{{Lat: 5, Lon: 5}, {Lat: 5, Lon: 5.0001}, {Lat: 5.0001, Lon: 5.0001}, {Lat: 5, Lon: 5}}
	holed := slices.Clone(enclave)
	slices.Reverse(holed)
	return []revgeo.Shape{
		{Feature: 0, Rings: [][]revgeo.Point{west, holed}},
		{Feature: 1, Rings: [][]revgeo.Point{east}},
		{Feature: 2, Rings: [][]revgeo.Point{enclave}},
		{Feature: 3, Rings: [][]revgeo.Point{islet}},
	}
}

func TestSimplifyKeepsTopology(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const tol = 0.001
	in := twoCountries(rng, tol/3) // the border's wiggles are below the tolerance
	out := simplifyShapes(in, tol)
	if len(out) != 3 {
		t.Fatalf("%d shapes, want 3: the islet smaller than the tolerance disappears", len(out))
	}
	if n := len(out[0].Rings[0]); n > 10 {
		t.Errorf("west has %d vertices after simplification; the wiggles should be gone", n)
	}
	// The shared border is the same in both: every point of the plane is in exactly one of
	// west, east and the enclave (or none, outside the 2 × 1 box).
	layer := newSlowLayer(out)
	for range 20000 {
		p := revgeo.Point{Lat: rng.Float64(), Lon: 2 * rng.Float64()}
		got, onEdge := layer.containing(p)
		if onEdge {
			continue
		}
		if len(got) != 1 {
			t.Fatalf("point %v is in %v after simplification, want exactly one feature", p, got)
		}
	}
	// Every original vertex stays within the tolerance of the simplified border.
	simplified := out[0].Rings[0]
	for _, v := range in[0].Rings[0] {
		d := math.Inf(1)
		for i := 0; i+1 < len(simplified); i++ {
			d = min(d, math.Sqrt(segDist2(v, simplified[i], simplified[i+1])))
		}
		if d > tol {
			t.Errorf("vertex %v moved %v > %v", v, d, tol)
		}
	}
}

func TestSimplifyDeterministic(t *testing.T) {
	a := simplifyShapes(twoCountries(rand.New(rand.NewPCG(5, 6)), 0.002), 0.001)
	b := simplifyShapes(twoCountries(rand.New(rand.NewPCG(5, 6)), 0.002), 0.001)
	if !slices.EqualFunc(a, b, func(x, y revgeo.Shape) bool {
		return x.Feature == y.Feature && slices.EqualFunc(x.Rings, y.Rings, slices.Equal)
	}) {
		t.Error("two runs differ")
	}
	if got := simplifyShapes(a, 0); len(got) != len(a) {
		t.Error("tolerance 0 changed the shapes")
	}
}

func TestDouglasPeucker(t *testing.T) {
	line := []revgeo.Point{{Lon: 0}, {Lon: 1, Lat: 0.05}, {Lon: 2, Lat: -0.04}, {Lon: 3, Lat: 2}, {Lon: 4}}
	got := douglasPeucker(line, 0.1)
	want := []revgeo.Point{{Lon: 0}, {Lon: 2, Lat: -0.04}, {Lon: 3, Lat: 2}, {Lon: 4}}
	if !slices.Equal(got, want) {
		t.Errorf("douglasPeucker = %v, want %v", got, want)
	}
	if got := douglasPeucker(line[:2], 0.1); len(got) != 2 {
		t.Errorf("two points: %v", got)
	}
}
