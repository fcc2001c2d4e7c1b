package revgeo

import (
	"maps"
	"os"
	"reflect"
	"strings"
	"testing"
)

// censusSource is a US and a Canada as GeoNames codes their places, with the cases
// Census must tell apart.
func censusSource() Source {
	return Source{
		Countries: []Country{
			{Code: "CA", Name: "Canada", GeonameID: 6251999, Continents: []string{"NA"}},
			{Code: "US", Name: "United States", GeonameID: 6252001, Continents: []string{"NA"}},
		},
		CountryShapes: []Shape{
			{Feature: 0, Rings: [][]Point{square(-140, 49, -50, 80)}},
			{Feature: 1, Rings: [][]Point{square(-125, 25, -65, 49)}},
		},
		Subdivisions: []Subdivision{
			{CountryCode: "US", Code: "US-MA", Names: NewNames("Massachusetts", nil), GeoNamesCode: "US.MA", FIPS: "25"},
			{CountryCode: "US", Code: "US-CA", Names: NewNames("California", nil), GeoNamesCode: "US.CA", FIPS: "06"},
			{CountryCode: "US", Code: "US-NV", Names: NewNames("Nevada", nil), GeoNamesCode: "US.NV"}, // no FIPS code
			{CountryCode: "CA", Code: "CA-BC", Names: NewNames("British Columbia", nil), GeoNamesCode: "CA.02"},
			{CountryCode: "CA", Names: NewNames("Somewhere", nil), GeoNamesCode: "CA.03"}, // no ISO code
		},
		SubdivisionShapes: []Shape{
			{Feature: 0, Rings: [][]Point{square(-73, 41, -70, 43)}},
			{Feature: 1, Rings: [][]Point{square(-124, 32, -114, 42)}},
			{Feature: 2, Rings: [][]Point{square(-120, 35, -114, 42)}},
			{Feature: 3, Rings: [][]Point{square(-139, 49, -114, 60)}},
			{Feature: 4, Rings: [][]Point{square(-100, 49, -95, 60)}},
		},
		Places: []Populated{
			{GeonameID: 4931972, Name: "Cambridge", CountryCode: "US", Admin1: "MA", Admin2: "017", Admin3: "11000", Latitude: 42.37, Longitude: -71.11},
			{GeonameID: 5375480, Name: "Mountain View", CountryCode: "US", Admin1: "CA", Admin2: "085", Latitude: 37.39, Longitude: -122.08},
			{GeonameID: 1, Name: "No county", CountryCode: "US", Admin1: "CA", Latitude: 37, Longitude: -120},
			{GeonameID: 2, Name: "Odd codes", CountryCode: "US", Admin1: "CA", Admin2: "85", Admin3: "1100", Latitude: 36, Longitude: -120},
			{GeonameID: 3, Name: "Stateless", CountryCode: "US", Admin1: "NV", Admin2: "003", Latitude: 36, Longitude: -115},
			{GeonameID: 5911606, Name: "Burnaby", CountryCode: "CA", Admin1: "02", Admin2: "5915", Admin3: "5915025", Latitude: 49.27, Longitude: -122.95},
			{GeonameID: 4, Name: "Not its division", CountryCode: "CA", Admin1: "02", Admin2: "5915", Admin3: "5917034", Latitude: 49, Longitude: -123},
			{GeonameID: 5, Name: "Five digits", CountryCode: "CA", Admin1: "10", Admin2: "16", Admin3: "48028", Latitude: 50, Longitude: -73},
			{GeonameID: 6, Name: "No province code", CountryCode: "CA", Admin1: "03", Admin2: "4611", Admin3: "4611040", Latitude: 50, Longitude: -97},
			{GeonameID: 7, Name: "No province", CountryCode: "CA", Admin1: "08", Admin2: "3506", Admin3: "3506008", Latitude: 45.4, Longitude: -75.7},
		},
		TimeZones:      []string{"America/Los_Angeles"},
		TimeZoneShapes: []Shape{{Feature: 0, Rings: [][]Point{square(-180, -90, 180, 90)}}},
	}
}

func TestCensus(t *testing.T) {
	_, db := encodeDecode(t, censusSource())
	want := map[uint32]Census{
		4931972: {Subdivision: "US-MA", State: "25", County: "017", CountySubdivision: "11000"},
		5375480: {Subdivision: "US-CA", State: "06", County: "085"},
		5911606: {Subdivision: "CA-BC", CSD: "5915025"},
	}
	if got := db.Census(); !maps.Equal(got, want) {
		t.Errorf("Census() = %v\nwant %v", got, want)
	}
}

func TestFIPSMustBeAUSState(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Subdivision)
	}{
		{"outside the US", func(s *Subdivision) { s.CountryCode, s.Code, s.FIPS = "CA", "CA-BC", "59" }},
		{"three digits", func(s *Subdivision) { s.FIPS = "006" }},
		{"FIPS 10-4 as such", func(s *Subdivision) { s.FIPS = "US06" }},
	} {
		src := censusSource()
		tc.edit(&src.Subdivisions[1])
		b, err := Encode(src)
		if err == nil {
			_, err = Decode(b)
		}
		if err == nil || !strings.Contains(err.Error(), "FIPS") {
			t.Errorf("%s: %v, want a FIPS error", tc.name, err)
		}
	}
}

// testdata/fixture-v2.revgeo is fixtureSource as Encode wrote it in format version 2, before
// subdivisions had FIPS codes (commit a6f2a3b): such a section still decodes, to the DB
// the same source gives now.
func TestDecodeVersion2(t *testing.T) {
	old, err := os.ReadFile("testdata/fixture-v2.revgeo")
	if err != nil {
		t.Fatal(err)
	}
	if old[len(magic)] != 2 {
		t.Fatalf("testdata/fixture-v2.revgeo is version %d", old[len(magic)])
	}
	got, err := Decode(old)
	if err != nil {
		t.Fatal(err)
	}
	_, want := fixtureDB(t)
	if !reflect.DeepEqual(got, want) {
		t.Error("the version 2 section decodes to another DB than its source gives now")
	}
}
