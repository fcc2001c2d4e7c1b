package countrybuild

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
)

// This file parses the mirror-only sources that are plain text: GeoNames countryInfo and the
// datahub country-codes CSV.

// gnCountry is the part of a GeoNames countryInfo row that Build uses.
type gnCountry struct {
	Continent string // two-letter continent code
	GeonameID int
}

// parseGeonamesCountryInfo reads countryInfo.tsv (GeoNames countryInfo.txt: tab-separated, 19
// columns, comment lines starting with "#"), keyed by alpha-2.
func parseGeonamesCountryInfo(fsys fs.FS) (map[string]gnCountry, error) {
	const name = "countryInfo.tsv"
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]gnCountry{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 19 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 19", name, line, len(cols))
		}
		id, err := strconv.Atoi(cols[16])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: geonameid %q", name, line, cols[16])
		}
		out[cols[0]] = gnCountry{Continent: cols[8], GeonameID: id}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(out) == 0 {
		return nil, errors.New(name + ": no rows")
	}
	return out, nil
}

// dhCountry is a row of datahub's country-codes.csv, reduced to the columns Build uses and
// the consistency test checks.
type dhCountry struct {
	Alpha2, Alpha3 string
	Numeric        int
	UNTermShort    string // "Bahamas (the)"; footnote asterisks removed
	UNTermFormal   string // "the Commonwealth of the Bahamas"; footnote asterisks removed
	OfficialNameEn string
	ISO4217Country string
	RegionName     string
	SubRegionName  string
	CurrencyCodes  []string // ISO 4217 codes, in the file's order; may be empty or several
	WikidataID     string   // "Q27", taken from the item URL
	GeonameID      int
}

// parseDatahubCountryCodes reads country-codes.csv, keyed by alpha-2.
func parseDatahubCountryCodes(fsys fs.FS) (map[string]dhCountry, error) {
	const name = "country-codes.csv"
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: header: %w", name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	for _, h := range []string{"ISO3166-1-Alpha-2", "ISO3166-1-Alpha-3", "ISO3166-1-numeric"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%s: no column %q", name, h)
		}
	}
	out := map[string]dhCountry{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		get := func(h string) string {
			if i, ok := col[h]; ok && i < len(rec) {
				// The file pads some empty cells with a no-break space.
				return strings.TrimSpace(strings.ReplaceAll(rec[i], "\u00a0", " "))
			}
			return ""
		}
		c := dhCountry{
			Alpha2: get("ISO3166-1-Alpha-2"), Alpha3: get("ISO3166-1-Alpha-3"),
			UNTermShort: unFootnote(get("UNTERM English Short")), UNTermFormal: unFootnote(get("UNTERM English Formal")),
			OfficialNameEn: get("official_name_en"), ISO4217Country: get("ISO4217-currency_country_name"),
			RegionName: get("Region Name"), SubRegionName: get("Sub-region Name"),
			CurrencyCodes: splitList(get("ISO4217-currency_alphabetic_code")),
			WikidataID:    wikidataFromURL(get("wikidata_id")),
		}
		if c.Alpha2 == "" {
			continue
		}
		if s := get("ISO3166-1-numeric"); s != "" {
			if c.Numeric, err = strconv.Atoi(s); err != nil {
				return nil, fmt.Errorf("%s: %s: numeric %q", name, c.Alpha2, s)
			}
		}
		if s := get("Geoname ID"); s != "" {
			if c.GeonameID, err = strconv.Atoi(s); err != nil {
				return nil, fmt.Errorf("%s: %s: Geoname ID %q", name, c.Alpha2, s)
			}
		}
		out[c.Alpha2] = c
	}
	if len(out) == 0 {
		return nil, errors.New(name + ": no rows")
	}
	return out, nil
}

// unFootnote strips UNTERM's footnote markers: "Holy See (the) *" → "Holy See (the)".
func unFootnote(s string) string { return strings.TrimSpace(strings.TrimRight(s, "* ")) }

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// wikidataFromURL returns the item id of "https://www.wikidata.org/wiki/Q27", or "".
func wikidataFromURL(u string) string {
	i := strings.LastIndexByte(u, '/')
	id := u[i+1:]
	if len(id) < 2 || id[0] != 'Q' {
		return ""
	}
	if _, err := strconv.ParseUint(id[1:], 10, 64); err != nil {
		return ""
	}
	return id
}
