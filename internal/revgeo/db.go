package revgeo

import (
	"cmp"
	"slices"
	"strings"
)

// DB is the decoded, immutable reverse-geocoding data. It is safe for concurrent use. Build one
// with Decode; the zero DB knows nothing and answers every valid point with an empty Place.
type DB struct {
	tzVersion string
	strs      []string // string table; placeRec fields index it

	countries  []Country // sorted by Code
	placeStart []uint32  // places of countries[i] are places[placeStart[i]:placeStart[i+1]]
	candStart  []uint32  // city candidates of countries[i] are cands[candStart[i]:candStart[i+1]]
	cands      []uint32  // indices into places, per country in k-d tree order
	places     []placeRec
	xyz        [][3]float64 // unit vector of each place

	subs       []Subdivision
	subCountry []int32 // index in countries of each subdivision's country, -1 if none
	subByGN    []int32 // subdivisions with a GeoNames code of their own, sorted by it
	subByID    []int32 // subdivisions with a GeoNames id that no other has, sorted by it
	placeSub   []int32 // each place's subdivision by its GeoNames codes, -1 if they name none
	admin2     []Admin2
	zones      []string

	layers [numLayers]layer
}

// placeRec is a populated place as stored: string fields are indices into DB.strs. The places
// of one country form an implicit k-d tree over their unit vectors (see kdNearest).
type placeRec struct {
	geonameID                   uint32
	name, fcode, a1, a2, a3, a4 uint32
	population                  uint32
	lat, lon                    int32 // grid units
}

// Layer names one of the DB's polygon layers.
type Layer int

// The polygon layers. Feature i of LayerCountry is Countries()[i], of LayerSubdivision
// Subdivisions()[i], of LayerTimeZone TimeZones()[i].
const (
	LayerCountry Layer = iota
	LayerSubdivision
	LayerTimeZone
	numLayers
)

// Validate returns ErrBadCoordinates unless lat is a number in [-90, 90] and lon a number in
// [-180, 180].
func Validate(lat, lon float64) error {
	if !validCoordinates(lat, lon) {
		return ErrBadCoordinates
	}
	return nil
}

// Lookup resolves a point (see the package documentation for the rules). It reports false,
// with the zero Place, only for coordinates that Validate rejects; a point on the high seas is
// a valid answer with no country. Lookup does not allocate.
func (db *DB) Lookup(lat, lon float64) (Place, bool) {
	if !validCoordinates(lat, lon) {
		return Place{}, false
	}
	p := Place{Latitude: lat, Longitude: lon}
	px, py := int64(toUnits(lon)), int64(toUnits(lat))

	// Points on the poles or the antimeridian lie on the edges of the polygons that reach
	// them; move them one grid unit (1.1 m) inwards so that they are inside.
	px = min(max(px, -180*unitsPerDegree+1), 180*unitsPerDegree-1)
	py = min(max(py, -90*unitsPerDegree+1), 90*unitsPerDegree-1)

	var cHits, sHits [maxHits]int32
	cl, sl := &db.layers[LayerCountry], &db.layers[LayerSubdivision]
	nc := cl.query(px, py, cHits[:])
	ns := sl.query(px, py, sHits[:])
	ci := int32(-1)
	switch {
	case nc > 0:
		// Overlapping country polygons: an overseas territory drawn both on its own and within
		// its parent's polygon, disputed areas. The smallest, most specific, wins.
		ci = cl.smallest(cHits[:nc])
	case ns > 0:
		ci = db.subCountry[sl.smallest(sHits[:ns])]
	}
	p.TimeZone = db.zoneAt(px, py)
	if ci < 0 {
		return p, true
	}
	p.Country = db.countries[ci]

	si := db.subdivisionOf(sHits[:ns], ci)

	q := unitVector(lat, lon)
	if li, d2, ok := db.nearestPlace(int(ci), q); ok {
		if si >= 0 {
			li, d2 = db.localityIn(si, ci, li, d2, q)
		}
		p.Locality = db.populated(li, p.Country.Code, d2)
		// The subdivision and second-order division of the locality, checked against the
		// point's: the locality must lie in the same admin-1 polygon as the point, and that
		// polygon must be the locality's GeoNames admin-1. Where Natural Earth's admin-1 is
		// finer than GeoNames' (French départements, British councils, Italian provinces),
		// the GeoNames admin-2 is the same level or above it, not below.
		rec := db.places[li]
		lsi := db.subdivisionAt(int64(rec.lon), int64(rec.lat), ci)
		if si < 0 && lsi < 0 {
			lsi = db.placeSub[li] // by the locality's GeoNames codes
		}
		if si < 0 && lsi >= 0 {
			si, p.SubdivisionInferred = lsi, true
		}
		if si >= 0 && si == lsi && cmpGeoNamesCode(db.subs[si].GeoNamesCode, p.Country.Code, p.Locality.Admin1) == 0 {
			if ai, ok := db.findAdmin2(p.Country.Code, p.Locality.Admin1, p.Locality.Admin2); ok {
				p.Admin2 = db.admin2[ai]
			}
		}
	}
	if si >= 0 {
		p.Subdivision = db.subs[si]
	}
	if city, d2, ok := db.bestCity(int(ci), q); ok {
		p.City = db.populated(city, p.Country.Code, d2)
	} else {
		p.City = p.Locality
	}

	if cs := p.Country.Continents; len(cs) > 0 {
		p.ContinentCode = cs[0]
		if z := continentOfZone(p.TimeZone); len(cs) > 1 && z != "" && slices.Contains(cs, z) {
			p.ContinentCode = z
		}
	}
	return p, true
}

// gapSteps are the grid points around a point that zoneAt tries, in order: east first, as
// for a point on a border (see crosses), then anticlockwise.
var gapSteps = [8][2]int64{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

// zoneAt returns the time zone of the grid point: the smallest zone polygon holding it. Where
// none does, the point is in a gap that simplifying the zones' shared borders left between
// them (in the real data, 200 of the 395 584 border vertices shared on land, each within one
// grid unit of a zone), and it takes the zone of the first point of gapSteps that has one.
// Every point has a zone otherwise, at sea too, so the common case makes one query.
func (db *DB) zoneAt(px, py int64) string {
	var hits [maxHits]int32
	l := &db.layers[LayerTimeZone]
	if n := l.query(px, py, hits[:]); n > 0 {
		return db.zones[l.smallest(hits[:n])]
	}
	for _, d := range gapSteps {
		if n := l.query(px+d[0], py+d[1], hits[:]); n > 0 {
			return db.zones[l.smallest(hits[:n])]
		}
	}
	return ""
}

// subdivisionAt returns the subdivision of country ci whose polygon contains the grid point,
// or -1.
func (db *DB) subdivisionAt(px, py int64, ci int32) int32 {
	var hits [maxHits]int32
	n := db.layers[LayerSubdivision].query(px, py, hits[:])
	return db.subdivisionOf(hits[:n], ci)
}

// subdivisionOf returns the smallest of the subdivisions hits that belongs to country ci, or
// -1.
func (db *DB) subdivisionOf(hits []int32, ci int32) int32 {
	best := int32(-1)
	area := db.layers[LayerSubdivision].area
	for _, s := range hits {
		if db.subCountry[s] == ci && (best < 0 || area[s] < area[best]) {
			best = s
		}
	}
	return best
}

// cmpGeoNamesCode compares the code "CC.A1" with cc + "." + a1 without building the latter.
func cmpGeoNamesCode(code, cc, a1 string) int {
	head, tail, _ := strings.Cut(code, ".")
	if c := strings.Compare(head, cc); c != 0 {
		return c
	}
	return strings.Compare(tail, a1)
}

func (db *DB) findAdmin2(cc, a1, a2 string) (int, bool) {
	if a2 == "" {
		return 0, false
	}
	return slices.BinarySearchFunc(db.admin2, 0, func(a Admin2, _ int) int {
		return cmp.Or(strings.Compare(a.CountryCode, cc), strings.Compare(a.Admin1, a1), strings.Compare(a.Code, a2))
	})
}

// populated returns place i, of the country with code cc, as a Populated; d2 is its squared
// chord distance from the point looked up.
func (db *DB) populated(i int, cc string, d2 float64) Populated {
	r := db.places[i]
	return Populated{
		GeonameID: int(r.geonameID), Name: db.strs[r.name], FeatureCode: db.strs[r.fcode], CountryCode: cc,
		Admin1: db.strs[r.a1], Admin2: db.strs[r.a2], Admin3: db.strs[r.a3], Admin4: db.strs[r.a4],
		Population: int(r.population),
		Latitude:   float64(r.lat) / unitsPerDegree, Longitude: float64(r.lon) / unitsPerDegree,
		DistanceKm: kmForChord2(d2),
	}
}

// nearestPlace returns the place of country ci nearest to q within LocalityRadiusKm.
func (db *DB) nearestPlace(ci int, q [3]float64) (int, float64, bool) {
	lo, hi := int(db.placeStart[ci]), int(db.placeStart[ci+1])
	best, bestD := -1, chordForKm(LocalityRadiusKm)
	db.kdNearest(lo, hi, 0, q, &best, &bestD)
	return best, bestD, best >= 0
}

// localityIn returns the place to take as the locality of point q in subdivision si of
// country ci, given the nearest place li at squared chord d2: li if it lies in si, else the
// nearest of the localityCandidates nearest places that does and lies within the detour
// (localityDetour), else li.
func (db *DB) localityIn(si, ci int32, li int, d2 float64, q [3]float64) (int, float64) {
	if db.placeIn(li, si, ci) {
		return li, d2
	}
	reach := min(localityDetour*kmForChord2(d2)+localityDetourKm, LocalityRadiusKm)
	k := nearestK{bound: chordForKm(reach)}
	db.kdNearestK(int(db.placeStart[ci]), int(db.placeStart[ci+1]), 0, q, &k)
	for _, c := range k.found[:k.n] {
		if c.i != li && db.placeIn(c.i, si, ci) {
			return c.i, c.d2
		}
	}
	return li, d2
}

// placeIn reports whether place i lies in subdivision si of country ci: by its GeoNames
// codes where they name a subdivision (its admin-2 is the subdivision, or its admin-1 is),
// else by the subdivision's polygon. The codes come first because the polygons are
// simplified: Neuilly-sur-Seine, 300 m outside Paris, lies inside Paris's simplified polygon,
// but its admin-2 is Hauts-de-Seine.
func (db *DB) placeIn(i int, si, ci int32) bool {
	if s := db.placeSub[i]; s >= 0 {
		return s == si
	}
	r := &db.places[i]
	return db.subdivisionAt(int64(r.lon), int64(r.lat), ci) == si
}

// nearestK holds the nearest places found so far, nearest first, all within bound.
type nearestK struct {
	found [localityCandidates]struct {
		i  int
		d2 float64
	}
	n     int
	bound float64 // squared chord: only places closer than this are kept
}

// add keeps place i at squared chord d2 if it is among the nearest.
func (k *nearestK) add(i int, d2 float64) {
	if d2 >= k.limit() {
		return
	}
	j := min(k.n, len(k.found)-1) // the slot to fill: the next free one, or the farthest
	for ; j > 0 && k.found[j-1].d2 > d2; j-- {
		k.found[j] = k.found[j-1]
	}
	k.found[j].i, k.found[j].d2 = i, d2
	k.n = min(k.n+1, len(k.found))
}

// limit is the squared chord a place must be closer than to be kept.
func (k *nearestK) limit() float64 {
	if k.n == len(k.found) {
		return k.found[k.n-1].d2
	}
	return k.bound
}

// kdNearestK is kdNearest collecting the nearest places into k.
func (db *DB) kdNearestK(lo, hi, depth int, q [3]float64, k *nearestK) {
	for lo < hi {
		mid := lo + (hi-lo)/2
		p := &db.xyz[mid]
		k.add(mid, dist2(*p, q))
		axis := depth % 3
		diff := q[axis] - p[axis]
		nlo, nhi, flo, fhi := lo, mid, mid+1, hi
		if diff >= 0 {
			nlo, nhi, flo, fhi = mid+1, hi, lo, mid
		}
		db.kdNearestK(nlo, nhi, depth+1, q, k)
		if diff*diff >= k.limit() {
			return
		}
		lo, hi, depth = flo, fhi, depth+1
	}
}

// kdNearest searches the implicit k-d tree places[lo:hi] (split on axis depth%3 at the middle
// element) for a place closer to q than *bestD (a squared chord).
func (db *DB) kdNearest(lo, hi, depth int, q [3]float64, best *int, bestD *float64) {
	for lo < hi {
		mid := lo + (hi-lo)/2
		p := &db.xyz[mid]
		if d := dist2(*p, q); d < *bestD {
			*best, *bestD = mid, d
		}
		axis := depth % 3
		diff := q[axis] - p[axis]
		nlo, nhi, flo, fhi := lo, mid, mid+1, hi
		if diff >= 0 {
			nlo, nhi, flo, fhi = mid+1, hi, lo, mid
		}
		db.kdNearest(nlo, nhi, depth+1, q, best, bestD)
		if diff*diff >= *bestD {
			return
		}
		lo, hi, depth = flo, fhi, depth+1
	}
}

// bestCity returns the city of a point q in country ci: among the country's city-class places
// whose urban radius reaches q, the most populous, then the nearest.
func (db *DB) bestCity(ci int, q [3]float64) (int, float64, bool) {
	ids := db.cands[db.candStart[ci]:db.candStart[ci+1]]
	c := citySearch{db: db, ids: ids, q: q, r2: chordForKm(maxUrbanRadiusKm), best: -1}
	c.search(0, len(ids), 0)
	return c.best, c.bestD, c.best >= 0
}

type citySearch struct {
	db    *DB
	ids   []uint32
	q     [3]float64
	r2    float64
	best  int
	bestD float64
}

func (c *citySearch) search(lo, hi, depth int) {
	for lo < hi {
		mid := lo + (hi-lo)/2
		i := int(c.ids[mid])
		p := &c.db.xyz[i]
		if d := dist2(*p, c.q); d <= c.r2 {
			c.consider(i, d)
		}
		axis := depth % 3
		diff := c.q[axis] - p[axis]
		nlo, nhi, flo, fhi := lo, mid, mid+1, hi
		if diff >= 0 {
			nlo, nhi, flo, fhi = mid+1, hi, lo, mid
		}
		c.search(nlo, nhi, depth+1)
		if diff*diff > c.r2 {
			return
		}
		lo, hi, depth = flo, fhi, depth+1
	}
}

func (c *citySearch) consider(i int, d2 float64) {
	r := &c.db.places[i]
	radius := Populated{Population: int(r.population)}.UrbanRadiusKm()
	if d2 > chordForKm(radius) {
		return
	}
	if c.best >= 0 {
		b := &c.db.places[c.best]
		switch {
		case r.population < b.population:
			return
		case r.population == b.population && (d2 > c.bestD || d2 == c.bestD && r.geonameID > b.geonameID):
			return
		}
	}
	c.best, c.bestD = i, d2
}

// TimeZoneVersion returns the IANA time zone database release of the time zone polygons,
// e.g. "2025b".
func (db *DB) TimeZoneVersion() string { return db.tzVersion }

// Country returns the country with the ISO 3166-1 alpha-2 code (upper case) and whether the
// DB has it.
func (db *DB) Country(code string) (Country, bool) {
	i, ok := slices.BinarySearchFunc(db.countries, code, func(c Country, code string) int { return strings.Compare(c.Code, code) })
	if !ok {
		return Country{}, false
	}
	return db.countries[i], true
}

// Countries returns every country, sorted by code. The slice is the caller's.
func (db *DB) Countries() []Country { return slices.Clone(db.countries) }

// Subdivisions returns every subdivision, in the order of LayerSubdivision's features. The
// slice is the caller's.
func (db *DB) Subdivisions() []Subdivision { return slices.Clone(db.subs) }

// TimeZones returns the time zone names, in the order of LayerTimeZone's features.
func (db *DB) TimeZones() []string { return slices.Clone(db.zones) }

// Stats counts what the DB holds.
type Stats struct {
	Countries, Subdivisions, Admin2, Places, CityCandidates, TimeZones int
	Vertices, Rings, IndexNodes, IndexWords                            [numLayers]int
}

// Stats returns counts of the DB's contents, for logs and tests.
func (db *DB) Stats() Stats {
	s := Stats{
		Countries: len(db.countries), Subdivisions: len(db.subs), Admin2: len(db.admin2),
		Places: len(db.places), CityCandidates: len(db.cands), TimeZones: len(db.zones),
	}
	for i := range db.layers {
		l := &db.layers[i]
		s.Vertices[i], s.Rings[i], s.IndexNodes[i], s.IndexWords[i] = len(l.v), len(l.rings), len(l.tree), len(l.leaves)
	}
	return s
}

// Containing appends to dst the features of layer l whose polygons contain the point, using
// the index, and returns the extended slice. Coordinates are rounded to 1e-5 degree first.
// Invalid coordinates and unknown layers give no features.
func (db *DB) Containing(l Layer, lat, lon float64, dst []int) []int {
	if l < 0 || l >= numLayers || !validCoordinates(lat, lon) {
		return dst
	}
	var hits [maxHits]int32
	n := db.layers[l].query(int64(toUnits(lon)), int64(toUnits(lat)), hits[:])
	for _, h := range hits[:n] {
		dst = append(dst, int(h))
	}
	return dst
}

// Shapes returns the polygons of layer l as stored (after simplification and rounding to
// 1e-5 degree), one Shape per ring in feature order, each ring closed. It is meant for tests
// and tools, and allocates.
func (db *DB) Shapes(l Layer) []Shape {
	if l < 0 || l >= numLayers {
		return nil
	}
	ly := &db.layers[l]
	out := make([]Shape, 0, len(ly.rings))
	for _, r := range ly.rings {
		pts := make([]Point, 0, r.end-r.start)
		for _, v := range ly.v[r.start:r.end] {
			pts = append(pts, Point{Lat: float64(v.y) / unitsPerDegree, Lon: float64(v.x) / unitsPerDegree})
		}
		out = append(out, Shape{Feature: int(r.feature), Rings: [][]Point{pts}})
	}
	return out
}
