package revgeobuild

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

func TestParseCities(t *testing.T) {
	got, newest, err := parseCities(strings.NewReader("# comment\n\n" + fixtureCities))
	if err != nil {
		t.Fatal(err)
	}
	want := []city{
		{Populated: revgeo.Populated{GeonameID: 1001, Name: "Alpha City", FeatureCode: "PPLC", CountryCode: "AA", Admin1: "02", Admin2: "002", Population: 1000000, Latitude: 5, Longitude: 7},
			Modified: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)},
		{Populated: revgeo.Populated{GeonameID: 1002, Name: "Smallville", FeatureCode: "PPL", CountryCode: "AA", Admin1: "01", Admin2: "001", Population: 600, Latitude: 2, Longitude: 2},
			Modified: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)},
		{Populated: revgeo.Populated{GeonameID: 1003, Name: "Old Alpha", FeatureCode: "PPLH", CountryCode: "AA", Admin1: "01", Latitude: 3, Longitude: 3},
			Modified: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseCities (-want +got):\n%s", diff)
	}
	if !newest.Equal(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("newest = %v; the mountain (class T) must not count", newest)
	}

	row := strings.Split(strings.TrimSuffix(strings.Split(fixtureCities, "\n")[0], "\n"), "\t")
	for _, tc := range []struct {
		name string
		col  int
		val  string
	}{
		{"id", 0, "x"}, {"zero id", 0, "0"}, {"latitude", 4, "91"}, {"longitude", 5, "east"},
		{"population", 14, "-3"}, {"date", 18, "yesterday"},
	} {
		bad := append([]string{}, row...)
		bad[tc.col] = tc.val
		if _, _, err := parseCities(strings.NewReader(strings.Join(bad, "\t"))); err == nil {
			t.Errorf("bad %s accepted", tc.name)
		}
	}
	if _, _, err := parseCities(strings.NewReader(strings.Join(row[:10], "\t"))); err == nil {
		t.Error("short row accepted")
	}
	// A place without a name takes its ASCII name.
	noName := append([]string{}, row...)
	noName[1] = ""
	if got, _, err := parseCities(strings.NewReader(strings.Join(noName, "\t"))); err != nil || got[0].Name != "Alpha City" {
		t.Errorf("nameless place: %v, %v", got, err)
	}
}

func TestParseAdminCodes(t *testing.T) {
	got, err := parseAdminCodes(strings.NewReader("AD.06\tSant Julià de Loria\tSant Julia de Loria\t3039162\nAE.01.101\t\tAbu Dhabi Municipality\t12047239\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []adminCode{{"AD.06", "Sant Julià de Loria", 3039162}, {"AE.01.101", "Abu Dhabi Municipality", 12047239}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"AD.06\tx\tx\n", "AD.06\tx\tx\tid\n", "AD06\tx\tx\t1\n", ".AD\tx\tx\t1\n"} {
		if _, err := parseAdminCodes(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestParseCountryInfo(t *testing.T) {
	src := fixtureSources()[srcGeoNames]
	b, _ := src.(interface{ ReadFile(string) ([]byte, error) }).ReadFile("countryInfo.tsv")
	got, err := parseCountryInfo(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]countryInfo{{Code: "AA", Name: "Alphaland", Continent: "EU", GeonameID: 4242}}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseCountryInfo(strings.NewReader("AA\tAAA\t1\tAA\tA\tB\t1\t1\tXX\t.aa\tEUR\tEuro\t1\t\t\taa\t1\t\t\n")); err == nil {
		t.Error("unknown continent accepted")
	}
	if _, err := parseCountryInfo(strings.NewReader("AA\tAAA\n")); err == nil {
		t.Error("short row accepted")
	}
}

func TestParseCountriesList(t *testing.T) {
	got, err := parseCountriesList(strings.NewReader(`{"RU":{"name":"Russia","native":"Россия","continent":"AS","continents":["AS","EU"]},"IE":{"name":"Ireland","continent":"EU"}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]clCountry{
		"RU": {Name: "Russia", Continent: "AS", Continents: []string{"AS", "EU"}},
		"IE": {Name: "Ireland", Continent: "EU"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"ie":{"continent":"EU"}}`, `{"IE":{"continent":"Europe"}}`, `{"IE":{"continent":"EU","continents":["XX"]}}`, `[]`} {
		if _, err := parseCountriesList(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	m, err := parseAlpha3Map(strings.NewReader(`{"IRL":"IE","XKX":"XK"}`))
	if err != nil || m["XKX"] != "XK" {
		t.Errorf("parseAlpha3Map = %v, %v", m, err)
	}
	for _, bad := range []string{`{"IR":"IE"}`, `{"IRL":"ie"}`, `{"IRL":1}`} {
		if _, err := parseAlpha3Map(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func TestParseGeojsonPlacesCountries(t *testing.T) {
	got, err := parseGeojsonPlacesCountries(strings.NewReader(`[{"country_a2":"SS","country_a3":"SDS","country_name":"S. Sudan","i18n":{"en":"South Sudan"}},{"country_a2":"XK","country_a3":"KOS","country_name":"Kosovo"}]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []gpCountry{{"SS", "SDS", "South Sudan"}, {"XK", "KOS", "Kosovo"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseGeojsonPlacesCountries(strings.NewReader(`[{"country_a2":"S","country_a3":"SDS"}]`)); err == nil {
		t.Error("bad code accepted")
	}
}

func TestParseFeatureCollection(t *testing.T) {
	got, err := parseFeatureCollection(strings.NewReader(fixtureAdmin1))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d features, want 3 (the one without geometry skipped)", len(got))
	}
	sq := func(x0, y0, x1, y1 float64) []revgeo.Point {
		return []revgeo.Point{{Lat: y0, Lon: x0}, {Lat: y0, Lon: x1}, {Lat: y1, Lon: x1}, {Lat: y1, Lon: x0}, {Lat: y0, Lon: x0}}
	}
	if diff := cmp.Diff([][][]revgeo.Point{{sq(0, 0, 5, 10)}}, got[0].Polygons); diff != "" {
		t.Errorf("Polygon (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([][][]revgeo.Point{{sq(5, 0, 10, 10)}}, got[1].Polygons); diff != "" {
		t.Errorf("MultiPolygon (-want +got):\n%s", diff)
	}
	f := got[1]
	if f.prop("iso_3166_2") != "AA-X01~" || f.prop("name_fr") != "" || f.prop("missing") != "" || f.intProp("gn_id") != -5 || f.intProp("name") != 0 {
		t.Errorf("properties: %v", f.Props)
	}
	for _, bad := range []string{
		`{"type":"Feature"}`,
		`{"type":"FeatureCollection","features":[]}`,
		`{"type":"FeatureCollection","features":[{"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}`,
		`{"type":"FeatureCollection","features":[{"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1]]]}}]}`,
		`{"type":"FeatureCollection","features":[{"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,91],[2,0],[0,0]]]}}]}`,
		`{"type":"FeatureCollection","features":[{"geometry":{"type":"MultiPolygon","coordinates":[[0,0]]}}]}`,
	} {
		if _, err := parseFeatureCollection(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
