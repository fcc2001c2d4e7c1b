package revgeobuild

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Every source parser gets arbitrary input: it must not panic, and what it accepts must keep
// its promises (coordinates on the globe, codes of the right shape).

func FuzzParseCities(f *testing.F) {
	f.Add([]byte(fixtureCities))
	f.Add([]byte("1\tA\tA\t\t1\t2\tP\tPPL\tAA\t\t\t\t\t\t\t\t\t\t\n"))
	f.Add([]byte("#\n\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		cities, _, err := parseCities(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, c := range cities {
			if revgeo.Validate(c.Latitude, c.Longitude) != nil || c.GeonameID <= 0 || c.Population < 0 {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}

func FuzzParseAdminCodes(f *testing.F) {
	f.Add([]byte("AD.06\tSant Julià de Loria\tSant Julia de Loria\t3039162\n"))
	f.Add([]byte("AE.01.101\tAbu Dhabi Municipality\tAbu Dhabi Municipality\t12047239\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		codes, err := parseAdminCodes(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, c := range codes {
			if !strings.Contains(c.Code, ".") || c.GeonameID < 0 {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}

func FuzzParseCountryInfo(f *testing.F) {
	src := fixtureSources()[srcGeoNames]
	b, _ := src.(interface{ ReadFile(string) ([]byte, error) }).ReadFile("countryInfo.tsv")
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := parseCountryInfo(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, c := range cs {
			if _, ok := revgeo.ContinentName(c.Continent); !ok || c.GeonameID < 0 {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}

func FuzzParseFeatureCollection(f *testing.F) {
	f.Add([]byte(fixtureAdmin1))
	f.Add([]byte(fixtureMaritime))
	f.Add([]byte(`{"type":"FeatureCollection","features":[{"properties":null,"geometry":{"type":"MultiPolygon","coordinates":[[[[0,0,9],[1,0],[1,1]]]]}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		fs, err := parseFeatureCollection(bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, g := range fs {
			_ = g.prop("name")
			_ = g.intProp("gn_id")
			for _, poly := range g.Polygons {
				for _, r := range poly {
					if len(r) < 3 {
						t.Fatalf("ring of %d points", len(r))
					}
					for _, p := range r {
						if revgeo.Validate(p.Lat, p.Lon) != nil {
							t.Fatalf("point %v off the globe", p)
						}
					}
				}
			}
		}
	})
}

func FuzzParseCountriesList(f *testing.F) {
	f.Add([]byte(`{"RU":{"name":"Russia","continent":"AS","continents":["AS","EU"]}}`), []byte(`{"RUS":"RU"}`),
		[]byte(`[{"country_a2":"XK","country_a3":"KOS","country_name":"Kosovo","i18n":{"en":"Kosovo"}}]`))
	f.Fuzz(func(t *testing.T, list, a3, gp []byte) {
		if m, err := parseCountriesList(bytes.NewReader(list)); err == nil {
			for code, c := range m {
				if !isAlpha2(code) {
					t.Fatalf("accepted code %q", code)
				}
				if _, ok := revgeo.ContinentName(c.Continent); !ok {
					t.Fatalf("accepted continent %q", c.Continent)
				}
			}
		}
		if m, err := parseAlpha3Map(bytes.NewReader(a3)); err == nil {
			for k, v := range m {
				if len(k) != 3 || !isAlpha2(v) {
					t.Fatalf("accepted %q → %q", k, v)
				}
			}
		}
		if cs, err := parseGeojsonPlacesCountries(bytes.NewReader(gp)); err == nil {
			for _, c := range cs {
				if !isAlpha2(c.Alpha2) || len(c.Alpha3) != 3 {
					t.Fatalf("accepted %+v", c)
				}
			}
		}
	})
}
