// Package ipgeo owns IP → place: the location of an address (continent, country, registered
// country, subdivisions, city, postcode, coordinates with their accuracy radius and IANA time
// zone), the time zone at that place (offsets, daylight saving, CLDR names, a Windows-style
// display name), the Open Location Code of the pin, and the confidence area: how far the
// network that delivers the address spreads and how much independent evidence agrees.
//
// The build side (package ipgeobuild) reads a GeoIP2-City-schema MMDB and CLDR time zone data
// and hands them to Encode as a Data value; Encode produces the deterministic payload of the
// snapshot's "ipgeo" section. The serving side calls Decode once per snapshot and answers from
// the immutable DB.
//
// # Section format
//
// The payload is a small directory of typed, fixed-width tables (see codec.go): a string
// blob, places (a continent, country, subdivision or city with its GeoNames id and names in
// the eight GeoLite2 languages), records (one per distinct MMDB data record), the address
// tables, and the time zone tables. The address tables replace the MMDB search tree by the
// tree's leaves in address order: IPv4 leaves keyed by their first address (uint32), IPv6
// leaves keyed by their upper 64 bits, with a small second level for the few /64 blocks that
// the tree divides further. A leaf's size is the distance to the next key, so the network
// prefix of every answer is known without storing it. Decode checks every table and every
// cross-reference once and builds a bucket index over the top 16 bits, so that a lookup is
// one index read and a binary search over a few cache lines, and never fails or panics.
//
// # Values and sharing
//
// Place and Area are plain values that share their Names and Subdivisions with the DB; treat
// them as read-only. A DB is safe for concurrent use and never modified after Decode, except
// for its confidence-area memo, which is lock-free and bounded.
//
// # Confidence areas
//
// The service area of a network is a property of its BGP prefix (or, where the prefix holds
// no more than the address's own record, of that record), so it is computed once per
// snapshot: EncodeAreas makes the snapshot's "areas" section (see areas.go) and WithAreas
// serves from it, with no geometry per request. A DB without it computes estimates on
// demand, remembered in the memo; both give identical answers (the differential tests).
//
// # Lookups
//
// A miss is not an error: Lookup reports false for addresses the data does not place
// (private, reserved, unallocated). IPv4-mapped IPv6 addresses are unmapped first; the
// IPv4-embedding IPv6 ranges that MaxMind aliases to the IPv4 tree (6to4 2002::/16, Teredo
// 2001::/32, ::/96 and ::ffff:0:0/96 in the source tree) answer with the IPv4 record and an
// IPv6 prefix, exactly as the source database does. Lookup, Names.Name and DB.TimeZone do not
// allocate.
package ipgeo
