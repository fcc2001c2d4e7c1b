package revgeo

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
)

// Point is a position in degrees.
type Point struct{ Lat, Lon float64 }

// Shape is (part of) one feature's polygons: rings of points, outer rings and holes alike,
// combined by the even-odd rule. A ring may be given closed or open. Feature is the index of
// the feature in its Source slice (Countries, Subdivisions or TimeZones); a feature may have
// several Shapes.
type Shape struct {
	Feature int
	Rings   [][]Point
}

// Source is everything Encode needs. Countries may come in any order. Subdivisions and
// TimeZones keep their order (Shapes refer to them by index). Every place's CountryCode must
// be one of Countries.
type Source struct {
	Countries    []Country
	Subdivisions []Subdivision
	Admin2       []Admin2
	Places       []Populated // DistanceKm is ignored
	TimeZones    []string    // IANA names

	CountryShapes     []Shape
	SubdivisionShapes []Shape
	TimeZoneShapes    []Shape

	TimeZoneVersion string // release of the IANA data the time zone polygons follow
}

// The section layout. Integers are varints (encoding/binary; "s" marks zig-zag signed ones);
// a "str" is a varint index into the string table, whose entry 0 is "".
//
//	magic        "ipatlas-revgeo\x00"
//	version      formatVersion
//	strings      count, count × byte length, then the strings' UTF-8 bytes, in first-use order
//	tzVersion    str
//	countries    count, count × (str code, str name, geonameId, n, n × str continent),
//	             strictly ascending by code
//	subdivisions count, count × (str countryCode, str code, str sourceCode, str isoParent,
//	             str isoName, str native, n, n × (str lang, str name) ascending by lang,
//	             str type, str wikidata, geonameId, str geoNamesCode, str fips (from version 3))
//	admin2       count, count × (str countryCode, str admin1, str code, str name, geonameId),
//	             strictly ascending by (countryCode, admin1, code)
//	zones        count, count × str
//	places       total count, then per country: count, then count × (geonameId, str name, str featureCode,
//	             str admin1..admin4, population, s latitude delta, s longitude delta), the
//	             deltas from the previous place in the section, in grid units
//	cities       per country: count, count × index of a place within the country's places
//	3 layers     vertex count; rings: count, count × (feature, n, n × (s x delta, s y delta));
//	             tree: count, count × (leaf: offset<<1 | 1; inner: (child - index)<<1);
//	             leaves: count of words, then the records, each (header, per feature
//	             (feature<<1|bit, n, n × (s first edge - end of the previous run, length)))
//
// Places of a country and its city candidates are stored in implicit k-d tree order, so
// Decode only computes the places' unit vectors.
const (
	magic         = "ipatlas-revgeo\x00"
	formatVersion = 3 // 2: subdivisions' sourceCode, isoParent and isoName; 3: their fips
	// oldestVersion is the oldest format Decode reads: a version 2 section reads as one of
	// version 3 whose subdivisions have no FIPS codes, so that a snapshot built before them
	// still serves (without location.fips) until the next data update.
	oldestVersion = 2
)

// Encode returns the revgeo section payload for src: it rounds the shapes to the grid, drops
// degenerate rings, computes the indexes and checks that the result decodes. The bytes depend
// only on src, so the same input always encodes identically.
func Encode(src Source) ([]byte, error) {
	countries := slices.Clone(src.Countries)
	slices.SortFunc(countries, func(a, b Country) int { return strings.Compare(a.Code, b.Code) })
	countryAt := map[string]int{}
	for i, c := range countries {
		if !isAlpha2(c.Code) {
			return nil, fmt.Errorf("revgeo: encode: country code %q", c.Code)
		}
		if _, dup := countryAt[c.Code]; dup {
			return nil, fmt.Errorf("revgeo: encode: duplicate country %q", c.Code)
		}
		countryAt[c.Code] = i
		for _, k := range c.Continents {
			if _, ok := ContinentName(k); !ok {
				return nil, fmt.Errorf("revgeo: encode: country %q: continent %q", c.Code, k)
			}
		}
	}
	// Country shapes refer to src.Countries; renumber them to the sorted order.
	cshapes := make([]Shape, len(src.CountryShapes))
	for i, s := range src.CountryShapes {
		if s.Feature < 0 || s.Feature >= len(src.Countries) {
			return nil, fmt.Errorf("revgeo: encode: country shape of feature %d", s.Feature)
		}
		cshapes[i] = Shape{Feature: countryAt[src.Countries[s.Feature].Code], Rings: s.Rings}
	}

	// Places, grouped by country, each group in k-d order; then the city candidates.
	groups := make([][]Populated, len(countries))
	for _, p := range src.Places {
		ci, ok := countryAt[p.CountryCode]
		if !ok {
			return nil, fmt.Errorf("revgeo: encode: place %d in unknown country %q", p.GeonameID, p.CountryCode)
		}
		if !validCoordinates(p.Latitude, p.Longitude) || p.GeonameID < 0 || p.GeonameID > math.MaxUint32 ||
			p.Population < 0 || p.Population > math.MaxUint32 {
			return nil, fmt.Errorf("revgeo: encode: place %d: bad values", p.GeonameID)
		}
		groups[ci] = append(groups[ci], p)
	}
	cands := make([][]int, len(countries))
	for ci, g := range groups {
		vec := make([][3]float64, len(g))
		for i, p := range g {
			vec[i] = unitVector(gridDeg(p.Latitude), gridDeg(p.Longitude))
		}
		order := make([]int, len(g))
		for i := range order {
			order[i] = i
		}
		kdOrder(order, vec, g, 0)
		sorted := make([]Populated, len(g))
		svec := make([][3]float64, len(g))
		for i, j := range order {
			sorted[i], svec[i] = g[j], vec[j]
		}
		groups[ci] = sorted
		var cs []int
		for i, p := range sorted {
			if p.IsCityClass() {
				cs = append(cs, i)
			}
		}
		kdOrder(cs, svec, sorted, 0)
		cands[ci] = cs
	}

	admin2 := slices.Clone(src.Admin2)
	slices.SortFunc(admin2, compareAdmin2)
	for i := 1; i < len(admin2); i++ {
		if compareAdmin2(admin2[i-1], admin2[i]) == 0 {
			a := admin2[i]
			return nil, fmt.Errorf("revgeo: encode: duplicate admin-2 %s.%s.%s", a.CountryCode, a.Admin1, a.Code)
		}
	}

	// The three indexes are independent: build them in parallel.
	var layers [numLayers]layer
	var errs [numLayers]error
	var wg sync.WaitGroup
	for li, in := range [numLayers]struct {
		shapes []Shape
		n      int
	}{{cshapes, len(countries)}, {src.SubdivisionShapes, len(src.Subdivisions)}, {src.TimeZoneShapes, len(src.TimeZones)}} {
		wg.Go(func() {
			shapes, err := gridShapes(in.shapes, in.n)
			if err == nil {
				layers[li], err = buildLayer(shapes, in.n)
			}
			if err != nil {
				errs[li] = fmt.Errorf("revgeo: encode: layer %d: %w", li, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs[:]...); err != nil {
		return nil, err
	}

	e := encoder{index: map[string]uint64{"": 0}, table: []string{""}}
	e.str(src.TimeZoneVersion)
	e.uvarint(uint64(len(countries)))
	for _, c := range countries {
		e.str(c.Code)
		e.str(c.Name)
		e.int(c.GeonameID)
		e.uvarint(uint64(len(c.Continents)))
		for _, k := range c.Continents {
			e.str(k)
		}
	}
	e.uvarint(uint64(len(src.Subdivisions)))
	for _, s := range src.Subdivisions {
		e.str(s.CountryCode)
		e.str(s.Code)
		e.str(s.SourceCode)
		e.str(s.ISOParent)
		e.str(s.ISOName)
		e.str(s.Names.Native)
		names := slices.Clone(s.Names.ByLang)
		slices.SortFunc(names, func(a, b LangName) int { return strings.Compare(a.Lang, b.Lang) })
		e.uvarint(uint64(len(names)))
		for i, n := range names {
			if n.Lang == "" || i > 0 && names[i-1].Lang == n.Lang {
				return nil, fmt.Errorf("revgeo: encode: subdivision %q: language %q empty or repeated", s.Code, n.Lang)
			}
			e.str(n.Lang)
			e.str(n.Name)
		}
		e.str(s.Type)
		e.str(s.WikidataID)
		e.int(s.GeonameID)
		e.str(s.GeoNamesCode)
		e.str(s.FIPS)
	}
	e.uvarint(uint64(len(admin2)))
	for _, a := range admin2 {
		e.str(a.CountryCode)
		e.str(a.Admin1)
		e.str(a.Code)
		e.str(a.Name)
		e.int(a.GeonameID)
	}
	e.uvarint(uint64(len(src.TimeZones)))
	for _, z := range src.TimeZones {
		e.str(z)
	}
	var plat, plon int32
	e.uvarint(uint64(len(src.Places)))
	for _, g := range groups {
		e.uvarint(uint64(len(g)))
		for _, p := range g {
			e.int(p.GeonameID)
			e.str(p.Name)
			e.str(p.FeatureCode)
			e.str(p.Admin1)
			e.str(p.Admin2)
			e.str(p.Admin3)
			e.str(p.Admin4)
			e.int(p.Population)
			lat, lon := toUnits(p.Latitude), toUnits(p.Longitude)
			e.varint(int64(lat) - int64(plat))
			e.varint(int64(lon) - int64(plon))
			plat, plon = lat, lon
		}
	}
	for _, cs := range cands {
		e.uvarint(uint64(len(cs)))
		for _, i := range cs {
			e.int(i)
		}
	}
	for i := range layers {
		e.layer(&layers[i])
	}
	if e.err != nil {
		return nil, fmt.Errorf("revgeo: encode: %w", e.err)
	}

	out := make([]byte, 0, len(magic)+len(e.body)+8*len(e.table))
	out = append(out, magic...)
	out = binary.AppendUvarint(out, formatVersion)
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range e.table {
		out = append(out, s...)
	}
	out = append(out, e.body...)
	if _, err := Decode(out); err != nil {
		return nil, fmt.Errorf("revgeo: encode: output does not decode: %w", err)
	}
	return out, nil
}

func isAlpha2(s string) bool {
	return len(s) == 2 && 'A' <= s[0] && s[0] <= 'Z' && 'A' <= s[1] && s[1] <= 'Z'
}

func compareAdmin2(a, b Admin2) int {
	return cmp.Or(strings.Compare(a.CountryCode, b.CountryCode), strings.Compare(a.Admin1, b.Admin1), strings.Compare(a.Code, b.Code))
}

// gridDeg rounds degrees to the grid, as stored.
func gridDeg(deg float64) float64 { return float64(toUnits(deg)) / unitsPerDegree }

// kdOrder arranges idx into an implicit k-d tree over vec: the middle element splits the rest
// on axis depth%3, with the smaller ones before it. Ties are broken by GeoNames id, so the
// order is deterministic.
func kdOrder(idx []int, vec [][3]float64, places []Populated, depth int) {
	if len(idx) <= 1 {
		return
	}
	axis := depth % 3
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(vec[a][axis], vec[b][axis]), cmp.Compare(places[a].GeonameID, places[b].GeonameID), cmp.Compare(a, b))
	})
	mid := len(idx) / 2
	kdOrder(idx[:mid], vec, places, depth+1)
	kdOrder(idx[mid+1:], vec, places, depth+1)
}

// gridShapes rounds shapes to the grid, closes rings, drops repeated points and rings that
// enclose no area.
func gridShapes(shapes []Shape, nfeat int) ([]shape, error) {
	out := make([]shape, 0, len(shapes))
	for _, s := range shapes {
		if s.Feature < 0 || s.Feature >= nfeat {
			return nil, fmt.Errorf("shape of feature %d of %d", s.Feature, nfeat)
		}
		g := shape{feature: s.Feature}
		for _, r := range s.Rings {
			ring := make([]vtx, 0, len(r)+1)
			for _, p := range r {
				if !validCoordinates(p.Lat, p.Lon) {
					return nil, fmt.Errorf("feature %d: point (%v, %v) off the globe", s.Feature, p.Lat, p.Lon)
				}
				v := vtx{toUnits(p.Lon), toUnits(p.Lat)}
				if len(ring) == 0 || ring[len(ring)-1] != v {
					ring = append(ring, v)
				}
			}
			for len(ring) > 1 && ring[len(ring)-1] == ring[0] {
				ring = ring[:len(ring)-1]
			}
			if len(ring) < 3 || collinear(ring) {
				continue
			}
			g.rings = append(g.rings, append(ring, ring[0]))
		}
		if len(g.rings) > 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// collinear reports whether all points of the ring lie on one line (so it has no area).
func collinear(r []vtx) bool {
	a, b := r[0], r[1]
	for _, c := range r[2:] {
		if orient(int64(a.x), int64(a.y), int64(b.x), int64(b.y), int64(c.x), int64(c.y)) != 0 {
			return false
		}
	}
	return true
}

// encoder accumulates the body and the string table of a section.
type encoder struct {
	body  []byte
	index map[string]uint64
	table []string
	err   error
}

func (e *encoder) uvarint(v uint64) { e.body = binary.AppendUvarint(e.body, v) }
func (e *encoder) varint(v int64)   { e.body = binary.AppendVarint(e.body, v) }

func (e *encoder) int(v int) {
	if v < 0 && e.err == nil {
		e.err = fmt.Errorf("negative number %d", v)
	}
	e.uvarint(uint64(v))
}

func (e *encoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.uvarint(i)
}

func (e *encoder) layer(l *layer) {
	e.uvarint(uint64(len(l.v)))
	e.uvarint(uint64(len(l.rings)))
	var px, py int32
	for _, r := range l.rings {
		e.uvarint(uint64(r.feature))
		e.uvarint(uint64(r.end - r.start))
		for _, v := range l.v[r.start:r.end] {
			e.varint(int64(v.x) - int64(px))
			e.varint(int64(v.y) - int64(py))
			px, py = v.x, v.y
		}
	}
	e.uvarint(uint64(len(l.tree)))
	for i, t := range l.tree {
		if t&leafBit != 0 {
			e.uvarint(uint64(t&^leafBit)<<1 | 1)
		} else {
			e.uvarint(uint64(t-uint32(i)) << 1)
		}
	}
	e.uvarint(uint64(len(l.leaves)))
	prev := int64(0)
	for i := 0; i < len(l.leaves); {
		hdr := l.leaves[i]
		e.uvarint(uint64(hdr))
		i++
		for range hdr >> 8 {
			fb, nr := l.leaves[i], l.leaves[i+1]
			e.uvarint(uint64(fb))
			e.uvarint(uint64(nr))
			i += 2
			for range nr {
				start, n := l.leaves[i], l.leaves[i+1]
				e.varint(int64(start) - prev)
				e.uvarint(uint64(n))
				prev = int64(start) + int64(n)
				i += 2
			}
		}
	}
}

// Decode parses and validates a revgeo section written by Encode and returns the DB that
// serves it. It never panics: anything malformed is an error wrapping ErrFormat. The DB copies
// what it keeps; the caller may reuse b afterwards.
func Decode(b []byte) (*DB, error) {
	d := decoder{buf: b}
	db, err := d.decode()
	if err == nil {
		err = d.err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return db, nil
}

type decoder struct {
	buf     []byte
	off     int
	version uint64
	strs    []string
	err     error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf(format+" (at byte %d)", append(args, d.off)...)
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.fail("bad varint")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

// count reads a count of items that each take at least min bytes, and fails if the rest of
// the buffer cannot hold them, so that a corrupt count cannot make Decode allocate wildly.
func (d *decoder) count(min int) int {
	n := d.uvarint()
	if n > uint64((len(d.buf)-d.off)/min) {
		d.fail("count %d exceeds the data", n)
		return 0
	}
	return int(n)
}

// bounded reads a number and fails unless it is at most max.
func (d *decoder) bounded(max uint64) uint64 {
	v := d.uvarint()
	if v > max {
		d.fail("value %d above %d", v, max)
		return 0
	}
	return v
}

func (d *decoder) strIndex() uint32 {
	i := d.uvarint()
	if i >= uint64(len(d.strs)) {
		d.fail("string index %d of %d", i, len(d.strs))
		return 0
	}
	return uint32(i)
}

func (d *decoder) str() string {
	i := d.strIndex()
	if d.err != nil {
		return ""
	}
	return d.strs[i]
}

func (d *decoder) decode() (*DB, error) {
	if !bytes.HasPrefix(d.buf, []byte(magic)) {
		return nil, errors.New("bad magic")
	}
	d.off = len(magic)
	if d.version = d.uvarint(); d.version < oldestVersion || d.version > formatVersion {
		if d.err != nil {
			return nil, d.err
		}
		return nil, fmt.Errorf("format version %d, want %d to %d", d.version, oldestVersion, formatVersion)
	}
	// The string table: lengths, then one block that becomes a single string, of which
	// every decoded string is a substring.
	n := d.count(1)
	lens := make([]uint64, 0, n)
	total := uint64(0)
	for range n {
		l := d.uvarint()
		total += l
		if total > uint64(len(d.buf)) {
			d.fail("string table exceeds the data")
		}
		lens = append(lens, l)
	}
	if d.err != nil {
		return nil, d.err
	}
	if total > uint64(len(d.buf)-d.off) {
		return nil, errors.New("string table exceeds the data")
	}
	block := string(d.buf[d.off : d.off+int(total)])
	d.off += int(total)
	d.strs = make([]string, 0, n)
	at := 0
	for _, l := range lens {
		d.strs = append(d.strs, block[at:at+int(l)])
		at += int(l)
	}
	if len(d.strs) == 0 || d.strs[0] != "" {
		return nil, errors.New("string table must start with the empty string")
	}

	db := &DB{strs: d.strs}
	db.tzVersion = d.str()
	d.countries(db)
	d.subdivisions(db)
	d.admin2(db)
	nz := d.count(1)
	db.zones = make([]string, 0, nz)
	for range nz {
		db.zones = append(db.zones, d.str())
	}
	d.places(db)
	nfeat := [numLayers]int{len(db.countries), len(db.subs), len(db.zones)}
	for i := range db.layers {
		d.layer(&db.layers[i], nfeat[i])
		if d.err != nil {
			return nil, fmt.Errorf("layer %d: %w", i, d.err)
		}
		if err := db.layers[i].validate(); err != nil {
			return nil, fmt.Errorf("layer %d: %w", i, err)
		}
		db.layers[i].computeAreas()
	}
	db.joinGeoNames()
	if d.err != nil {
		return nil, d.err
	}
	if d.off != len(d.buf) {
		return nil, fmt.Errorf("%d trailing bytes", len(d.buf)-d.off)
	}
	db.placeSubdivisions()
	return db, nil
}

func (d *decoder) countries(db *DB) {
	n := d.count(4)
	db.countries = make([]Country, 0, n)
	var conts []string
	type span struct{ lo, hi int }
	spans := make([]span, 0, n)
	for range n {
		c := Country{Code: d.str(), Name: d.str(), GeonameID: int(d.bounded(math.MaxInt32))}
		k := d.count(1)
		lo := len(conts)
		for range k {
			code := d.str()
			if _, ok := ContinentName(code); !ok {
				d.fail("continent %q", code)
			}
			conts = append(conts, code)
		}
		if d.err != nil {
			return
		}
		if !isAlpha2(c.Code) || len(db.countries) > 0 && db.countries[len(db.countries)-1].Code >= c.Code {
			d.fail("country %q out of order or malformed", c.Code)
			return
		}
		db.countries = append(db.countries, c)
		spans = append(spans, span{lo, len(conts)})
	}
	for i, s := range spans {
		if s.hi > s.lo {
			db.countries[i].Continents = conts[s.lo:s.hi:s.hi]
		}
	}
}

func (d *decoder) countryIndex(db *DB, code string) int32 {
	i, ok := slices.BinarySearchFunc(db.countries, code, func(c Country, code string) int { return strings.Compare(c.Code, code) })
	if !ok {
		return -1
	}
	return int32(i)
}

func (d *decoder) subdivisions(db *DB) {
	n := d.count(12)
	db.subs = make([]Subdivision, 0, n)
	db.subCountry = make([]int32, 0, n)
	var names []LangName
	type span struct{ lo, hi int }
	spans := make([]span, 0, n)
	for range n {
		s := Subdivision{CountryCode: d.str(), Code: d.str(), SourceCode: d.str(), ISOParent: d.str(), ISOName: d.str()}
		s.Names.Native = d.str()
		k := d.count(2)
		lo := len(names)
		for range k {
			ln := LangName{Lang: d.str(), Name: d.str()}
			if ln.Lang == "" || len(names) > lo && names[len(names)-1].Lang >= ln.Lang {
				d.fail("subdivision %q: language %q out of order", s.Code, ln.Lang)
			}
			names = append(names, ln)
		}
		s.Type, s.WikidataID = d.str(), d.str()
		s.GeonameID = int(d.bounded(math.MaxInt32))
		s.GeoNamesCode = d.str()
		if d.version >= 3 {
			s.FIPS = d.str()
		}
		if s.FIPS != "" && (s.CountryCode != "US" || !IsFIPSState(s.FIPS)) {
			d.fail("subdivision %q: FIPS code %q is not a US state's", s.Code, s.FIPS)
		}
		if s.ISOParent != "" && !strings.HasPrefix(s.ISOParent, s.CountryCode+"-") || s.ISOName != "" && s.Code == "" {
			d.fail("subdivision %q: ISO parent %q or name %q without a code of its country", s.Code, s.ISOParent, s.ISOName)
		}
		if d.err != nil {
			return
		}
		db.subs = append(db.subs, s)
		db.subCountry = append(db.subCountry, d.countryIndex(db, s.CountryCode))
		spans = append(spans, span{lo, len(names)})
	}
	for i, s := range spans {
		if s.hi > s.lo {
			db.subs[i].Names.ByLang = names[s.lo:s.hi:s.hi]
		}
	}
}

// joinGeoNames indexes the subdivisions by GeoNames code and by GeoNames id. Natural Earth
// sometimes splits one GeoNames admin-1 into several features (New South Wales and Lord Howe
// Island are both AU.02); the code join then takes the largest. Ids that several features
// share are left out of the id join.
func (db *DB) joinGeoNames() {
	area := db.layers[LayerSubdivision].area
	best := map[string]int32{}
	for i, s := range db.subs {
		if s.GeoNamesCode == "" {
			continue
		}
		if j, ok := best[s.GeoNamesCode]; !ok || featureArea(area, i) > featureArea(area, int(j)) {
			best[s.GeoNamesCode] = int32(i)
		}
	}
	db.subByGN = slices.AppendSeq(db.subByGN[:0], maps.Values(best))
	slices.SortFunc(db.subByGN, func(a, b int32) int {
		sa, sb := db.subs[a].GeoNamesCode, db.subs[b].GeoNamesCode
		ha, ta, _ := strings.Cut(sa, ".")
		hb, tb, _ := strings.Cut(sb, ".")
		return cmp.Or(strings.Compare(ha, hb), strings.Compare(ta, tb))
	})
	db.subByID = db.subByID[:0]
	n := map[int]int{}
	for _, s := range db.subs {
		n[s.GeonameID]++
	}
	for i, s := range db.subs {
		// An id that several features carry is a Natural Earth error (Cornwall has the Isles
		// of Scilly's, both Mindoro provinces Oriental Mindoro's): no join by it.
		if s.GeonameID > 0 && n[s.GeonameID] == 1 {
			db.subByID = append(db.subByID, int32(i))
		}
	}
	slices.SortFunc(db.subByID, func(a, b int32) int { return cmp.Compare(db.subs[a].GeonameID, db.subs[b].GeonameID) })
}

// placeSubdivisions records each place's subdivision by its GeoNames codes (see placeIn):
// the one that is its admin-2 (as subdivisionByAdmin2 finds it), else the one whose code is
// its admin-1 (subdivisionByGeoNames), else -1. Only some hundred subdivisions are an
// admin-2, so both joins are small maps rather than a search per place.
func (db *DB) placeSubdivisions() {
	type code struct{ cc, a1, a2 string }
	bySub := map[code]int32{}
	for _, a := range db.admin2 {
		i, ok := slices.BinarySearchFunc(db.subByID, a.GeonameID, func(s int32, id int) int { return cmp.Compare(db.subs[s].GeonameID, id) })
		if ok && db.subs[db.subByID[i]].CountryCode == a.CountryCode {
			bySub[code{a.CountryCode, a.Admin1, a.Code}] = db.subByID[i]
		}
	}
	for _, s := range db.subByGN {
		cc, a1, _ := strings.Cut(db.subs[s].GeoNamesCode, ".")
		if db.subs[s].CountryCode == cc {
			bySub[code{cc, a1, ""}] = s
		}
	}
	db.placeSub = make([]int32, len(db.places))
	for ci, c := range db.countries {
		for i := db.placeStart[ci]; i < db.placeStart[ci+1]; i++ {
			r := &db.places[i]
			a1, a2 := db.strs[r.a1], db.strs[r.a2]
			s, ok := bySub[code{c.Code, a1, a2}]
			if !ok || a2 == "" {
				s, ok = bySub[code{c.Code, a1, ""}]
			}
			if !ok || a1 == "" {
				s = -1
			}
			db.placeSub[i] = s
		}
	}
}

func featureArea(area []float64, i int) float64 {
	if i < len(area) {
		return area[i]
	}
	return 0
}

func (d *decoder) admin2(db *DB) {
	n := d.count(5)
	db.admin2 = make([]Admin2, 0, n)
	for range n {
		a := Admin2{CountryCode: d.str(), Admin1: d.str(), Code: d.str(), Name: d.str(), GeonameID: int(d.bounded(math.MaxInt32))}
		if d.err != nil {
			return
		}
		if len(db.admin2) > 0 && compareAdmin2(db.admin2[len(db.admin2)-1], a) >= 0 {
			d.fail("admin-2 %s.%s.%s out of order", a.CountryCode, a.Admin1, a.Code)
			return
		}
		db.admin2 = append(db.admin2, a)
	}
}

func (d *decoder) places(db *DB) {
	db.placeStart = make([]uint32, 1, len(db.countries)+1)
	db.places = make([]placeRec, 0, d.count(10))
	var lat, lon int64
	for range db.countries {
		n := d.count(10)
		for range n {
			r := placeRec{
				geonameID: uint32(d.bounded(math.MaxUint32)),
				name:      d.strIndex(), fcode: d.strIndex(),
				a1: d.strIndex(), a2: d.strIndex(), a3: d.strIndex(), a4: d.strIndex(),
				population: uint32(d.bounded(math.MaxUint32)),
			}
			lat += d.varint()
			lon += d.varint()
			if d.err != nil {
				return
			}
			if lat < -90*unitsPerDegree || lat > 90*unitsPerDegree || lon < -180*unitsPerDegree || lon > 180*unitsPerDegree {
				d.fail("place %d off the globe", r.geonameID)
				return
			}
			r.lat, r.lon = int32(lat), int32(lon)
			db.places = append(db.places, r)
		}
		db.placeStart = append(db.placeStart, uint32(len(db.places)))
	}
	db.xyz = make([][3]float64, len(db.places))
	for i, r := range db.places {
		db.xyz[i] = unitVector(float64(r.lat)/unitsPerDegree, float64(r.lon)/unitsPerDegree)
	}
	db.candStart = make([]uint32, 1, len(db.countries)+1)
	for ci := range db.countries {
		n := d.count(1)
		base, size := db.placeStart[ci], uint64(db.placeStart[ci+1]-db.placeStart[ci])
		for range n {
			i := d.uvarint()
			if i >= size {
				d.fail("city candidate %d of %d places", i, size)
				return
			}
			db.cands = append(db.cands, base+uint32(i))
		}
		db.candStart = append(db.candStart, uint32(len(db.cands)))
	}
}

func (d *decoder) layer(l *layer, nfeat int) {
	l.nfeat = nfeat
	l.v = make([]vtx, 0, d.count(2))
	nr := d.count(2)
	l.rings = make([]ring, 0, nr)
	var x, y int64
	for range nr {
		f := d.uvarint()
		nv := d.count(2)
		if d.err != nil {
			return
		}
		if f >= uint64(nfeat) {
			d.fail("ring of feature %d of %d", f, nfeat)
			return
		}
		start := uint32(len(l.v))
		for range nv {
			x += d.varint()
			y += d.varint()
			if x < math.MinInt32 || x > math.MaxInt32 || y < math.MinInt32 || y > math.MaxInt32 {
				d.fail("vertex out of range")
				return
			}
			l.v = append(l.v, vtx{int32(x), int32(y)})
		}
		if len(l.v) >= math.MaxInt32 {
			d.fail("too many vertices")
			return
		}
		l.rings = append(l.rings, ring{start: start, end: uint32(len(l.v)), feature: uint32(f)})
	}
	nt := d.count(1)
	l.tree = make([]uint32, 0, nt)
	for i := range nt {
		t := d.uvarint()
		switch {
		case t&1 == 1 && t>>1 < leafBit:
			l.tree = append(l.tree, uint32(t>>1)|leafBit)
		case t&1 == 0 && t>>1 > 0 && uint64(i)+t>>1 < leafBit:
			l.tree = append(l.tree, uint32(i)+uint32(t>>1))
		default:
			d.fail("tree entry %d: %d", i, t)
			return
		}
	}
	nw := d.count(1)
	l.leaves = make([]uint32, 0, nw)
	prev := int64(0)
	for len(l.leaves) < nw && d.err == nil {
		hdr := uint32(d.bounded(math.MaxUint32))
		l.leaves = append(l.leaves, hdr)
		for range hdr >> 8 {
			fb := uint32(d.bounded(math.MaxUint32))
			nr := d.bounded(uint64(nw))
			if d.err != nil || uint64(len(l.leaves))+2+2*nr > uint64(nw) {
				d.fail("leaf record overruns its words")
				return
			}
			l.leaves = append(l.leaves, fb, uint32(nr))
			for range nr {
				start := prev + d.varint()
				n := d.bounded(math.MaxUint32)
				if start < 0 || start+int64(n) > math.MaxUint32 {
					d.fail("edge run out of range")
					return
				}
				l.leaves = append(l.leaves, uint32(start), uint32(n))
				prev = start + int64(n)
			}
		}
	}
	if len(l.leaves) != nw {
		d.fail("leaf words: got %d, want %d", len(l.leaves), nw)
	}
}
