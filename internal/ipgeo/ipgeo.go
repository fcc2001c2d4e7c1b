package ipgeo

import (
	"cmp"
	"math/bits"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/locale"
	"github.com/ipatlas/ipatlas/internal/pluscode"
	"github.com/ipatlas/ipatlas/internal/prefetch"
	"github.com/ipatlas/ipatlas/internal/tiling"
)

// NumLanguages is the number of languages that place names are kept in: the eight languages of
// GeoLite2 (see Language).
const NumLanguages = 8

// Language returns the tag of language index i (0 ≤ i < NumLanguages) in the order names are
// stored: de, en, es, fr, ja, pt-BR, ru, zh-CN. It returns "" for any other i.
func Language(i int) string {
	switch i {
	case 0:
		return "de"
	case 1:
		return "en"
	case 2:
		return "es"
	case 3:
		return "fr"
	case 4:
		return "ja"
	case 5:
		return "pt-BR"
	case 6:
		return "ru"
	case 7:
		return "zh-CN"
	}
	return ""
}

const langEnglish = 1

// LanguageIndex returns the index of the stored language that serves lang, or -1. lang is an
// ISO 639-1 code or a BCP 47 / CLDR locale identifier, matched case-insensitively with "_"
// accepted for "-": any tag whose language is one of de, en, es, fr, ja, ru is served by that
// language; "pt" and its variants by pt-BR (the only Portuguese the data has); "zh" by zh-CN
// unless the tag asks for Traditional Chinese (locale.TraditionalChinese), which the data
// does not have. It does not allocate.
//
// A geolocation answer asks it for every name it writes, nearly always with a bare
// two-letter code, which is then the whole of the primary subtag: that case skips the
// trimming and the search for a separator (a quarter of an answer's name lookups' time).
func LanguageIndex(lang string) int {
	if len(lang) != 2 {
		lang = strings.TrimSpace(lang)
		n := 0
		for n < len(lang) && lang[n] != '-' && lang[n] != '_' {
			n++
		}
		if n != 2 {
			return -1
		}
	}
	switch uint16(lang[0]|0x20)<<8 | uint16(lang[1]|0x20) {
	case 'd'<<8 | 'e':
		return 0
	case 'e'<<8 | 'n':
		return 1
	case 'e'<<8 | 's':
		return 2
	case 'f'<<8 | 'r':
		return 3
	case 'j'<<8 | 'a':
		return 4
	case 'p'<<8 | 't':
		return 5
	case 'r'<<8 | 'u':
		return 6
	case 'z'<<8 | 'h':
		if locale.TraditionalChinese(lang[2:]) {
			return -1
		}
		return 7
	}
	return -1
}

// Names holds a place's names in the NumLanguages languages, shared with the DB. The zero
// value has no names.
type Names struct{ p *[NumLanguages]string }

// NamesOf returns Names holding the given names, indexed as Language. It is for tests and
// tools; a DB's names come from Decode.
func NamesOf(names [NumLanguages]string) Names { return Names{&names} }

// Get returns the name in the stored language i ("" if none or i is out of range).
func (n Names) Get(i int) string {
	if n.p == nil || i < 0 || i >= NumLanguages {
		return ""
	}
	return n.p[i]
}

// Name returns the name for lang (see LanguageIndex), falling back to English, and reports
// false when there is neither. It does not allocate.
func (n Names) Name(lang string) (string, bool) {
	if n.p == nil {
		return "", false
	}
	if i := LanguageIndex(lang); i >= 0 && n.p[i] != "" {
		return n.p[i], true
	}
	s := n.p[langEnglish]
	return s, s != ""
}

// IsZero reports whether n holds no name at all.
func (n Names) IsZero() bool {
	if n.p == nil {
		return true
	}
	for _, s := range n.p {
		if s != "" {
			return false
		}
	}
	return true
}

// Area is one named place of a location: a continent, a country, a subdivision or a city.
// The zero Area means "not known".
type Area struct {
	// Code is the place's code: the continent code ("EU"), the ISO 3166-1 alpha-2 country
	// code ("DE"), the full ISO 3166-2 subdivision code ("US-CA", country prefix included),
	// and "" for cities.
	Code      string
	GeonameID uint32 // GeoNames feature id, 0 if unknown
	Names     Names
}

// IsZero reports whether a is the zero Area.
func (a Area) IsZero() bool { return a.Code == "" && a.GeonameID == 0 && a.Names.p == nil }

// Place is what the data says about one network: where its addresses are used.
type Place struct {
	// Network is the network of the data that holds the address: an IPv4 prefix for IPv4
	// addresses, and an IPv6 prefix for IPv6 addresses, including those that embed an IPv4
	// address (6to4, Teredo), as the source database reports them.
	Network netip.Prefix

	Continent         Area
	Country           Area // where the addresses are used
	RegisteredCountry Area // where the network is registered (an independent, weaker source)
	// Subdivisions are the ISO 3166-2 subdivisions, largest first (for example England,
	// then Barnet). The slice is shared with the DB: do not modify it.
	Subdivisions []Area
	City         Area
	Postcode     string

	// HasLocation reports whether the coordinates are known; without them Latitude,
	// Longitude and AccuracyRadius are zero and PlusCode is empty.
	HasLocation    bool
	Latitude       float64
	Longitude      float64
	AccuracyRadius int // km: the source's estimate of how far the address may be from the pin
	PlusCode       string
	TimeZone       string // IANA time zone id, e.g. "Europe/Berlin"; may be empty

	record uint32 // index of the record, for Confidence
}

// Placed reports whether p says anything of where its addresses are: a continent, a
// country, coordinates or a time zone. Some records of the data hold only the registered
// country (1.1.1.1's), which is where the network is registered, not where it is used.
func (p Place) Placed() bool {
	return p.Continent.Code != "" || p.Country.Code != "" || p.HasLocation || p.TimeZone != ""
}

// Subdivision returns the i-th subdivision (0: the principal one), or the zero Area.
func (p Place) Subdivision(i int) Area {
	if i < 0 || i >= len(p.Subdivisions) {
		return Area{}
	}
	return p.Subdivisions[i]
}

// DB is the decoded, immutable ipgeo section. It is safe for concurrent use. Build one with
// Decode.
type DB struct {
	built  time.Time
	places []place
	byID   []uint32 // indexes of the places that have a GeoNames id, sorted by it
	// continents maps a continent code to its place reference (1 + index into places).
	continents map[string]uint32
	parents    subParents // the subdivision hierarchy of the records
	records    []record
	subdivs    []Area // backing store of every record's Subdivisions
	text       string // the section's string blob: postcodes and time zones are spans of it
	plus       string // plusLen bytes per record: its plus code, spaces without coordinates

	v4    table32
	v6    table64
	fine  table64 // second level of the IPv6 table: lower 64 bits, grouped per /64
	fineG []uint32

	zones  zoneTables
	memo   *areaMemo // estimates computed on demand, without areas
	areas  *areas    // precomputed estimates (WithAreas), or nil
	source string    // description of the source database, e.g. "GeoLite2-City"
}

// place is one decoded place of the section.
type place struct {
	code      string
	geonameID uint32
	names     [NumLanguages]string
}

// record is one decoded data record, from which Lookup makes the Place. It holds no
// pointers and takes 56 bytes where a Place takes 272: the full data's 342 791 records take
// 19 MB (and 3.8 MB of plus codes) instead of 93 MB that the garbage collector had to scan
// on every cycle. Making the Place reads its places' codes and ids, which copying a Place
// did not, but most of those (continents, countries) stay in the CPU caches.
type record struct {
	lat, lon           float64
	places             [4]uint32 // continent, country, registered country, city: 1 + index into places; 0: none
	postcode, timeZone span      // in text
	sub                uint32    // the first of nSub subdivisions in subdivs
	radius             uint16
	nSub               uint8
	hasLoc             bool
}

// span is the bytes [from, to) of a string.
type span struct{ from, to uint32 }

// plusLen is the length of a plus code of pluscode.Length digits ("849VCWC8+R9").
const plusLen = pluscode.Length + 1

// place returns record i as a Place (Network zero).
func (db *DB) place(i uint32) Place {
	r := &db.records[i]
	p := Place{
		Continent:         db.area(r.places[0]),
		Country:           db.area(r.places[1]),
		RegisteredCountry: db.area(r.places[2]),
		City:              db.area(r.places[3]),
		Postcode:          db.text[r.postcode.from:r.postcode.to],
		TimeZone:          db.text[r.timeZone.from:r.timeZone.to],
		record:            i,
	}
	if r.nSub > 0 {
		end := r.sub + uint32(r.nSub)
		p.Subdivisions = db.subdivs[r.sub:end:end]
	}
	if r.hasLoc {
		p.HasLocation, p.Latitude, p.Longitude, p.AccuracyRadius = true, r.lat, r.lon, int(r.radius)
		p.PlusCode = db.plus[plusLen*int(i) : plusLen*int(i+1)]
	}
	return p
}

// area returns the Area of a place reference (1 + index into places; 0: none).
func (db *DB) area(ref uint32) Area {
	if ref == 0 {
		return Area{}
	}
	pl := &db.places[ref-1]
	return Area{Code: pl.code, GeonameID: pl.geonameID, Names: Names{&pl.names}}
}

// AreaByGeonameID returns the place (continent, country, subdivision or city) with GeoNames
// id id, and reports whether the data has such a place: other data keyed by GeoNames ids
// (reverse geocoding's populated places) can name its places in the same languages.
func (db *DB) AreaByGeonameID(id uint32) (Area, bool) {
	if db == nil || id == 0 {
		return Area{}, false
	}
	i, ok := slices.BinarySearchFunc(db.byID, id, func(pi, id uint32) int { return cmp.Compare(db.places[pi].geonameID, id) })
	if !ok {
		return Area{}, false
	}
	return db.area(db.byID[i] + 1), true
}

// indexByID fills db.byID.
func (db *DB) indexByID() {
	db.byID = db.byID[:0]
	for i, p := range db.places {
		if p.geonameID != 0 {
			db.byID = append(db.byID, uint32(i))
		}
	}
	slices.SortFunc(db.byID, func(a, b uint32) int { return cmp.Compare(db.places[a].geonameID, db.places[b].geonameID) })
}

// Continent returns the continent with the two-letter code ("EU") as the data has it, with
// its GeoNames id and names, and reports whether a record of the data lies on it.
func (db *DB) Continent(code string) (Area, bool) {
	if db == nil {
		return Area{}, false
	}
	ref, ok := db.continents[code]
	if !ok {
		return Area{}, false
	}
	return db.area(ref), true
}

// indexContinents fills db.continents from the records.
func (db *DB) indexContinents() {
	db.continents = map[string]uint32{}
	for i := range db.records {
		if ref := db.records[i].places[0]; ref != 0 && db.places[ref-1].code != "" {
			if _, ok := db.continents[db.places[ref-1].code]; !ok {
				db.continents[db.places[ref-1].code] = ref
			}
		}
	}
}

// countryCode is the country code of record i, "" if it has none.
func (db *DB) countryCode(i uint32) string { return db.area(db.records[i].places[1]).Code }

// BuildTime returns when the source database was built (its build_epoch): the date the
// geolocation was last assessed, for the API's lastUpdated.
func (db *DB) BuildTime() time.Time { return db.built }

// Source returns the source database's type, e.g. "GeoLite2-City".
func (db *DB) Source() string { return db.source }

// Counts returns the number of IPv4 and IPv6 networks with data, and of distinct records.
func (db *DB) Counts() (v4, v6, records int) {
	for _, v := range db.v4.vals {
		if v&kindMask == kindData {
			v4++
		}
	}
	for _, v := range db.v6.vals {
		if v&kindMask == kindData {
			v6++
		}
	}
	for _, v := range db.fine.vals {
		if v&kindMask == kindData {
			v6++
		}
	}
	return v4, v6, len(db.records)
}

// Lookup returns the place of a. It reports false for an invalid address and for addresses
// the data does not place. IPv4-mapped IPv6 addresses are unmapped first; zones are ignored.
// Lookup does not allocate.
func (db *DB) Lookup(a netip.Addr) (Place, bool) {
	rec, pfx, ok := db.find(a)
	if !ok {
		return Place{}, false
	}
	p := db.place(rec)
	p.Network = pfx
	return p, true
}

// find returns the record index and the network of a.
func (db *DB) find(a netip.Addr) (uint32, netip.Prefix, bool) {
	if !a.IsValid() || db == nil {
		return 0, netip.Prefix{}, false
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		b := a.As4()
		v, plen := db.v4.find(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
		if v&kindMask != kindData {
			return 0, netip.Prefix{}, false
		}
		return v >> kindBits, netip.PrefixFrom(a, plen).Masked(), true
	}
	b := a.As16()
	hi, lo := be64(b[:8]), be64(b[8:])
	v, plen := db.v6.find(hi)
	if v&kindMask == kindFine {
		g := v >> kindBits
		v, plen = db.fine.findIn(lo, int(db.fineG[g]), int(db.fineG[g+1]))
		plen += 64
	}
	switch v & kindMask {
	case kindData:
		return v >> kindBits, netip.PrefixFrom(a, plen).Masked(), true
	case kindAlias:
		// The 32 bits after the alias prefix are an IPv4 address.
		v4 := embedded32(hi, lo, plen)
		v, plen4 := db.v4.find(v4)
		if v&kindMask != kindData {
			return 0, netip.Prefix{}, false
		}
		return v >> kindBits, netip.PrefixFrom(a, plen+plen4).Masked(), true
	}
	return 0, netip.Prefix{}, false
}

// embedded32 returns bits [off, off+32) of the 128-bit value hi:lo (off ≤ 96).
func embedded32(hi, lo uint64, off int) uint32 {
	switch {
	case off == 0:
		return uint32(hi >> 32)
	case off < 32:
		return uint32(hi >> (32 - off))
	case off == 32:
		return uint32(hi)
	case off < 64:
		return uint32(hi<<(off-32)) | uint32(lo>>(96-off))
	default:
		return uint32(lo >> (96 - off))
	}
}

func be64(b []byte) uint64 {
	_ = b[7]
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
		uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

// Leaf values: the low kindBits bits say what a leaf is, the rest is its payload.
const (
	kindBits  = 2
	kindMask  = 1<<kindBits - 1
	kindEmpty = 0 // no data
	kindData  = 1 // payload: record index
	kindAlias = 2 // the next 32 bits are an IPv4 address to look up (IPv6 tables only)
	kindFine  = 3 // payload: group of the second-level table (upper IPv6 table, /64 leaves)
	// maxPayload bounds record and group indexes.
	maxPayload = 1<<(32-kindBits) - 1
)

// table32 is the IPv4 address table: leaves in address order, keyed by their first address.
// The leaves tile the whole space, so each leaf's size is the distance to the next key.
type table32 struct {
	tiling.Index
	vals []uint32
}

func (t *table32) find(a uint32) (v uint32, plen int) {
	i := t.Leaf(a)
	return t.vals[i], t.plen(i)
}

// plen returns the prefix length of leaf i (decoding checked that every leaf is an aligned
// prefix).
func (t *table32) plen(i int) int {
	return 32 - bits.TrailingZeros64(t.End(i)-uint64(t.Keys[i]))
}

// table64 is an address table of 64-bit keys: the upper halves of IPv6 addresses, or, in the
// second level, the lower halves within one /64.
type table64 struct {
	keys  []uint64
	vals  []uint32
	index []uint32 // tiling.Buckets(keys); nil for the second level
}

func (t *table64) find(a uint64) (v uint32, plen int) {
	return t.leafAt(t.leaf(a), len(t.keys))
}

// leaf returns the index of the leaf that holds a (top level only).
func (t *table64) leaf(a uint64) int { return tiling.Search(t.keys, t.index, a) }

// findIn finds a among the keys of one group, keys[start:end], which tile a whole /64.
func (t *table64) findIn(a uint64, start, end int) (v uint32, plen int) {
	return t.leafAt(tiling.Last(t.keys, a, start, end), end)
}

// leafAt returns the value and prefix length of leaf i, in a run of leaves that tile the
// space and ends at end.
func (t *table64) leafAt(i, end int) (uint32, int) {
	size := -t.keys[i] // distance to 2^64; 0 means the leaf is the whole space
	if i+1 < end {
		size = t.keys[i+1] - t.keys[i]
	}
	if size == 0 {
		return t.vals[i], 0
	}
	return t.vals[i], 64 - bits.TrailingZeros64(size)
}

// Prefetch asks the CPU for the keys that a Lookup of a searches, its bucket of the address
// table (it reads the bucket's bounds itself): a caller that prefetches in two tables
// before looking up in either has their misses overlap instead of follow each other.
func (db *DB) Prefetch(a netip.Addr) {
	if !a.IsValid() || db == nil {
		return
	}
	a = a.Unmap()
	if a.Is4() {
		b := a.As4()
		db.v4.Prefetch(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
		return
	}
	b := a.As16()
	tiling.Prefetch(db.v6.keys, db.v6.index, be64(b[:8]))
}

// Prefetch asks the CPU for the text that an answer in lang reads of p (its places' names
// in lang and in English, postcode, plus code and time zone), which lies all over the DB:
// asked for together, their cache misses overlap. It reads the places' name tables itself
// to find the text.
func (p *Place) Prefetch(lang string) {
	i := LanguageIndex(lang)
	names := func(n Names) {
		if n.p != nil {
			if i >= 0 {
				prefetch.String(n.p[i])
			}
			prefetch.String(n.p[langEnglish])
		}
	}
	names(p.Continent.Names)
	names(p.Country.Names)
	names(p.City.Names)
	for _, a := range p.Subdivisions {
		names(a.Names)
	}
	prefetch.String(p.Postcode)
	prefetch.String(p.PlusCode)
	prefetch.String(p.TimeZone)
}
