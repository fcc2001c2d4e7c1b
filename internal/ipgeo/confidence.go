package ipgeo

import (
	"cmp"
	"encoding/binary"
	"math"
	"net/netip"
	"slices"
	"strconv"
	"sync/atomic"
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

// The bounds of the service-area estimate.
const (
	// MaxNetworks is the most data networks examined inside one BGP prefix. A larger prefix
	// (an IPv4 /8 holds up to a million) is sampled at an even stride over its networks in
	// address order, so the cost of an estimate is bounded whatever the prefix.
	MaxNetworks = 128
	// MaxPoints is the most distinct places (records) kept for the hull, the heaviest first.
	MaxPoints = 16
	// AreaCoverage is the share of the network's addresses the area must cover: places are
	// taken nearest first from the weighted centre until they hold this share, so a few
	// far-off sub-ranges do not inflate the area (the address's own place is always kept).
	AreaCoverage = 0.9
	// CircleVertices is the number of vertices of the polygon that stands for each place's
	// accuracy circle before the hull is taken.
	CircleVertices = 16
	// MaxPolygons is the most polygons in an area: places whose accuracy circles do not
	// overlap form separate clusters, and the heaviest clusters (with the address's own)
	// are kept.
	MaxPolygons = 3
	// MinRadiusKm is the radius used for a place without an accuracy radius.
	MinRadiusKm = 1
	// memoBits sets the number of prefixes whose estimate is remembered: 1<<memoBits.
	memoBits  = 14
	memoSlots = 1 << memoBits
)

const earthRadiusKm = 6371.0088

// Point is a vertex of a confidence area, in degrees (EPSG:4326), rounded to 5 decimals.
type Point struct {
	Latitude  float64
	Longitude float64
}

// Evidence is what the caller knows about an address from other sources.
type Evidence struct {
	// BGPPrefix is the announced prefix that holds the address. The service area is
	// estimated over the data's networks inside it. If zero, or if it does not hold the
	// address, the data's own network is used.
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
	// first point), concatenated; nil without an estimate. Shared: do not modify.
	Area []Point
	// AreaJSON is Area as the API's confidenceArea JSON array,
	// [{"latitude":…,"longitude":…},…], "[]" without an estimate. Shared: do not modify.
	AreaJSON []byte
	// RadiusKm is the radius of the smallest circle about the weighted centre of the area's
	// places that holds all their accuracy circles: how far the network spreads.
	RadiusKm float64
	// CountryShare is the share of the network's addresses with a country that the data
	// places in the address's own country.
	CountryShare float64
	Prefix       netip.Prefix // the prefix the area was estimated over
	Networks     int          // how many of the data's networks inside it were examined
}

// Confidence rates the geolocation p (from Lookup; the zero Place for a miss) with two
// processes, as the commercial service explains its own:
//
//  1. The service-area estimate: the data's networks inside the address's BGP prefix, each
//     a point at its coordinates weighted by its number of addresses, with its accuracy
//     radius. Each point becomes a CircleVertices-gon; the area is the convex hull of each
//     cluster of overlapping circles (see AreaCoverage, MaxPolygons). The estimate depends
//     only on the prefix and is remembered per prefix in a bounded, lock-free memo.
//  2. Field evidence: the registered country of the same record and ev.SecondOpinion,
//     each compared with the country of p when present.
//
// The level, first rule that applies:
//
//   - low: no estimate (no place, no country or no coordinates), the address is
//     unreachable, every independent source present disagrees with the country, or at
//     most LowMaxShare of the prefix is placed in the country;
//   - high: at least one independent source agrees and none disagrees, at least
//     HighMinShare of the prefix is placed in the country, and the area's radius is at
//     most HighMaxRadiusKm;
//   - moderate: otherwise (evidence agrees only in part, no independent source, the
//     prefix spans countries, or the area is large).
//
// A smaller area does not by itself mean a higher level: the polygon is the service area,
// not the confidence (spec rule 3). On a memo hit Confidence does not allocate.
func (db *DB) Confidence(p Place, ev Evidence) Confidence {
	if db == nil {
		return Confidence{Level: LevelLow, Reason: "no geolocation for the address", AreaJSON: []byte("[]")}
	}
	if !p.Network.IsValid() {
		return Confidence{Level: LevelLow, Reason: "no geolocation for the address", AreaJSON: db.emptyArea}
	}
	pfx := p.Network
	if b := ev.BGPPrefix; b.IsValid() && b.Addr().Is4() == pfx.Addr().Is4() && b.Contains(pfx.Addr()) && b.Bits() < pfx.Bits() {
		pfx = b.Masked()
	}
	est := db.estimate(pfx, p)
	c := Confidence{
		Area: est.area, AreaJSON: est.json, RadiusKm: est.radiusKm, Prefix: pfx, Networks: est.networks,
	}
	if c.AreaJSON == nil {
		c.AreaJSON = db.emptyArea
	}
	country := p.Country.Code
	for _, cw := range est.countries {
		if cw.code == country {
			c.CountryShare = cw.share
		}
	}
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
	case ev.Unreachable:
		c.Level, c.Reason = LevelLow, "the address is not reachable on the Internet"
	case country == "" || !p.HasLocation:
		c.Level, c.Reason = LevelLow, "no location estimate for the address"
	case conflict > 0 && agree == 0:
		c.Level, c.Reason = LevelLow, "independent sources place the address in another country"
	case c.CountryShare <= LowMaxShare:
		c.Level, c.Reason = LevelLow, "the network mostly serves other countries"
	case agree > 0 && conflict == 0 && c.CountryShare >= HighMinShare && c.RadiusKm <= HighMaxRadiusKm:
		c.Level, c.Reason = LevelHigh, "independent sources agree and the service area is small"
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

// estimate is the service-area estimate of one prefix.
type estimate struct {
	prefix    netip.Prefix
	own       uint32 // the record the estimate was made for: it keeps its own place
	area      []Point
	json      []byte
	radiusKm  float64
	countries []countryShare // share of addresses per country, largest first
	networks  int
}

type countryShare struct {
	code  string
	share float64
}

// areaMemo remembers estimates per prefix and own record (an estimate keeps the address's
// own place, so two places of one prefix have different estimates): a direct-mapped table
// of atomic pointers, so reads take no lock and memory is bounded; a collision replaces the
// older entry.
type areaMemo struct {
	slots [memoSlots]atomic.Pointer[estimate]
}

func newAreaMemo() *areaMemo { return &areaMemo{} }

// memoSlot returns the memo slot of a prefix and record: a multiplicative hash, whose top
// bits mix every bit of the address, the length and the record.
func memoSlot(p netip.Prefix, rec uint32) uint64 {
	a := p.Addr().As16()
	h := (binary.BigEndian.Uint64(a[:8])*0x9e3779b97f4a7c15 ^ binary.BigEndian.Uint64(a[8:]) ^ uint64(p.Bits())<<56 ^ uint64(rec)<<24) * 0xc2b2ae3d27d4eb4f
	return h >> (64 - memoBits)
}

func (db *DB) estimate(pfx netip.Prefix, own Place) *estimate {
	slot := &db.memo.slots[memoSlot(pfx, own.record)]
	if e := slot.Load(); e != nil && e.prefix == pfx && e.own == own.record {
		return e
	}
	e := db.computeEstimate(pfx, own)
	slot.Store(e)
	return e
}

// sample is one network of a prefix: its record and its number of addresses (relative).
type sample struct {
	rec    uint32
	weight float64
}

// samples returns the data networks inside pfx, at most MaxNetworks of them, and how many
// were examined.
func (db *DB) samples(pfx netip.Prefix, own Place) []sample {
	ownOnly := []sample{{own.record, 1}}
	if pfx == own.Network {
		return ownOnly
	}
	var out []sample
	if pfx.Addr().Is4() {
		first, last := prefixRange4(pfx)
		i0, i1 := db.v4.leaf(first), db.v4.leaf(last)
		step := max(1, (i1-i0+MaxNetworks)/MaxNetworks)
		for i := i0; i <= i1; i += step {
			v := db.v4.vals[i]
			if v&kindMask != kindData {
				continue
			}
			end := uint64(1) << 32
			if i+1 < len(db.v4.keys) {
				end = uint64(db.v4.keys[i+1])
			}
			lo, hi := max(uint64(db.v4.keys[i]), uint64(first)), min(end, uint64(last)+1)
			out = append(out, sample{v >> kindBits, float64(hi - lo)})
		}
		return out
	}
	if pfx.Bits() > 64 {
		return ownOnly
	}
	a := pfx.Addr().As16()
	first := binary.BigEndian.Uint64(a[:8])
	last := first | (uint64(math.MaxUint64) >> pfx.Bits())
	if pfx.Bits() == 0 {
		last = math.MaxUint64
	}
	i0, i1 := db.v6.leaf(first), db.v6.leaf(last)
	step := max(1, (i1-i0+MaxNetworks)/MaxNetworks)
	for i := i0; i <= i1; i += step {
		v := db.v6.vals[i]
		if v&kindMask != kindData {
			continue
		}
		size := -db.v6.keys[i]
		if i+1 < len(db.v6.keys) {
			size = db.v6.keys[i+1] - db.v6.keys[i]
		}
		w := float64(size)
		if size == 0 {
			w = math.Exp2(64)
		}
		out = append(out, sample{v >> kindBits, w})
	}
	if len(out) == 0 {
		return ownOnly
	}
	return out
}

// point is a place of the prefix with its weight.
type point struct {
	lat, lon, radiusKm float64
	weight             float64
	own                bool
	x, y, z            float64 // unit vector
	cluster            int
	fromCentre         float64 // angle from the weighted centre, set by trim
}

func (db *DB) computeEstimate(pfx netip.Prefix, own Place) *estimate {
	ss := db.samples(pfx, own)
	e := &estimate{prefix: pfx, own: own.record, networks: len(ss)}

	// Merge the samples by record.
	slices.SortFunc(ss, func(a, b sample) int { return cmp.Compare(a.rec, b.rec) })
	var pts []point
	var byCountry []countryShare
	total := 0.0
	for i := 0; i < len(ss); {
		j, w := i, 0.0
		for ; j < len(ss) && ss[j].rec == ss[i].rec; j++ {
			w += ss[j].weight
		}
		r := &db.records[ss[i].rec]
		if code := r.Country.Code; code != "" {
			total += w
			k := slices.IndexFunc(byCountry, func(c countryShare) bool { return c.code == code })
			if k < 0 {
				byCountry = append(byCountry, countryShare{code, 0})
				k = len(byCountry) - 1
			}
			byCountry[k].share += w
		}
		if r.HasLocation {
			pts = append(pts, newPoint(r.Latitude, r.Longitude, float64(r.AccuracyRadius), w, ss[i].rec == own.record))
		}
		i = j
	}
	if total > 0 {
		for k := range byCountry {
			byCountry[k].share /= total
		}
	}
	slices.SortStableFunc(byCountry, func(a, b countryShare) int { return cmp.Compare(b.share, a.share) })
	e.countries = byCountry

	if own.HasLocation && !slices.ContainsFunc(pts, func(p point) bool { return p.own }) {
		pts = append(pts, newPoint(own.Latitude, own.Longitude, float64(own.AccuracyRadius), 0, true))
	}
	if len(pts) == 0 {
		return e
	}
	pts = trim(pts)
	cx, cy, cz := centre(pts)
	for _, p := range pts {
		e.radiusKm = max(e.radiusKm, angle(cx, cy, cz, p.x, p.y, p.z)*earthRadiusKm+p.radiusKm)
	}
	var area []Point
	for _, cl := range cluster(pts) {
		area = append(area, hullOfCircles(cl)...)
	}
	e.area = area
	e.json = appendAreaJSON(make([]byte, 0, 48*len(area)), area)
	return e
}

func newPoint(lat, lon, radius, w float64, own bool) point {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	return point{
		lat: lat, lon: lon, radiusKm: max(radius, MinRadiusKm), weight: w, own: own,
		x: math.Cos(φ) * math.Cos(λ), y: math.Cos(φ) * math.Sin(λ), z: math.Sin(φ),
	}
}

// centre returns the weighted centre of pts as a unit vector (the plain centre if all
// weights are zero).
func centre(pts []point) (x, y, z float64) {
	for _, p := range pts {
		w := p.weight
		if w == 0 {
			w = 1e-9
		}
		x, y, z = x+w*p.x, y+w*p.y, z+w*p.z
	}
	n := math.Sqrt(x*x + y*y + z*z)
	if n == 0 {
		return pts[0].x, pts[0].y, pts[0].z
	}
	return x / n, y / n, z / n
}

// angle returns the angle between two unit vectors, in radians.
func angle(ax, ay, az, bx, by, bz float64) float64 {
	cx, cy, cz := ay*bz-az*by, az*bx-ax*bz, ax*by-ay*bx
	return math.Atan2(math.Sqrt(cx*cx+cy*cy+cz*cz), ax*bx+ay*by+az*bz)
}

// trim keeps the places nearest the weighted centre that hold AreaCoverage of the weight,
// at most MaxPoints of them, plus the address's own place.
func trim(pts []point) []point {
	cx, cy, cz := centre(pts)
	total := 0.0
	for _, p := range pts {
		total += p.weight
	}
	for i := range pts { // once per point, not once per comparison
		pts[i].fromCentre = angle(cx, cy, cz, pts[i].x, pts[i].y, pts[i].z)
	}
	slices.SortStableFunc(pts, func(a, b point) int { return cmp.Compare(a.fromCentre, b.fromCentre) })
	var kept []point
	sum := 0.0
	for _, p := range pts {
		if len(kept) < MaxPoints && (sum < AreaCoverage*total || total == 0 || p.own) {
			kept = append(kept, p)
			sum += p.weight
		} else if p.own {
			kept[len(kept)-1] = p // the own place always stays, instead of the farthest kept
		}
	}
	return kept
}

// cluster groups places whose accuracy circles overlap (single linkage) and returns the
// heaviest MaxPolygons groups, the one holding the own place always among them.
func cluster(pts []point) [][]point {
	for i := range pts {
		pts[i].cluster = i
	}
	root := func(i int) int {
		for pts[i].cluster != i {
			i = pts[i].cluster
		}
		return i
	}
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			d := angle(pts[i].x, pts[i].y, pts[i].z, pts[j].x, pts[j].y, pts[j].z) * earthRadiusKm
			if d <= pts[i].radiusKm+pts[j].radiusKm {
				if a, b := root(i), root(j); a != b {
					pts[max(a, b)].cluster = min(a, b)
				}
			}
		}
	}
	type group struct {
		pts    []point
		weight float64
		own    bool
	}
	var groups []group
	index := map[int]int{}
	for i := range pts {
		r := root(i)
		k, ok := index[r]
		if !ok {
			k = len(groups)
			index[r] = k
			groups = append(groups, group{})
		}
		g := &groups[k]
		g.pts = append(g.pts, pts[i])
		g.weight += pts[i].weight
		g.own = g.own || pts[i].own
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		if a.own != b.own {
			if a.own {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.weight, a.weight)
	})
	var out [][]point
	for _, g := range groups[:min(len(groups), MaxPolygons)] {
		out = append(out, g.pts)
	}
	return out
}

// hullOfCircles returns the closed convex hull of the accuracy circles of pts. The hull is taken in an azimuthal equidistant projection centred on the group,
// which keeps distances from the centre and has no seam at the antimeridian.
func hullOfCircles(pts []point) []Point {
	cx, cy, cz := centre(pts)
	φ0, λ0 := math.Asin(max(-1, min(1, cz))), math.Atan2(cy, cx)
	type vertex struct {
		x, y     float64
		lat, lon float64
	}
	vs := make([]vertex, 0, len(pts)*CircleVertices)
	pr := newProjection(φ0, λ0)
	for _, p := range pts {
		c := newCircle(p.lat, p.lon, p.radiusKm)
		for k := range CircleVertices {
			lat, lon := c.vertex(k)
			x, y := pr.apply(lat, lon)
			vs = append(vs, vertex{x, y, lat, lon})
		}
	}
	slices.SortFunc(vs, func(a, b vertex) int {
		if c := cmp.Compare(a.x, b.x); c != 0 {
			return c
		}
		return cmp.Compare(a.y, b.y)
	})
	cross := func(o, a, b vertex) float64 { return (a.x-o.x)*(b.y-o.y) - (a.y-o.y)*(b.x-o.x) }
	// Andrew's monotone chain, counter-clockwise.
	hull := make([]vertex, 0, 2*len(vs))
	for _, v := range vs {
		for len(hull) >= 2 && cross(hull[len(hull)-2], hull[len(hull)-1], v) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, v)
	}
	lower := len(hull) + 1
	for i := len(vs) - 2; i >= 0; i-- {
		for len(hull) >= lower && cross(hull[len(hull)-2], hull[len(hull)-1], vs[i]) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, vs[i])
	}
	hull = hull[:len(hull)-1]
	out := make([]Point, 0, len(hull)+1)
	for _, v := range hull {
		out = append(out, Point{round5(v.lat), round5(normLon(v.lon))})
	}
	return append(out, out[0])
}

// The hull's vertices are the hot part of a confidence estimate (CircleVertices per place,
// each a destination on the sphere and a projection). circle and projection compute them
// with everything that does not change from vertex to vertex (the sines and cosines of the
// place's latitude, of the radius's angle, of the fixed bearings and of the projection's
// centre) computed once: about 9 transcendental calls a vertex instead of 27. The
// arithmetic is otherwise the textbook formulas' own, term for term, so the results are
// bit-identical to them (TestCircleMatchesFormulas checks against destination and project
// written plainly).

// bearingSin and bearingCos are the sine and cosine of bearing k, 2πk/CircleVertices.
var bearingSin, bearingCos = func() (s, c [CircleVertices]float64) {
	for k := range CircleVertices {
		θ := 2 * math.Pi * float64(k) / CircleVertices
		s[k], c[k] = math.Sin(θ), math.Cos(θ)
	}
	return s, c
}()

// circle is a place's circle of radius km on the sphere.
type circle struct {
	λ1, sinφ1, cosφ1, sinδ, cosδ float64
}

func newCircle(lat, lon, km float64) circle {
	φ1, δ := lat*math.Pi/180, km/earthRadiusKm
	return circle{λ1: lon * math.Pi / 180, sinφ1: math.Sin(φ1), cosφ1: math.Cos(φ1), sinδ: math.Sin(δ), cosδ: math.Cos(δ)}
}

// vertex returns the point of the circle at bearing k (the destination at the radius).
func (c circle) vertex(k int) (lat, lon float64) {
	sinθ, cosθ := bearingSin[k], bearingCos[k]
	φ2 := math.Asin(max(-1, min(1, c.sinφ1*c.cosδ+c.cosφ1*c.sinδ*cosθ)))
	λ2 := c.λ1 + math.Atan2(sinθ*c.sinδ*c.cosφ1, c.cosδ-c.sinφ1*math.Sin(φ2))
	return φ2 * 180 / math.Pi, normLon(λ2 * 180 / math.Pi)
}

// projection is the azimuthal equidistant projection centred on φ0, λ0 (radians), in km.
type projection struct {
	λ0, sinφ0, cosφ0 float64
}

func newProjection(φ0, λ0 float64) projection {
	return projection{λ0: λ0, sinφ0: math.Sin(φ0), cosφ0: math.Cos(φ0)}
}

// apply maps lat, lon (degrees) onto the plane.
func (pr projection) apply(lat, lon float64) (float64, float64) {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	sinφ, cosφ, cosΔλ := math.Sin(φ), math.Cos(φ), math.Cos(λ-pr.λ0)
	cosc := pr.sinφ0*sinφ + pr.cosφ0*cosφ*cosΔλ
	c := math.Acos(max(-1, min(1, cosc)))
	k := 1.0
	if s := math.Sin(c); s > 1e-12 {
		k = c / s
	}
	x := earthRadiusKm * k * cosφ * math.Sin(λ-pr.λ0)
	y := earthRadiusKm * k * (pr.cosφ0*sinφ - pr.sinφ0*cosφ*cosΔλ)
	return x, y
}

// normLon brings a longitude into [-180, 180).
func normLon(lon float64) float64 {
	lon = math.Mod(lon+180, 360)
	if lon < 0 {
		lon += 360
	}
	return lon - 180
}

func round5(v float64) float64 {
	r := math.Round(v*1e5) / 1e5
	if r == 0 {
		return 0 // no negative zero
	}
	return r
}

// appendAreaJSON appends pts as the API's confidenceArea array.
func appendAreaJSON(b []byte, pts []Point) []byte {
	b = append(b, '[')
	for i, p := range pts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"latitude":`...)
		b = strconv.AppendFloat(b, p.Latitude, 'f', -1, 64)
		b = append(b, `,"longitude":`...)
		b = strconv.AppendFloat(b, p.Longitude, 'f', -1, 64)
		b = append(b, '}')
	}
	return append(b, ']')
}

// prefixRange4 returns the first and last address of an IPv4 prefix.
func prefixRange4(p netip.Prefix) (first, last uint32) {
	a := p.Masked().Addr().As4()
	first = binary.BigEndian.Uint32(a[:])
	return first, first | uint32(uint64(1)<<(32-p.Bits())-1)
}
