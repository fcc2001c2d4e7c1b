package revgeobuild

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// TestRealSimplificationError measures what the simplification changes: it builds the section
// without simplification and with each tolerance in REVGEO_SIMPLIFY_REPORT (degrees,
// comma-separated, e.g. "0.0001,0.0005,0.001"), and compares country, subdivision and time zone
// at every GeoNames place and at 30,000 points within about 1 km of a border. It takes minutes,
// so it only runs when asked.
func TestRealSimplificationError(t *testing.T) {
	spec := os.Getenv("REVGEO_SIMPLIFY_REPORT")
	if spec == "" {
		t.Skip("set REVGEO_SIMPLIFY_REPORT=0.0005 (tolerances in degrees) to run")
	}
	src := buildtest.Sources(t, Needs()...)
	encode := func(tol float64) (*revgeo.DB, int) {
		s, err := gather(context.Background(), src, newRecorder(t), tol, timeZones)
		if err != nil {
			t.Fatal(err)
		}
		b, err := revgeo.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		db, err := revgeo.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return db, len(b)
	}
	exact, exactSize := encode(0)
	t.Logf("unsimplified: %.1f MB, vertices %v", float64(exactSize)/1e6, exact.Stats().Vertices)

	var cities, border []revgeo.Point
	for _, c := range realCities(t, src) {
		cities = append(cities, revgeo.Point{Lat: c.Latitude, Lon: c.Longitude})
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for l := range 3 {
		shapes := exact.Shapes(revgeo.Layer(l))
		for range 10000 {
			s := shapes[rng.IntN(len(shapes))]
			v := s.Rings[0][rng.IntN(len(s.Rings[0]))]
			border = append(border, revgeo.Point{Lat: clamp(v.Lat+0.005*rng.NormFloat64(), -90, 90), Lon: clamp(v.Lon+0.005*rng.NormFloat64(), -180, 180)})
		}
	}
	for _, field := range splitComma(spec) {
		tol, err := strconv.ParseFloat(field, 64)
		if err != nil {
			t.Fatal(err)
		}
		db, size := encode(tol)
		t.Logf("tolerance %v°: %.1f MB, vertices %v", tol, float64(size)/1e6, db.Stats().Vertices)
		for _, set := range []struct {
			name string
			pts  []revgeo.Point
		}{{"GeoNames places", cities}, {"points near borders", border}} {
			var country, sub, tz int
			for _, p := range set.pts {
				a, _ := exact.Lookup(p.Lat, p.Lon)
				b, _ := db.Lookup(p.Lat, p.Lon)
				if a.Country.Code != b.Country.Code {
					country++
				}
				if a.Subdivision.Code != b.Subdivision.Code || a.Subdivision.Names.Native != b.Subdivision.Names.Native {
					sub++
				}
				if a.TimeZone != b.TimeZone {
					tz++
				}
			}
			n := float64(len(set.pts)) / 100
			t.Logf("  %d %s: country differs for %d (%.3f%%), subdivision %d (%.3f%%), time zone %d (%.3f%%)",
				len(set.pts), set.name, country, float64(country)/n, sub, float64(sub)/n, tz, float64(tz)/n)
		}
	}
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}
