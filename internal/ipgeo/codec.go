package ipgeo

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/tiling"
)

// ErrFormat reports an ipgeo section that Decode cannot accept: truncated, inconsistent, or
// holding values outside their domain. Errors from Decode wrap it; compare with errors.Is.
var ErrFormat = errors.New("ipgeo: malformed section")

// The section layout. All integers are little-endian.
//
//	magic     16 bytes "ipatlas-ipgeo\x00\x00\x00"
//	version   uint32 formatVersion
//	count     uint32 number of tables
//	directory count × (id uint32, elemSize uint32, n uint64), ids strictly ascending
//	tables    each table's n × elemSize bytes, in directory order, each starting at a
//	          multiple of 8 from the start of the section, gaps zero
//
// Every table of tableSpecs must be present with its element size (an empty table has n = 0).
// A "str" is an index into the string table (tStrOffs/tStrBlob); string 0 is "". A place
// reference is 0 for none, else the place's index + 1.
//
//	tMeta        8-byte elements: [0] build time, Unix seconds; [1] str of the source type
//	tStrOffs     uint32 offsets into tStrBlob, one per string plus one: non-decreasing, from 0
//	             to len(tStrBlob)
//	tStrBlob     UTF-8 bytes
//	tPlaces      40 bytes: str code, uint32 geonameId, 8 × str name (in Language order)
//	tRecords     48 bytes: float64 latitude, float64 longitude, then uint32 place refs
//	             continent, country, registeredCountry, city, str postcode, str timeZone,
//	             uint32 first subdivision (index into tSubdivs), uint16 accuracyRadius,
//	             uint8 number of subdivisions, uint8 flags (bit 0: has location)
//	tSubdivs     uint32 place refs (never 0)
//	tV4Keys      uint32 first address of each IPv4 leaf: the leaves tile 0.0.0.0/0 in order,
//	             so each leaf's size (a power of two, to which its key is aligned) is the
//	             distance to the next key
//	tV4Vals      uint32 per leaf: kind in the low 2 bits (kindEmpty, kindData), then payload
//	tV6Keys      uint64 upper halves of the IPv6 leaves, tiling ::/0 as tV4Keys
//	tV6Vals      uint32 per leaf: kindEmpty, kindData, kindAlias or kindFine (the leaf is a
//	             /64 divided further, payload: its group in the second level)
//	tFineKeys    uint64 lower halves of second-level leaves; each group tiles a /64
//	tFineVals    uint32 as tV6Vals, without kindFine
//	tFineGroups  uint32 start of each group in tFineKeys, plus the end: strictly ascending
//	tMetazones   str per metazone id
//	tLocales     str per locale id, strictly ascending
//	tMZNames     20 bytes, 5 × str (long standard, long daylight, long generic, short
//	             standard, short daylight), locale-major: [locale × len(metazones) + mz]
//	tZones       16 bytes: str IANA id (strictly ascending), str Windows description,
//	             uint32 first span, uint16 number of spans, uint16 override row + 1 (0: none)
//	tSpans       24 bytes: int64 from, int64 to (Unix seconds, 0: open), uint32 metazone, 0
//	tZoneNames   20 bytes as tMZNames: [override row × len(locales) + locale]
const (
	magic         = "ipatlas-ipgeo\x00\x00\x00"
	formatVersion = 1
)

const (
	tMeta = iota + 1
	tStrOffs
	tStrBlob
	tPlaces
	tRecords
	tSubdivs
	tV4Keys
	tV4Vals
	tV6Keys
	tV6Vals
	tFineKeys
	tFineVals
	tFineGroups
	tMetazones
	tLocales
	tMZNames
	tZones
	tSpans
	tZoneNames
	numTables = iota
)

// elemSize returns the element size of table id.
func elemSize(id int) int {
	switch id {
	case tStrBlob:
		return 1
	case tStrOffs, tSubdivs, tV4Keys, tV4Vals, tV6Vals, tFineVals, tFineGroups, tMetazones, tLocales:
		return 4
	case tMeta, tV6Keys, tFineKeys:
		return 8
	case tZones:
		return 16
	case tMZNames, tZoneNames:
		return 20
	case tSpans:
		return 24
	case tPlaces:
		return 40
	case tRecords:
		return 48
	}
	return 0
}

const (
	flagHasLocation = 1
	maxSubdivisions = 255
)

// Encode returns the ipgeo section payload for d. The same d always gives the same bytes.
// Encode rejects what Decode would reject (it decodes its own output to make sure).
func Encode(d *Data) ([]byte, error) {
	e := encoder{index: map[string]uint32{"": 0}, offs: []uint32{0, 0}} // string 0 is ""
	var tabs [numTables + 1][]byte

	src := e.str(d.Source)
	tabs[tMeta] = binary.LittleEndian.AppendUint64(nil, uint64(d.BuildTime.Unix()))
	tabs[tMeta] = binary.LittleEndian.AppendUint64(tabs[tMeta], uint64(src))

	for _, p := range d.Places {
		b := tabs[tPlaces]
		b = le32(b, e.str(p.Code))
		b = le32(b, p.GeonameID)
		for _, n := range p.Names {
			b = le32(b, e.str(n))
		}
		tabs[tPlaces] = b
	}
	ref := func(i int) (uint32, error) {
		if i == NoPlace {
			return 0, nil
		}
		if i < 0 || i >= len(d.Places) {
			return 0, fmt.Errorf("place %d out of range", i)
		}
		return uint32(i + 1), nil
	}
	for ri, r := range d.Records {
		b := tabs[tRecords]
		if !r.HasLocation && (r.Latitude != 0 || r.Longitude != 0 || r.AccuracyRadius != 0) {
			return nil, fmt.Errorf("ipgeo: record %d: coordinates without HasLocation", ri)
		}
		b = le64(b, math.Float64bits(r.Latitude))
		b = le64(b, math.Float64bits(r.Longitude))
		for _, pi := range [...]int{r.Continent, r.Country, r.RegisteredCountry, r.City} {
			v, err := ref(pi)
			if err != nil {
				return nil, fmt.Errorf("ipgeo: record %d: %w", ri, err)
			}
			b = le32(b, v)
		}
		b = le32(b, e.str(r.Postcode))
		b = le32(b, e.str(r.TimeZone))
		b = le32(b, uint32(len(tabs[tSubdivs])/4))
		if r.AccuracyRadius < 0 || r.AccuracyRadius > math.MaxUint16 {
			return nil, fmt.Errorf("ipgeo: record %d: accuracy radius %d", ri, r.AccuracyRadius)
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(r.AccuracyRadius))
		if len(r.Subdivisions) > maxSubdivisions {
			return nil, fmt.Errorf("ipgeo: record %d: %d subdivisions", ri, len(r.Subdivisions))
		}
		b = append(b, byte(len(r.Subdivisions)))
		var flags byte
		if r.HasLocation {
			flags |= flagHasLocation
		}
		b = append(b, flags)
		tabs[tRecords] = b
		for _, s := range r.Subdivisions {
			if s == NoPlace {
				return nil, fmt.Errorf("ipgeo: record %d: empty subdivision", ri)
			}
			v, err := ref(s)
			if err != nil {
				return nil, fmt.Errorf("ipgeo: record %d: %w", ri, err)
			}
			tabs[tSubdivs] = le32(tabs[tSubdivs], v)
		}
	}

	if err := encodeLeaves(&tabs, d); err != nil {
		return nil, err
	}
	if err := e.encodeTZ(&tabs, &d.TZ); err != nil {
		return nil, err
	}

	tabs[tStrBlob] = []byte(e.blob.String())
	for _, o := range e.offs {
		tabs[tStrOffs] = le32(tabs[tStrOffs], o)
	}

	out := []byte(magic)
	out = le32(out, formatVersion)
	out = le32(out, numTables)
	for id := 1; id <= numTables; id++ {
		out = le32(out, uint32(id))
		out = le32(out, uint32(elemSize(id)))
		out = le64(out, uint64(len(tabs[id])/elemSize(id)))
	}
	for id := 1; id <= numTables; id++ {
		for len(out)%8 != 0 {
			out = append(out, 0)
		}
		out = append(out, tabs[id]...)
	}
	if _, err := Decode(out); err != nil {
		return nil, fmt.Errorf("ipgeo: encode: own output does not decode: %w", err)
	}
	return out, nil
}

type encoder struct {
	index map[string]uint32
	blob  strings.Builder
	offs  []uint32
}

func (e *encoder) str(s string) uint32 {
	if i, ok := e.index[s]; ok {
		return i
	}
	e.blob.WriteString(s)
	i := uint32(len(e.offs) - 1)
	e.offs = append(e.offs, uint32(e.blob.Len()))
	e.index[s] = i
	return i
}

func le32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }
func le64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// block is an aligned run of 2^log addresses starting at start (in the upper or lower
// 64 bits of an IPv6 address, or an IPv4 address).
type block struct {
	start uint64
	log   int
	val   uint32
}

// cover returns the aligned blocks, largest first possible, that cover [start, last].
func cover(start, last uint64, width int, val uint32) []block {
	var out []block
	for {
		k := min(bits.TrailingZeros64(start), width)
		span := last - start
		for k > 0 && (k == 64 && span != math.MaxUint64 || k < 64 && uint64(1)<<k-1 > span) {
			k--
		}
		out = append(out, block{start, k, val})
		size := uint64(0)
		if k < 64 {
			size = uint64(1) << k
		}
		if k == 64 || start+size-1 == last {
			return out
		}
		start += size
	}
}

// tile sorts bs, checks that they do not overlap and fills the gaps of [0, 2^width) with
// empty blocks.
func tile(bs []block, width int) ([]block, error) {
	slices.SortFunc(bs, func(a, b block) int { return cmp.Compare(a.start, b.start) })
	max := uint64(math.MaxUint64) >> (64 - width)
	var out []block
	next, done := uint64(0), false // next address not yet covered
	for _, b := range bs {
		if done || b.start < next {
			return nil, fmt.Errorf("overlapping networks at %#x", b.start)
		}
		if b.start > next {
			out = append(out, cover(next, b.start-1, width, kindEmpty)...)
		}
		out = append(out, b)
		end := b.start + (uint64(1)<<b.log - 1)
		if b.log == 64 {
			end = math.MaxUint64
		}
		if end == max {
			done = true
		}
		next = end + 1
	}
	if !done {
		out = append(out, cover(next, max, width, kindEmpty)...)
	}
	return out, nil
}

func leafVal(l Leaf, nrec int) (uint32, error) {
	switch l.Kind {
	case LeafEmpty:
		return kindEmpty, nil
	case LeafData:
		if l.Record < 0 || l.Record >= nrec || l.Record > maxPayload {
			return 0, fmt.Errorf("%v: record %d out of range", l.Prefix, l.Record)
		}
		return uint32(l.Record)<<kindBits | kindData, nil
	case LeafAlias:
		if !l.Prefix.Addr().Is6() || l.Prefix.Bits() > 96 {
			return 0, fmt.Errorf("%v: an alias must be an IPv6 prefix of at most 96 bits", l.Prefix)
		}
		return kindAlias, nil
	}
	return 0, fmt.Errorf("%v: unknown leaf kind %d", l.Prefix, l.Kind)
}

func encodeLeaves(tabs *[numTables + 1][]byte, d *Data) error {
	var v4 []block
	for _, l := range d.V4 {
		if !l.Prefix.IsValid() || !l.Prefix.Addr().Is4() || l.Prefix.Masked() != l.Prefix {
			return fmt.Errorf("ipgeo: V4 leaf %v: not a masked IPv4 prefix", l.Prefix)
		}
		v, err := leafVal(l, len(d.Records))
		if err != nil {
			return fmt.Errorf("ipgeo: %w", err)
		}
		if v&kindMask == kindAlias {
			return fmt.Errorf("ipgeo: V4 leaf %v: alias", l.Prefix)
		}
		a := l.Prefix.Addr().As4()
		v4 = append(v4, block{uint64(binary.BigEndian.Uint32(a[:])), 32 - l.Prefix.Bits(), v})
	}
	v4, err := tile(v4, 32)
	if err != nil {
		return fmt.Errorf("ipgeo: V4: %w", err)
	}
	for _, b := range v4 {
		tabs[tV4Keys] = le32(tabs[tV4Keys], uint32(b.start))
		tabs[tV4Vals] = le32(tabs[tV4Vals], b.val)
	}

	var hi []block
	fine := map[uint64][]block{} // /64 → its leaves
	for _, l := range d.V6 {
		p := l.Prefix
		if !p.IsValid() || !p.Addr().Is6() || p.Masked() != p || p.Addr().Zone() != "" {
			return fmt.Errorf("ipgeo: V6 leaf %v: not a masked IPv6 prefix", p)
		}
		v, err := leafVal(l, len(d.Records))
		if err != nil {
			return fmt.Errorf("ipgeo: %w", err)
		}
		a := p.Addr().As16()
		h, lo := binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(a[8:])
		if p.Bits() <= 64 {
			hi = append(hi, block{h, 64 - p.Bits(), v})
		} else {
			fine[h] = append(fine[h], block{lo, 128 - p.Bits(), v})
		}
	}
	groups := slices.Sorted(func(yield func(uint64) bool) {
		for h := range fine {
			if !yield(h) {
				return
			}
		}
	})
	var fineKeys, fineVals, fineGroups []byte
	for g, h := range groups {
		bs, err := tile(fine[h], 64)
		if err != nil {
			return fmt.Errorf("ipgeo: V6 %#x/64: %w", h, err)
		}
		fineGroups = le32(fineGroups, uint32(len(fineKeys)/8))
		for _, b := range bs {
			fineKeys = le64(fineKeys, b.start)
			fineVals = le32(fineVals, b.val)
		}
		hi = append(hi, block{h, 0, uint32(g)<<kindBits | kindFine})
	}
	fineGroups = le32(fineGroups, uint32(len(fineKeys)/8))
	hi, err = tile(hi, 64)
	if err != nil {
		return fmt.Errorf("ipgeo: V6: %w", err)
	}
	for _, b := range hi {
		tabs[tV6Keys] = le64(tabs[tV6Keys], b.start)
		tabs[tV6Vals] = le32(tabs[tV6Vals], b.val)
	}
	tabs[tFineKeys], tabs[tFineVals], tabs[tFineGroups] = fineKeys, fineVals, fineGroups
	return nil
}

func (e *encoder) names(b []byte, n TZNames) []byte {
	for _, s := range [...]string{n.LongStandard, n.LongDaylight, n.LongGeneric, n.ShortStandard, n.ShortDaylight} {
		b = le32(b, e.str(s))
	}
	return b
}

func (e *encoder) encodeTZ(tabs *[numTables + 1][]byte, tz *TZData) error {
	for _, m := range tz.Metazones {
		tabs[tMetazones] = le32(tabs[tMetazones], e.str(m))
	}
	if !slices.IsSorted(tz.Locales) || len(slices.Compact(slices.Clone(tz.Locales))) != len(tz.Locales) {
		return errors.New("ipgeo: TZ locales not strictly ascending")
	}
	for _, l := range tz.Locales {
		tabs[tLocales] = le32(tabs[tLocales], e.str(l))
	}
	if len(tz.Names) != len(tz.Locales) {
		return fmt.Errorf("ipgeo: TZ: %d name rows for %d locales", len(tz.Names), len(tz.Locales))
	}
	for li, row := range tz.Names {
		if len(row) != len(tz.Metazones) {
			return fmt.Errorf("ipgeo: TZ locale %s: %d names for %d metazones", tz.Locales[li], len(row), len(tz.Metazones))
		}
		for _, n := range row {
			tabs[tMZNames] = e.names(tabs[tMZNames], n)
		}
	}
	zones := slices.Clone(tz.Zones)
	slices.SortFunc(zones, func(a, b ZoneData) int { return strings.Compare(a.ID, b.ID) })
	rows := 0
	for _, z := range zones {
		b := le32(tabs[tZones], e.str(z.ID))
		b = le32(b, e.str(z.Windows))
		b = le32(b, uint32(len(tabs[tSpans])/24))
		if len(z.Spans) > math.MaxUint16 {
			return fmt.Errorf("ipgeo: zone %s: %d spans", z.ID, len(z.Spans))
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(len(z.Spans)))
		row := 0
		if z.Names != nil {
			if len(z.Names) != len(tz.Locales) {
				return fmt.Errorf("ipgeo: zone %s: %d name rows for %d locales", z.ID, len(z.Names), len(tz.Locales))
			}
			rows++
			row = rows
			for _, n := range z.Names {
				tabs[tZoneNames] = e.names(tabs[tZoneNames], n)
			}
		}
		if row > math.MaxUint16 {
			return errors.New("ipgeo: too many zones with names of their own")
		}
		b = binary.LittleEndian.AppendUint16(b, uint16(row))
		tabs[tZones] = b
		for _, s := range z.Spans {
			sb := le64(tabs[tSpans], uint64(s.From))
			sb = le64(sb, uint64(s.To))
			sb = le32(sb, uint32(s.Metazone))
			tabs[tSpans] = le32(sb, 0)
		}
	}
	return nil
}

// Decode checks an ipgeo section payload and returns its DB. It returns an error wrapping
// ErrFormat for anything malformed and never panics, whatever b holds. The DB does not refer
// to b afterwards.
func Decode(b []byte) (*DB, error) {
	db, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return db, nil
}

// tables are the raw tables of a section, sliced out of its bytes.
type tables [numTables + 1][]byte

func readTables(b []byte) (*tables, error) {
	if len(b) < len(magic)+8 || string(b[:len(magic)]) != magic {
		return nil, errors.New("bad magic")
	}
	off := len(magic)
	if v := binary.LittleEndian.Uint32(b[off:]); v != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, formatVersion)
	}
	n := binary.LittleEndian.Uint32(b[off+4:])
	off += 8
	if n != numTables {
		return nil, fmt.Errorf("%d tables, want %d", n, numTables)
	}
	if len(b)-off < numTables*16 {
		return nil, errors.New("truncated directory")
	}
	var t tables
	dataOff := uint64(off + numTables*16)
	for id := 1; id <= numTables; id++ {
		gotID := binary.LittleEndian.Uint32(b[off:])
		size := binary.LittleEndian.Uint32(b[off+4:])
		count := binary.LittleEndian.Uint64(b[off+8:])
		off += 16
		if gotID != uint32(id) || size != uint32(elemSize(id)) {
			return nil, fmt.Errorf("directory entry %d: table %d of %d-byte elements", id, gotID, size)
		}
		dataOff = (dataOff + 7) &^ 7
		if count > uint64(len(b))/uint64(size) || dataOff > uint64(len(b)) || count*uint64(size) > uint64(len(b))-dataOff {
			return nil, fmt.Errorf("table %d: %d elements overrun the section", id, count)
		}
		t[id] = b[dataOff : dataOff+count*uint64(size)]
		dataOff += count * uint64(size)
	}
	if dataOff != uint64(len(b)) {
		return nil, fmt.Errorf("%d bytes after the last table", uint64(len(b))-dataOff)
	}
	return &t, nil
}

func u32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[4*i:]) }
func u64(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }

// strTable resolves string references of a section.
type strTable struct {
	all  string
	offs []byte
	n    int
}

func (s *strTable) get(ref uint32) (string, error) {
	sp, err := s.span(ref)
	if err != nil {
		return "", err
	}
	return s.all[sp.from:sp.to], nil
}

// span returns where string ref lies in the blob.
func (s *strTable) span(ref uint32) (span, error) {
	if int64(ref) >= int64(s.n) {
		return span{}, fmt.Errorf("string %d out of range", ref)
	}
	return span{u32(s.offs, int(ref)), u32(s.offs, int(ref)+1)}, nil
}

func decode(b []byte) (*DB, error) {
	t, err := readTables(b)
	if err != nil {
		return nil, err
	}
	db := &DB{memo: newAreaMemo()}

	// Strings.
	offs := t[tStrOffs]
	if len(offs) < 8 || u32(offs, 0) != 0 || u32(offs, 1) != 0 || int(u32(offs, len(offs)/4-1)) != len(t[tStrBlob]) {
		return nil, errors.New("string offsets do not span the blob")
	}
	for i := 1; i < len(offs)/4; i++ {
		if u32(offs, i) < u32(offs, i-1) {
			return nil, fmt.Errorf("string offset %d decreases", i)
		}
	}
	st := &strTable{all: string(t[tStrBlob]), offs: offs, n: len(offs)/4 - 1}

	if len(t[tMeta]) != 16 {
		return nil, errors.New("meta table must have 2 elements")
	}
	db.built = time.Unix(int64(u64(t[tMeta], 0)), 0).UTC()
	if db.source, err = st.get(uint32(u64(t[tMeta], 1))); err != nil || u64(t[tMeta], 1) > math.MaxUint32 {
		return nil, errors.New("meta: bad source string")
	}

	// Places.
	pb := t[tPlaces]
	db.places = make([]place, len(pb)/40)
	for i := range db.places {
		p := &db.places[i]
		w := pb[40*i:]
		if p.code, err = st.get(u32(w, 0)); err != nil {
			return nil, fmt.Errorf("place %d: %w", i, err)
		}
		p.geonameID = u32(w, 1)
		for j := range NumLanguages {
			if p.names[j], err = st.get(u32(w, 2+j)); err != nil {
				return nil, fmt.Errorf("place %d: %w", i, err)
			}
		}
	}
	db.indexByID()
	checkPlace := func(ref uint32) error {
		if int64(ref) > int64(len(db.places)) {
			return fmt.Errorf("place %d out of range", ref)
		}
		return nil
	}
	db.text = st.all

	// Subdivisions and records.
	sb := t[tSubdivs]
	db.subdivs = make([]Area, len(sb)/4)
	for i := range db.subdivs {
		ref := u32(sb, i)
		if ref == 0 {
			return nil, fmt.Errorf("subdivision %d: empty", i)
		}
		if err := checkPlace(ref); err != nil {
			return nil, fmt.Errorf("subdivision %d: %w", i, err)
		}
		db.subdivs[i] = db.area(ref)
	}
	rb := t[tRecords]
	nrec := len(rb) / 48
	if nrec > maxPayload {
		return nil, errors.New("too many records")
	}
	db.records = make([]record, nrec)
	plus := make([]byte, plusLen*nrec)
	var pc plusCoder
	for i := range db.records {
		w := rb[48*i : 48*i+48]
		r := &db.records[i]
		lat, lon := math.Float64frombits(u64(w, 0)), math.Float64frombits(u64(w, 1))
		for j := range r.places {
			r.places[j] = binary.LittleEndian.Uint32(w[16+4*j:])
			if err := checkPlace(r.places[j]); err != nil {
				return nil, fmt.Errorf("record %d: %w", i, err)
			}
		}
		if r.postcode, err = st.span(binary.LittleEndian.Uint32(w[32:])); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		if r.timeZone, err = st.span(binary.LittleEndian.Uint32(w[36:])); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		first, nsub := uint64(binary.LittleEndian.Uint32(w[40:])), uint64(w[46])
		if first+nsub > uint64(len(db.subdivs)) {
			return nil, fmt.Errorf("record %d: subdivisions out of range", i)
		}
		r.sub, r.nSub = uint32(first), uint8(nsub)
		radius := binary.LittleEndian.Uint16(w[44:])
		switch flags := w[47]; flags {
		case 0:
			if lat != 0 || lon != 0 || radius != 0 || math.Signbit(lat) || math.Signbit(lon) {
				return nil, fmt.Errorf("record %d: coordinates without location flag", i)
			}
		case flagHasLocation:
			if !(lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180) {
				return nil, fmt.Errorf("record %d: coordinates %v, %v out of range", i, lat, lon)
			}
			r.hasLoc, r.lat, r.lon, r.radius = true, lat, lon, radius
			if c := pc.code(lat, lon); len(c) != plusLen || copy(plus[plusLen*i:], c) != plusLen {
				return nil, fmt.Errorf("record %d: plus code %q is not %d long", i, c, plusLen)
			}
		default:
			return nil, fmt.Errorf("record %d: unknown flags %#x", i, flags)
		}
	}
	db.plus = string(plus)
	db.indexContinents()
	db.indexSubdivisionParents()

	// Address tables.
	if db.v4, err = decodeTable32(t[tV4Keys], t[tV4Vals], nrec); err != nil {
		return nil, fmt.Errorf("IPv4 table: %w", err)
	}
	fg := t[tFineGroups]
	ngroups := len(fg)/4 - 1
	if ngroups < 0 {
		return nil, errors.New("second-level groups: missing end")
	}
	if db.v6, err = decodeTable64(t[tV6Keys], t[tV6Vals], nrec, ngroups, true); err != nil {
		return nil, fmt.Errorf("IPv6 table: %w", err)
	}
	if db.fine, db.fineG, err = decodeFine(t[tFineKeys], t[tFineVals], fg, nrec); err != nil {
		return nil, fmt.Errorf("IPv6 second level: %w", err)
	}

	if db.zones, err = decodeZones(t, st); err != nil {
		return nil, err
	}
	return db, nil
}

// checkVal checks a leaf value. plen is the leaf's prefix length in the full address.
func checkVal(v uint32, nrec, ngroups int, allowAlias, allowFine bool, plen int) error {
	p := int(v >> kindBits)
	switch v & kindMask {
	case kindEmpty:
		if p != 0 {
			return errors.New("empty leaf with payload")
		}
	case kindData:
		if p >= nrec {
			return fmt.Errorf("record %d out of range", p)
		}
	case kindAlias:
		if !allowAlias || p != 0 || plen > 96 {
			return errors.New("misplaced alias")
		}
	case kindFine:
		if !allowFine || p >= ngroups || plen != 64 {
			return errors.New("misplaced second-level leaf")
		}
	}
	return nil
}

func decodeTable32(kb, vb []byte, nrec int) (table32, error) {
	n := len(kb) / 4
	if n == 0 || len(vb)/4 != n {
		return table32{}, fmt.Errorf("%d keys, %d values", n, len(vb)/4)
	}
	keys, vals := make([]uint32, n), make([]uint32, n)
	for i := range n {
		keys[i], vals[i] = u32(kb, i), u32(vb, i)
	}
	if keys[0] != 0 {
		return table32{}, errors.New("first leaf does not start at 0")
	}
	for i, k := range keys {
		end := uint64(1) << 32
		if i+1 < n {
			end = uint64(keys[i+1])
		}
		size := end - uint64(k)
		if end <= uint64(k) || size&(size-1) != 0 || uint64(k)&(size-1) != 0 {
			return table32{}, fmt.Errorf("leaf %d at %#x is not an aligned prefix", i, k)
		}
		if err := checkVal(vals[i], nrec, 0, false, false, 32-bits.TrailingZeros64(size)); err != nil {
			return table32{}, fmt.Errorf("leaf %d at %#x: %w", i, k, err)
		}
	}
	return table32{Index: tiling.New(keys), vals: vals}, nil
}

// checkTiling checks that keys, ascending from 0, tile the 64-bit space with aligned prefixes
// and returns each leaf's prefix length (within those 64 bits) through visit.
func checkTiling(keys []uint64, visit func(i, plen int) error) error {
	if len(keys) == 0 || keys[0] != 0 {
		return errors.New("first leaf does not start at 0")
	}
	for i, k := range keys {
		size := -k // to the end of the space; 0 means 2^64
		if i+1 < len(keys) {
			if keys[i+1] <= k {
				return fmt.Errorf("leaf %d: keys not ascending", i)
			}
			size = keys[i+1] - k
		}
		plen := 0
		if size != 0 {
			if size&(size-1) != 0 || k&(size-1) != 0 {
				return fmt.Errorf("leaf %d at %#x is not an aligned prefix", i, k)
			}
			plen = 64 - bits.TrailingZeros64(size)
		} else if k != 0 {
			return fmt.Errorf("leaf %d at %#x is not an aligned prefix", i, k)
		}
		if err := visit(i, plen); err != nil {
			return fmt.Errorf("leaf %d at %#x: %w", i, k, err)
		}
	}
	return nil
}

func decodeTable64(kb, vb []byte, nrec, ngroups int, top bool) (table64, error) {
	n := len(kb) / 8
	if len(vb)/4 != n {
		return table64{}, fmt.Errorf("%d keys, %d values", n, len(vb)/4)
	}
	t := table64{keys: make([]uint64, n), vals: make([]uint32, n)}
	for i := range n {
		t.keys[i], t.vals[i] = u64(kb, i), u32(vb, i)
	}
	seen := make([]bool, ngroups)
	err := checkTiling(t.keys, func(i, plen int) error {
		v := t.vals[i]
		if err := checkVal(v, nrec, ngroups, true, true, plen); err != nil {
			return err
		}
		if v&kindMask == kindFine {
			g := v >> kindBits
			if seen[g] {
				return errors.New("second-level group used twice")
			}
			seen[g] = true
		}
		return nil
	})
	if err != nil {
		return table64{}, err
	}
	for g, ok := range seen {
		if !ok {
			return table64{}, fmt.Errorf("second-level group %d unused", g)
		}
	}
	t.index = tiling.Buckets(t.keys)
	return t, nil
}

func decodeFine(kb, vb, gb []byte, nrec int) (table64, []uint32, error) {
	n := len(kb) / 8
	if len(vb)/4 != n {
		return table64{}, nil, fmt.Errorf("%d keys, %d values", n, len(vb)/4)
	}
	t := table64{keys: make([]uint64, n), vals: make([]uint32, n)}
	for i := range n {
		t.keys[i], t.vals[i] = u64(kb, i), u32(vb, i)
	}
	groups := make([]uint32, len(gb)/4)
	for i := range groups {
		groups[i] = u32(gb, i)
	}
	if groups[0] != 0 || int(groups[len(groups)-1]) != n {
		return table64{}, nil, errors.New("groups do not span the table")
	}
	for g := 0; g+1 < len(groups); g++ {
		lo, hi := groups[g], groups[g+1]
		if hi <= lo {
			return table64{}, nil, fmt.Errorf("group %d is empty", g)
		}
		vals := t.vals[lo:hi]
		err := checkTiling(t.keys[lo:hi], func(i, plen int) error {
			return checkVal(vals[i], nrec, 0, true, false, 64+plen)
		})
		if err != nil {
			return table64{}, nil, fmt.Errorf("group %d: %w", g, err)
		}
	}
	return t, groups, nil
}
