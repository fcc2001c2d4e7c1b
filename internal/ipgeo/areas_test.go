package ipgeo

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strconv"
	"testing"
)

// fixturePrefixes are "announced" prefixes over the fixture: with and without estimates of
// their own (several records, one record, no data), IPv4 and IPv6.
var fixturePrefixes = []netip.Prefix{
	netip.MustParsePrefix("1.0.0.0/22"), // one record
	netip.MustParsePrefix("3.0.0.0/22"), // New Zealand and Australia
	netip.MustParsePrefix("6.0.0.0/23"), // Sydney and Perth
	netip.MustParsePrefix("6.0.0.0/23"), // a duplicate
	netip.MustParsePrefix("0.0.0.0/0"),
	netip.MustParsePrefix("10.0.0.0/8"),     // no data
	netip.MustParsePrefix("2400::/12"),      // two IPv6 records
	netip.MustParsePrefix("2401::1/128"),    // longer than /64
	netip.MustParsePrefix("2400:cb00::/24"), // one record
}

// TestAreasMatchComputed: a DB with precomputed areas answers Confidence exactly as one that
// computes them, for addresses in every fixture network under every fixture prefix.
func TestAreasMatchComputed(t *testing.T) {
	db, _ := mustDB(t, fixture())
	fast, err := db.WithAreas(db.EncodeAreas(fixturePrefixes))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := fast.AreaCounts(); n != 4 {
		t.Errorf("%d prefix estimates, want 4 (3.0.0.0/22, 6.0.0.0/23, 0.0.0.0/0, 2400::/12)", n)
	}
	addrs := []string{"1.0.0.1", "1.0.3.255", "2.0.0.1", "3.0.0.1", "3.0.3.1", "4.0.0.1", "5.0.0.1", "6.0.0.1", "6.0.1.1",
		"255.255.255.255", "::1:0:0:1", "2400:cb00::1", "2401::1", "2002:100::1"}
	checked := 0
	for _, s := range addrs {
		p, ok := db.Lookup(netip.MustParseAddr(s))
		if !ok {
			t.Fatalf("%s not found", s)
		}
		for _, bgp := range append([]netip.Prefix{{}}, fixturePrefixes...) {
			ev := Evidence{BGPPrefix: bgp, SecondOpinion: "AU"}
			want, got := db.Confidence(p, ev), fast.Confidence(p, ev)
			if !sameConfidence(got, want) {
				t.Errorf("%s under %s: precomputed %+v, computed %+v", s, bgp, got, want)
			}
			checked++
		}
	}
	t.Logf("%d answers compared", checked)
}

func sameConfidence(a, b Confidence) bool {
	return a.Level == b.Level && a.Reason == b.Reason && a.RadiusKm == b.RadiusKm && a.CountryShare == b.CountryShare &&
		a.Prefix == b.Prefix && slices.Equal(a.Area.Points(), b.Area.Points())
}

func TestAreasDeterministic(t *testing.T) {
	db, _ := mustDB(t, fixture())
	a := db.EncodeAreas(fixturePrefixes)
	rev := slices.Clone(fixturePrefixes)
	slices.Reverse(rev)
	b := db.EncodeAreas(rev) // order does not matter
	if string(a) != string(b) {
		t.Error("EncodeAreas depends on the order of the prefixes")
	}
}

func TestWithAreasRejects(t *testing.T) {
	db, _ := mustDB(t, fixture())
	good := db.EncodeAreas(fixturePrefixes)
	other, _ := mustDB(t, func() *Data { d := fixture(); d.Records = d.Records[:5]; d.V4 = d.V4[:10]; return d }())
	tests := map[string][]byte{
		"empty":          nil,
		"wrong magic":    append([]byte("ipatlas-areas/9"), good[len(areasMagic):]...),
		"truncated":      good[:len(good)-3],
		"trailing bytes": append(slices.Clone(good), 0),
	}
	for name, b := range tests {
		if _, err := db.WithAreas(b); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err %v, want ErrFormat", name, err)
		}
	}
	if _, err := other.WithAreas(good); !errors.Is(err, ErrFormat) {
		t.Errorf("areas of other data: err %v, want ErrFormat", err)
	}
}

func FuzzWithAreas(f *testing.F) {
	db, _ := mustDB(f, fixture())
	good := db.EncodeAreas(fixturePrefixes)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(areasMagic))
	f.Fuzz(func(t *testing.T, b []byte) {
		fast, err := db.WithAreas(b)
		if err != nil {
			return
		}
		// Whatever decodes must answer without panicking.
		for _, s := range []string{"1.0.0.1", "3.0.0.1", "6.0.1.1", "2400:cb00::1"} {
			p, _ := fast.Lookup(netip.MustParseAddr(s))
			for _, bgp := range fixturePrefixes {
				c := fast.Confidence(p, Evidence{BGPPrefix: bgp})
				c.Area.AppendJSON(nil)
			}
		}
	})
}

// TestPutE5MatchesStrconv: putE5 writes what strconv writes for the float64 of n·10⁻⁵, on
// every value within ±1 degree and on random ones over the whole range.
func TestPutE5MatchesStrconv(t *testing.T) {
	var p pointBuf
	check := func(n int32) {
		for _, at := range []int{0, 13} {
			if got, want := string(p[at:p.putE5(at, n)]), strconv.FormatFloat(float64(n)/1e5, 'f', -1, 64); got != want {
				t.Fatalf("putE5(%d, %d) = %s, want %s", at, n, got, want)
			}
		}
	}
	for n := int32(-100000); n <= 100000; n++ {
		check(n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		check(rng.Int32N(2*18000001) - 18000000)
	}
	for _, n := range []int32{-18000000, 18000000, 9000000, -9000000, 999999, 1000000, 9999999, 10000000, 99999999, 100000000, 1<<31 - 1, -1 << 31} {
		check(n)
	}
}

// FuzzPutE5: putE5 writes what strconv writes, at any position it may be given.
func FuzzPutE5(f *testing.F) {
	f.Add(int32(5150735), uint8(13))
	f.Add(int32(-12776), uint8(0))
	f.Add(int32(-1<<31), uint8(48))
	f.Fuzz(func(t *testing.T, n int32, at uint8) {
		var p pointBuf
		// Any start that leaves room for the longest number an int32 gives.
		i := int(at) % (len(p) - len("-21474.83648") + 1)
		if got, want := string(p[i:p.putE5(i, n)]), strconv.FormatFloat(float64(n)/1e5, 'f', -1, 64); got != want {
			t.Fatalf("putE5(%d, %d) = %s, want %s", i, n, got, want)
		}
	})
}

// TestPolygonsAppendJSONMatchesEncoding: the rendered area is what encoding/json writes for
// the points (strconv's shortest form, as its float64 encoding uses for these magnitudes),
// appended after whatever b held.
func TestPolygonsAppendJSONMatchesEncoding(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := range 300 {
		v := make([]int32, 2*(n%25))
		for i := range v {
			switch rng.IntN(4) {
			case 0:
				v[i] = rng.Int32N(200001) - 100000
			case 1:
				v[i] = rng.Int32()
			default:
				v[i] = rng.Int32N(2*18000001) - 18000000
			}
		}
		a := Polygons{v: v}
		type point struct {
			Latitude  float64 `json:"latitude"`
			Longitude float64 `json:"longitude"`
		}
		pts := []point{}
		for _, p := range a.Points() {
			pts = append(pts, point(p))
		}
		want, err := json.Marshal(pts)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.AppendJSON([]byte("x")); string(got) != "x"+string(want) {
			t.Fatalf("%v:\n got %s\nwant x%s", v, got, want)
		}
	}
}

// BenchmarkPutE5 formats the coordinates of a typical confidence area: 40 points of random
// latitudes and longitudes.
func BenchmarkPutE5(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	ns := make([]int32, 80)
	for i := range ns {
		ns[i] = rng.Int32N(2*18000001) - 18000000
	}
	var p pointBuf
	for b.Loop() {
		for _, n := range ns {
			p.putE5(0, n)
		}
	}
}

// BenchmarkPolygonsAppendJSON renders a confidence area of 40 random points.
func BenchmarkPolygonsAppendJSON(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	v := make([]int32, 80)
	for i := range v {
		v[i] = rng.Int32N(2*18000001) - 18000000
	}
	a := Polygons{v: v}
	buf := make([]byte, 0, 4096)
	for b.Loop() {
		buf = a.AppendJSON(buf[:0])
	}
}

// TestAppendDegreesMatchesStrconv: AppendDegrees writes what strconv writes, on the float64s
// of whole 10⁻⁵ degrees (its fast path), on coordinates of four decimals as the data has
// them, on arbitrary floats and on the values strconv alone may write (zeros, tiny ones,
// NaN, infinities, beyond int32).
func TestAppendDegreesMatchesStrconv(t *testing.T) {
	check := func(v float64) {
		if got, want := string(AppendDegrees([]byte("x"), v)), "x"+strconv.FormatFloat(v, 'f', -1, 64); got != want {
			t.Fatalf("AppendDegrees(%v) = %s, want %s", v, got, want)
		}
	}
	for n := int32(-200000); n <= 200000; n++ {
		check(float64(n) / 1e5)
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for range 200000 {
		check(float64(rng.Int32N(2*18000001)-18000000) / 1e5)
		check(float64(rng.Int32N(2*1800001)-1800000) / 1e4)
		check(rng.Float64()*360 - 180)
		check(float64(rng.Int32()) / 1e5)
	}
	for _, v := range []float64{0, math.Copysign(0, -1), 1e-7, -1e-7, 5e-6, 1e-5, 21474.83647, 21474.83648, -21474.83648, 1e10, math.NaN(), math.Inf(1), math.Inf(-1)} {
		check(v)
	}
}

func TestClosedPolygons(t *testing.T) {
	for _, c := range []struct {
		name string
		v    []int32
		want bool
	}{
		{"empty", nil, false},
		{"triangle", []int32{0, 0, 0, 1, 1, 1, 0, 0}, true},
		{"two triangles", []int32{0, 0, 0, 1, 1, 1, 0, 0, 5, 5, 5, 6, 6, 6, 5, 5}, true},
		{"square with a repeated vertex", []int32{0, 0, 0, 1, 0, 1, 1, 1, 1, 0, 0, 0}, true},
		{"not closed", []int32{0, 0, 0, 1, 1, 1}, false},
		{"second not closed", []int32{0, 0, 0, 1, 1, 1, 0, 0, 5, 5, 5, 6, 6, 6}, false},
		{"two points", []int32{0, 0, 0, 1, 0, 0}, false},
		{"a line drawn twice", []int32{0, 0, 0, 1, 0, 1, 0, 0}, false},
		{"a point", []int32{3, 3, 3, 3}, false},
		{"line then triangle", []int32{0, 0, 0, 1, 0, 1, 0, 0, 5, 5, 5, 6, 6, 6, 5, 5}, false},
		{"odd length", []int32{0, 0, 0, 1, 1, 1, 0}, false},
	} {
		if got := closedPolygons(c.v); got != c.want {
			t.Errorf("%s: closedPolygons(%v) = %v, want %v", c.name, c.v, got, c.want)
		}
	}
}
