package countrybuild

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"
)

// This file parses the small npm data packages: world-countries, currency-codes,
// countries-list and @rapideditor/country-coder. Each parser reads one file.

// wcCountry is one entry of world-countries' countries.json.
type wcCountry struct {
	Alpha2      string
	Alpha3      string
	Numeric     int
	Assigned    bool  // status "officially-assigned"
	Independent *bool // nil where the package has null (Kosovo)
	Common      string
	Official    string
	AltSpelling []string
}

// parseWorldCountries reads world-countries' countries.json.
func parseWorldCountries(fsys fs.FS) ([]wcCountry, error) {
	var raw []struct {
		Name struct {
			Common   string `json:"common"`
			Official string `json:"official"`
		} `json:"name"`
		CCA2         string   `json:"cca2"`
		CCN3         string   `json:"ccn3"`
		CCA3         string   `json:"cca3"`
		Independent  *bool    `json:"independent"`
		Status       string   `json:"status"`
		AltSpellings []string `json:"altSpellings"`
	}
	const name = "countries.json"
	if err := readJSON(fsys, name, &raw); err != nil {
		return nil, err
	}
	out := make([]wcCountry, 0, len(raw))
	for _, r := range raw {
		c := wcCountry{
			Alpha2: r.CCA2, Alpha3: r.CCA3, Assigned: r.Status == "officially-assigned",
			Independent: r.Independent, Common: r.Name.Common, Official: r.Name.Official,
			AltSpelling: r.AltSpellings,
		}
		if r.CCN3 != "" {
			n, err := strconv.Atoi(r.CCN3)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: ccn3 %q", name, r.CCA2, r.CCN3)
			}
			c.Numeric = n
		}
		if !isUpper(c.Alpha2, 2) {
			return nil, fmt.Errorf("%s: bad cca2 %q", name, r.CCA2)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no countries", name)
	}
	return out, nil
}

// iso4217Entry is one CcyNtry of the ISO 4217 list one.
type iso4217Entry struct {
	Country    string // the ISO 3166 short name in ISO's upper case, e.g. "BAHAMAS (THE)"
	Name       string // currency name, e.g. "Bahamian Dollar"
	Code       string // e.g. "BSD"; empty for "No universal currency"
	Numeric    int
	MinorUnits int
	HasMinor   bool // false where ISO says "N.A."
}

// iso4217 is the parsed list one.
type iso4217 struct {
	Published time.Time
	Entries   []iso4217Entry
}

// parseISO4217 reads currency-codes' iso-4217-list-one.xml, the verbatim ISO 4217 list one.
// It is preferred to the package's data.js, which is JavaScript derived from the same list.
func parseISO4217(fsys fs.FS) (iso4217, error) {
	const name = "iso-4217-list-one.xml"
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return iso4217{}, err
	}
	var raw struct {
		Published string `xml:"Pblshd,attr"`
		Entries   []struct {
			Country string `xml:"CtryNm"`
			Name    string `xml:"CcyNm"`
			Code    string `xml:"Ccy"`
			Numeric string `xml:"CcyNbr"`
			Minor   string `xml:"CcyMnrUnts"`
		} `xml:"CcyTbl>CcyNtry"`
	}
	if err := xml.Unmarshal(b, &raw); err != nil {
		return iso4217{}, fmt.Errorf("%s: %w", name, err)
	}
	var out iso4217
	if raw.Published != "" {
		if out.Published, err = time.Parse(time.DateOnly, raw.Published); err != nil {
			return iso4217{}, fmt.Errorf("%s: publication date: %w", name, err)
		}
	}
	for _, r := range raw.Entries {
		e := iso4217Entry{
			Country: strings.TrimSpace(r.Country), Name: strings.TrimSpace(r.Name),
			Code: strings.TrimSpace(r.Code),
		}
		if r.Numeric != "" {
			if e.Numeric, err = strconv.Atoi(strings.TrimSpace(r.Numeric)); err != nil {
				return iso4217{}, fmt.Errorf("%s: %s: numeric %q", name, e.Code, r.Numeric)
			}
		}
		if m, err := strconv.Atoi(strings.TrimSpace(r.Minor)); err == nil {
			e.MinorUnits, e.HasMinor = m, true
		}
		out.Entries = append(out.Entries, e)
	}
	if len(out.Entries) == 0 {
		return iso4217{}, fmt.Errorf("%s: no entries", name)
	}
	return out, nil
}

// clCountry is one entry of countries-list's countries.min.json.
type clCountry struct {
	Name       string
	Continent  string   // primary continent code
	Continents []string // only for countries the package lists on several continents
}

// parseCountriesList reads countries-list's countries.min.json, keyed by alpha-2.
func parseCountriesList(fsys fs.FS) (map[string]clCountry, error) {
	var raw map[string]struct {
		Name       string   `json:"name"`
		Continent  string   `json:"continent"`
		Continents []string `json:"continents"`
	}
	if err := readJSON(fsys, "countries.min.json", &raw); err != nil {
		return nil, err
	}
	out := make(map[string]clCountry, len(raw))
	for code, r := range raw {
		out[code] = clCountry{Name: r.Name, Continent: r.Continent, Continents: r.Continents}
	}
	return out, nil
}

// parseCountriesListLanguages reads countries-list's languages.all.min.json: ISO 639-1 code →
// the language's name for itself.
func parseCountriesListLanguages(fsys fs.FS) (map[string]string, error) {
	var raw map[string]struct {
		Native string `json:"native"`
	}
	if err := readJSON(fsys, "languages.all.min.json", &raw); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(raw))
	for code, r := range raw {
		out[code] = r.Native
	}
	return out, nil
}

// clCurrency is one entry of countries-list's currencies.min.json.
type clCurrency struct {
	Name       string
	Numeric    int
	MinorUnits int
}

// parseCountriesListCurrencies reads countries-list's currencies.min.json, keyed by ISO 4217
// code. Entries without a numeric code are left out.
func parseCountriesListCurrencies(fsys fs.FS) (map[string]clCurrency, error) {
	const name = "currencies.min.json"
	var raw map[string]struct {
		Name     string `json:"name"`
		Numeric  string `json:"numeric"`
		Decimals *int   `json:"decimals"`
	}
	if err := readJSON(fsys, name, &raw); err != nil {
		return nil, err
	}
	out := make(map[string]clCurrency, len(raw))
	for code, r := range raw {
		n, err := strconv.Atoi(r.Numeric)
		if err != nil || r.Decimals == nil || r.Name == "" {
			continue
		}
		out[code] = clCurrency{Name: r.Name, Numeric: n, MinorUnits: *r.Decimals}
	}
	return out, nil
}

// parseCountryCoderWikidata reads @rapideditor/country-coder's src/data/borders.json and
// returns the Wikidata item of each feature that carries an ISO alpha-2 code.
func parseCountryCoderWikidata(fsys fs.FS) (map[string]string, error) {
	const name = "src/data/borders.json"
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var raw struct {
		Features []struct {
			Properties struct {
				ISO1A2   string `json:"iso1A2"`
				Wikidata string `json:"wikidata"`
			} `json:"properties"`
		} `json:"features"`
	}
	if err := json.NewDecoder(f).Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]string{}
	for _, ft := range raw.Features {
		p := ft.Properties
		if p.ISO1A2 == "" || p.Wikidata == "" {
			continue
		}
		if prev, ok := out[p.ISO1A2]; ok && prev != p.Wikidata {
			return nil, fmt.Errorf("%s: %s has items %s and %s", name, p.ISO1A2, prev, p.Wikidata)
		}
		out[p.ISO1A2] = p.Wikidata
	}
	if len(out) == 0 {
		return nil, errors.New(name + ": no features with iso1A2")
	}
	return out, nil
}
