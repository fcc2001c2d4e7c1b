package api

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

type revgeoBodyJSON struct {
	Latitude                  float64 `json:"latitude"`
	Longitude                 float64 `json:"longitude"`
	LookupSource              string  `json:"lookupSource"`
	PlusCode                  string  `json:"plusCode"`
	LocalityLanguageRequested string  `json:"localityLanguageRequested"`
	Continent                 string  `json:"continent"`
	ContinentCode             string  `json:"continentCode"`
	CountryName               string  `json:"countryName"`
	CountryCode               string  `json:"countryCode"`
	PrincipalSubdivision      string  `json:"principalSubdivision"`
	PrincipalSubdivisionCode  string  `json:"principalSubdivisionCode"`
	City                      string  `json:"city"`
	Locality                  string  `json:"locality"`
	Postcode                  *string `json:"postcode"`
	LocalityInfo              struct {
		Administrative []revgeoAreaJSON `json:"administrative"`
		Informative    []revgeoAreaJSON `json:"informative"`
	} `json:"localityInfo"`
}

type revgeoAreaJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	ISOName     string `json:"isoName"`
	Order       int    `json:"order"`
	AdminLevel  int    `json:"adminLevel"`
	ISOCode     string `json:"isoCode"`
	WikidataID  string `json:"wikidataId"`
	GeonameID   int    `json:"geonameId"`
}

func revgeoGet(t *testing.T, s *Server, target, remote string) revgeoBodyJSON {
	t.Helper()
	rec := placesGet(t, s, target, remote)
	if rec.Code != 200 {
		t.Fatalf("%s: status %d: %s", target, rec.Code, rec.Body)
	}
	var b revgeoBodyJSON
	dec := json.NewDecoder(strings.NewReader(rec.Body.String()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		t.Fatalf("%s: %v: %s", target, err, rec.Body)
	}
	return b
}

func TestReverseGeocode(t *testing.T) {
	s := realPlacesServer(t)
	tests := []struct {
		query                                 string
		country, countryName, subdivision, sc string
		city                                  string
	}{
		{"latitude=-33.8688&longitude=151.2093", "AU", "Australia", "New South Wales", "AU-NSW", "Sydney"},
		{"latitude=-33.8688&longitude=151.2093&localityLanguage=de", "AU", "Australien", "New South Wales", "AU-NSW", "Sydney"},
		// City names as the geolocation data has them in its eight languages, by GeoNames id;
		// GeoNames' own name in languages that data lacks.
		{"latitude=48.137&longitude=11.575", "DE", "Germany", "Bavaria", "DE-BY", "Munich"},
		{"latitude=48.137&longitude=11.575&localityLanguage=default", "DE", "Deutschland", "Bayern", "DE-BY", "München"},
		{"latitude=48.137&longitude=11.575&localityLanguage=ja", "DE", "ドイツ", "バイエルン自由州", "DE-BY", "ミュンヘン"},
		{"latitude=48.137&longitude=11.575&localityLanguage=it", "DE", "Germania", "Baviera", "DE-BY", "Munich"},
		// Ireland's principal subdivisions are its provinces, as geolocation names them;
		// Dublin's county is below Leinster as every other county is below its province.
		{"latitude=53.35&longitude=-6.26", "IE", "Ireland", "Leinster", "IE-L", "Dublin"},
		{"latitude=40.7128&longitude=-74.006", "US", "United States", "New York", "US-NY", "New York"},
		{"latitude=50.9375&longitude=6.9603", "DE", "Germany", "North Rhine-Westphalia", "DE-NW", "Cologne"}, // GeoNames: Köln
		{"latitude=50.9375&longitude=6.9603&localityLanguage=it", "DE", "Germania", "Renania Settentrionale-Vestfalia", "DE-NW", "Köln"},
		{"latitude=0&longitude=-30", "", "", "", "", ""}, // the Atlantic
		// Where Natural Earth's admin-1 is the second level, the principal subdivision is the
		// first, as geolocation names it: England, not the City of Westminster.
		{"latitude=51.5007&longitude=-0.1246", "GB", "United Kingdom", "England", "GB-ENG", "London"},
		{"latitude=55.9533&longitude=-3.1883", "GB", "United Kingdom", "Scotland", "GB-SCT", "Edinburgh"},
		{"latitude=41.4036&longitude=2.1744", "ES", "Spain", "Catalonia", "ES-CT", "Barcelona"},
		{"latitude=41.4036&longitude=2.1744&localityLanguage=default", "ES", "España", "Cataluña", "ES-CT", "Barcelona"},
		{"latitude=48.8584&longitude=2.2945", "FR", "France", "Île-de-France", "FR-IDF", "Paris"},
		{"latitude=45.4642&longitude=9.19", "IT", "Italy", "Lombardy", "IT-25", "Milan"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			b := revgeoGet(t, s, "/data/reverse-geocode?key=good&"+tt.query, "")
			if b.CountryCode != tt.country || b.CountryName != tt.countryName || b.PrincipalSubdivision != tt.subdivision ||
				b.PrincipalSubdivisionCode != tt.sc || b.City != tt.city {
				t.Errorf("got %s %q, %q %s, city %q", b.CountryCode, b.CountryName, b.PrincipalSubdivision, b.PrincipalSubdivisionCode, b.City)
			}
			if b.LookupSource != "coordinates" || b.PlusCode == "" || b.Postcode == nil || *b.Postcode != "" {
				t.Errorf("lookupSource %q, plusCode %q, postcode %v", b.LookupSource, b.PlusCode, b.Postcode)
			}
			q, _ := url.ParseQuery(tt.query)
			if lat, _ := strconv.ParseFloat(q.Get("latitude"), 64); b.Latitude != lat {
				t.Errorf("latitude %v, want %v", b.Latitude, lat)
			}
			wantLang := q.Get("localityLanguage")
			if wantLang == "" {
				wantLang = "en"
			}
			if b.LocalityLanguageRequested != wantLang {
				t.Errorf("localityLanguageRequested %q, want %q", b.LocalityLanguageRequested, wantLang)
			}
			// Orders are 1..n over both arrays, administrative entries have a level.
			seen := map[int]bool{}
			for _, a := range append(b.LocalityInfo.Administrative, b.LocalityInfo.Informative...) {
				seen[a.Order] = true
				if a.Name == "" || a.Description == "" {
					t.Errorf("area without name or description: %+v", a)
				}
			}
			for i := 1; i <= len(seen); i++ {
				if !seen[i] {
					t.Errorf("orders %v are not 1..%d", seen, len(seen))
				}
			}
			if b.City != "" && !slices.ContainsFunc(b.LocalityInfo.Informative, func(a revgeoAreaJSON) bool { return a.Name == b.City }) {
				t.Errorf("no informative area is named as the city %q: %+v", b.City, b.LocalityInfo.Informative)
			}
			for _, a := range b.LocalityInfo.Administrative {
				if a.AdminLevel == 0 {
					t.Errorf("administrative area without adminLevel: %+v", a)
				}
				if a.AdminLevel == 2 && (a.Name != b.CountryName || a.ISOCode != b.CountryCode || a.WikidataID == "") {
					t.Errorf("country area %+v", a)
				}
			}
		})
	}
}

// TestReverseGeocodeNestsSecondLevel: below the first-level subdivision that geolocation
// names comes Natural Earth's feature as a second-order division, with its ISO code; a
// GeoNames division that is the same place is not repeated; orders run 1, 2, 3, ... over
// both arrays.
func TestReverseGeocodeNestsSecondLevel(t *testing.T) {
	s := realPlacesServer(t)
	for _, tc := range []struct {
		query string
		admin []string // isoCode@adminLevel, the country's first
	}{
		{"latitude=41.4036&longitude=2.1744", []string{"ES@2", "ES-CT@4", "ES-B@6"}},
		{"latitude=51.5007&longitude=-0.1246", []string{"GB@2", "GB-ENG@4", "GB-WSM@6"}},
		{"latitude=45.4642&longitude=9.19", []string{"IT@2", "IT-25@4", "IT-MI@6"}},
		{"latitude=48.137&longitude=11.575", []string{"DE@2", "DE-BY@4"}}, // a first-level feature: as it was
		// Dublin City, which geolocation never names, below the province ISO puts IE-D in.
		{"latitude=53.3498&longitude=-6.2603", []string{"IE@2", "IE-L@4", "IE-D@6"}},
	} {
		b := revgeoGet(t, s, "/data/reverse-geocode?key=good&"+tc.query, "")
		var got []string
		orders := map[int]bool{}
		for _, a := range b.LocalityInfo.Administrative {
			if a.AdminLevel <= 6 && a.ISOCode != "" {
				got = append(got, fmt.Sprintf("%s@%d", a.ISOCode, a.AdminLevel))
			}
			orders[a.Order] = true
		}
		for _, a := range b.LocalityInfo.Informative {
			orders[a.Order] = true
		}
		if !slices.Equal(got, tc.admin) {
			t.Errorf("%s: administrative %v, want %v", tc.query, got, tc.admin)
		}
		for i := 1; i <= len(orders); i++ {
			if !orders[i] {
				t.Errorf("%s: orders %v do not run 1 to %d", tc.query, orders, len(orders))
				break
			}
		}
	}
}

// TestReverseGeocodeLocalityNamed: the locality, when it is not the city, is named as the
// city is, and its informative entry with it (Central, Hong Kong, in Japanese).
func TestReverseGeocodeLocalityNamed(t *testing.T) {
	s := realPlacesServer(t)
	b := revgeoGet(t, s, "/data/reverse-geocode?key=good&latitude=22.2819&longitude=114.1589&localityLanguage=ja", "")
	if b.City != "香港" || b.Locality != "中環" {
		t.Errorf("city %q, locality %q; want 香港, 中環", b.City, b.Locality)
	}
	if !slices.ContainsFunc(b.LocalityInfo.Informative, func(a revgeoAreaJSON) bool { return a.Name == "中環" && a.GeonameID == 8223932 }) {
		t.Errorf("no informative entry 中環 (8223932): %+v", b.LocalityInfo.Informative)
	}
}

// TestReverseGeocodeDefaultTaiwan: "default" in Taiwan is Chinese as written there
// (Traditional), never the Simplified names of plain "zh"; names the data lacks in
// Traditional characters are English.
func TestReverseGeocodeDefaultTaiwan(t *testing.T) {
	s := realPlacesServer(t)
	b := revgeoGet(t, s, "/data/reverse-geocode?key=good&latitude=25.0330&longitude=121.5654&localityLanguage=default", "")
	if b.CountryName != "台灣" || b.PrincipalSubdivision != "臺北市" || b.Continent != "Asia" || b.City != "Taipei" {
		t.Errorf("got %q, %q, %q, %q; want 台灣, 臺北市, Asia, Taipei", b.CountryName, b.PrincipalSubdivision, b.Continent, b.City)
	}
}

// TestReverseGeocodeContinent: the continent is named in the requested language where the
// geolocation data has it (English otherwise), and its informative entry carries the same
// name and its GeoNames id, as in the geolocation answer.
func TestReverseGeocodeContinent(t *testing.T) {
	s := realPlacesServer(t)
	for _, tc := range []struct{ lang, want string }{
		{"en", "Europe"}, {"de", "Europa"}, {"ja", "ヨーロッパ"}, {"it", "Europe"}, {"default", "Europa"},
	} {
		b := revgeoGet(t, s, "/data/reverse-geocode?key=good&latitude=48.137&longitude=11.575&localityLanguage="+tc.lang, "")
		if b.Continent != tc.want || b.ContinentCode != "EU" {
			t.Errorf("%s: continent %q %s, want %q EU", tc.lang, b.Continent, b.ContinentCode, tc.want)
		}
		i := slices.IndexFunc(b.LocalityInfo.Informative, func(a revgeoAreaJSON) bool { return a.Description == "continent" })
		if i < 0 || b.LocalityInfo.Informative[i].Name != tc.want || b.LocalityInfo.Informative[i].GeonameID != 6255148 {
			t.Errorf("%s: continent entry %+v, want %q with GeoNames id 6255148", tc.lang, b.LocalityInfo.Informative, tc.want)
		}
	}
}

// TestReverseGeocodeCities reverse-geocodes 200 GeoNames cities (cities15000 of the source
// mirror, every n-th line in file order, so the sample is the same on every run) at their
// own coordinates: at least 99% must land in their own country.
func TestReverseGeocodeCities(t *testing.T) {
	s := realPlacesServer(t)
	zr, err := zip.OpenReader(filepath.Join(placesMirror(t), "geonames", "cities15000.zip"))
	if err != nil {
		t.Skip(err)
	}
	defer zr.Close()
	type city struct {
		id, name, country string
		lat, lon          string
	}
	var all []city
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(rc)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			c := strings.Split(sc.Text(), "\t")
			if len(c) > 8 {
				all = append(all, city{c[0], c[1], c[8], c[4], c[5]})
			}
		}
		rc.Close()
	}
	const n = 200
	if len(all) < n {
		t.Fatalf("%d cities", len(all))
	}
	var failures []string
	step := len(all) / n
	for i := range n {
		c := all[i*step]
		b := revgeoGet(t, s, "/data/reverse-geocode?key=good&latitude="+c.lat+"&longitude="+c.lon, "")
		if b.CountryCode != c.country {
			failures = append(failures, fmt.Sprintf("%s %s (%s) at %s,%s: got %q (%s)", c.id, c.name, c.country, c.lat, c.lon, b.CountryCode, b.City))
		}
	}
	for _, f := range failures {
		t.Log("wrong country:", f)
	}
	t.Logf("%d of %d cities in their own country", n-len(failures), n)
	if len(failures) > n/100 {
		t.Errorf("%d of %d cities answered with another country; at most %d allowed", len(failures), n, n/100)
	}
}

func TestReverseGeocodeClient(t *testing.T) {
	s := realPlacesServer(t)
	// With coordinates: the same answer as the keyed endpoint.
	keyed := revgeoGet(t, s, "/data/reverse-geocode?key=good&latitude=53.35&longitude=-6.26&localityLanguage=fr", "")
	client := revgeoGet(t, s, "/data/reverse-geocode-client?latitude=53.35&longitude=-6.26&localityLanguage=fr", "198.51.100.20")
	if diff := cmp.Diff(keyed, client); diff != "" {
		t.Errorf("client answer differs from the keyed one (-keyed +client):\n%s", diff)
	}
	// Without: from the caller's address.
	b := revgeoGet(t, s, "/data/reverse-geocode-client?localityLanguage=de", "81.2.69.142")
	if b.LookupSource != "ipGeolocation" || b.CountryCode != "GB" || b.CountryName != "Vereinigtes Königreich" || b.Latitude == 0 || b.PlusCode == "" {
		t.Errorf("from 81.2.69.142: %+v", b)
	}
	if len(b.LocalityInfo.Administrative) == 0 || b.LocalityInfo.Administrative[0].ISOCode != "GB" {
		t.Errorf("localityInfo %+v", b.LocalityInfo)
	}
	// An address the IP data does not place: empty fields and no point, not an error.
	b = revgeoGet(t, s, "/data/reverse-geocode-client", "10.0.0.1")
	if b.LookupSource != "ipGeolocation" || b.CountryCode != "" || b.City != "" {
		t.Errorf("from 10.0.0.1: %+v", b)
	}
	rec := do(t, s, "GET", "/data/reverse-geocode-client", nil)
	var raw map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &raw); err != nil {
		t.Fatal(err)
	}
	if _, has := raw["latitude"]; has {
		t.Errorf("an unplaced caller got a latitude (no location is invented): %s", rec.Body)
	}
}

func FuzzReverseGeocodeParams(f *testing.F) {
	s := placesServer(f, phoneTestSnapshot(f))
	for _, seed := range [][3]string{
		{"-33.8688", "151.2093", "en"}, {"90", "-180", "default"}, {"91", "0", ""}, {"1e2", "0x10", "de"},
		{"NaN", "Inf", "zh-Hant-TW"}, {" 12.5 ", "-0", "pt_BR"}, {"", "", ""}, {"0.000000001", "179.99999999", "x"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, lat, lon, lang string) {
		q := url.Values{"key": {"good"}, "latitude": {lat}, "longitude": {lon}, "localityLanguage": {lang}}
		rec := placesGet(t, s, "/data/reverse-geocode?"+q.Encode(), "")
		switch rec.Code {
		case 200, 400, 503:
		case 401: // the key is good: only bad coordinates may be a 401
			if !strings.Contains(rec.Body.String(), "Invalid coordinates") {
				t.Fatalf("401 for %q %q: %s", lat, lon, rec.Body)
			}
		default:
			t.Fatalf("status %d for %q %q: %s", rec.Code, lat, lon, rec.Body)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON: %s", rec.Body)
		}
	})
}

// TestRevgeoNest: the parent takes the subdivision's place and order, the subdivision becomes
// a second-order division one order down, a GeoNames division that is the same place is
// dropped, and the orders close up.
func TestRevgeoNest(t *testing.T) {
	area := func(name string, level, order, id int) revgeo.Area {
		return revgeo.Area{Names: revgeo.NewNames(name, nil), AdminLevel: level, Order: order, GeonameID: id, Description: "d"}
	}
	li := revgeo.LocalityInfo{
		Administrative: []revgeo.Area{area("Spain", 2, 2, 1), area("Barcelona", 4, 4, 10), area("Provincia de Barcelona", 6, 5, 10)},
		Informative:    []revgeo.Area{area("Europe", 0, 1, 0), area("Europe/Madrid", 0, 3, 0), area("Barcelona city", 0, 6, 20)},
	}
	got := revgeoNest(li, revgeoArea{name: "Catalonia", description: "principal subdivision", isoCode: "ES-CT", adminLevel: 4, geonameID: 5})
	type entry struct {
		name         string
		level, order int
	}
	var admin, info []entry
	for _, a := range got.Administrative {
		admin = append(admin, entry{a.Names.Name("en"), a.AdminLevel, a.Order})
	}
	for _, a := range got.Informative {
		info = append(info, entry{a.Names.Name("en"), a.AdminLevel, a.Order})
	}
	wantAdmin := []entry{{"Spain", 2, 2}, {"Catalonia", 4, 4}, {"Barcelona", 6, 5}}
	wantInfo := []entry{{"Europe", 0, 1}, {"Europe/Madrid", 0, 3}, {"Barcelona city", 0, 6}}
	if !slices.Equal(admin, wantAdmin) || !slices.Equal(info, wantInfo) {
		t.Errorf("administrative %v, informative %v; want %v, %v", admin, info, wantAdmin, wantInfo)
	}
	if li.Informative[2].Order != 6 || li.Administrative[1].AdminLevel != 4 {
		t.Error("revgeoNest changed its argument")
	}
}

// TestReverseGeocodeEmptyLists: where there are no areas (at sea, an address the IP data
// does not place), localityInfo still holds both lists, empty, as clients of the commercial
// service expect arrays there.
func TestReverseGeocodeEmptyLists(t *testing.T) {
	s := realPlacesServer(t)
	for _, tc := range []struct{ target, remote string }{
		{"/data/reverse-geocode?key=good&latitude=0&longitude=-30", ""},
		{"/data/reverse-geocode-client?latitude=0&longitude=-30", ""},
		{"/data/reverse-geocode-client", "127.0.0.1"},
	} {
		rec := placesGet(t, s, tc.target, tc.remote)
		if want := `"localityInfo":{"administrative":[],"informative":[`; rec.Code != 200 || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d %s, want %s", tc.target, rec.Code, rec.Body, want)
		}
	}
}
