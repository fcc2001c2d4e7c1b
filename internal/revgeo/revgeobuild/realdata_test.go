package revgeobuild

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Tests on the real upstream sources. They skip when the sources cannot be had (and in -short
// mode), except under CI, where they fail; see buildtest.Sources. Building the section takes
// some seconds, so one test builds it and runs every check as a subtest.

type realBuild struct {
	src     build.Sources
	section []byte
	db      *revgeo.DB
	rep     *recorder
	elapsed time.Duration
}

func buildReal(tb testing.TB) realBuild {
	tb.Helper()
	src := buildtest.Sources(tb, Needs()...)
	rep := newRecorder(tb)
	t0 := time.Now()
	section, err := buildSection(context.Background(), src, rep)
	if err != nil {
		tb.Fatal(err)
	}
	elapsed := time.Since(t0)
	db, err := revgeo.Decode(section)
	if err != nil {
		tb.Fatal(err)
	}
	return realBuild{src: src, section: section, db: db, rep: rep, elapsed: elapsed}
}

func TestRealData(t *testing.T) {
	rb := buildReal(t)
	db := rb.db
	t0 := time.Now()
	if _, err := revgeo.Decode(rb.section); err != nil {
		t.Fatal(err)
	}
	t.Logf("build %v; section %.1f MB; decode %v", rb.elapsed.Round(time.Millisecond), float64(len(rb.section))/1e6, time.Since(t0).Round(time.Millisecond))
	t.Logf("stats %+v", db.Stats())
	t.Logf("counts %v; data dates %v; tzdata %s", rb.rep.counts, rb.rep.dates, db.TimeZoneVersion())

	t.Run("Counts", func(t *testing.T) { testRealCounts(t, rb) })
	t.Run("KnownPoints", func(t *testing.T) { testKnownPoints(t, db) })
	t.Run("LocalityAcrossBorder", func(t *testing.T) { testLocalityAcrossBorder(t, db) })
	t.Run("ISOCodes", func(t *testing.T) { testISOCodes(t, rb) })
	t.Run("Cities200", func(t *testing.T) { testCities200(t, rb) })
	t.Run("AllCities", func(t *testing.T) { testAllCities(t, rb) })
	t.Run("Differential", func(t *testing.T) { testDifferential(t, db) })
	t.Run("NoAllocs", func(t *testing.T) {
		if a := testing.AllocsPerRun(100, func() { db.Lookup(-33.8568, 151.2153) }); a != 0 {
			t.Errorf("Lookup allocates %v times", a)
		}
	})
}

// testLocalityAcrossBorder: where the nearest populated place lies in another subdivision
// (or state) than the point, the locality is the nearest one in the point's own: the Eiffel
// Tower is in Paris, not Neuilly-sur-Seine (3.4 km away, across the boundary, and inside
// Paris's simplified polygon); a point in Kansas near the Nebraska line gets a Kansas town;
// Islamabad, 16.7 km, is taken over Rawalpindi, 5.6 km (within the detour of three times).
// Subdivisions are told by the code Natural Earth gives them (Paris's FR-75 is withdrawn).
func testLocalityAcrossBorder(t *testing.T, db *revgeo.DB) {
	for _, tc := range []struct {
		name          string
		lat, lon      float64
		sub, locality string
	}{
		{"Eiffel Tower", 48.8584, 2.2945, "FR-75", "Paris"},
		{"Arc de Triomphe", 48.8738, 2.2950, "FR-75", "Paris"},
		{"Kansas, near Red Cloud NE", 39.9260, -98.4199, "US-KS", "Mankato"},
		{"Islamabad Capital Territory, near Rawalpindi", 33.5806, 73.1053, "PK-IS", "Islamabad"},
		{"Madrid (the nearest is in its own subdivision)", 40.4168, -3.7038, "ES-M", "Madrid"},
	} {
		p, _ := db.Lookup(tc.lat, tc.lon)
		if p.Subdivision.SourceCode != tc.sub || p.Locality.Name != tc.locality {
			t.Errorf("%s: %s, locality %q; want %s, %q", tc.name, p.Subdivision.SourceCode, p.Locality.Name, tc.sub, tc.locality)
		}
	}
	// But not at any distance (revgeo's localityDetour): a point at a place that a
	// neighbour's simplified polygon takes in is at that place.
	for _, tc := range []struct {
		name     string
		lat, lon float64
		locality string
	}{
		{"Gwangmyeong, inside Seoul's polygon (Paripark, 6.5 km, is in Seoul)", 37.47722, 126.86639, "Gwangmyeong"},
		{"Neuilly-sur-Seine, inside Paris's polygon", 48.885, 2.27, "Neuilly-sur-Seine"},
		{"Nicosia, 1.7 km (Kyrenia, 16 km, is in the polygon's subdivision)", 35.19, 33.36, "Nicosia"},
	} {
		if p, _ := db.Lookup(tc.lat, tc.lon); p.Locality.Name != tc.locality {
			t.Errorf("%s: locality %q, want %q", tc.name, p.Locality.Name, tc.locality)
		}
	}
}

// TestRealDeterministic builds the section twice from the same sources and wants the same
// bytes: parsing in parallel, map iteration and floating point must not leak into the output.
func TestRealDeterministic(t *testing.T) {
	if raceEnabled {
		t.Skip("two real builds are too slow under the race detector")
	}
	a, b := buildReal(t), buildReal(t)
	if !bytes.Equal(a.section, b.section) {
		t.Errorf("two builds differ (%d and %d bytes)", len(a.section), len(b.section))
	}
}

func testRealCounts(t *testing.T, rb realBuild) {
	s := rb.db.Stats()
	checks := []struct {
		what     string
		got, min int
	}{
		{"countries", s.Countries, 245},
		{"subdivisions", s.Subdivisions, 4500},
		{"places", s.Places, 190000},
		{"city candidates", s.CityCandidates, 25000},
		{"time zones", s.TimeZones, 400},
		{"country rings", s.Rings[revgeo.LayerCountry], 1000},
	}
	for _, c := range checks {
		if c.got < c.min {
			t.Errorf("%d %s, want at least %d", c.got, c.what, c.min)
		}
	}
	if got := rb.rep.dates[srcCities]; got.Year() < 2023 {
		t.Errorf("cities500 data date %v", got)
	}
	if len(rb.rep.warnings) > 0 && rb.rep.counts[srcMaritime] == nil {
		t.Errorf("warnings: %v", rb.rep.warnings)
	}
}

func testKnownPoints(t *testing.T, db *revgeo.DB) {
	tests := []struct {
		name                   string
		lat, lon               float64
		country, sub, city, tz string // "" means must be empty; "*" means anything; sub is the code as Natural Earth gives it
	}{
		{"Sydney Opera House", -33.8568, 151.2153, "AU", "AU-NSW", "Sydney", "Australia/Sydney"},
		{"Berlin", 52.5200, 13.4050, "DE", "DE-BE", "Berlin", "Europe/Berlin"},
		{"Paris", 48.8566, 2.3522, "FR", "FR-75", "Paris", "Europe/Paris"},
		{"Tokyo", 35.6895, 139.6917, "JP", "JP-13", "*", "Asia/Tokyo"},
		{"Nairobi", -1.2864, 36.8172, "KE", "*", "Nairobi", "Africa/Nairobi"},
		{"São Paulo", -23.5505, -46.6333, "BR", "BR-SP", "São Paulo", "America/Sao_Paulo"},
		{"Cape Town", -33.9249, 18.4241, "ZA", "ZA-WC", "Cape Town", "Africa/Johannesburg"},
		{"Vatican", 41.9029, 12.4534, "VA", "*", "*", "Europe/Vatican"},
		// At sea, about 10 km off a coast: the country's territorial waters (12 nautical miles).
		{"10 km off Sydney", -33.85, 151.40, "AU", "AU-NSW", "*", "Australia/Sydney"},
		{"10 km off Lisbon's coast", 38.70, -9.60, "PT", "*", "*", "Europe/Lisbon"},
		{"10 km off Calais", 51.05, 1.72, "FR", "*", "*", "Europe/Paris"},
		// A coastal town outside the simplified département polygons: its département by its
		// GeoNames admin-2 (Finistère), not by Natural Earth's gn_a1_code FR.53, which is
		// Mayenne's number and GeoNames' code for Bretagne.
		{"Audierne", 48.0167, -4.5333, "FR", "FR-29", "Audierne", "Europe/Paris"},
		// Natural Earth swaps the codes of the city and the oblast (isoErrata).
		{"Red Square", 55.7539, 37.6208, "RU", "RU-MOW", "Moscow", "Europe/Moscow"},
		{"Sergiyev Posad", 56.3153, 38.1358, "RU", "RU-MOS", "*", "Europe/Moscow"},
		{"mid-Pacific", 20, -140, "", "", "", "Etc/GMT+9"},
		{"Null Island", 0, 0, "", "", "", "Etc/GMT"},
		{"South Pole", -90, 0, "AQ", "*", "*", "*"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := db.Lookup(tc.lat, tc.lon)
			if !ok {
				t.Fatal("rejected")
			}
			check := func(what, got, want string) {
				if want != "*" && got != want {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("country", p.Country.Code, tc.country)
			check("subdivision", p.Subdivision.SourceCode, tc.sub)
			check("city", p.City.Name, tc.city)
			check("time zone", p.TimeZone, tc.tz)
			t.Logf("%s %s %q (%s) locality %q %.1f km, city %q, admin2 %q, %s, %s, %s",
				p.Country.Code, p.Subdivision.Code, p.Subdivision.Names.Name("en"), p.Subdivision.Type,
				p.Locality.Name, p.Locality.DistanceKm, p.City.Name, p.Admin2.Name, p.TimeZone, p.ContinentCode, p.PlusCode())
		})
	}
	if p, _ := db.Lookup(48.0167, -4.5333); !p.Admin2.IsZero() {
		t.Errorf("Audierne: admin-2 %q below its département", p.Admin2.Name)
	}
	// Natural Earth gives Ceuta and Brussels the GeoNames id of the admin-2 below their
	// admin-1 code: the code still joins, and the admin-2 is nested.
	for _, pt := range []struct {
		name, admin2 string
		lat, lon     float64
	}{{"Ceuta", "Ceuta", 35.8894, -5.3213}, {"Brussels", "Bruxelles-Capitale", 50.8467, 4.3525}} {
		if p, _ := db.Lookup(pt.lat, pt.lon); p.Admin2.Name != pt.admin2 {
			t.Errorf("%s: admin-2 %q, want %q", pt.name, p.Admin2.Name, pt.admin2)
		}
	}
	// Cornwall carries the Isles of Scilly's GeoNames id: Hugh Town, outside every simplified
	// polygon, must not be placed in Cornwall by it.
	if p, _ := db.Lookup(49.91447, -6.31145); p.Country.Code != "GB" || p.Subdivision.Code == "GB-CON" {
		t.Errorf("Hugh Town: %s %s (%q), want GB and not Cornwall", p.Country.Code, p.Subdivision.Code, p.Locality.Name)
	}
	p, _ := db.Lookup(-33.8568, 151.2153)
	if got := p.Subdivision.Names.Name("de"); got != "New South Wales" {
		t.Errorf("NSW in German = %q", got)
	}
	if got := p.Subdivision.Names.Name("ja"); got == "" || got == "New South Wales" {
		t.Errorf("NSW in Japanese = %q", got)
	}
	if p.Subdivision.WikidataID != "Q3224" || p.Subdivision.GeonameID != 2155400 {
		t.Errorf("NSW ids: wikidata %q, geonames %d", p.Subdivision.WikidataID, p.Subdivision.GeonameID)
	}
	li := p.LocalityInfo()
	if len(li.Administrative) < 2 || li.Administrative[0].ISOCode != "AU" || li.Administrative[1].ISOCode != "AU-NSW" {
		t.Errorf("Sydney localityInfo administrative = %+v", li.Administrative)
	}
}

// realCities parses the cities500 file of the real source.
func realCities(t *testing.T, src build.Sources) []city {
	fsys, ok := src.Source(srcCities)
	if !ok {
		t.Skip("no cities500")
	}
	b, err := fs.ReadFile(fsys, "dist/cities500.txt")
	if err != nil {
		t.Fatal(err)
	}
	cities, _, err := parseCities(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return cities
}

// testCities200 reverse-geocodes the own coordinates of 200 GeoNames places, at most one per
// country, countries and places chosen with a seeded random generator, and wants their
// country back for at least 99% of them.
func testCities200(t *testing.T, rb realBuild) {
	byCountry := map[string][]city{}
	for _, c := range realCities(t, rb.src) {
		if !historical(c.FeatureCode) {
			byCountry[c.CountryCode] = append(byCountry[c.CountryCode], c)
		}
	}
	codes := slices.Sorted(func(yield func(string) bool) {
		for k := range byCountry {
			if !yield(k) {
				return
			}
		}
	})
	rng := rand.New(rand.NewPCG(2026, 11))
	rng.Shuffle(len(codes), func(i, j int) { codes[i], codes[j] = codes[j], codes[i] })
	var picked []city
	for len(picked) < 200 {
		for _, code := range codes {
			if len(picked) == 200 {
				break
			}
			cs := byCountry[code]
			picked = append(picked, cs[rng.IntN(len(cs))])
		}
	}
	countries := map[string]bool{}
	var failures []string
	for _, c := range picked {
		countries[c.CountryCode] = true
		p, _ := rb.db.Lookup(c.Latitude, c.Longitude)
		if p.Country.Code != c.CountryCode {
			failures = append(failures, fmt.Sprintf("%s (%d, %s, %.5f, %.5f) → %q", c.Name, c.GeonameID, c.CountryCode, c.Latitude, c.Longitude, p.Country.Code))
		}
	}
	rate := 100 * float64(len(picked)-len(failures)) / float64(len(picked))
	t.Logf("%d places in %d countries: %.1f%% get their own country back", len(picked), len(countries), rate)
	for _, f := range failures {
		t.Logf("  failure: %s", f)
	}
	if rate < 99 {
		t.Errorf("pass rate %.1f%%, want at least 99%%", rate)
	}
}

// testAllCities measures the same over every place of cities500, for the record.
func testAllCities(t *testing.T, rb realBuild) {
	cities := realCities(t, rb.src)
	byWrong := map[string]int{}
	wrong, none := 0, 0
	for _, c := range cities {
		p, _ := rb.db.Lookup(c.Latitude, c.Longitude)
		switch p.Country.Code {
		case c.CountryCode:
		case "":
			none++
		default:
			wrong++
			byWrong[c.CountryCode+"→"+p.Country.Code]++
		}
	}
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range byWrong {
		top = append(top, kv{k, n})
	}
	slices.SortFunc(top, func(a, b kv) int { return b.n - a.n })
	top = top[:min(len(top), 15)]
	t.Logf("all %d places: %.2f%% own country, %d another, %d none; most frequent mismatches %v",
		len(cities), 100*float64(len(cities)-wrong-none)/float64(len(cities)), wrong, none, top)
	if rate := float64(len(cities)-wrong-none) / float64(len(cities)); rate < 0.99 {
		t.Errorf("only %.2f%% of all places get their own country back", 100*rate)
	}
}

// testDifferential compares the index with slow, obviously correct ray casting over every
// ring of every layer (rings whose bounding box excludes the point skipped), for 10,000
// seeded random points: 7,000 uniform on the sphere and 3,000 jittered around random
// vertices, where borders are.
func testDifferential(t *testing.T, db *revgeo.DB) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pts []revgeo.Point
	for range 7000 {
		pts = append(pts, revgeo.Point{Lat: math.Asin(2*rng.Float64()-1) * 180 / math.Pi, Lon: 360*rng.Float64() - 180})
	}
	for l := range 3 {
		shapes := db.Shapes(revgeo.Layer(l))
		for range 1000 {
			s := shapes[rng.IntN(len(shapes))]
			v := s.Rings[0][rng.IntN(len(s.Rings[0]))]
			pts = append(pts, revgeo.Point{Lat: clamp(v.Lat+0.02*rng.NormFloat64(), -90, 90), Lon: clamp(v.Lon+0.02*rng.NormFloat64(), -180, 180)})
		}
	}
	for _, l := range []revgeo.Layer{revgeo.LayerCountry, revgeo.LayerSubdivision, revgeo.LayerTimeZone} {
		ref := newSlowLayer(db.Shapes(l))
		mismatches, boundary := 0, 0
		var got []int
		for _, p := range pts {
			got = db.Containing(l, p.Lat, p.Lon, got[:0])
			want, onEdge := ref.containing(p)
			slices.Sort(got)
			if slices.Equal(got, want) {
				continue
			}
			if onEdge {
				boundary++
				continue
			}
			mismatches++
			if mismatches <= 5 {
				t.Errorf("layer %d, point %v: index %v, ray casting %v", l, p, got, want)
			}
		}
		t.Logf("layer %d: %d points, %d mismatches, %d on a boundary", l, len(pts), mismatches, boundary)
	}
}

func clamp(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

// slowLayer is the reference: every ring in grid units with its bounding box.
type slowLayer struct {
	rings []slowRing
}

type slowRing struct {
	feature                int
	xs, ys                 []int64
	minX, minY, maxX, maxY int64
}

func grid(deg float64) int64 { return int64(math.Round(deg * 1e5)) }

func newSlowLayer(shapes []revgeo.Shape) slowLayer {
	var l slowLayer
	for _, s := range shapes {
		for _, r := range s.Rings {
			sr := slowRing{feature: s.Feature, minX: math.MaxInt64, minY: math.MaxInt64, maxX: math.MinInt64, maxY: math.MinInt64}
			for _, p := range r {
				x, y := grid(p.Lon), grid(p.Lat)
				sr.xs, sr.ys = append(sr.xs, x), append(sr.ys, y)
				sr.minX, sr.maxX, sr.minY, sr.maxY = min(sr.minX, x), max(sr.maxX, x), min(sr.minY, y), max(sr.maxY, y)
			}
			l.rings = append(l.rings, sr)
		}
	}
	return l
}

// containing returns the features containing p by the even-odd rule with a ray towards +x,
// and whether p lies exactly on an edge of a ring whose verdict flipped the answer.
func (l slowLayer) containing(p revgeo.Point) ([]int, bool) {
	px, py := grid(p.Lon), grid(p.Lat)
	parity := map[int]bool{}
	onEdge := false
	for _, r := range l.rings {
		if px > r.maxX || py < r.minY || py > r.maxY {
			continue // a ray towards +x from a point right of the box, above or below it, crosses nothing
		}
		in := false
		for i := 0; i+1 < len(r.xs); i++ {
			ax, ay, bx, by := r.xs[i], r.ys[i], r.xs[i+1], r.ys[i+1]
			cross := (bx-ax)*(py-ay) - (by-ay)*(px-ax)
			if cross == 0 && min(ax, bx) <= px && px <= max(ax, bx) && min(ay, by) <= py && py <= max(ay, by) {
				onEdge = true
			}
			if (ay > py) != (by > py) && ((by > ay) == (cross > 0)) && cross != 0 {
				in = !in
			}
		}
		if in {
			parity[r.feature] = !parity[r.feature]
		}
	}
	var out []int
	for f, in := range parity {
		if in {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, onEdge
}

// testISOCodes: Natural Earth's codes as the build checks them against CLDR's ISO 3166-2.
// Withdrawn codes are left out (Reykjavík's IS-0; MX-DIF, now MX-CMX; the zones of Nepal,
// abolished in 2015; Paris's FR-75, now FR-75C) or become their successor (Prague's CZ-PR is
// CZ-10); current ones keep their ISO parent (Leinster above the Dublin features, England
// above Westminster). The ISO name is the native name where one feature has the code, none
// where several share it (Dublin City, Fingal).
func testISOCodes(t *testing.T, rb realBuild) {
	for _, tc := range []struct {
		name                          string
		lat, lon                      float64
		source, code, parent, isoName string
	}{
		{"Reykjavík", 64.1466, -21.9426, "IS-0", "", "", ""},
		{"Mexico City", 19.4326, -99.1332, "MX-DIF", "", "", ""},
		{"Kathmandu", 27.7172, 85.324, "NP-BA", "", "", ""},
		{"Paris", 48.8566, 2.3522, "FR-75", "", "", ""},
		{"Prague", 50.0755, 14.4378, "CZ-PR", "CZ-10", "", "Prague"},
		{"Dublin", 53.3498, -6.2603, "IE-D", "IE-D", "IE-L", ""},
		{"Fingal", 53.45, -6.15, "IE-D", "IE-D", "IE-L", ""},
		{"Meath", 53.703, -6.2402, "IE-MH", "IE-MH", "IE-L", "Meath"},
		{"Westminster", 51.5007, -0.1246, "GB-WSM", "GB-WSM", "GB-ENG", "Westminster"},
		{"Munich", 48.137, 11.575, "DE-BY", "DE-BY", "", "Bayern"},
		{"Red Square (isoErrata)", 55.7539, 37.6208, "RU-MOW", "RU-MOW", "", "Moskva"},
	} {
		p, _ := rb.db.Lookup(tc.lat, tc.lon)
		s := p.Subdivision
		if s.SourceCode != tc.source || s.Code != tc.code || s.ISOParent != tc.parent || s.ISOName != tc.isoName {
			t.Errorf("%s: source %q, code %q, parent %q, ISO name %q; want %q, %q, %q, %q",
				tc.name, s.SourceCode, s.Code, s.ISOParent, s.ISOName, tc.source, tc.code, tc.parent, tc.isoName)
		}
	}
	c := rb.rep.counts[srcCLDRCore]
	if c["iso-3166-2-codes"] < 5000 || c["iso-3166-2-current"] < 3900 || c["iso-3166-2-withdrawn"] > 500 {
		t.Errorf("CLDR counts %v: want at least 5000 codes, 3900 of Natural Earth's current, at most 500 withdrawn", c)
	}
}
