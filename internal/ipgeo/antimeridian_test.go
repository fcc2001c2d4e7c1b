package ipgeo

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func ring(pts ...[2]float64) []int32 {
	var v []int32
	for _, p := range pts {
		v = append(v, e5(p[0]), e5(p[1]))
	}
	return append(v, v[0], v[1])
}

func TestSplitAtAntimeridian(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []int32
		want [][]int32 // the rings, in order; nil: in unchanged
	}{
		{"does not cross", ring([2]float64{-1, 10}, [2]float64{-1, 12}, [2]float64{1, 12}, [2]float64{1, 10}), nil},
		{"crosses, starting east of it", ring([2]float64{-1, 179}, [2]float64{-1, -179}, [2]float64{1, -179}, [2]float64{1, 179}),
			[][]int32{
				ring([2]float64{-1, 179}, [2]float64{-1, 180}, [2]float64{1, 180}, [2]float64{1, 179}),
				ring([2]float64{-1, -180}, [2]float64{-1, -179}, [2]float64{1, -179}, [2]float64{1, -180}),
			}},
		{"crosses, starting west of it", ring([2]float64{-1, -179}, [2]float64{1, -179}, [2]float64{1, 179}, [2]float64{-1, 179}),
			[][]int32{
				ring([2]float64{1, 180}, [2]float64{1, 179}, [2]float64{-1, 179}, [2]float64{-1, 180}),
				ring([2]float64{-1, -179}, [2]float64{1, -179}, [2]float64{1, -180}, [2]float64{-1, -180}),
			}},
		{"around a pole", ring([2]float64{-85, 0}, [2]float64{-85, 120}, [2]float64{-85, -120}), nil},
		{"touches +180 at a vertex", ring([2]float64{-1, 179}, [2]float64{0, 180}, [2]float64{1, 179}),
			[][]int32{ring([2]float64{-1, 179}, [2]float64{0, 180}, [2]float64{1, 179})}},
		{"crosses at a vertex on the line", ring([2]float64{-1, 179}, [2]float64{0, -180}, [2]float64{1, -179}, [2]float64{1, 179}),
			[][]int32{
				ring([2]float64{-1, 179}, [2]float64{0, 180}, [2]float64{1, 180}, [2]float64{1, 179}),
				ring([2]float64{0, -180}, [2]float64{1, -179}, [2]float64{1, -180}),
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := []int32{7, 7, 8, 8, 7, 7, 7, 7} // a ring before it stays
			got := splitAtAntimeridian(append(slices.Clone(prefix), tc.in...), len(prefix))
			want := append(slices.Clone(prefix), tc.in...)
			if tc.want != nil {
				want = slices.Clone(prefix)
				for _, r := range tc.want {
					want = append(want, r...)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("got  %v\nwant %v", got, want)
			}
		})
	}
}

// Circles near the antimeridian, of every size the data has: each area is closed rings
// with no edge across it, every point in range, and the circle's centre inside.
func TestCirclesNearAntimeridian(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		lat := rng.Float64()*160 - 80
		lon := 170 + rng.Float64()*20 // 170 to 190, that is to -170
		if lon >= 180 {
			lon -= 360
		}
		switch i % 10 { // centres on the line itself, whose vertices at 0 and 180° stay there
		case 0:
			lon = 180
		case 1:
			lon = -180
		}
		km := 1 + rng.Float64()*999
		a := Polygons{hullOfCircles(nil, []point{newPoint(lat, lon, km, 1)})}
		if !closedPolygons(a.v) || !a.Contains(lat, lon) {
			t.Fatalf("circle at %v, %v of %.0f km: closed %v, holds its centre %v: %v", lat, lon, km, closedPolygons(a.v), a.Contains(lat, lon), a.Points())
		}
		pts := a.Points()
		for i := 1; i < len(pts); i++ {
			if d := math.Abs(pts[i].Longitude - pts[i-1].Longitude); d > 180 && pts[i-1] != pts[0] {
				t.Fatalf("circle at %v, %v of %.0f km: an edge jumps across the antimeridian: %v", lat, lon, km, pts)
			}
			if pts[i].Longitude < -180 || pts[i].Longitude > 180 {
				t.Fatalf("point %v out of range", pts[i])
			}
		}
	}
}
