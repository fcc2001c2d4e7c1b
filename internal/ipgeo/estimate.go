package ipgeo

import (
	"cmp"
	"encoding/binary"
	"math"
	"net/netip"
	"slices"
	"sync/atomic"
)

// The bounds of the service-area estimate.
const (
	// MaxNetworks is the most data networks examined inside one BGP prefix. A larger prefix
	// (an IPv4 /8 holds up to a million) is sampled at an even stride over its networks in
	// address order, so the cost of an estimate is bounded whatever the prefix.
	MaxNetworks = 128
	// MaxPoints is the most distinct places (records) kept for the hull, the nearest to the
	// weighted centre first.
	MaxPoints = 16
	// AreaCoverage is the share of the network's addresses the area must cover: places are
	// taken nearest first from the weighted centre until they hold this share, so a few
	// far-off sub-ranges do not inflate the area.
	AreaCoverage = 0.9
	// CircleVertices is the number of vertices of the polygon that stands for each place's
	// accuracy circle before the hull is taken.
	CircleVertices = 16
	// MaxPolygons is the most clusters in an area: places whose accuracy circles do not
	// overlap form separate clusters, and the heaviest clusters are kept. Each is one
	// polygon, or two where it crosses the antimeridian (splitAtAntimeridian).
	MaxPolygons = 3
	// MinRadiusKm is the radius used for a place without an accuracy radius.
	MinRadiusKm = 1
	// memoBits sets the number of estimates remembered without precomputed areas: 1<<memoBits.
	memoBits  = 14
	memoSlots = 1 << memoBits
)

const earthRadiusKm = 6371.0088

// estimate is the service-area estimate of a BGP prefix or of one record.
type estimate struct {
	poly     []int32 // as Polygons holds it; nil: no estimate
	radiusKm float64
	// A prefix's estimate has the share of addresses per country, largest first; a
	// record's has its one country (share 1), "" if none.
	countries []countryShare
	country   string
}

type countryShare struct {
	code  string
	share float64
}

// share returns the share of the estimate's addresses placed in country code.
func (e estimate) share(code string) float64 {
	if e.country != "" {
		if code == e.country {
			return 1
		}
		return 0
	}
	for _, cw := range e.countries {
		if cw.code == code {
			return cw.share
		}
	}
	return 0
}

// recordEstimate is the estimate of record rec with its polygon poly (recordPolygon's).
func (db *DB) recordEstimate(rec uint32, poly []int32) estimate {
	r := &db.records[rec]
	e := estimate{country: db.countryCode(rec), poly: poly}
	if r.hasLoc {
		e.radiusKm = max(float64(r.radius), MinRadiusKm)
	}
	return e
}

// recordPolygon returns the accuracy circle of record rec as a closed polygon, nil without
// coordinates.
func (db *DB) recordPolygon(rec uint32) []int32 {
	r := &db.records[rec]
	if !r.hasLoc {
		return nil
	}
	return hullOfCircles(nil, []point{newPoint(r.lat, r.lon, float64(r.radius), 1)})
}

// prefixEstimate computes the estimate of a BGP prefix: the zero estimate when the data's
// networks inside it (as sampled) hold fewer than two records or none with coordinates.
func (db *DB) prefixEstimate(pfx netip.Prefix) estimate {
	ss := db.samples(pfx)
	if !slices.ContainsFunc(ss, func(s sample) bool { return s.rec != ss[0].rec }) {
		return estimate{}
	}
	return db.computeEstimate(ss)
}

// areaMemo remembers estimates computed on demand, for a DB without precomputed areas: a
// direct-mapped table of atomic pointers, so reads take no lock and memory is bounded; a
// collision replaces the older entry.
type areaMemo struct {
	slots [memoSlots]atomic.Pointer[memoEntry]
}

// memoEntry is a prefix's estimate, or with pfx invalid, record rec's.
type memoEntry struct {
	pfx netip.Prefix
	rec uint32
	est estimate
}

func newAreaMemo() *areaMemo { return &areaMemo{} }

// memoSlot returns the memo slot of a prefix or record: a multiplicative hash, whose top bits
// mix every bit of the address, the length and the record.
func memoSlot(p netip.Prefix, rec uint32) uint64 {
	var a [16]byte
	if p.IsValid() {
		a = p.Addr().As16()
	}
	h := (binary.BigEndian.Uint64(a[:8])*0x9e3779b97f4a7c15 ^ binary.BigEndian.Uint64(a[8:]) ^ uint64(p.Bits()+1)<<56 ^ uint64(rec)<<24) * 0xc2b2ae3d27d4eb4f
	return h >> (64 - memoBits)
}

func (m *areaMemo) prefix(db *DB, pfx netip.Prefix) estimate {
	slot := &m.slots[memoSlot(pfx, 0)]
	if e := slot.Load(); e != nil && e.pfx == pfx {
		return e.est
	}
	e := &memoEntry{pfx: pfx, est: db.prefixEstimate(pfx)}
	slot.Store(e)
	return e.est
}

func (m *areaMemo) record(db *DB, rec uint32) estimate {
	slot := &m.slots[memoSlot(netip.Prefix{}, rec)]
	if e := slot.Load(); e != nil && !e.pfx.IsValid() && e.rec == rec {
		return e.est
	}
	e := &memoEntry{rec: rec, est: db.recordEstimate(rec, db.recordPolygon(rec))}
	slot.Store(e)
	return e.est
}

// sample is one network of a prefix: its record and its number of addresses (relative).
type sample struct {
	rec    uint32
	weight float64
}

// samples returns the data networks inside pfx (IPv4, or IPv6 of at most 64 bits), at most
// MaxNetworks of them at an even stride.
func (db *DB) samples(pfx netip.Prefix) []sample {
	var out []sample
	if pfx.Addr().Is4() {
		first, last := prefixRange4(pfx)
		i0, i1 := db.v4.Leaf(first), db.v4.Leaf(last)
		step := max(1, (i1-i0+MaxNetworks)/MaxNetworks)
		for i := i0; i <= i1; i += step {
			v := db.v4.vals[i]
			if v&kindMask != kindData {
				continue
			}
			lo, hi := max(uint64(db.v4.Keys[i]), uint64(first)), min(db.v4.End(i), uint64(last)+1)
			out = append(out, sample{v >> kindBits, float64(hi - lo)})
		}
		return out
	}
	if pfx.Bits() > 64 {
		return nil
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
	return out
}

// computeEstimate makes the estimate of a prefix from its samples: the share of each country,
// and the hull of the places nearest the weighted centre (trim), per cluster of overlapping
// accuracy circles.
func (db *DB) computeEstimate(ss []sample) estimate {
	slices.SortFunc(ss, func(a, b sample) int { return cmp.Compare(a.rec, b.rec) })
	var pts []point
	var byCountry []countryShare
	total := 0.0
	for i := 0; i < len(ss); { // merge the samples by record
		j, w := i, 0.0
		for ; j < len(ss) && ss[j].rec == ss[i].rec; j++ {
			w += ss[j].weight
		}
		r := &db.records[ss[i].rec]
		if code := db.countryCode(ss[i].rec); code != "" {
			total += w
			k := slices.IndexFunc(byCountry, func(c countryShare) bool { return c.code == code })
			if k < 0 {
				byCountry = append(byCountry, countryShare{code, 0})
				k = len(byCountry) - 1
			}
			byCountry[k].share += w
		}
		if r.hasLoc {
			pts = append(pts, newPoint(r.lat, r.lon, float64(r.radius), w))
		}
		i = j
	}
	if len(pts) == 0 {
		return estimate{}
	}
	if total > 0 {
		for k := range byCountry {
			byCountry[k].share /= total
		}
	}
	slices.SortStableFunc(byCountry, func(a, b countryShare) int { return cmp.Compare(b.share, a.share) })
	e := estimate{countries: byCountry}
	pts = trim(pts)
	cx, cy, cz := centre(pts)
	for _, p := range pts {
		e.radiusKm = max(e.radiusKm, angle(cx, cy, cz, p.x, p.y, p.z)*earthRadiusKm+p.radiusKm)
	}
	for _, cl := range cluster(pts) {
		e.poly = hullOfCircles(e.poly, cl)
	}
	return e
}

// point is a place of the prefix with its weight.
type point struct {
	lat, lon, radiusKm float64
	weight             float64
	x, y, z            float64 // unit vector
	cluster            int
	fromCentre         float64 // angle from the weighted centre, set by trim
}

func newPoint(lat, lon, radius, w float64) point {
	φ, λ := lat*math.Pi/180, lon*math.Pi/180
	return point{
		lat: lat, lon: lon, radiusKm: max(radius, MinRadiusKm), weight: w,
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
// at most MaxPoints of them.
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
	kept, sum := 0, 0.0
	for kept < len(pts) && kept < MaxPoints && (sum < AreaCoverage*total || total == 0) {
		sum += pts[kept].weight
		kept++
	}
	return pts[:kept]
}

// cluster groups places whose accuracy circles overlap (single linkage) and returns the
// heaviest MaxPolygons groups.
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
	}
	slices.SortStableFunc(groups, func(a, b group) int { return cmp.Compare(b.weight, a.weight) })
	var out [][]point
	for _, g := range groups[:min(len(groups), MaxPolygons)] {
		out = append(out, g.pts)
	}
	return out
}

// hullOfCircles appends to dst the closed convex hull of the accuracy circles of pts, as
// Polygons holds points. The hull is taken in an azimuthal equidistant projection centred on
// the group, which keeps distances from the centre and has no seam at the antimeridian; a
// hull across the antimeridian is then split there (splitAtAntimeridian).
func hullOfCircles(dst []int32, pts []point) []int32 {
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
	start := len(dst)
	for _, v := range hull {
		dst = append(dst, e5(v.lat), e5(normLon(v.lon)))
	}
	return splitAtAntimeridian(append(dst, dst[start], dst[start+1]), start)
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

// e5 returns v in units of 1e-5, rounded: the API's precision (about a metre).
func e5(v float64) int32 {
	return int32(math.Round(v * 1e5))
}

// prefixRange4 returns the first and last address of an IPv4 prefix.
func prefixRange4(p netip.Prefix) (first, last uint32) {
	a := p.Masked().Addr().As4()
	first = binary.BigEndian.Uint32(a[:])
	return first, first | uint32(uint64(1)<<(32-p.Bits())-1)
}
