package ipgeo

import (
	"archive/zip"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/netip"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/pluscode"
)

// names returns names in every language: "<base> (<lang>)", and plain base in English.
func names(base string) [NumLanguages]string {
	var n [NumLanguages]string
	for i := range n {
		n[i] = base + " (" + Language(i) + ")"
	}
	n[langEnglish] = base
	return n
}

// fixture is a small section: a few places, records and networks of every kind.
func fixture() *Data {
	d := &Data{
		Source:    "Test-City",
		BuildTime: time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC),
		Places: []PlaceData{
			{Code: "OC", GeonameID: 6255151, Names: names("Oceania")},                // 0
			{Code: "AU", GeonameID: 2077456, Names: names("Australia")},              // 1
			{Code: "AU-NSW", GeonameID: 2155400, Names: names("New South Wales")},    // 2
			{GeonameID: 2147714, Names: names("Sydney")},                             // 3
			{Code: "NZ", GeonameID: 2186224, Names: names("New Zealand")},            // 4
			{Code: "FJ", GeonameID: 2205218, Names: [NumLanguages]string{1: "Fiji"}}, // 5
		},
		Records: []RecordData{
			// 0: Sydney, small radius
			{Continent: 0, Country: 1, RegisteredCountry: 1, City: 3, Subdivisions: []int{2}, Postcode: "2000",
				TimeZone: "Australia/Sydney", HasLocation: true, Latitude: -33.8688, Longitude: 151.2093, AccuracyRadius: 20},
			// 1: Australia, country level, no city
			{Continent: 0, Country: 1, RegisteredCountry: 1, City: NoPlace, TimeZone: "Australia/Sydney",
				HasLocation: true, Latitude: -25.0, Longitude: 134.0, AccuracyRadius: 1000},
			// 2: New Zealand, registered in Australia
			{Continent: 0, Country: 4, RegisteredCountry: 1, City: NoPlace, HasLocation: true,
				Latitude: -41.0, Longitude: 174.0, AccuracyRadius: 100},
			// 3: no location, registered country only
			{Continent: NoPlace, Country: NoPlace, RegisteredCountry: 1, City: NoPlace},
			// 4: Fiji, near the antimeridian
			{Continent: 0, Country: 5, RegisteredCountry: 5, City: NoPlace, TimeZone: "Pacific/Fiji",
				HasLocation: true, Latitude: -16.5, Longitude: 179.95, AccuracyRadius: 50},
			// 5: Perth-ish, far from Sydney
			{Continent: 0, Country: 1, RegisteredCountry: 1, City: NoPlace, HasLocation: true,
				Latitude: -31.95, Longitude: 115.86, AccuracyRadius: 20},
		},
		V4: []Leaf{
			{Prefix: netip.MustParsePrefix("1.0.0.0/24"), Kind: LeafData, Record: 0},
			{Prefix: netip.MustParsePrefix("1.0.1.0/24"), Kind: LeafData, Record: 0},
			{Prefix: netip.MustParsePrefix("1.0.2.0/23"), Kind: LeafData, Record: 0},
			{Prefix: netip.MustParsePrefix("2.0.0.0/16"), Kind: LeafData, Record: 1},
			{Prefix: netip.MustParsePrefix("3.0.0.0/24"), Kind: LeafData, Record: 2},
			{Prefix: netip.MustParsePrefix("3.0.1.0/24"), Kind: LeafData, Record: 2},
			{Prefix: netip.MustParsePrefix("3.0.2.0/24"), Kind: LeafData, Record: 2},
			{Prefix: netip.MustParsePrefix("3.0.3.0/24"), Kind: LeafData, Record: 1},
			{Prefix: netip.MustParsePrefix("4.0.0.0/8"), Kind: LeafData, Record: 3},
			{Prefix: netip.MustParsePrefix("5.0.0.0/24"), Kind: LeafData, Record: 4},
			{Prefix: netip.MustParsePrefix("6.0.0.0/24"), Kind: LeafData, Record: 0},
			{Prefix: netip.MustParsePrefix("6.0.1.0/24"), Kind: LeafData, Record: 5},
			{Prefix: netip.MustParsePrefix("10.0.0.0/8"), Kind: LeafEmpty},
			{Prefix: netip.MustParsePrefix("255.255.255.255/32"), Kind: LeafData, Record: 1},
		},
		V6: []Leaf{
			{Prefix: netip.MustParsePrefix("::/96"), Kind: LeafAlias},
			{Prefix: netip.MustParsePrefix("::ffff:0:0/96"), Kind: LeafAlias},
			{Prefix: netip.MustParsePrefix("::1:0:0:1/128"), Kind: LeafData, Record: 2},
			{Prefix: netip.MustParsePrefix("2002::/16"), Kind: LeafAlias},
			{Prefix: netip.MustParsePrefix("2400:cb00::/32"), Kind: LeafData, Record: 0},
			{Prefix: netip.MustParsePrefix("2401::/48"), Kind: LeafData, Record: 2},
		},
		TZ: TZData{
			Metazones: []string{"Australia_Eastern", "Fiji"},
			Locales:   []string{"de", "en", "en-AU"},
			Names: [][]TZNames{
				{{LongStandard: "Ostaustralische Normalzeit", LongDaylight: "Ostaustralische Sommerzeit"}, {LongStandard: "Fidschi-Normalzeit"}},
				{{LongStandard: "Australian Eastern Standard Time", LongDaylight: "Australian Eastern Daylight Time"}, {LongStandard: "Fiji Standard Time"}},
				{{LongStandard: "Australian Eastern Standard Time", LongDaylight: "Australian Eastern Daylight Time", ShortStandard: "AEST", ShortDaylight: "AEDT"}, {LongStandard: "Fiji Standard Time"}},
			},
			Zones: []ZoneData{
				{ID: "Australia/Sydney", Windows: "Canberra, Melbourne, Sydney", Spans: []MetazoneSpan{{Metazone: 0}}},
				{ID: "Pacific/Fiji", Spans: []MetazoneSpan{{Metazone: 1}}},
				{ID: "Asia/Kolkata"},
			},
		},
	}
	return d
}

func mustDB(tb testing.TB, d *Data) (*DB, []byte) {
	tb.Helper()
	b, err := Encode(d)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := Decode(b)
	if err != nil {
		tb.Fatal(err)
	}
	return db, b
}

func TestLookup(t *testing.T) {
	db, _ := mustDB(t, fixture())
	tests := []struct {
		ip, network, country, city string
		ok                         bool
	}{
		{"1.0.0.1", "1.0.0.0/24", "AU", "Sydney", true},
		{"1.0.3.255", "1.0.2.0/23", "AU", "Sydney", true},
		{"2.0.255.0", "2.0.0.0/16", "AU", "", true},
		{"255.255.255.255", "255.255.255.255/32", "AU", "", true},
		{"255.255.255.254", "", "", "", false},
		{"0.0.0.0", "", "", "", false},
		{"10.1.2.3", "", "", "", false},
		{"4.1.2.3", "4.0.0.0/8", "", "", true}, // a record without country or location
		{"::ffff:1.0.0.1", "1.0.0.0/24", "AU", "Sydney", true},
		{"::1.0.0.1", "::100:0/120", "AU", "Sydney", true},
		{"2002:100:1::", "2002:100::/40", "AU", "Sydney", true},
		{"2400:cb00:1::1", "2400:cb00::/32", "AU", "Sydney", true},
		{"2401::1%eth0", "2401::/48", "NZ", "", true},
		{"::1:0:0:1", "::1:0:0:1/128", "NZ", "", true},
		{"::1:0:0:2", "", "", "", false},
		{"2402::", "", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.ip, func(t *testing.T) {
			p, ok := db.Lookup(netip.MustParseAddr(tc.ip))
			city, _ := p.City.Names.Name("en")
			got := []any{ok, p.Network.String(), p.Country.Code, city}
			if !ok {
				got[1] = ""
			}
			want := []any{tc.ok, tc.network, tc.country, tc.city}
			if !tc.ok {
				want[1] = ""
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	p, _ := db.Lookup(netip.MustParseAddr("1.0.0.1"))
	if p.Subdivision(0).Code != "AU-NSW" || p.Postcode != "2000" || p.AccuracyRadius != 20 || p.PlusCode != pluscode.Encode(-33.8688, 151.2093) {
		t.Errorf("Sydney: %+v", p)
	}
	if _, ok := db.Lookup(netip.Addr{}); ok {
		t.Error("invalid address found")
	}
	if !db.BuildTime().Equal(time.Date(2026, 9, 18, 0, 0, 0, 0, time.UTC)) || db.Source() != "Test-City" {
		t.Errorf("meta %v %q", db.BuildTime(), db.Source())
	}
}

// TestLookupMatchesRecords checks every field of the Place that Lookup makes against the
// fixture's RecordData it was encoded from, for every IPv4 data leaf: records are decoded
// into a compact form, and each field is made back from it.
func TestLookupMatchesRecords(t *testing.T) {
	d := fixture()
	db, _ := mustDB(t, d)
	area := func(i int) (string, uint32, string) {
		if i == NoPlace {
			return "", 0, ""
		}
		p := d.Places[i]
		return p.Code, p.GeonameID, p.Names[langEnglish]
	}
	for _, leaf := range d.V4 {
		if leaf.Kind != LeafData {
			continue
		}
		r := d.Records[leaf.Record]
		p, ok := db.Lookup(leaf.Prefix.Addr())
		if !ok {
			t.Errorf("%v: not found", leaf.Prefix)
			continue
		}
		type areaView struct {
			Code string
			ID   uint32
			Name string
		}
		view := func(a Area) areaView {
			name, _ := a.Names.Name("en")
			if a.IsZero() {
				name = ""
			}
			return areaView{a.Code, a.GeonameID, name}
		}
		wantArea := func(i int) areaView { c, id, n := area(i); return areaView{c, id, n} }
		var gotSubs, wantSubs []areaView
		for _, a := range p.Subdivisions {
			gotSubs = append(gotSubs, view(a))
		}
		for _, i := range r.Subdivisions {
			wantSubs = append(wantSubs, wantArea(i))
		}
		wantPlus := ""
		if r.HasLocation {
			wantPlus = pluscode.Encode(r.Latitude, r.Longitude)
		}
		got := []any{view(p.Continent), view(p.Country), view(p.RegisteredCountry), view(p.City), gotSubs, cap(p.Subdivisions),
			p.Postcode, p.TimeZone, p.HasLocation, p.Latitude, p.Longitude, p.AccuracyRadius, p.PlusCode}
		want := []any{wantArea(r.Continent), wantArea(r.Country), wantArea(r.RegisteredCountry), wantArea(r.City), wantSubs, len(r.Subdivisions),
			r.Postcode, r.TimeZone, r.HasLocation, r.Latitude, r.Longitude, r.AccuracyRadius, wantPlus}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%v (record %d): (-want +got):\n%s", leaf.Prefix, leaf.Record, diff)
		}
	}
}

func TestNames(t *testing.T) {
	n := NamesOf(names("Sydney"))
	fiji := NamesOf([NumLanguages]string{1: "Fiji"})
	tests := []struct {
		n          Names
		lang, want string
		ok         bool
	}{
		{n, "en", "Sydney", true},
		{n, "DE", "Sydney (de)", true},
		{n, "pt", "Sydney (pt-BR)", true},
		{n, "pt_PT", "Sydney (pt-BR)", true},
		{n, "zh", "Sydney (zh-CN)", true},
		{n, "zh-Hans-CN", "Sydney (zh-CN)", true},
		{n, "zh-TW", "Sydney", true}, // Traditional Chinese is not in the data: English
		{n, "zh-Hant", "Sydney", true},
		{n, "zh_hk", "Sydney", true},
		{n, "zh-Hans-TW", "Sydney (zh-CN)", true}, // Simplified asked for by name, region aside
		{n, "xx", "Sydney", true},
		{n, "", "Sydney", true},
		{fiji, "fr", "Fiji", true},
		{Names{}, "en", "", false},
		{NamesOf([NumLanguages]string{0: "Nur Deutsch"}), "fr", "", false},
	}
	for _, tc := range tests {
		got, ok := tc.n.Name(tc.lang)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Name(%q) = %q, %v; want %q, %v", tc.lang, got, ok, tc.want, tc.ok)
		}
	}
}

func TestConfidence(t *testing.T) {
	db, _ := mustDB(t, fixture())
	lookup := func(s string) Place {
		p, _ := db.Lookup(netip.MustParseAddr(s))
		return p
	}
	tests := []struct {
		name string
		ip   string
		ev   Evidence
		want Level
	}{
		{"small area, both sources agree", "1.0.0.1", Evidence{BGPPrefix: netip.MustParsePrefix("1.0.0.0/22"), SecondOpinion: "AU"}, LevelHigh},
		{"small area, registered country agrees", "1.0.0.1", Evidence{}, LevelHigh},
		{"small area, second opinion disagrees", "1.0.0.1", Evidence{SecondOpinion: "NZ"}, LevelModerate},
		{"country-level record: large area", "2.0.0.1", Evidence{SecondOpinion: "AU"}, LevelModerate},
		{"prefix spans countries", "3.0.0.1", Evidence{BGPPrefix: netip.MustParsePrefix("3.0.0.0/22")}, LevelLow},
		{"every independent source disagrees", "3.0.0.1", Evidence{SecondOpinion: "AU"}, LevelLow},
		{"no location", "4.0.0.1", Evidence{}, LevelLow},
		{"not found", "10.0.0.1", Evidence{}, LevelLow},
		{"unreachable", "1.0.0.1", Evidence{Unreachable: true}, LevelLow},
		{"two cities far apart", "6.0.0.1", Evidence{BGPPrefix: netip.MustParsePrefix("6.0.0.0/23"), SecondOpinion: "AU"}, LevelModerate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := db.Confidence(lookup(tc.ip), tc.ev)
			if c.Level != tc.want {
				t.Errorf("level %v (%s), want %v; radius %.0f km, share %.2f", c.Level, c.Reason, tc.want, c.RadiusKm, c.CountryShare)
			}
			checkClosed(t, c.Area.Points())
			if c.Level != LevelLow && c.Area.Len() == 0 {
				t.Error("no area")
			}
			if tc.ev.Unreachable && (c.Area.Len() != 0 || c.Prefix.IsValid()) {
				t.Errorf("an unreachable address has an area of %d points over %v, want none", c.Area.Len(), c.Prefix)
			}
		})
	}

	// The Sydney /22 is one record: the estimate is the network's own, a 16-gon of radius
	// 20 km around the city.
	c := db.Confidence(lookup("1.0.0.1"), Evidence{BGPPrefix: netip.MustParsePrefix("1.0.0.0/22")})
	if c.Area.Len() != CircleVertices+1 || math.Abs(c.RadiusKm-20) > 1 || c.Prefix != netip.MustParsePrefix("1.0.0.0/24") {
		t.Errorf("Sydney area: %d points, radius %.1f, over %s", c.Area.Len(), c.RadiusKm, c.Prefix)
	}
	// Sydney and Perth do not overlap: two polygons, the same for an address of either.
	bgp := Evidence{BGPPrefix: netip.MustParsePrefix("6.0.0.0/23")}
	c = db.Confidence(lookup("6.0.0.1"), bgp)
	if n := polygons(c.Area.Points()); n != 2 || c.Prefix != bgp.BGPPrefix {
		t.Errorf("Sydney+Perth: %d polygons over %s, want 2 over %s", n, c.Prefix, bgp.BGPPrefix)
	}
	if perth := db.Confidence(lookup("6.0.1.1"), bgp); !slices.Equal(perth.Area.Points(), c.Area.Points()) || perth.RadiusKm != c.RadiusKm {
		t.Errorf("Perth's area %v differs from Sydney's %v in one prefix", perth.Area.Points(), c.Area.Points())
	}
	// A BGP prefix that does not hold the address is ignored.
	c = db.Confidence(lookup("1.0.0.1"), Evidence{BGPPrefix: netip.MustParsePrefix("3.0.0.0/22")})
	if c.Prefix != netip.MustParsePrefix("1.0.0.0/24") {
		t.Errorf("prefix %v", c.Prefix)
	}
}

// A record without a city is not "high", however small its circle: GeoLite2 places its
// country-level records for some countries (the Netherlands, Switzerland) at a default
// point with a radius of 100 km, which agreeing sources and a small area would rate high.
func TestConfidenceNoCity(t *testing.T) {
	d := fixture()
	d.Records = append(d.Records, RecordData{Continent: 0, Country: 1, RegisteredCountry: 1, City: NoPlace,
		HasLocation: true, Latitude: -25.0, Longitude: 134.0, AccuracyRadius: 100})
	at := slices.IndexFunc(d.V4, func(l Leaf) bool { return l.Prefix.Addr() == netip.MustParseAddr("10.0.0.0") })
	d.V4 = slices.Insert(d.V4, at, Leaf{Prefix: netip.MustParsePrefix("7.0.0.0/24"), Kind: LeafData, Record: len(d.Records) - 1})
	db, _ := mustDB(t, d)
	p, _ := db.Lookup(netip.MustParseAddr("7.0.0.1"))
	c := db.Confidence(p, Evidence{SecondOpinion: "AU"})
	if c.Level != LevelModerate || !strings.Contains(c.Reason, "not a city") || c.RadiusKm > HighMaxRadiusKm {
		t.Errorf("country-level record, radius %.0f km: %v (%s), want moderate for naming no city", c.RadiusKm, c.Level, c.Reason)
	}
}

// TestConfidencePinOutsideArea: in a /20 whose addresses are all in Sydney but for one /24
// in Newcastle (117 km off, 1/16 of the addresses), the area is Sydney's alone
// (AreaCoverage): an address in Sydney is "high", the Newcastle one, whose pin the area does
// not hold, only "moderate", with computed and with precomputed areas alike.
func TestConfidencePinOutsideArea(t *testing.T) {
	d := fixture()
	d.Records = append(d.Records, RecordData{Continent: 0, Country: 1, RegisteredCountry: 1, City: NoPlace,
		HasLocation: true, Latitude: -32.9283, Longitude: 151.7817, AccuracyRadius: 20}) // 6: Newcastle
	at := slices.IndexFunc(d.V4, func(l Leaf) bool { return l.Prefix.Addr() == netip.MustParseAddr("10.0.0.0") })
	d.V4 = slices.Insert(d.V4, at,
		Leaf{Prefix: netip.MustParsePrefix("7.0.0.0/21"), Kind: LeafData, Record: 0},
		Leaf{Prefix: netip.MustParsePrefix("7.0.8.0/22"), Kind: LeafData, Record: 0},
		Leaf{Prefix: netip.MustParsePrefix("7.0.12.0/23"), Kind: LeafData, Record: 0},
		Leaf{Prefix: netip.MustParsePrefix("7.0.14.0/24"), Kind: LeafData, Record: 0},
		Leaf{Prefix: netip.MustParsePrefix("7.0.15.0/24"), Kind: LeafData, Record: 6})
	db, _ := mustDB(t, d)
	bgp := netip.MustParsePrefix("7.0.0.0/20")
	fast, err := db.WithAreas(db.EncodeAreas([]netip.Prefix{bgp}))
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range []*DB{db, fast} {
		for _, tc := range []struct {
			ip   string
			want Level
		}{{"7.0.0.1", LevelHigh}, {"7.0.15.1", LevelModerate}} {
			p, _ := db.Lookup(netip.MustParseAddr(tc.ip))
			c := db.Confidence(p, Evidence{BGPPrefix: bgp, SecondOpinion: "AU"})
			if c.Level != tc.want || c.Prefix != bgp || polygons(c.Area.Points()) != 1 {
				t.Errorf("%s: %v (%s) over %s, %d polygons; want %v over %s, one polygon (Sydney's)",
					tc.ip, c.Level, c.Reason, c.Prefix, polygons(c.Area.Points()), tc.want, bgp)
			}
		}
	}
}

// TestPolygonsContains checks Contains against the sides of convex polygons: a point is
// inside a convex polygon exactly when it lies on the same side of every edge. The fixture's
// areas are hulls, so convex, and one of them (Fiji's) straddles the antimeridian.
func TestPolygonsContains(t *testing.T) {
	db, _ := mustDB(t, fixture())
	var areas []Polygons
	for _, tc := range []struct{ ip, bgp string }{{"1.0.0.1", ""}, {"5.0.0.1", ""}, {"6.0.0.1", "6.0.0.0/23"}, {"2.0.0.1", ""}} {
		p, _ := db.Lookup(netip.MustParseAddr(tc.ip))
		ev := Evidence{}
		if tc.bgp != "" {
			ev.BGPPrefix = netip.MustParsePrefix(tc.bgp)
		}
		areas = append(areas, db.Confidence(p, ev).Area)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, a := range areas {
		pts := a.Points()
		lo, hi := pts[0], pts[0]
		for _, p := range pts {
			lo.Latitude, hi.Latitude = min(lo.Latitude, p.Latitude), max(hi.Latitude, p.Latitude)
			lo.Longitude, hi.Longitude = min(lo.Longitude, p.Longitude), max(hi.Longitude, p.Longitude)
		}
		in := 0
		for range 2000 {
			// Points over the polygons' bounding box and a margin around it.
			lat := lo.Latitude - 1 + rng.Float64()*(hi.Latitude-lo.Latitude+2)
			lon := normLon(lo.Longitude - 1 + rng.Float64()*(hi.Longitude-lo.Longitude+2))
			want := insideConvex(pts, lat, lon)
			if got := a.Contains(lat, lon); got != want {
				t.Fatalf("Contains(%.5f, %.5f) = %v, want %v; area %v", lat, lon, got, want, pts)
			}
			if want {
				in++
			}
		}
		if in == 0 {
			t.Errorf("no random point fell inside %v", pts)
		}
	}
	if (Polygons{}).Contains(0, 0) {
		t.Error("the empty area contains a point")
	}
}

// TestPolygonsContainsCases: hand-built areas, with a second polygon (the splitting), one
// across the antimeridian, and points half a world away from them.
func TestPolygonsContainsCases(t *testing.T) {
	e5 := func(pts ...float64) []int32 {
		v := make([]int32, len(pts))
		for i, p := range pts {
			v[i] = int32(math.Round(p * 1e5))
		}
		return v
	}
	twoSquares := Polygons{append(e5(0, 0, 0, 1, 1, 1, 1, 0, 0, 0), e5(10, 10, 10, 11, 11, 11, 11, 10, 10, 10)...)}
	seam := Polygons{e5(0, 179.5, 0, -179.5, 1, -179.5, 1, 179.5, 0, 179.5)}
	for _, tc := range []struct {
		name     string
		a        Polygons
		lat, lon float64
		want     bool
	}{
		{"first square", twoSquares, 0.5, 0.5, true},
		{"second square", twoSquares, 10.5, 10.5, true},
		{"between them", twoSquares, 5, 5, false},
		{"beside the first", twoSquares, 0.5, 1.5, false},
		{"half a world away", twoSquares, 0.5, 180, false},
		{"half a world away, west", twoSquares, 0.5, -179.5, false},
		{"seam, east side", seam, 0.5, 179.9, true},
		{"seam, west side", seam, 0.5, -179.9, true},
		{"seam, beyond it", seam, 0.5, 179, false},
		{"seam, half a world away", seam, 0.5, 0, false},
		{"seam, above", seam, 1.5, 180, false},
		{"empty", Polygons{}, 0, 0, false},
		{"unclosed", Polygons{e5(0, 0, 0, 1, 1, 1, 1, 0)}, 0.5, 0.5, false},
	} {
		if got := tc.a.Contains(tc.lat, tc.lon); got != tc.want {
			t.Errorf("%s: Contains(%v, %v) = %v, want %v", tc.name, tc.lat, tc.lon, got, tc.want)
		}
	}
}

// insideConvex reports whether lat, lon lies strictly inside one of the convex polygons of
// area, by the side of every edge, longitudes taken relative to the point's.
func insideConvex(area []Point, lat, lon float64) bool {
	rel := func(l float64) float64 { return normLon(l - lon) }
	for i := 0; i < len(area); {
		j := i + 1
		for area[j] != area[i] {
			j++
		}
		pos, neg := false, false
		for k := i; k < j; k++ {
			a, b := area[k], area[k+1]
			cross := rel(a.Longitude)*(b.Latitude-lat) - rel(b.Longitude)*(a.Latitude-lat)
			pos, neg = pos || cross > 0, neg || cross < 0
		}
		if pos != neg {
			return true
		}
		i = j + 1
	}
	return false
}

// checkClosed checks that area is a sequence of closed polygons.
func checkClosed(t *testing.T, area []Point) {
	t.Helper()
	for i := 0; i < len(area); {
		j := i + 1
		for j < len(area) && area[j] != area[i] {
			j++
		}
		if j == len(area) || j-i < 3 {
			t.Fatalf("polygon at %d is not closed: %v", i, area[i:])
		}
		// Read on a flat map, no edge may jump across the antimeridian.
		for k := i; k < j; k++ {
			if math.Abs(area[k+1].Longitude-area[k].Longitude) > 180 {
				t.Errorf("polygon at %d crosses the antimeridian between %v and %v", i, area[k], area[k+1])
			}
		}
		i = j + 1
	}
	for _, p := range area {
		if p.Latitude != math.Round(p.Latitude*1e5)/1e5 || p.Longitude < -180 || p.Longitude > 180 {
			t.Errorf("point %v not rounded or out of range", p)
		}
	}
}

func polygons(area []Point) int {
	n := 0
	for i := 0; i < len(area); {
		j := i + 1
		for j < len(area) && area[j] != area[i] {
			j++
		}
		n++
		i = j + 1
	}
	return n
}

func TestConfidenceAntimeridian(t *testing.T) {
	d := fixture()
	d.Places = append(d.Places, PlaceData{GeonameID: 2204582, Names: names("Labasa")})
	d.Records[4].City = len(d.Places) - 1 // a city, so that the level can be high
	db, _ := mustDB(t, d)
	p, _ := db.Lookup(netip.MustParseAddr("5.0.0.1"))
	c := db.Confidence(p, Evidence{SecondOpinion: "FJ"})
	checkClosed(t, c.Area.Points())
	east, west := false, false
	for _, pt := range c.Area.Points() {
		east = east || pt.Longitude > 179
		west = west || pt.Longitude < -179
	}
	if !east || !west || polygons(c.Area.Points()) != 2 {
		t.Errorf("the area is not two polygons, one each side of the antimeridian: %v", c.Area)
	}
	if math.Abs(c.RadiusKm-50) > 3 {
		t.Errorf("radius %.1f km, want about 50", c.RadiusKm)
	}
	if c.Level != LevelHigh {
		t.Errorf("level %v (%s)", c.Level, c.Reason)
	}
}

func TestTimeZone(t *testing.T) {
	db, _ := mustDB(t, fixture())
	jan := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		zone, lang string
		want       TZ
	}{
		{"Australia/Sydney", "en-AU", TZ{IANA: "Australia/Sydney", DisplayName: "(UTC+10:00) Canberra, Melbourne, Sydney",
			EffectiveFull: "Australian Eastern Daylight Time", EffectiveShort: "AEDT", UTCOffsetSeconds: 39600, UTCOffset: "+11", IsDST: true}},
		{"Australia/Sydney", "de-CH", TZ{IANA: "Australia/Sydney", DisplayName: "(UTC+10:00) Canberra, Melbourne, Sydney",
			EffectiveFull: "Ostaustralische Sommerzeit", EffectiveShort: "AEDT", UTCOffsetSeconds: 39600, UTCOffset: "+11", IsDST: true}},
		{"Pacific/Fiji", "xx", TZ{IANA: "Pacific/Fiji", DisplayName: "(UTC+12:00) Fiji Standard Time",
			EffectiveFull: "Fiji Standard Time", EffectiveShort: "GMT+12", UTCOffsetSeconds: 43200, UTCOffset: "+12"}},
		{"Asia/Kolkata", "en", TZ{IANA: "Asia/Kolkata", DisplayName: "(UTC+05:30) Asia/Kolkata",
			EffectiveFull: "GMT+05:30", EffectiveShort: "IST", UTCOffsetSeconds: 19800, UTCOffset: "+05:30"}},
		// Zones the data does not have, from Go's time zone database: named by their offset.
		{"Etc/GMT+2", "de", TZ{IANA: "Etc/GMT+2", DisplayName: "(UTC-02:00) Etc/GMT+2",
			EffectiveFull: "GMT-02:00", EffectiveShort: "GMT-2", UTCOffsetSeconds: -7200, UTCOffset: "-02"}},
		{"US/Eastern", "en", TZ{IANA: "US/Eastern", DisplayName: "(UTC-05:00) US/Eastern",
			EffectiveFull: "GMT-05:00", EffectiveShort: "EST", UTCOffsetSeconds: -18000, UTCOffset: "-05"}},
	}
	for _, tc := range tests {
		t.Run(tc.zone+"/"+tc.lang, func(t *testing.T) {
			got, ok := db.TimeZone(tc.zone, jan, tc.lang)
			if !ok {
				t.Fatal("not found")
			}
			got.Local = time.Time{}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, id := range []string{"", "Local", "Mars/Olympus_Mons", "../etc/passwd", `Europe\Berlin`,
		"localtime", "posixrules", "Factory", "posix/Europe/Berlin", "right/UTC",
		"./localtime", "./Factory", "./right/UTC", "Europe//Berlin", "/Europe/Berlin", "Europe/Berlin/", "Europe/./Berlin"} {
		if tz, ok := db.TimeZone(id, jan, "en"); ok {
			t.Errorf("TimeZone(%q) = %+v, want none", id, tz)
		}
	}
	tz, _ := db.TimeZone("Australia/Sydney", time.Date(2019, 4, 6, 9, 9, 36, 187795900, time.UTC), "en")
	if got := string(tz.AppendLocalTime(nil)); got != "2019-04-06T20:09:36.1877959" {
		t.Errorf("localTime %q", got)
	}
	if got := string(AppendUTCTime(nil, time.Date(2019, 4, 6, 9, 9, 36, 187795900, time.UTC))); got != "2019-04-06T09:09:36.1877959Z" {
		t.Errorf("utcTime %q", got)
	}
}

func TestOffsets(t *testing.T) {
	ot := newOffsetTable()
	tests := []struct {
		off, style int
		want       string
	}{
		{-25200, styleUTCOffset, "-07"}, {19800, styleUTCOffset, "+05:30"}, {0, styleUTCOffset, "+00"},
		{-28800, styleClock, "-08:00"}, {20700, styleClock, "+05:45"},
		{10800, styleGMTShort, "GMT+3"}, {-34200, styleGMTShort, "GMT-9:30"}, {0, styleGMTShort, "GMT"},
		{10800, styleGMTLong, "GMT+03:00"}, {0, styleGMTLong, "GMT"},
		// Local mean time, not a quarter hour, with seconds only when there are any.
		{-28378, styleUTCOffset, "-07:52:58"}, {-2670, styleUTCOffset, "-00:44:30"}, {-2640, styleUTCOffset, "-00:44"},
		{3600 + 5, styleUTCOffset, "+01:00:05"}, {-2670, styleClock, "-00:44:30"}, {-2640, styleClock, "-00:44"},
		{-2670, styleGMTLong, "GMT-00:44:30"}, {-2670, styleGMTShort, "GMT-0:44:30"}, {-2640, styleGMTShort, "GMT-0:44"},
		{3600 + 5, styleGMTShort, "GMT+1:00:05"}, {5, styleGMTShort, "GMT+0:00:05"}, {-5, styleGMTLong, "GMT-00:00:05"},
	}
	for _, tc := range tests {
		if got := ot.format(tc.off, tc.style); got != tc.want {
			t.Errorf("format(%d, %d) = %q, want %q", tc.off, tc.style, got, tc.want)
		}
	}
}

// TestTimeZoneOffsetSeconds: an offset with seconds (Liberia's local mean time, -00:44:30,
// until 1972) keeps them in utcOffset and in the GMT-format name, as utcOffsetSeconds does.
func TestTimeZoneOffsetSeconds(t *testing.T) {
	db, _ := mustDB(t, fixture())
	tz, ok := db.TimeZone("Africa/Monrovia", time.Unix(1, 0), "en")
	if !ok || tz.UTCOffsetSeconds != -2670 || tz.UTCOffset != "-00:44:30" || tz.EffectiveFull != "GMT-00:44:30" {
		t.Errorf("Africa/Monrovia in 1970: %+v; want -2670 s, -00:44:30, GMT-00:44:30", tz)
	}
}

// TestTimeZoneWithoutMetazone: a zone that CLDR names itself but gives no metazone
// (Etc/UTC) takes its names from the zone's own, in every language, and its displayName
// from the English one.
func TestTimeZoneWithoutMetazone(t *testing.T) {
	d := fixture()
	utc := []TZNames{
		{LongStandard: "Koordinierte Weltzeit", ShortStandard: "UTC"},
		{LongStandard: "Coordinated Universal Time", ShortStandard: "UTC"},
		{LongStandard: "Coordinated Universal Time", ShortStandard: "UTC"},
	}
	zones := d.TZ.Zones
	d.TZ.Zones = append(zones[:2:2], append([]ZoneData{{ID: "Etc/UTC", Names: utc}}, zones[2:]...)...)
	db, _ := mustDB(t, d)
	for _, tc := range []struct{ lang, full string }{{"en", "Coordinated Universal Time"}, {"de-AT", "Koordinierte Weltzeit"}, {"xx", "Coordinated Universal Time"}} {
		tz, ok := db.TimeZone("Etc/UTC", time.Now(), tc.lang)
		if !ok || tz.DisplayName != "(UTC+00:00) Coordinated Universal Time" || tz.EffectiveFull != tc.full || tz.EffectiveShort != "UTC" {
			t.Errorf("Etc/UTC in %s: %+v; want displayName (UTC+00:00) Coordinated Universal Time, %s, UTC", tc.lang, tz, tc.full)
		}
	}
}

func TestNoAllocs(t *testing.T) {
	db, _ := mustDB(t, fixture())
	a := netip.MustParseAddr("1.0.0.1")
	a6 := netip.MustParseAddr("2002:100:1::")
	p, _ := db.Lookup(a)
	ev := Evidence{BGPPrefix: netip.MustParsePrefix("1.0.0.0/22"), SecondOpinion: "AU"}
	db.Confidence(p, ev) // fill the memo
	at := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	tests := map[string]func(){
		"Lookup v4": func() { db.Lookup(a) },
		"Lookup v6": func() { db.Lookup(a6) },
		// Prefetching is a hint that changes nothing; it must not allocate either, or fail on
		// an address or DB that Lookup refuses.
		"Prefetch": func() {
			db.Prefetch(a)
			db.Prefetch(a6)
			db.Prefetch(netip.MustParseAddr("::ffff:1.0.0.1"))
			db.Prefetch(netip.Addr{})
			(*DB)(nil).Prefetch(a)
			p.Prefetch("de")
			p.Prefetch("default")
			(&Place{}).Prefetch("en")
		},
		"Name":       func() { p.City.Names.Name("de-AT") },
		"Confidence": func() { db.Confidence(p, ev) },
		"TimeZone":   func() { db.TimeZone("Australia/Sydney", at, "en-AU") },
		"Append":     func() { tz, _ := db.TimeZone("Australia/Sydney", at, "de"); var b [64]byte; tz.AppendLocalTime(b[:0]) },
	}
	for name, f := range tests {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := map[string]func(d *Data){
		"overlap":       func(d *Data) { d.V4 = append(d.V4, Leaf{Prefix: netip.MustParsePrefix("1.0.0.0/16"), Kind: LeafData}) },
		"bad record":    func(d *Data) { d.V4[0].Record = 99 },
		"bad place":     func(d *Data) { d.Records[0].City = 99 },
		"v4 alias":      func(d *Data) { d.V4[0].Kind = LeafAlias },
		"long alias":    func(d *Data) { d.V6 = append(d.V6, Leaf{Prefix: netip.MustParsePrefix("2003::/100"), Kind: LeafAlias}) },
		"unmasked":      func(d *Data) { d.V4[0].Prefix = netip.MustParsePrefix("1.0.0.1/24") },
		"coordinates":   func(d *Data) { d.Records[3].Latitude = 1 },
		"out of range":  func(d *Data) { d.Records[0].Latitude = 91 },
		"locales order": func(d *Data) { d.TZ.Locales[0], d.TZ.Locales[1] = d.TZ.Locales[1], d.TZ.Locales[0] },
	}
	for name, mutate := range tests {
		d := fixture()
		mutate(d)
		if _, err := Encode(d); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	_, b := mustDB(t, fixture())
	for _, bad := range [][]byte{nil, b[:len(b)-1], append(append([]byte{}, b...), 0), []byte(magic)} {
		if _, err := Decode(bad); !errors.Is(err, ErrFormat) {
			t.Errorf("len %d: err %v", len(bad), err)
		}
	}
	// Flipping any single byte must give an error or a valid DB, never a panic.
	for i := range b {
		c := append([]byte{}, b...)
		c[i] ^= 0xff
		if db, err := Decode(c); err == nil {
			db.Lookup(netip.MustParseAddr("1.0.0.1"))
		}
	}
}

func FuzzDecode(f *testing.F) {
	_, b := mustDB(f, fixture())
	f.Add(b)
	f.Add([]byte(magic))
	f.Add(b[:len(b)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := Decode(b)
		if err != nil {
			return
		}
		for _, s := range []string{"0.0.0.0", "1.0.0.1", "255.255.255.255", "::", "::1.0.0.1", "2002:100::1", "ffff::1"} {
			p, ok := db.Lookup(netip.MustParseAddr(s))
			db.Confidence(p, Evidence{BGPPrefix: netip.MustParsePrefix("0.0.0.0/0")})
			_ = ok
		}
		db.TimeZone("Australia/Sydney", time.Unix(0, 0), "en")
	})
}

// TestAppendTimeMatchesFormat holds the time formatter equal to time.AppendFormat with the
// API's layouts, on chosen instants and 20 000 random ones over years 0 to 9999 and a
// little beyond (which take AppendFormat's path), in UTC and in a zone with daylight time.
func TestAppendTimeMatchesFormat(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	type instant struct{ sec, ns int64 }
	var instants []instant
	for _, sec := range []int64{0, 1, 1700000000, 1781000000, -2208988800, 253402300799, -62135596800} {
		for _, ns := range []int64{0, 99, 100, 123456789, 999999999} {
			instants = append(instants, instant{sec, ns})
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		instants = append(instants, instant{rng.Int64N(316000000000) - 62200000000, rng.Int64N(1e9)})
	}
	for _, in := range instants {
		at := time.Unix(in.sec, in.ns)
		if got, want := string(AppendUTCTime([]byte("x"), at)), "x"+at.UTC().Format(utcTimeLayout); got != want {
			t.Fatalf("utc %v: %s, want %s", at, got, want)
		}
		local := at.In(berlin)
		if got, want := string(TZ{Local: local}.AppendLocalTime([]byte("x"))), "x"+local.Format(localTimeLayout); got != want {
			t.Fatalf("local %v: %s, want %s", local, got, want)
		}
	}
}

// TestAreaByGeonameID finds every fixture place that has a GeoNames id by it, with the code
// and names it was encoded with, and nothing for ids no place has.
func TestAreaByGeonameID(t *testing.T) {
	d := fixture()
	db, _ := mustDB(t, d)
	ids := map[uint32]bool{}
	for _, p := range d.Places {
		if p.GeonameID == 0 {
			continue
		}
		ids[p.GeonameID] = true
		a, ok := db.AreaByGeonameID(p.GeonameID)
		if !ok || a.GeonameID != p.GeonameID || a.Code != p.Code || a.Names.Get(langEnglish) != p.Names[langEnglish] || a.Names.Get(0) != p.Names[0] {
			t.Errorf("%d: %v, %+v; want %s %q", p.GeonameID, ok, a, p.Code, p.Names[langEnglish])
		}
	}
	if len(ids) < 3 {
		t.Fatalf("the fixture has %d places with GeoNames ids", len(ids))
	}
	for _, id := range []uint32{0, 1, 4294967295} { // 0 means "no id"; the others no place has
		if _, ok := db.AreaByGeonameID(id); ok || ids[id] {
			t.Errorf("%d: found %v (a fixture place has it: %v)", id, ok, ids[id])
		}
	}
	var nilDB *DB
	if _, ok := nilDB.AreaByGeonameID(1); ok {
		t.Error("nil DB found a place")
	}
}

// TestContinent finds the continent of every fixture record by its code, as Lookup gives it,
// and no continent for a code that no record has.
func TestContinent(t *testing.T) {
	d := fixture()
	db, _ := mustDB(t, d)
	seen := 0
	for _, leaf := range d.V4 {
		if leaf.Kind != LeafData {
			continue
		}
		p, _ := db.Lookup(leaf.Prefix.Addr())
		if p.Continent.IsZero() {
			continue
		}
		seen++
		c, ok := db.Continent(p.Continent.Code)
		if !ok || c.Code != p.Continent.Code || c.GeonameID != p.Continent.GeonameID || c.Names.Get(0) != p.Continent.Names.Get(0) {
			t.Errorf("%s: %+v, %v; want %+v", p.Continent.Code, c, ok, p.Continent)
		}
	}
	if seen == 0 {
		t.Fatal("no fixture record has a continent")
	}
	for _, code := range []string{"", "XX", "eu"} {
		if _, ok := db.Continent(code); ok {
			t.Errorf("Continent(%q) found", code)
		}
	}
}

func TestPlaced(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    Place
		want bool
	}{
		{"registered country only (1.1.1.1)", Place{RegisteredCountry: Area{Code: "AU"}}, false},
		{"nothing", Place{}, false},
		{"continent only", Place{Continent: Area{Code: "EU"}}, true},
		{"country", Place{Country: Area{Code: "DE"}}, true},
		{"coordinates", Place{HasLocation: true}, true},
		{"time zone", Place{TimeZone: "Europe/Berlin"}, true},
	} {
		if got := tt.p.Placed(); got != tt.want {
			t.Errorf("%s: Placed() = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestParentSubdivision: a subdivision the records name only second has the first as its
// parent, by GeoNames id and by ISO code; a first-level one, one below two different
// subdivisions, and an unknown one have none.
func TestParentSubdivision(t *testing.T) {
	d := fixture()
	d.Places = append(d.Places,
		PlaceData{Code: "AU-SYD", GeonameID: 9000001, Names: names("City of Sydney")}, // 6
		PlaceData{Code: "AU-VIC", GeonameID: 2145234, Names: names("Victoria")},       // 7
		PlaceData{Code: "AU-XX", GeonameID: 9000002, Names: names("Borderland")},      // 8
	)
	d.Records[0].Subdivisions = []int{2, 6} // New South Wales, City of Sydney
	d.Records[5].Subdivisions = []int{2, 8} // Borderland below New South Wales ...
	d.Records[1].Subdivisions = []int{7, 8} // ... and below Victoria
	d.Records[2].Subdivisions = []int{7}    // Victoria, first-level
	db, _ := mustDB(t, d)
	for _, tc := range []struct {
		name string
		id   uint32
		code string
		want uint32 // the parent's GeonameID; 0: none
	}{
		{"by id", 9000001, "", 2155400},
		{"by code, the id unknown", 77, "au-syd", 2155400},
		{"first level", 2155400, "AU-NSW", 0},
		{"first level, by code", 0, "AU-VIC", 0},
		{"below two", 9000002, "AU-XX", 0},
		{"unknown", 12345, "AU-QQ", 0},
	} {
		p, ok := db.ParentSubdivision(tc.id, tc.code)
		if ok != (tc.want != 0) || p.GeonameID != tc.want {
			t.Errorf("%s: %v, %+v; want parent %d", tc.name, ok, p, tc.want)
		}
	}
	if p, _ := db.ParentSubdivision(9000001, ""); p.Code != "AU-NSW" || p.Names.Get(langEnglish) != "New South Wales" {
		t.Errorf("parent %+v: want AU-NSW, New South Wales", p)
	}
}

// TestSubdivisionLookups: every subdivision the records name is found by its GeoNames id and
// by its ISO code, first- or second-level, and IsFirstLevel tells which; a code the records
// give two ids is no one's; cities and countries are not subdivisions.
func TestSubdivisionLookups(t *testing.T) {
	d := fixture()
	d.Places = append(d.Places,
		PlaceData{Code: "AU-SYD", GeonameID: 9000001, Names: names("City of Sydney")},  // 6
		PlaceData{Code: "AU-XX", GeonameID: 9000002, Names: names("Borderland")},       // 7
		PlaceData{Code: "AU-XX", GeonameID: 9000003, Names: names("Other Borderland")}, // 8
	)
	d.Records[0].Subdivisions = []int{2, 6} // New South Wales, City of Sydney
	d.Records[1].Subdivisions = []int{7}
	d.Records[5].Subdivisions = []int{8}
	db, _ := mustDB(t, d)
	for _, tc := range []struct {
		name       string
		id         uint32
		code       string
		wantID     uint32 // by id; 0: none
		wantByCode uint32 // by code; 0: none
		first      bool
	}{
		{"first level", 2155400, "AU-NSW", 2155400, 2155400, true},
		{"second level", 9000001, "au-syd", 9000001, 9000001, false},
		{"a code two ids share", 9000002, "AU-XX", 9000002, 0, true},
		{"a city", 2147714, "", 0, 0, false},
		{"a country", 2077456, "AU", 0, 0, false},
		{"unknown", 12345, "AU-QQ", 0, 0, false},
		{"nothing", 0, "", 0, 0, false},
	} {
		a, ok := db.SubdivisionByID(tc.id)
		if ok != (tc.wantID != 0) || a.GeonameID != tc.wantID {
			t.Errorf("%s: SubdivisionByID(%d) = %+v, %v; want %d", tc.name, tc.id, a, ok, tc.wantID)
		}
		a, ok = db.SubdivisionByCode(tc.code)
		if ok != (tc.wantByCode != 0) || a.GeonameID != tc.wantByCode {
			t.Errorf("%s: SubdivisionByCode(%q) = %+v, %v; want %d", tc.name, tc.code, a, ok, tc.wantByCode)
		}
		if got := db.IsFirstLevel(tc.id); got != tc.first {
			t.Errorf("%s: IsFirstLevel(%d) = %v", tc.name, tc.id, got)
		}
	}
	if a, _ := db.SubdivisionByCode("AU-SYD"); a.Names.Get(langEnglish) != "City of Sydney" {
		t.Errorf("AU-SYD named %q", a.Names.Get(langEnglish))
	}
	var none *DB
	if _, ok := none.SubdivisionByID(2155400); ok || none.IsFirstLevel(2155400) {
		t.Error("a nil DB knows a subdivision")
	}
	if _, ok := none.SubdivisionByCode("AU-NSW"); ok {
		t.Error("a nil DB knows a code")
	}
}

// TestNegativeDST: Ireland's winter, which tzdata flags as daylight saving time below its
// summer's offset, reads as standard time, its summer as daylight saving time, as in London;
// zones without negative DST read as tzdata flags them.
func TestNegativeDST(t *testing.T) {
	db, _ := mustDB(t, fixture())
	for _, tc := range []struct {
		zone      string
		month     time.Month
		dst       bool
		utcOffset string
	}{
		{"Europe/Dublin", time.January, false, "+00"},
		{"Europe/Dublin", time.July, true, "+01"},
		{"Europe/London", time.January, false, "+00"},
		{"Europe/London", time.July, true, "+01"},
	} {
		tz, ok := db.TimeZone(tc.zone, time.Date(2026, tc.month, 10, 12, 0, 0, 0, time.UTC), "en")
		if !ok || tz.IsDST != tc.dst || tz.UTCOffset != tc.utcOffset || tz.DisplayName != "(UTC+00:00) "+tc.zone {
			t.Errorf("%s in %s: %+v, want DST %v at %s", tc.zone, tc.month, tz, tc.dst, tc.utcOffset)
		}
	}
	for _, id := range []string{"Europe/Berlin", "Europe/London", "America/New_York", "America/Sao_Paulo", "Australia/Sydney", "Pacific/Auckland", "Asia/Tokyo", "Asia/Tehran"} {
		loc, err := time.LoadLocation(id)
		if err != nil {
			t.Fatal(err)
		}
		if hasNegativeDST(loc) {
			t.Errorf("%s: negative DST found", id)
		}
		for m := range 24 {
			at := time.Date(2000+m, time.Month(1+m%12), 15, 0, 0, 0, 0, loc)
			if conventionalDST(at) != at.IsDST() {
				t.Errorf("%s at %v: conventionalDST %v, IsDST %v", id, at, conventionalDST(at), at.IsDST())
			}
		}
	}
	for _, tc := range []struct {
		zone string
		at   time.Time // UTC
		dst  bool
	}{
		{"Europe/Dublin", time.Date(1969, 7, 15, 0, 0, 0, 0, time.UTC), false}, // +01 all year, 1968–71
		{"Europe/Dublin", time.Date(2039, 11, 15, 0, 0, 0, 0, time.UTC), false},
		{"Europe/Dublin", time.Date(2039, 7, 15, 0, 0, 0, 0, time.UTC), true},
		{"Africa/Windhoek", time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC), false}, // +02 all year since 2017
		{"Africa/Windhoek", time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC), false},
		{"Africa/Windhoek", time.Date(2005, 1, 15, 0, 0, 0, 0, time.UTC), true}, // +02 summers, +01 winters then
		{"Africa/Casablanca", time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC), false},
		{"America/Nome", time.Date(1983, 7, 15, 0, 0, 0, 0, time.UTC), true}, // Bering Daylight Time
	} {
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		if got := conventionalDST(tc.at.In(loc)); got != tc.dst {
			t.Errorf("%s at %v: daylight saving time %v, want %v", tc.zone, tc.at, got, tc.dst)
		}
	}
	dublin, _ := time.LoadLocation("Europe/Dublin")
	if !hasNegativeDST(dublin) {
		t.Error("Europe/Dublin: no negative DST found")
	}
}

// TestNegativeDSTGoTZData: with Go's own time zone database (time/tzdata, what the
// container image has), whose European zones list transitions only up to 1996 and give the
// rule after, Dublin reads the same, and finding negative DST ends.
func TestNegativeDSTGoTZData(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	zr, err := zip.OpenReader(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "time", "zoneinfo.zip"))
	if err != nil {
		t.Fatalf("Go's time zone database: %v", err)
	}
	defer zr.Close()
	f, err := zr.Open("Europe/Dublin")
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	loc, err := time.LoadLocationFromTZData("Europe/Dublin", data)
	if err != nil {
		t.Fatal(err)
	}
	if !hasNegativeDST(loc) {
		t.Error("no negative DST found")
	}
	for _, tc := range []struct {
		at  time.Time
		dst bool
	}{
		{time.Date(2026, 1, 15, 0, 0, 0, 0, loc), false},
		{time.Date(2026, 7, 15, 0, 0, 0, 0, loc), true},
		{time.Date(2040, 12, 31, 0, 0, 0, 0, loc), false},
	} {
		if got := conventionalDST(tc.at); got != tc.dst {
			t.Errorf("%v: daylight saving time %v, want %v", tc.at, got, tc.dst)
		}
	}
}

// TestNegativeDSTEveryYear: daylight saving time and the standard offset read the same
// way in every year. Morocco's Ramadan at +00, which tzdata flags as daylight saving time
// below the standard +01, is daylight saving time in 2020–2040, the years (2029–2032)
// when it covers 15 January included, and +01 is standard time throughout; Ireland's
// first negative-DST winter reads the same on both sides of New Year 1972.
func TestNegativeDSTEveryYear(t *testing.T) {
	casablanca, err := time.LoadLocation("Africa/Casablanca")
	if err != nil {
		t.Fatal(err)
	}
	if hasNegativeDST(casablanca) {
		t.Error("Africa/Casablanca: negative-DST winters found")
	}
	ramadans := 0
	for at := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() <= 2040; at = at.AddDate(0, 0, 11) {
		lt := at.In(casablanca)
		_, off := lt.Zone()
		if off == 0 {
			ramadans++
		}
		if got, want := conventionalDST(lt), off == 0; got != want || lt.IsDST() != want {
			t.Errorf("Casablanca at %v (%+d s): daylight saving time %v, tzdata %v; want %v", lt, off, got, lt.IsDST(), want)
		}
		if got := standardOffset(at, casablanca); got != 3600 {
			t.Errorf("Casablanca at %v: standard offset %d, want 3600", lt, got)
		}
	}
	if ramadans < 15 {
		t.Errorf("only %d samples in Ramadan: the table of Morocco's changes is missing", ramadans)
	}

	db, _ := mustDB(t, fixture())
	for _, tc := range []struct {
		zone string
		unix int64
		dst  bool
	}{
		{"Africa/Casablanca", 1861916399, false}, // 2028-12-31T23:59:59+01
		{"Africa/Casablanca", 1861916400, false}, // 2029-01-01T00:00:00+01
		{"Africa/Casablanca", 1772366400, true},  // 2026-03-01, Ramadan at +00
		{"Africa/Casablanca", 1894708800, true},  // 2030-01-15, Ramadan at +00
		{"Africa/Casablanca", 1893455999, true},  // 2029-12-31T23:59:59+00, Ramadan
		{"Africa/Casablanca", 1893456000, true},  // 2030-01-01T00:00:00+00, Ramadan
		{"Europe/Dublin", 63071999, false},       // 1971-12-31T23:59:59+00, the first negative-DST winter
		{"Europe/Dublin", 63072000, false},       // 1972-01-01T00:00:00+00
		{"Europe/Dublin", 2240611200, false},     // 2041-01-01T00:00:00+00, beyond tzdata's table
		{"Europe/Dublin", 2257372800, true},      // 2041-07-14T00:00:00+01
	} {
		tz, ok := db.TimeZone(tc.zone, time.Unix(tc.unix, 0), "en")
		if !ok || tz.IsDST != tc.dst {
			t.Errorf("%s at %d (%s %s): daylight saving time %v, want %v", tc.zone, tc.unix, tz.Local, tz.UTCOffset, tz.IsDST, tc.dst)
		}
	}
	dublin, _ := time.LoadLocation("Europe/Dublin")
	for _, at := range []time.Time{time.Date(1972, 1, 15, 0, 0, 0, 0, time.UTC), time.Date(2040, 7, 15, 0, 0, 0, 0, time.UTC), time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if got := standardOffset(at, dublin); got != 0 {
			t.Errorf("Dublin at %v: standard offset %d, want 0", at, got)
		}
	}
}
