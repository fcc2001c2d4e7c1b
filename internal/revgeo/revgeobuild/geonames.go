package revgeobuild

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// city is one row of a GeoNames cities file.
type city struct {
	revgeo.Populated
	Modified time.Time // the row's modification date
}

// parseCities reads the GeoNames "geoname" table format (cities500.txt, cities15000.txt): 19
// tab-separated columns, geonameid, name, asciiname, alternatenames, latitude, longitude,
// feature class, feature code, country code, cc2, admin1–admin4 codes, population, elevation,
// dem, timezone, modification date. It keeps class P (populated places) and returns the
// newest modification date. Rows with fewer columns, bad numbers or coordinates off the
// globe are errors.
func parseCities(r io.Reader) ([]city, time.Time, error) {
	var out []city
	var newest time.Time
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20) // alternatenames can run to tens of kilobytes
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 19 {
			return nil, time.Time{}, fmt.Errorf("geonames: line %d: %d columns, want 19", line, len(f))
		}
		if f[6] != "P" {
			continue
		}
		id, err1 := strconv.Atoi(f[0])
		lat, err2 := strconv.ParseFloat(f[4], 64)
		lon, err3 := strconv.ParseFloat(f[5], 64)
		pop, err4 := atoiOrZero(f[14])
		if err := firstErr(err1, err2, err3, err4); err != nil {
			return nil, time.Time{}, fmt.Errorf("geonames: line %d: %w", line, err)
		}
		if id <= 0 || pop < 0 || revgeo.Validate(lat, lon) != nil {
			return nil, time.Time{}, fmt.Errorf("geonames: line %d: id %d, population %d, position (%v, %v)", line, id, pop, lat, lon)
		}
		c := city{Populated: revgeo.Populated{
			GeonameID: id, Name: f[1], FeatureCode: f[7], CountryCode: f[8],
			Admin1: f[10], Admin2: f[11], Admin3: f[12], Admin4: f[13], Population: pop,
			Latitude: lat, Longitude: lon,
		}}
		if c.Name == "" {
			c.Name = f[2]
		}
		if f[18] != "" {
			d, err := time.Parse(time.DateOnly, f[18])
			if err != nil {
				return nil, time.Time{}, fmt.Errorf("geonames: line %d: %w", line, err)
			}
			c.Modified = d
			if d.After(newest) {
				newest = d
			}
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, time.Time{}, fmt.Errorf("geonames: %w", err)
	}
	return out, newest, nil
}

func atoiOrZero(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	return strconv.Atoi(s)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// adminCode is one row of GeoNames admin1CodesASCII.txt or admin2Codes.txt.
type adminCode struct {
	Code      string // "AU.02" or "AU.02.12345"
	Name      string
	GeonameID int
}

// parseAdminCodes reads GeoNames admin1CodesASCII.txt or admin2Codes.txt: code, name, ASCII
// name, geonameid, tab-separated.
func parseAdminCodes(r io.Reader) ([]adminCode, error) {
	var out []adminCode
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 4 {
			return nil, fmt.Errorf("geonames admin codes: line %d: %d columns, want 4", line, len(f))
		}
		id, err := strconv.Atoi(f[3])
		if err != nil || id < 0 {
			return nil, fmt.Errorf("geonames admin codes: line %d: geonameid %q", line, f[3])
		}
		if strings.Count(f[0], ".") < 1 || f[0][0] == '.' {
			return nil, fmt.Errorf("geonames admin codes: line %d: code %q", line, f[0])
		}
		name := f[1]
		if name == "" {
			name = f[2]
		}
		out = append(out, adminCode{Code: f[0], Name: name, GeonameID: id})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("geonames admin codes: %w", err)
	}
	return out, nil
}

// countryInfo is what the build takes from one row of GeoNames countryInfo.
type countryInfo struct {
	Code      string // ISO alpha-2
	Name      string
	Continent string
	GeonameID int
}

// parseCountryInfo reads GeoNames countryInfo.txt (or the mirror's countryInfo.tsv): comment
// lines start with "#", then tab-separated ISO, ISO3, ISO-Numeric, fips, Country, Capital,
// Area, Population, Continent, tld, CurrencyCode, CurrencyName, Phone, Postal Code Format,
// Postal Code Regex, Languages, geonameid, neighbours, EquivalentFipsCode.
func parseCountryInfo(r io.Reader) ([]countryInfo, error) {
	var out []countryInfo
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" || text[0] == '#' {
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) < 17 {
			return nil, fmt.Errorf("geonames countryInfo: line %d: %d columns, want 19", line, len(f))
		}
		id, err := atoiOrZero(f[16])
		if err != nil || id < 0 {
			return nil, fmt.Errorf("geonames countryInfo: line %d: geonameid %q", line, f[16])
		}
		if _, ok := revgeo.ContinentName(f[8]); !ok {
			return nil, fmt.Errorf("geonames countryInfo: line %d: continent %q", line, f[8])
		}
		out = append(out, countryInfo{Code: f[0], Name: f[4], Continent: f[8], GeonameID: id})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("geonames countryInfo: %w", err)
	}
	return out, nil
}
