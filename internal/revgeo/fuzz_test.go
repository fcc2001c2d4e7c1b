package revgeo

import (
	"errors"
	"math"
	"testing"
)

// FuzzDecode feeds Decode corrupted sections: it must never panic, must reject with
// ErrFormat, and a DB it accepts must answer lookups without panicking.
func FuzzDecode(f *testing.F) {
	section, _ := fixtureDB(f)
	f.Add(section)
	f.Add(section[:len(section)/3])
	f.Add([]byte(magic))
	for _, i := range []int{len(magic) + 1, len(section) / 2, len(section) - 5} {
		b := append([]byte{}, section...)
		b[i] ^= 0x40
		f.Add(b)
	}
	// A section whose index has several levels: a country shaped like a 60-gon.
	src := fixtureSource()
	var ring []Point
	for k := range 60 {
		a := 2 * math.Pi * float64(k) / 60
		ring = append(ring, Point{Lat: 5 + 4*math.Sin(a), Lon: 5 + 4*math.Cos(a)})
	}
	src.CountryShapes[0].Rings = [][]Point{ring}
	deep, err := Encode(src)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(deep)
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := Decode(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		for _, p := range [][2]float64{{5.018, 7.018}, {-0.1, 3}, {5, 15}, {-90, -180}, {90, 180}, {0, 0}} {
			pl, _ := db.Lookup(p[0], p[1])
			_ = pl.LocalityInfo()
		}
		_ = db.Shapes(LayerCountry)
		_ = db.Stats()
	})
}

// FuzzLookup checks Lookup on arbitrary coordinates: it never panics, it rejects exactly what
// Validate rejects, and every valid point of the fixture has a time zone (Etc/GMT covers the
// globe).
func FuzzLookup(f *testing.F) {
	_, db := fixtureDB(f)
	for _, c := range [][2]float64{
		{5.018, 7.018},  // in a city
		{-0.1, 3},       // territorial waters
		{90, 180},       // a corner of the map
		{-90, -180},     // the other corner
		{90.0000001, 0}, // just off the globe
		{0, -180.5},
		{math.NaN(), 0},
		{0, math.Inf(1)},
		{math.MaxFloat64, -math.MaxFloat64},
		{math.SmallestNonzeroFloat64, math.Copysign(0, -1)}, // -0.0 would be +0 in Go
	} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, lat, lon float64) {
		p, ok := db.Lookup(lat, lon)
		valid := Validate(lat, lon) == nil
		if ok != valid {
			t.Fatalf("Lookup(%v, %v) ok = %v, Validate says valid = %v", lat, lon, ok, valid)
		}
		if !ok {
			if !errors.Is(Validate(lat, lon), ErrBadCoordinates) {
				t.Fatal("Validate does not return ErrBadCoordinates")
			}
			return
		}
		if p.TimeZone == "" {
			t.Errorf("Lookup(%v, %v): no time zone", lat, lon)
		}
		if p.Latitude != lat || p.Longitude != lon {
			t.Errorf("Lookup(%v, %v) reports (%v, %v)", lat, lon, p.Latitude, p.Longitude)
		}
		if code := p.PlusCode(); len(code) != 11 {
			t.Errorf("PlusCode(%v, %v) = %q", lat, lon, code)
		}
		_ = p.LocalityInfo()
	})
}
