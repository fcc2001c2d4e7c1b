package ipgeo

import (
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
