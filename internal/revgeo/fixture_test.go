package revgeo

import "testing"

// A tiny made-up world for tests that must not depend on the upstream sources (revgeobuild
// tests the real section):
//
//	lon  0 ─────── 5 ─────── 10 ─────────────── 20
//	lat 10 ┌────────┬─────────┬──────────────────┐
//	       │ AA-W   │ AA-E    │ BB-1   ┌──┐      │
//	       │        │         │        │CC│(14–16 × 4–6, an enclave)
//	lat  0 └────────┴─────────┴────────┴──┴──────┘
//
// AA has a coast: its country polygon reaches 1° into the sea below latitude 0 (territorial
// waters), the subdivisions stop at the coast. Time zones: Europe/Alpha over AA, Asia/Beta over
// BB and CC, Etc/GMT over the whole globe (a lower priority, being listed last).

func square(lon0, lat0, lon1, lat1 float64) []Point {
	return []Point{{lat0, lon0}, {lat0, lon1}, {lat1, lon1}, {lat1, lon0}, {lat0, lon0}}
}

func fixtureSource() Source {
	return Source{
		Countries: []Country{
			{Code: "BB", Name: "Betaland", GeonameID: 2, Continents: []string{"EU", "AS"}},
			{Code: "AA", Name: "Alphaland", GeonameID: 1, Continents: []string{"EU"}},
			{Code: "CC", Name: "Gammaland", Continents: []string{"AS"}},
		},
		CountryShapes: []Shape{
			{Feature: 1, Rings: [][]Point{square(0, -1, 10, 10)}},
			{Feature: 0, Rings: [][]Point{square(10, 0, 20, 10), square(14, 4, 16, 6)}},
			{Feature: 2, Rings: [][]Point{square(14, 4, 16, 6)}},
		},
		Subdivisions: []Subdivision{
			{CountryCode: "AA", Code: "AA-W", SourceCode: "AA-W", ISOName: "Westmark",
				Names: NewNames("Westmark", map[string]string{"en": "West March", "de": "Westmark", "zh": "西", "zh-Hant": "西區"}),
				Type:  "State", WikidataID: "Q1", GeonameID: 11, GeoNamesCode: "AA.01"},
			{CountryCode: "AA", Code: "AA-E", SourceCode: "AA-O", ISOParent: "AA-M", ISOName: "Ostmark", Names: NewNames("Ostmark", map[string]string{"en": "East March"}),
				Type: "Province", GeonameID: 12, GeoNamesCode: "AA.02"},
			{CountryCode: "BB", Code: "BB-1", Names: NewNames("Beta One", nil), Type: "Region", GeoNamesCode: "BB.01"},
		},
		SubdivisionShapes: []Shape{
			{Feature: 0, Rings: [][]Point{square(0, 0, 5, 10)}},
			{Feature: 1, Rings: [][]Point{square(5, 0, 10, 10)}},
			{Feature: 2, Rings: [][]Point{square(10, 0, 20, 10), square(14, 4, 16, 6)}},
		},
		Admin2: []Admin2{
			{CountryCode: "AA", Admin1: "01", Code: "001", Name: "Smallshire", GeonameID: 101},
			{CountryCode: "AA", Admin1: "02", Code: "002", Name: "Capital District", GeonameID: 102},
		},
		Places: []Populated{
			{GeonameID: 1001, Name: "Alpha City", FeatureCode: "PPLC", CountryCode: "AA", Admin1: "02", Admin2: "002", Population: 1_000_000, Latitude: 5, Longitude: 7},
			{GeonameID: 1002, Name: "Smallville", FeatureCode: "PPL", CountryCode: "AA", Admin1: "01", Admin2: "001", Population: 600, Latitude: 2, Longitude: 2},
			{GeonameID: 1003, Name: "Alpha Mitte", FeatureCode: "PPLX", CountryCode: "AA", Admin1: "02", Population: 90_000, Latitude: 5.02, Longitude: 7.02},
			{GeonameID: 1004, Name: "Port Alpha", FeatureCode: "PPLA", CountryCode: "AA", Admin1: "01", Population: 20_000, Latitude: 0.05, Longitude: 3},
			{GeonameID: 2001, Name: "Betatown", FeatureCode: "PPLA", CountryCode: "BB", Admin1: "01", Population: 50_000, Latitude: 5, Longitude: 12},
			{GeonameID: 3001, Name: "Gamma", FeatureCode: "PPLC", CountryCode: "CC", Population: 10_000, Latitude: 5, Longitude: 15},
		},
		TimeZones: []string{"Europe/Alpha", "Asia/Beta", "Etc/GMT"},
		TimeZoneShapes: []Shape{
			{Feature: 0, Rings: [][]Point{square(0, -1, 10, 10)}},
			{Feature: 1, Rings: [][]Point{square(10, 0, 20, 10)}},
			{Feature: 2, Rings: [][]Point{square(-180, -90, 180, 90)}},
		},
		TimeZoneVersion: "2099z",
	}
}

// fixtureDB returns the fixture's section and DB.
func fixtureDB(tb testing.TB) ([]byte, *DB) {
	tb.Helper()
	return encodeDecode(tb, fixtureSource())
}

// encodeDecode returns src encoded, and the DB decoded from that.
func encodeDecode(tb testing.TB, src Source) ([]byte, *DB) {
	tb.Helper()
	section, err := Encode(src)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := Decode(section)
	if err != nil {
		tb.Fatal(err)
	}
	return section, db
}
