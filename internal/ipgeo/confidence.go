package ipgeo

import (
	"math"
	"net/netip"
	"strconv"

	"github.com/ipatlas/ipatlas/internal/prefetch"
)

// Level is the confidence of a geolocation: LevelLow, LevelModerate or LevelHigh.
type Level uint8

// Confidence levels. The zero Level is invalid.
const (
	LevelLow Level = iota + 1
	LevelModerate
	LevelHigh
)

// String returns "low", "moderate" or "high", as the API spells them.
func (l Level) String() string {
	switch l {
	case LevelLow:
		return "low"
	case LevelModerate:
		return "moderate"
	case LevelHigh:
		return "high"
	}
	return "invalid"
}

// The thresholds of the confidence rules (see DB.Confidence).
const (
	// HighMaxRadiusKm is the largest service area, as Confidence.RadiusKm, that can still be
	// "high": the network serves about one metropolitan area.
	HighMaxRadiusKm = 100
	// HighMinShare is the share of the network's geolocated addresses that must be placed in
	// the address's own country for "high".
	HighMinShare = 0.9
	// LowMaxShare: when no more than this share of the network's addresses is placed in the
	// address's country, the network mostly serves elsewhere and the answer is "low".
	LowMaxShare = 0.5
)

// Point is a vertex of a confidence area, in degrees (EPSG:4326), rounded to 5 decimals.
type Point struct {
	Latitude  float64
	Longitude float64
}

// Evidence is what the caller knows about an address from other sources.
type Evidence struct {
	// BGPPrefix is the announced prefix that holds the address, from the same snapshot's
	// network data (a DB with precomputed areas knows the estimates of exactly those
	// prefixes). The service area is estimated over the data's networks inside it when it
	// holds the address's network and more (see DB.Confidence).
	BGPPrefix netip.Prefix
	// SecondOpinion is the ISO 3166-1 alpha-2 country of the address according to an
	// independent source (for example the RIR delegation), "" if none.
	SecondOpinion string
	// Unreachable reports that the address is not announced or is a bogon: "low".
	Unreachable bool
}

// Confidence is the confidence of a geolocation and its service area.
type Confidence struct {
	Level  Level
	Reason string // which rule decided the level, in English
	// Area is the estimated service area: one or more closed polygons (each ends with its
	// first point), concatenated; empty without an estimate.
	Area Polygons
	// RadiusKm is the radius of the smallest circle about the weighted centre of the area's
	// places that holds all their accuracy circles: how far the network spreads.
	RadiusKm float64
	// CountryShare is the share of the network's addresses with a country that the data
	// places in the address's own country.
	CountryShare float64
	Prefix       netip.Prefix // the prefix the area was estimated over
}

// Confidence rates the geolocation p (from Lookup; the zero Place for a miss) with two
// processes, as the commercial service explains its own:
//
//  1. The service-area estimate, a property of the network that delivers the address: the
//     data's networks inside ev.BGPPrefix, each a point at its coordinates weighted by its
//     number of addresses, with its accuracy radius. Each point becomes a CircleVertices-gon;
//     the area is the convex hull of each cluster of overlapping circles (see AreaCoverage,
//     MaxPolygons). When the BGP prefix does not strictly hold the address's network, or the
//     data places its networks in fewer than two records, or none of them has coordinates,
//     the estimate is that of the address's own network (its record's accuracy circle). So
//     every address of a prefix gets the same area, whatever else was asked before. An
//     unreachable address (ev.Unreachable) has no area: no network delivers it, and the
//     spec says such an address "cannot be geolocated"; what the data says of it (p) is
//     still the caller's to show, with this "low".
//  2. Field evidence: the registered country of the same record and ev.SecondOpinion,
//     each compared with the country of p when present.
//
// The level, first rule that applies:
//
//   - low: no estimate (no place, no country or no coordinates), the address is
//     unreachable, every independent source present disagrees with the country, or at
//     most LowMaxShare of the prefix is placed in the country;
//   - high: at least one independent source agrees and none disagrees, at least
//     HighMinShare of the prefix is placed in the country, the area's radius is at most
//     HighMaxRadiusKm, the area holds the pin (p's coordinates), and the data names a city;
//   - moderate: otherwise (evidence agrees only in part, no independent source, the
//     prefix spans countries, the area is large, the data names no city, or it places the
//     address among the few networks of its prefix that the area leaves out, see
//     AreaCoverage).
//
// A smaller area does not by itself mean a higher level: the polygon is the service area,
// not the confidence (spec rule 3). Estimates come from the precomputed areas (WithAreas)
// or, without them, are computed and remembered in a bounded, lock-free memo. Confidence
// does not allocate with precomputed areas or on a memo hit.
func (db *DB) Confidence(p Place, ev Evidence) Confidence {
	if db == nil || !p.Network.IsValid() {
		return Confidence{Level: LevelLow, Reason: "no geolocation for the address"}
	}
	if ev.Unreachable {
		return Confidence{Level: LevelLow, Reason: "the address is not reachable on the Internet"}
	}
	est, pfx := db.estimateOf(p, ev.BGPPrefix)
	c := Confidence{Area: Polygons{est.poly}, RadiusKm: est.radiusKm, Prefix: pfx}
	country := p.Country.Code
	c.CountryShare = est.share(country)
	agree, conflict := 0, 0
	for _, other := range [...]string{p.RegisteredCountry.Code, ev.SecondOpinion} {
		switch {
		case other == "":
		case other == country:
			agree++
		default:
			conflict++
		}
	}
	switch {
	case country == "" || !p.HasLocation:
		c.Level, c.Reason = LevelLow, "no location estimate for the address"
	case conflict > 0 && agree == 0:
		c.Level, c.Reason = LevelLow, "independent sources place the address in another country"
	case c.CountryShare <= LowMaxShare:
		c.Level, c.Reason = LevelLow, "the network mostly serves other countries"
	case agree > 0 && conflict == 0 && c.CountryShare >= HighMinShare && c.RadiusKm <= HighMaxRadiusKm:
		// An area of the address's own network is its accuracy circle, which holds the pin.
		switch {
		case pfx != p.Network && !c.Area.Contains(p.Latitude, p.Longitude):
			c.Level, c.Reason = LevelModerate, "the address is placed outside its network's service area"
		case p.City.IsZero():
			// A record without a city sits at its region's or country's default point, often
			// with a radius of 100 km (GeoLite2's Netherlands and Switzerland, say): a small
			// circle there does not place anyone.
			c.Level, c.Reason = LevelModerate, "the data places the address in its region or country, not a city"
		default:
			c.Level, c.Reason = LevelHigh, "independent sources agree and the service area is small"
		}
	case conflict > 0:
		c.Level, c.Reason = LevelModerate, "independent sources partly disagree on the country"
	case agree == 0:
		c.Level, c.Reason = LevelModerate, "no independent source confirms the country"
	case c.CountryShare < HighMinShare:
		c.Level, c.Reason = LevelModerate, "the network serves several countries"
	default:
		c.Level, c.Reason = LevelModerate, "the service area is large"
	}
	return c
}

// estimateOf returns the service-area estimate for p and the prefix it was made over: bgp's
// when bgp may have an estimate of its own (prefixMayHaveEstimate) and has one, else that of
// p's record over p's network.
func (db *DB) estimateOf(p Place, bgp netip.Prefix) (estimate, netip.Prefix) {
	if prefixMayHaveEstimate(bgp, p.Network) {
		if db.areas != nil {
			if e, ok := db.areas.prefix(bgp); ok {
				return e, bgp
			}
		} else if e := db.memo.prefix(db, bgp); e.poly != nil {
			return e, bgp
		}
	}
	if db.areas != nil {
		return db.areas.record(db, p.record), p.Network
	}
	return db.memo.record(db, p.record), p.Network
}

// prefixMayHaveEstimate reports whether an estimate over the BGP prefix bgp applies to an
// address of the data network n: bgp strictly holds n, and is an IPv4 prefix or an IPv6
// prefix of at most 64 bits (the IPv6 data is sampled in /64 steps).
func prefixMayHaveEstimate(bgp, n netip.Prefix) bool {
	return bgp.IsValid() && bgp.Addr().Is4() == n.Addr().Is4() && bgp.Bits() < n.Bits() &&
		bgp.Contains(n.Addr()) && (bgp.Addr().Is4() || bgp.Bits() <= 64)
}

// Polygons is a confidence area: closed polygons concatenated, as the API's confidenceArea
// holds them. The points are kept as integers in units of 1e-5 degree (the API's precision)
// and shared with the DB; the zero Polygons is empty.
type Polygons struct {
	v []int32 // latitude, longitude, latitude, ...
}

// Len returns the number of points.
func (a Polygons) Len() int { return len(a.v) / 2 }

// Point returns point i, 0 ≤ i < Len.
func (a Polygons) Point(i int) Point {
	return Point{float64(a.v[2*i]) / 1e5, float64(a.v[2*i+1]) / 1e5}
}

// Points returns the points as a new slice; nil when empty.
func (a Polygons) Points() []Point {
	if len(a.v) == 0 {
		return nil
	}
	out := make([]Point, a.Len())
	for i := range out {
		out[i] = a.Point(i)
	}
	return out
}

// Contains reports whether the point at lat, lon (degrees) lies inside one of the area's
// polygons; a point on an edge may count either way. Each polygon is taken in a plane of
// latitude and longitude, its longitudes (and the point's) relative to its first point's,
// so that a polygon across the antimeridian is one piece; the areas are hulls a few
// hundred kilometres across at most, which that plane bends little. The DB's areas are
// closed (checked on load), as the API's are.
func (a Polygons) Contains(lat, lon float64) bool {
	y := lat * 1e5
	for start := 0; start+1 < len(a.v); {
		end := closingPoint(a.v, start)
		if end == len(a.v) {
			return false
		}
		ref := float64(a.v[start+1])
		x := relLon(lon*1e5, ref)
		in := false
		for i := start; i < end; i += 2 {
			yi, yj := float64(a.v[i]), float64(a.v[i+2])
			if (yi > y) == (yj > y) {
				continue
			}
			xi, xj := relLon(float64(a.v[i+1]), ref), relLon(float64(a.v[i+3]), ref)
			if x < xi+(xj-xi)*(y-yi)/(yj-yi) {
				in = !in
			}
		}
		if in {
			return true
		}
		start = end + 2
	}
	return false
}

// relLon returns longitude lon relative to ref, both in 10⁻⁵ degrees, in [-180°, 180°).
func relLon(lon, ref float64) float64 {
	d := math.Mod(lon-ref+180e5, 360e5)
	if d < 0 {
		d += 360e5
	}
	return d - 180e5
}

// AppendJSON appends the area as the API's confidenceArea array,
// [{"latitude":…,"longitude":…},…], "[]" when empty. It does not allocate beyond b's growth,
// and writes every number as strconv.FormatFloat(Point(i).Latitude, 'f', -1, 64) would.
//
// A point is assembled in a scratch array and appended once, and putE5 takes the digits in
// pairs: 40 points in 0.64 of the time of appending the pieces with strconv's digit loop
// (BenchmarkPolygonsAppendJSON, 1.07 -> 0.69 us). The polygon is about a quarter of a
// geolocation answer's bytes.
func (a Polygons) AppendJSON(b []byte) []byte {
	const lat, lon = `,{"latitude":`, `,"longitude":`
	var p pointBuf
	copy(p[:], lat)
	b = append(b, '[')
	for i := 0; i+1 < len(a.v); i += 2 {
		n := p.putE5(len(lat), a.v[i])
		n += copy(p[n&pointMask:], lon)
		n = p.putE5(n, a.v[i+1])
		p[n&pointMask] = '}'
		n++
		from := 1 // no comma before the first point
		if i > 0 {
			from = 0
		}
		b = append(b, p[from:n&pointMask]...)
	}
	return append(b, ']')
}

// AppendDegrees appends a coordinate in degrees as strconv.AppendFloat(b, v, 'f', -1, 64)
// does (TestAppendDegreesMatchesStrconv). The geolocation data's coordinates have at most
// four decimals, so v is nearly always the float64 nearest to a whole number of 10⁻⁵
// degrees, which this writes with putE5 in about a third of strconv's time (a reviewer
// measured 78 against 222 ns for six real coordinates); anything else, and zero (whose sign
// strconv keeps), goes through strconv.
func AppendDegrees(b []byte, v float64) []byte {
	if n := math.Round(v * 1e5); n != 0 && math.Abs(n) < 1<<31 && float64(int32(n))/1e5 == v {
		var p pointBuf
		return append(b, p[:p.putE5(0, int32(n))]...)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// pointBuf holds one point's JSON: at most 13 + 12 + 13 + 12 + 1 bytes. Indexes into it are
// masked with pointMask, which spares the bounds checks.
type pointBuf [64]byte

const pointMask = len(pointBuf{}) - 1

// digitPairs holds "00" to "99": two digits from one division instead of two.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

// putE5 writes n·10⁻⁵ in decimal at p[at:], without trailing zeros in the fraction, and
// returns the end. The float64 nearest to a decimal of at most 15 significant digits prints
// back as that decimal in strconv's shortest form, so this is what
// strconv.AppendFloat(float64(n)/1e5, 'f', -1, 64) writes, without its general algorithm
// (TestPutE5MatchesStrconv). The fraction's digits come in independent pairs rather than
// from a chain of five divisions by ten, which was most of the time.
func (p *pointBuf) putE5(at int, n int32) int {
	u := uint32(n)
	if n < 0 {
		p[at&pointMask] = '-'
		at++
		u = uint32(-int64(n))
	}
	whole, frac := u/100000, u%100000
	switch {
	case whole < 10:
		p[at&pointMask] = byte('0' + whole)
		at++
	case whole < 100:
		p[at&pointMask], p[(at+1)&pointMask] = digitPairs[2*whole], digitPairs[2*whole+1]
		at += 2
	case whole < 1000:
		h, t := whole/100, whole%100
		p[at&pointMask], p[(at+1)&pointMask], p[(at+2)&pointMask] = byte('0'+h), digitPairs[2*t], digitPairs[2*t+1]
		at += 3
	default: // beyond any coordinate, but an int32 allows it
		var w [5]byte
		k := len(w)
		for whole > 0 {
			k--
			w[k] = byte('0' + whole%10)
			whole /= 10
		}
		at += copy(p[at&pointMask:], w[k:])
	}
	if frac == 0 {
		return at
	}
	hi, lo := frac/1000, frac%1000
	mid, last := lo/10, lo%10
	p[at&pointMask] = '.'
	p[(at+1)&pointMask], p[(at+2)&pointMask] = digitPairs[2*hi], digitPairs[2*hi+1]
	p[(at+3)&pointMask], p[(at+4)&pointMask] = digitPairs[2*mid], digitPairs[2*mid+1]
	p[(at+5)&pointMask] = byte('0' + last)
	end := at + 6
	for p[(end-1)&pointMask] == '0' {
		end--
	}
	return end
}

// Prefetch asks the CPU for the area's points, which an answer writes last.
func (a Polygons) Prefetch() { prefetch.Slice(a.v) }
