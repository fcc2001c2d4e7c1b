package ipgeo

import (
	"net/netip"
	"time"
)

// Data is the content of an ipgeo section in plain Go, as a builder assembles it for Encode.
type Data struct {
	Source    string    // the source database's type, e.g. "GeoLite2-City"
	BuildTime time.Time // the source database's build date

	Places  []PlaceData  // continents, countries, subdivisions and cities
	Records []RecordData // one per distinct data record of the source

	// V4 and V6 are the leaves of the source's search tree: IPv4 prefixes, and IPv6
	// prefixes outside ::/96 (whose IPv4 part is V4). They must not overlap; Encode sorts
	// them and fills the space they leave uncovered with empty leaves.
	V4, V6 []Leaf

	TZ TZData
}

// PlaceData is one place: Code as in Area (subdivision codes with the country prefix).
type PlaceData struct {
	Code      string
	GeonameID uint32
	Names     [NumLanguages]string // indexed as Language
}

// NoPlace marks an absent place reference in RecordData.
const NoPlace = -1

// RecordData is one data record; place fields index Data.Places, or are NoPlace.
type RecordData struct {
	Continent, Country, RegisteredCountry, City int
	Subdivisions                                []int // largest first; at most 255
	Postcode                                    string
	TimeZone                                    string
	HasLocation                                 bool
	Latitude, Longitude                         float64
	AccuracyRadius                              int // km, 0 to 65535
}

// LeafKind says what a leaf of the address space holds.
type LeafKind uint8

// Leaf kinds.
const (
	LeafEmpty LeafKind = iota // no data
	LeafData                  // Leaf.Record holds the record
	// LeafAlias marks an IPv6 prefix of at most 96 bits whose next 32 bits are an IPv4
	// address, looked up in the IPv4 leaves (6to4, Teredo, IPv4-mapped).
	LeafAlias
)

// Leaf is one network of the source's search tree.
type Leaf struct {
	Prefix netip.Prefix
	Kind   LeafKind
	Record int // index into Data.Records, for LeafData
}

// TZData holds the time zone names: CLDR metazone names per locale, fully resolved (each
// locale's row already holds what it inherits), and the zones with their metazone history.
type TZData struct {
	Metazones []string    // CLDR metazone ids, e.g. "America_Pacific"
	Locales   []string    // CLDR locale ids, e.g. "en", "de-AT"
	Names     [][]TZNames // [locale][metazone]
	Zones     []ZoneData
}

// TZNames are the names of a time zone or metazone in one locale; empty when unknown.
type TZNames struct {
	LongStandard, LongDaylight, LongGeneric string
	ShortStandard, ShortDaylight            string
}

// ZoneData is one IANA time zone.
type ZoneData struct {
	ID string // IANA id as the place data spells it, e.g. "Asia/Kolkata"
	// Windows is the description of the zone's Windows time zone, e.g. "Pacific Time (US &
	// Canada)", without the "(UTC-08:00) " prefix, which is computed; empty if unknown.
	Windows string
	Spans   []MetazoneSpan // which metazone the zone used when, in time order
	// Names are zone-specific names that override the metazone's (for example "British
	// Summer Time" for Europe/London), per locale as TZData.Locales; nil if none.
	Names []TZNames
}

// MetazoneSpan says that a zone used metazone Metazone (an index into TZData.Metazones)
// from From to To (Unix seconds; From 0 means since always, To 0 means until further notice).
type MetazoneSpan struct {
	From, To int64
	Metazone int
}
