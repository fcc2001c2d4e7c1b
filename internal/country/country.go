// Package country owns the ISO 3166-1 country registry: the 249 officially assigned countries
// with their codes, ISO names, names localised in every CLDR locale, administrative languages,
// UN M49 region, current currency, World Bank region and income level, calling code, flag,
// Wikidata and GeoNames identifiers, independence and continents.
//
// The build side (package countrybuild) gathers the facts from upstream sources and hands them
// to Encode, which produces the deterministic payload of the snapshot's country section. The
// serving side calls Decode once per snapshot and then answers lookups from the immutable DB.
//
// # Values and sharing
//
// Country is a plain value. Its slices and its Names map are shared by every copy that a DB
// hands out, so callers must treat them as read-only. A DB is safe for concurrent use.
//
// # Names
//
// Names are keyed by CLDR locale identifiers ("de", "zh-Hant", "en-GB", "sr-Latn"). A locale
// that only refines another (a region or script variant) stores just the names in which it
// differs from its truncation parent ("en-GB" from "en", "zh-Hant-HK" from "zh-Hant"), so the
// full name in any locale is found by walking that chain; DB.Name does the walk and applies the
// spec's fallback: requested language, then English, then the country's own language.
package country

import "unicode/utf8"

// Country holds every fact of the API's Country object for one ISO 3166-1 entry, in plain Go.
// Absent facts are zero values: an empty string, a zero number, a nil slice, or a zero
// Currency/WBGroup (see their IsZero methods).
type Country struct {
	Alpha2  string // ISO 3166-1 alpha-2, upper case, e.g. "IE"
	Alpha3  string // ISO 3166-1 alpha-3, upper case, e.g. "IRL"
	Numeric int    // ISO 3166-1 numeric, which is also the UN M49 code, e.g. 372

	ISOName     string // ISO 3166-1 English short name, e.g. "Bahamas (the)"
	ISONameFull string // ISO 3166-1 English full name, e.g. "the Commonwealth of the Bahamas"

	// Names maps a CLDR locale identifier to the country's name in that locale. Variant
	// locales hold only the names that differ from their truncation parent; see the package
	// documentation and DB.Name.
	Names map[string]string

	// AdminLanguages are the country's administrative languages, most widely spoken first.
	AdminLanguages []Language

	// UNRegion is "Region/Sub-region" of the UN M49 standard, e.g. "Europe/Northern Europe";
	// empty where the UN assigns none (Antarctica).
	UNRegion string

	Currency Currency // the current legal tender; zero if none

	WBRegion      WBGroup // World Bank region; zero if the World Bank lists none
	WBIncomeLevel WBGroup // World Bank income group; zero if the World Bank lists none

	CallingCode string // international calling code without "+", e.g. "353"; may be empty
	FlagEmoji   string // the flag as a pair of regional indicator symbols; see FlagEmoji
	WikidataID  string // e.g. "Q27"
	GeonameID   int    // GeoNames feature id of the country, e.g. 2963597

	IsIndependent bool

	Continents []Continent // usually one; transcontinental countries may list several
}

// Language is one administrative language of a country.
type Language struct {
	Alpha3     string // ISO 639-2/T (terminology) code, e.g. "deu"
	Alpha2     string // ISO 639-1 code, e.g. "de"; empty for languages that have none
	ISOName    string // English name, e.g. "German"
	NativeName string // the language's name for itself, e.g. "Deutsch"; may be empty
}

// Tag returns the code under which the language's names are filed: the ISO 639-1 code where
// there is one, else the three-letter code (as CLDR does, e.g. "fil").
func (l Language) Tag() string {
	if l.Alpha2 != "" {
		return l.Alpha2
	}
	return l.Alpha3
}

// Currency is an ISO 4217 currency.
type Currency struct {
	NumericCode int    // ISO 4217 numeric code, e.g. 978
	Code        string // ISO 4217 alphabetic code, e.g. "EUR"
	Name        string // ISO 4217 English name, e.g. "Euro"
	MinorUnits  int    // decimal places of the minor unit, e.g. 2
}

// IsZero reports whether c is the zero Currency, meaning the country has no current tender.
func (c Currency) IsZero() bool { return c == Currency{} }

// WBGroup is a World Bank classification group (a region or an income level) in the form the
// World Bank's API uses, e.g. {ID: "ECS", ISO2Code: "Z7", Value: "Europe & Central Asia"}.
type WBGroup struct {
	ID       string
	ISO2Code string
	Value    string
}

// IsZero reports whether g is the zero WBGroup, meaning no classification.
func (g WBGroup) IsZero() bool { return g == WBGroup{} }

// Continent is one continent a country belongs to.
type Continent struct {
	Name string // English name, e.g. "Europe"
	Code string // two-letter code, e.g. "EU"
}

// ContinentName returns the English name of a two-letter continent code (AF, AN, AS, EU, NA,
// OC, SA) and whether the code is one of them.
func ContinentName(code string) (string, bool) {
	switch code {
	case "AF":
		return "Africa", true
	case "AN":
		return "Antarctica", true
	case "AS":
		return "Asia", true
	case "EU":
		return "Europe", true
	case "NA":
		return "North America", true
	case "OC":
		return "Oceania", true
	case "SA":
		return "South America", true
	}
	return "", false
}

// FlagEmoji returns the flag emoji of an upper-case alpha-2 code: the two regional indicator
// symbols that correspond to its letters. It returns "" for anything else.
func FlagEmoji(alpha2 string) string {
	if !isUpperAlpha(alpha2, 2) {
		return ""
	}
	const base = 0x1F1E6 // REGIONAL INDICATOR SYMBOL LETTER A
	var b [8]byte
	n := utf8.EncodeRune(b[:], rune(base+int(alpha2[0]-'A')))
	n += utf8.EncodeRune(b[n:], rune(base+int(alpha2[1]-'A')))
	return string(b[:n])
}

// isUpperAlpha reports whether s is exactly n ASCII upper-case letters.
func isUpperAlpha(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
