package country

import (
	"slices"
	"strings"
)

// DB is the decoded, immutable country registry. It is safe for concurrent use; its zero value
// is an empty registry. Build one with Decode.
type DB struct {
	countries []Country // sorted by Alpha2

	// Code indexes hold position+1, so that zero means "no such code". Arrays rather than maps
	// make Lookup a few loads with no hashing and no allocation.
	byAlpha2  [26 * 26]uint16
	byAlpha3  [26 * 26 * 26]uint16
	byNumeric [maxNumeric + 1]uint16

	tags      map[string]string // lower-case locale identifier → its spelling in Names keys
	languages []string          // every locale with names, sorted
}

func newDB(cs []Country) *DB {
	db := &DB{countries: cs, tags: map[string]string{}}
	for i, c := range cs {
		db.byAlpha2[letters(c.Alpha2)] = uint16(i + 1)
		db.byAlpha3[letters(c.Alpha3)] = uint16(i + 1)
		db.byNumeric[c.Numeric] = uint16(i + 1)
		for tag := range c.Names {
			db.tags[strings.ToLower(tag)] = tag
		}
	}
	for _, tag := range db.tags {
		db.languages = append(db.languages, tag)
	}
	slices.Sort(db.languages)
	return db
}

// letters returns the base-26 value of an upper-case ASCII code.
func letters(code string) int {
	v := 0
	for i := range len(code) {
		v = v*26 + int(code[i]-'A')
	}
	return v
}

// Len returns the number of countries.
func (db *DB) Len() int { return len(db.countries) }

// All returns every country, sorted by alpha-2 code. The slice is the caller's; the countries'
// slices and maps are shared and read-only.
func (db *DB) All() []Country { return slices.Clone(db.countries) }

// Languages returns, sorted, every locale identifier for which at least one country has a
// name of its own (CLDR locales such as "de", "zh-Hant" and "en-GB").
func (db *DB) Languages() []string { return slices.Clone(db.languages) }

// Lookup finds a country by ISO 3166-1 alpha-2 ("IE"), alpha-3 ("IRL") or numeric code ("372";
// leading zeros optional, so "036" and "36" both find Australia). Letters match in any case and
// surrounding white space is ignored. A miss, including any malformed code, returns false.
// Lookup does not allocate.
func (db *DB) Lookup(code string) (Country, bool) {
	code = strings.TrimSpace(code)
	if code == "" || len(code) > 3 {
		return Country{}, false
	}
	var i uint16
	switch {
	case isDigits(code):
		n := 0
		for j := range len(code) {
			n = n*10 + int(code[j]-'0')
		}
		i = db.byNumeric[n]
	case len(code) == 2 || len(code) == 3:
		v := 0
		for j := range len(code) {
			c := code[j] &^ 0x20 // ASCII upper case; non-letters fail the range test below
			if c < 'A' || c > 'Z' {
				return Country{}, false
			}
			v = v*26 + int(c-'A')
		}
		if len(code) == 2 {
			i = db.byAlpha2[v]
		} else {
			i = db.byAlpha3[v]
		}
	}
	if i == 0 {
		return Country{}, false
	}
	return db.countries[i-1], true
}

// Name returns c's name for the requested language, following the spec: the requested
// language, else English, else the name in the country's first administrative language, else
// (for the rare country with neither) its ISO short name.
//
// lang is an ISO 639-1 code or a CLDR/BCP 47 locale identifier, matched case-insensitively
// with "_" accepted for "-". A locale the data lacks falls back to its truncations, so "pt-XX"
// gives Portuguese and "zh-Hant-TW" gives Traditional Chinese; region tags that CLDR writes in
// another script ("zh-TW", "sr-ME") are served when the build recorded them. Name does not
// allocate.
func (db *DB) Name(c Country, lang string) string {
	var buf [maxTagLen]byte
	if n := normTag(buf[:], lang); n > 0 {
		if name, ok := db.nameFor(c, buf[:n]); ok {
			return name
		}
	}
	if name, ok := c.Names["en"]; ok {
		return name
	}
	// The native name: the first language as written in this country ("ga-IE", "zh-TW"),
	// which the truncation walk turns into the plain language where needed.
	if key, ok := regionalKey(buf[:], c); ok {
		if name, ok := db.nameFor(c, key); ok {
			return name
		}
	}
	return c.ISOName
}

// nameFor walks the truncation chain of the lower-case tag key, e.g. "zh-hant-hk", "zh-hant",
// "zh", and returns the first name c has in one of those locales.
func (db *DB) nameFor(c Country, key []byte) (string, bool) {
	for len(key) > 0 {
		if tag, ok := db.tags[string(key)]; ok { // string(key) in a map index does not allocate
			if name, ok := c.Names[tag]; ok {
				return name, true
			}
		}
		i := len(key) - 1
		for i > 0 && key[i] != '-' {
			i--
		}
		key = key[:i]
	}
	return "", false
}

// normTag writes the lower-case, hyphenated form of the locale identifier s into buf and
// returns its length, or 0 if s is empty or does not fit.
func normTag(buf []byte, s string) int {
	s = strings.TrimSpace(s)
	if len(s) > len(buf) {
		return 0
	}
	for i := range len(s) {
		c := s[i]
		switch {
		case c == '_':
			c = '-'
		case 'A' <= c && c <= 'Z':
			c |= 0x20
		}
		buf[i] = c
	}
	return len(s)
}

// LocalLanguage returns the code of c's first administrative language, the language that
// localityLanguage=default selects: its ISO 639-1 code, or its three-letter code if it has
// none; as written in c ("zh-TW", "de-CH") where the data has names in that locale, so that
// Taiwan's default is Traditional Chinese, not the Simplified of plain "zh". It returns ""
// for a country without administrative languages, for which Name falls back to English.
func (db *DB) LocalLanguage(c Country) string {
	if len(c.AdminLanguages) == 0 {
		return ""
	}
	var buf [maxTagLen]byte
	if key, ok := regionalKey(buf[:], c); ok {
		if regional, ok := db.tags[string(key)]; ok { // a map index by string(key) does not allocate
			return regional
		}
	}
	return c.AdminLanguages[0].Tag()
}

// regionalKey writes the lower-case locale key of c's first administrative language as
// written in c ("zh-tw") into buf and returns it, or false when c has no such language or
// the key does not fit.
func regionalKey(buf []byte, c Country) ([]byte, bool) {
	if len(c.AdminLanguages) == 0 || len(c.Alpha2) != 2 {
		return nil, false
	}
	n := normTag(buf, c.AdminLanguages[0].Tag())
	if n == 0 || n+3 > len(buf) {
		return nil, false
	}
	buf[n] = '-'
	buf[n+1] = c.Alpha2[0] | 0x20
	buf[n+2] = c.Alpha2[1] | 0x20
	return buf[:n+3], true
}
