package revgeo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestLookupFixture(t *testing.T) {
	_, db := fixtureDB(t)
	aa, _ := db.Country("AA")
	bb, _ := db.Country("BB")
	cc, _ := db.Country("CC")
	subs := db.Subdivisions()
	west, east, beta := subs[0], subs[1], subs[2]
	smallville := Populated{GeonameID: 1002, Name: "Smallville", FeatureCode: "PPL", CountryCode: "AA", Admin1: "01", Admin2: "001", Population: 600, Latitude: 2, Longitude: 2}
	alphaCity := Populated{GeonameID: 1001, Name: "Alpha City", FeatureCode: "PPLC", CountryCode: "AA", Admin1: "02", Admin2: "002", Population: 1_000_000, Latitude: 5, Longitude: 7}
	mitte := Populated{GeonameID: 1003, Name: "Alpha Mitte", FeatureCode: "PPLX", CountryCode: "AA", Admin1: "02", Population: 90_000, Latitude: 5.02, Longitude: 7.02}
	port := Populated{GeonameID: 1004, Name: "Port Alpha", FeatureCode: "PPLA", CountryCode: "AA", Admin1: "01", Population: 20_000, Latitude: 0.05, Longitude: 3}
	betatown := Populated{GeonameID: 2001, Name: "Betatown", FeatureCode: "PPLA", CountryCode: "BB", Admin1: "01", Population: 50_000, Latitude: 5, Longitude: 12}
	gamma := Populated{GeonameID: 3001, Name: "Gamma", FeatureCode: "PPLC", CountryCode: "CC", Population: 10_000, Latitude: 5, Longitude: 15}

	tests := []struct {
		name     string
		lat, lon float64
		want     Place
	}{
		{"village far from any city", 2.01, 2.01, Place{
			Country: aa, Subdivision: west, Admin2: db.admin2[0], Locality: smallville, City: smallville,
			TimeZone: "Europe/Alpha", ContinentCode: "EU"}},
		{"city centre", 5.005, 7.005, Place{
			Country: aa, Subdivision: east, Admin2: db.admin2[1], Locality: alphaCity, City: alphaCity,
			TimeZone: "Europe/Alpha", ContinentCode: "EU"}},
		{"section of a city", 5.018, 7.018, Place{
			Country: aa, Subdivision: east, Locality: mitte, City: alphaCity,
			TimeZone: "Europe/Alpha", ContinentCode: "EU"}},
		{"territorial waters", -0.1, 3, Place{
			Country: aa, Subdivision: west, SubdivisionInferred: true, Locality: port, City: port,
			TimeZone: "Europe/Alpha", ContinentCode: "EU"}},
		{"second continent from the time zone", 5.1, 12.1, Place{
			Country: bb, Subdivision: beta, Locality: betatown, City: betatown,
			TimeZone: "Asia/Beta", ContinentCode: "AS"}},
		{"enclave", 5, 15.001, Place{
			Country: cc, Locality: gamma, City: gamma, TimeZone: "Asia/Beta", ContinentCode: "AS"}},
		{"remote part of a country", 9.5, 19.5, Place{
			Country: bb, Subdivision: beta, TimeZone: "Asia/Beta", ContinentCode: "AS"}},
		{"high seas", -30, -150, Place{TimeZone: "Etc/GMT"}},
		{"near the pole", 89.9, 179.9, Place{TimeZone: "Etc/GMT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := db.Lookup(tc.lat, tc.lon)
			if !ok {
				t.Fatal("Lookup reported invalid coordinates")
			}
			tc.want.Latitude, tc.want.Longitude = tc.lat, tc.lon
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(Populated{}, "DistanceKm")); diff != "" {
				t.Errorf("Lookup(%v, %v) (-want +got):\n%s", tc.lat, tc.lon, diff)
			}
			for _, p := range []Populated{got.Locality, got.City} {
				if !p.IsZero() && (p.DistanceKm <= 0 || p.DistanceKm > LocalityRadiusKm) {
					t.Errorf("%s: distance %v km", p.Name, p.DistanceKm)
				}
			}
		})
	}
}

func TestLookupBadCoordinates(t *testing.T) {
	_, db := fixtureDB(t)
	for _, c := range []struct{ lat, lon float64 }{
		{90.0001, 0}, {-90.0001, 0}, {0, 180.0001}, {0, -180.0001},
		{math.NaN(), 0}, {0, math.NaN()}, {math.Inf(1), 0}, {0, math.Inf(-1)},
	} {
		if p, ok := db.Lookup(c.lat, c.lon); ok || !cmp.Equal(p, Place{}) {
			t.Errorf("Lookup(%v, %v) = %+v, %v; want the zero Place, false", c.lat, c.lon, p, ok)
		}
		if err := Validate(c.lat, c.lon); !errors.Is(err, ErrBadCoordinates) {
			t.Errorf("Validate(%v, %v) = %v, want ErrBadCoordinates", c.lat, c.lon, err)
		}
	}
	for _, c := range []struct{ lat, lon float64 }{{90, 180}, {-90, -180}, {0, 0}, {math.Copysign(0, -1), 0}} {
		if err := Validate(c.lat, c.lon); err != nil {
			t.Errorf("Validate(%v, %v) = %v", c.lat, c.lon, err)
		}
		if _, ok := db.Lookup(c.lat, c.lon); !ok {
			t.Errorf("Lookup(%v, %v) rejected", c.lat, c.lon)
		}
	}
}

func TestLocalityInfo(t *testing.T) {
	_, db := fixtureDB(t)
	p, _ := db.Lookup(5.018, 7.018)
	got := p.LocalityInfo()
	want := LocalityInfo{
		Administrative: []Area{
			{Names: Names{ByLang: []LangName{{"en", "Alphaland"}}}, Description: "country", ISOCode: "AA", AdminLevel: 2, Order: 2, GeonameID: 1},
			{Names: NewNames("Ostmark", map[string]string{"en": "East March"}), Description: "province", ISOName: "Ostmark", ISOCode: "AA-E", AdminLevel: 4, Order: 4, GeonameID: 12},
		},
		Informative: []Area{
			{Names: Names{ByLang: []LangName{{"en", "Europe"}}}, Description: "continent", Order: 1},
			{Names: Names{Native: "Europe/Alpha"}, Description: "time zone", Order: 3},
			{Names: Names{Native: "Alpha City"}, Description: "capital of a political entity", Order: 5, GeonameID: 1001},
			{Names: Names{Native: "Alpha Mitte"}, Description: "section of populated place", Order: 6, GeonameID: 1003},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("LocalityInfo (-want +got):\n%s", diff)
	}
	if li := (Place{TimeZone: "Etc/GMT"}).LocalityInfo(); len(li.Administrative) != 0 || len(li.Informative) != 1 {
		t.Errorf("LocalityInfo at sea = %+v", li)
	}
}

// TestLocalityInfoISOName: the principal subdivision's isoName is its ISO name as the build
// found it, never its native name on its own: Fingal, one of the features that share IE-D,
// is not "Dublin", nor "Fingal" either.
func TestLocalityInfoISOName(t *testing.T) {
	for _, tc := range []struct {
		name string
		sub  Subdivision
		want string
	}{
		{"the whole subdivision", Subdivision{CountryCode: "IE", Code: "IE-KE", ISOName: "Kildare", Names: NewNames("Kildare", nil)}, "Kildare"},
		{"one of several features with the code", Subdivision{CountryCode: "IE", Code: "IE-D", Names: NewNames("Fingal", nil)}, ""},
		{"no current code", Subdivision{CountryCode: "IS", SourceCode: "IS-0", Names: NewNames("Reykjavík", nil)}, ""},
	} {
		li := Place{Subdivision: tc.sub}.LocalityInfo()
		if len(li.Administrative) != 1 || li.Administrative[0].ISOName != tc.want || li.Administrative[0].ISOCode != tc.sub.Code {
			t.Errorf("%s: %+v; want isoName %q, isoCode %q", tc.name, li.Administrative, tc.want, tc.sub.Code)
		}
	}
}

// TestSubdivisionsRoundTrip: every field of a subdivision, the ISO ones too, comes back from
// the section as it went in.
func TestSubdivisionsRoundTrip(t *testing.T) {
	_, db := fixtureDB(t)
	if diff := cmp.Diff(fixtureSource().Subdivisions, db.Subdivisions()); diff != "" {
		t.Errorf("subdivisions (-encoded +decoded):\n%s", diff)
	}
}

func TestNames(t *testing.T) {
	n := NewNames("Westmark", map[string]string{"en": "West March", "de": "Westmark (de)", "zh": "西", "zh-Hant": "西區", "pt": "Marca Oeste"})
	tests := []struct{ lang, want string }{
		{"de", "Westmark (de)"},
		{"DE", "Westmark (de)"},
		{"de-AT", "Westmark (de)"},
		{"de_CH", "Westmark (de)"},
		{"pt-BR", "Marca Oeste"},
		{"fr", "West March"},
		{"", "West March"},
		{"zh", "西"},
		{"zh-Hans-CN", "西"},
		{"zh-CN", "西"},
		{"zh-TW", "西區"},
		{"zh-hant", "西區"},
		{"zh_Hant_HK", "西區"},
		{"zh-HK", "西區"},
		{"zz-unknown-long-tag", "West March"},
	}
	for _, tc := range tests {
		if got := n.Name(tc.lang); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.lang, got, tc.want)
		}
	}
	native := NewNames("Beta One", map[string]string{"de": "Beta Eins"})
	if got := native.Name("fr"); got != "Beta One" {
		t.Errorf("no English: Name(fr) = %q, want the native name", got)
	}
	if got := (Names{ByLang: []LangName{{"ja", "ベータ"}}}).Name("fr"); got != "ベータ" {
		t.Errorf("only Japanese: Name(fr) = %q", got)
	}
	if got := (Names{}).Name("en"); got != "" {
		t.Errorf("zero Names: Name = %q", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { n.Name("zh-Hant-TW") }); allocs != 0 {
		t.Errorf("Name allocates %v times", allocs)
	}
}

func TestPlusCode(t *testing.T) {
	p := Place{Latitude: -33.8568, Longitude: 151.2153}
	if got, want := p.PlusCode(), "4RRH46V8+74"; got != want {
		t.Errorf("PlusCode = %q, want %q", got, want)
	}
}

func TestLookupNoAllocs(t *testing.T) {
	_, db := fixtureDB(t)
	for _, c := range []struct{ lat, lon float64 }{{5.018, 7.018}, {-0.1, 3}, {-30, -150}, {91, 0}} {
		if allocs := testing.AllocsPerRun(200, func() { db.Lookup(c.lat, c.lon) }); allocs != 0 {
			t.Errorf("Lookup(%v, %v) allocates %v times", c.lat, c.lon, allocs)
		}
	}
}

func TestZeroDB(t *testing.T) {
	var db DB
	p, ok := db.Lookup(1, 2)
	if !ok || !cmp.Equal(p, Place{Latitude: 1, Longitude: 2}) {
		t.Errorf("zero DB: Lookup = %+v, %v", p, ok)
	}
}

func TestEncodeDeterministic(t *testing.T) {
	a, _ := fixtureDB(t)
	src := fixtureSource()
	// The same facts in another order give the same bytes.
	src.Countries[0], src.Countries[2] = src.Countries[2], src.Countries[0]
	for i := range src.CountryShapes {
		switch src.CountryShapes[i].Feature {
		case 0:
			src.CountryShapes[i].Feature = 2
		case 2:
			src.CountryShapes[i].Feature = 0
		}
	}
	src.Places[0], src.Places[5] = src.Places[5], src.Places[0]
	src.Admin2[0], src.Admin2[1] = src.Admin2[1], src.Admin2[0]
	b, err := Encode(src)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Error("Encode depends on the order of Countries, Places or Admin2")
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Source)
	}{
		{"bad country code", func(s *Source) { s.Countries[0].Code = "bb" }},
		{"duplicate country", func(s *Source) { s.Countries[1].Code = "BB" }},
		{"bad continent", func(s *Source) { s.Countries[0].Continents = []string{"XX"} }},
		{"place in unknown country", func(s *Source) { s.Places[0].CountryCode = "ZZ" }},
		{"place off the globe", func(s *Source) { s.Places[0].Latitude = 91 }},
		{"shape of unknown feature", func(s *Source) { s.SubdivisionShapes[0].Feature = 7 }},
		{"point off the globe", func(s *Source) { s.TimeZoneShapes[0].Rings[0][1].Lon = 190 }},
		{"duplicate admin-2", func(s *Source) { s.Admin2[1] = s.Admin2[0] }},
		{"repeated language", func(s *Source) {
			s.Subdivisions[0].Names.ByLang = append(s.Subdivisions[0].Names.ByLang, LangName{"de", "x"})
		}},
		// The ISO facts of a subdivision belong to its code, in its own country.
		{"ISO parent in another country", func(s *Source) { s.Subdivisions[1].ISOParent = "BB-1" }},
		{"ISO parent without a hyphen", func(s *Source) { s.Subdivisions[1].ISOParent = "AA" }},
		{"ISO name without a code", func(s *Source) { s.Subdivisions[1].Code = "" }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := fixtureSource()
			tc.mutate(&src)
			if _, err := Encode(src); err == nil {
				t.Error("Encode accepted it")
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	section, _ := fixtureDB(t)
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("ipatlas-country\x00"), section[len(magic):]...)},
		{"truncated", section[:len(section)/2]},
		{"trailing byte", append(append([]byte{}, section...), 0)},
		{"other version", append(append([]byte(magic), formatVersion+1), section[len(magic)+1:]...)},
		{"version 1", append(append([]byte(magic), 1), section[len(magic)+1:]...)},
	} {
		if _, err := Decode(tc.b); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Decode error %v, want ErrFormat", tc.name, err)
		}
	}
}

func TestStatsAndShapes(t *testing.T) {
	_, db := fixtureDB(t)
	s := db.Stats()
	want := Stats{Countries: 3, Subdivisions: 3, Admin2: 2, Places: 6, CityCandidates: 4, TimeZones: 3}
	if s.Countries != want.Countries || s.Subdivisions != want.Subdivisions || s.Admin2 != want.Admin2 ||
		s.Places != want.Places || s.CityCandidates != want.CityCandidates || s.TimeZones != want.TimeZones {
		t.Errorf("Stats = %+v", s)
	}
	if got := len(db.Shapes(LayerCountry)); got != 4 {
		t.Errorf("%d country rings, want 4", got)
	}
	if got := db.Containing(LayerCountry, 5, 15, nil); !cmp.Equal(got, []int{2}) {
		t.Errorf("Containing(enclave) = %v, want [2] (CC)", got)
	}
	if got := db.Containing(Layer(7), 5, 15, nil); got != nil {
		t.Errorf("Containing(bad layer) = %v", got)
	}
	if db.TimeZoneVersion() != "2099z" {
		t.Errorf("TimeZoneVersion = %q", db.TimeZoneVersion())
	}
}

// TestAdmin2OnlyBelowItsAdmin1: where the Natural Earth admin-1 is not the locality's
// GeoNames admin-1 (a French département, a London borough without a GeoNames code), the
// GeoNames admin-2 is not nested under it (Eiffel Tower: Paris → Hauts-de-Seine; Big Ben:
// Westminster → Greater London).
func TestAdmin2OnlyBelowItsAdmin1(t *testing.T) {
	for _, code := range []string{"AA.99", ""} {
		src := fixtureSource()
		src.Subdivisions[0].GeoNamesCode = code
		_, db := encodeDecode(t, src)
		p, _ := db.Lookup(2, 2) // Smallville, GeoNames admin-1 "01", in AA-W
		if p.Subdivision.Code != "AA-W" || p.Locality.Name != "Smallville" {
			t.Fatalf("code %q: %s, %s", code, p.Subdivision.Code, p.Locality.Name)
		}
		if !p.Admin2.IsZero() {
			t.Errorf("code %q: admin2 %q nested under AA-W", code, p.Admin2.Name)
		}
	}
	_, db := fixtureDB(t)
	if p, _ := db.Lookup(2, 2); p.Admin2.Name != "Smallshire" {
		t.Errorf("matching codes: admin2 %q, want Smallshire", p.Admin2.Name)
	}
}

// TestSubdivisionByAdmin2: a point off the coast whose locality lies outside every
// subdivision polygon, with a GeoNames admin-1 that no subdivision has, is placed in the
// subdivision of its country that is its locality's GeoNames admin-2 (the same GeoNames id),
// as a French coastal town is placed in its département; with no such subdivision, or an id
// that several subdivisions carry, it has none.
func TestSubdivisionByAdmin2(t *testing.T) {
	for _, tc := range []struct {
		name     string
		admin2ID int
		mutate   func(*Source)
		want     string
	}{
		{"the admin-2 is a subdivision", 12, nil, "AA-E"},
		{"no subdivision has the id", 13, nil, ""},
		{"two subdivisions have the id", 12, func(s *Source) { s.Subdivisions[0].GeonameID = 12 }, ""},
		{"another country's subdivision has it", 21, func(s *Source) { s.Subdivisions[2].GeonameID = 21 }, ""},
	} {
		src := fixtureSource()
		if tc.mutate != nil {
			tc.mutate(&src)
		}
		src.Admin2 = append(src.Admin2, Admin2{CountryCode: "AA", Admin1: "09", Code: "009", Name: "East Coast", GeonameID: tc.admin2ID})
		src.Places = append(src.Places, Populated{GeonameID: 1005, Name: "Reef Harbour", FeatureCode: "PPL", CountryCode: "AA",
			Admin1: "09", Admin2: "009", Population: 800, Latitude: -0.6, Longitude: 8})
		_, db := encodeDecode(t, src)
		p, _ := db.Lookup(-0.5, 8)
		if p.Country.Code != "AA" || p.Locality.Name != "Reef Harbour" {
			t.Fatalf("%s: %s, %q", tc.name, p.Country.Code, p.Locality.Name)
		}
		if p.Subdivision.Code != tc.want || p.SubdivisionInferred != (tc.want != "") {
			t.Errorf("%s: subdivision %q (inferred %v), want %q", tc.name, p.Subdivision.Code, p.SubdivisionInferred, tc.want)
		}
		if !p.Admin2.IsZero() {
			t.Errorf("%s: admin2 %q, want none (the subdivision is the admin-2)", tc.name, p.Admin2.Name)
		}
	}
}

// TestJoinGeoNamesByID: the id index holds every subdivision whose GeoNames id no other has,
// sorted, so that the binary search finds each.
func TestJoinGeoNamesByID(t *testing.T) {
	src := fixtureSource()
	src.Subdivisions[2].GeonameID = 5 // below AA-W's 11 and AA-E's 12, in the last position
	_, db := encodeDecode(t, src)
	if len(db.subByID) != 3 || !slices.IsSortedFunc(db.subByID, func(a, b int32) int { return db.subs[a].GeonameID - db.subs[b].GeonameID }) {
		t.Fatalf("subByID %v is not the 3 subdivisions sorted by id", db.subByID)
	}
}

// TestLocalityInOwnSubdivision: the locality is the nearest place inside the point's own
// subdivision polygon when one is among the nearest few, though a place across the border is
// nearer (the Eiffel Tower's is Paris, not Neuilly-sur-Seine); failing that, the nearest.
func TestLocalityInOwnSubdivision(t *testing.T) {
	src := fixtureSource()
	src.Places = append(src.Places,
		Populated{GeonameID: 1010, Name: "Borderton", FeatureCode: "PPL", CountryCode: "AA", Admin1: "02", Population: 700, Latitude: 5, Longitude: 5.05},
		Populated{GeonameID: 1011, Name: "Westend", FeatureCode: "PPL", CountryCode: "AA", Admin1: "01", Population: 700, Latitude: 5, Longitude: 4.65},
	)
	_, db := encodeDecode(t, src)
	for _, tc := range []struct {
		lat, lon  float64
		sub, want string
	}{
		{5, 4.9, "AA-W", "Westend"},   // Borderton is nearer, in AA-E
		{5, 5.2, "AA-E", "Borderton"}, // the nearest is in the point's own subdivision
	} {
		p, _ := db.Lookup(tc.lat, tc.lon)
		if p.Subdivision.Code != tc.sub || p.Locality.Name != tc.want {
			t.Errorf("(%v, %v): %s, %q; want %s, %q", tc.lat, tc.lon, p.Subdivision.Code, p.Locality.Name, tc.sub, tc.want)
		}
	}
	// A place of AA-E that AA-W's polygon takes in, 0.55 km from the point: the point is
	// there, whatever the (simplified) polygon says; Westend is beyond the detour.
	esrc := src
	esrc.Places = append(slices.Clone(src.Places), Populated{GeonameID: 1012, Name: "Edgeville", FeatureCode: "PPL", CountryCode: "AA", Admin1: "02", Population: 300, Latitude: 5, Longitude: 4.905})
	_, edb := encodeDecode(t, esrc)
	if p, _ := edb.Lookup(5, 4.9); p.Subdivision.Code != "AA-W" || p.Locality.Name != "Edgeville" {
		t.Errorf("at Edgeville: %s, %q; want AA-W, Edgeville", p.Subdivision.Code, p.Locality.Name)
	}
	// Westend beyond the locality radius: the nearest place of all.
	src.Places[len(src.Places)-1].Longitude = 4.5
	_, db = encodeDecode(t, src)
	if p, _ := db.Lookup(5, 4.9); p.Locality.Name != "Borderton" {
		t.Errorf("no place of AA-W within reach: locality %q, want Borderton", p.Locality.Name)
	}
	if n := testing.AllocsPerRun(100, func() { db.Lookup(5, 4.9) }); n != 0 {
		t.Errorf("Lookup across a border allocates %v times", n)
	}
}

// TestNearestKMatchesScan checks the k-nearest search against sorting every place of the
// country by distance.
func TestNearestKMatchesScan(t *testing.T) {
	src := fixtureSource()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 300 {
		src.Places = append(src.Places, Populated{GeonameID: 5000 + i, Name: fmt.Sprint("P", i), FeatureCode: "PPL", CountryCode: "AA",
			Population: 100, Latitude: rng.Float64() * 10, Longitude: rng.Float64() * 10})
	}
	_, db := encodeDecode(t, src)
	ci := slices.IndexFunc(db.countries, func(c Country) bool { return c.Code == "AA" })
	lo, hi := int(db.placeStart[ci]), int(db.placeStart[ci+1])
	for range 200 {
		q := unitVector(rng.Float64()*10, rng.Float64()*10)
		bound := chordForKm(LocalityRadiusKm * 10)
		k := nearestK{bound: bound}
		db.kdNearestK(lo, hi, 0, q, &k)
		var want []float64
		for i := lo; i < hi; i++ {
			if d := dist2(db.xyz[i], q); d < bound {
				want = append(want, d)
			}
		}
		slices.Sort(want)
		want = want[:min(len(want), localityCandidates)]
		var got []float64
		for _, c := range k.found[:k.n] {
			got = append(got, c.d2)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("k nearest %v, want %v", got, want)
		}
	}
}

// TestPlaceSubdivisionsMatchSearch checks the per-place subdivision joined at decode time
// against slowPlaceSubdivision, a scan of the subdivisions and admin-2 entries, over the
// fixture with places of every kind of code.
func TestPlaceSubdivisionsMatchSearch(t *testing.T) {
	src := fixtureSource()
	src.Subdivisions[1].GeonameID = 102 // AA-E is also Capital District, an admin-2
	src.Admin2 = append(src.Admin2,
		Admin2{CountryCode: "BB", Admin1: "01", Code: "002", Name: "Other", GeonameID: 102},
		Admin2{CountryCode: "AA", Admin1: "01", Code: "003", Name: "Exclave", GeonameID: 102}) // AA-E by id, AA-W by code
	src.Subdivisions[2].GeoNamesCode = "BB." // a code with no admin-1 joins no place
	for i, c := range []struct{ a1, a2 string }{{"02", "002"}, {"01", "002"}, {"01", ""}, {"", "002"}, {"09", "001"}, {"01", "001"}, {"", ""}, {"01", "003"}} {
		src.Places = append(src.Places, Populated{GeonameID: 7000 + i, Name: fmt.Sprint("Q", i), FeatureCode: "PPL", CountryCode: "AA",
			Admin1: c.a1, Admin2: c.a2, Population: 10, Latitude: 1 + float64(i), Longitude: 1})
		src.Places = append(src.Places, Populated{GeonameID: 8000 + i, Name: fmt.Sprint("R", i), FeatureCode: "PPL", CountryCode: "BB",
			Admin1: c.a1, Admin2: c.a2, Population: 10, Latitude: 1 + float64(i), Longitude: 11})
	}
	_, db := encodeDecode(t, src)
	joined := 0
	for ci, c := range db.countries {
		for i := db.placeStart[ci]; i < db.placeStart[ci+1]; i++ {
			r := &db.places[i]
			pl := Populated{CountryCode: c.Code, Admin1: db.strs[r.a1], Admin2: db.strs[r.a2]}
			want := slowPlaceSubdivision(db, int32(ci), pl)
			if got := db.placeSub[i]; got != want {
				t.Errorf("%s %s/%s: placeSub %d, want %d", c.Code, pl.Admin1, pl.Admin2, got, want)
			}
			if want >= 0 {
				joined++
			}
		}
	}
	if joined < 5 {
		t.Errorf("only %d places joined: the fixture does not exercise the join", joined)
	}
}

// slowPlaceSubdivision is placeSubdivisions' join for one place, by scanning: the
// subdivision of country ci that alone carries the GeoNames id of the place's admin-2; else
// the largest subdivision whose GeoNames code is the place's country and admin-1, if it is
// of country ci; else -1.
func slowPlaceSubdivision(db *DB, ci int32, l Populated) int32 {
	if l.Admin1 == "" {
		return -1
	}
	for _, a := range db.admin2 {
		if a.CountryCode != l.CountryCode || a.Admin1 != l.Admin1 || a.Code != l.Admin2 || l.Admin2 == "" {
			continue
		}
		var with []int32
		for s := range db.subs {
			if db.subs[s].GeonameID == a.GeonameID {
				with = append(with, int32(s))
			}
		}
		if len(with) == 1 && db.subCountry[with[0]] == ci {
			return with[0]
		}
	}
	best := int32(-1)
	area := db.layers[LayerSubdivision].area
	for s := range db.subs {
		if db.subs[s].GeoNamesCode == l.CountryCode+"."+l.Admin1 && (best < 0 || featureArea(area, s) > featureArea(area, int(best))) {
			best = int32(s)
		}
	}
	if best >= 0 && db.subCountry[best] != ci {
		return -1
	}
	return best
}
