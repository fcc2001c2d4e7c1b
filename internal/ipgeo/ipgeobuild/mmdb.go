package ipgeobuild

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/netip"
	"strconv"
	"strings"

	"github.com/oschwald/maxminddb-golang/v2"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/mmdbwalk"
)

// maxMMDB bounds the decompressed database (GeoLite2-City is about 60 MB), so a corrupt or
// hostile archive cannot exhaust memory.
const maxMMDB = 1 << 30

// mmdbName is the database file in the geolite2-city package (optionally gzipped).
const mmdbName = "GeoLite2-City.mmdb"

// MMDBPlace is a place of a GeoIP2-City record.
type MMDBPlace struct {
	GeonameID uint32            `maxminddb:"geoname_id"`
	ISOCode   string            `maxminddb:"iso_code"`
	Code      string            `maxminddb:"code"`
	Names     map[string]string `maxminddb:"names"`
}

// MMDBRecord is the part of a GeoIP2-City record that ipgeo keeps. Tests decode the source
// with it to compare.
type MMDBRecord struct {
	City              MMDBPlace   `maxminddb:"city"`
	Continent         MMDBPlace   `maxminddb:"continent"`
	Country           MMDBPlace   `maxminddb:"country"`
	RegisteredCountry MMDBPlace   `maxminddb:"registered_country"`
	Subdivisions      []MMDBPlace `maxminddb:"subdivisions"`
	Location          struct {
		Latitude       *float64 `maxminddb:"latitude"`
		Longitude      *float64 `maxminddb:"longitude"`
		AccuracyRadius uint16   `maxminddb:"accuracy_radius"`
		TimeZone       string   `maxminddb:"time_zone"`
	} `maxminddb:"location"`
	Postal struct {
		Code string `maxminddb:"code"`
	} `maxminddb:"postal"`
}

// OpenMMDB reads the database of the geolite2-city source (GeoLite2-City.mmdb or .mmdb.gz).
func OpenMMDB(fsys fs.FS) (*maxminddb.Reader, error) {
	b, err := readMaybeGzip(fsys, mmdbName)
	if err != nil {
		return nil, err
	}
	r, err := maxminddb.OpenBytes(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mmdbName, err)
	}
	if r.Metadata.IPVersion != 6 {
		return nil, fmt.Errorf("%s: IPv%d database; want an IPv6 database with an IPv4 subtree", mmdbName, r.Metadata.IPVersion)
	}
	return r, nil
}

// readMMDB turns the database into ipgeo.Data (without time zone names).
func readMMDB(ctx context.Context, fsys fs.FS) (*ipgeo.Data, error) {
	r, err := OpenMMDB(fsys)
	if err != nil {
		return nil, err
	}
	d := &ipgeo.Data{Source: r.Metadata.DatabaseType, BuildTime: r.Metadata.BuildTime().UTC()}
	a := assembler{d: d, places: map[string]int{}, records: map[uintptr]int{}}

	next := netip.IPv6Unspecified() // first IPv6 address not yet covered
	covered := false                // the IPv6 leaves reached the end of the space
	n := 0
	for res, err := range mmdbwalk.Networks(r, maxminddb.IncludeNetworksWithoutData()) {
		if err != nil {
			return nil, err
		}
		if n++; n%(1<<16) == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		p := res.Prefix()
		leaf := ipgeo.Leaf{Prefix: p, Kind: ipgeo.LeafEmpty}
		if res.Found() {
			rec, err := a.record(res)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
			leaf.Kind, leaf.Record = ipgeo.LeafData, rec
		}
		if p.Addr().Is4() {
			d.V4 = append(d.V4, leaf)
			continue
		}
		// What the iteration skipped before this network is aliased to the IPv4 tree.
		if covered || p.Addr().Less(next) {
			return nil, fmt.Errorf("%s: networks out of order", p)
		}
		if p.Addr() != next {
			addAliases(d, next, p.Addr().Prev())
		}
		d.V6 = append(d.V6, leaf)
		last := lastAddr(p)
		next, covered = last.Next(), last == maxIPv6()
	}
	if !covered {
		addAliases(d, next, maxIPv6())
	}
	if len(d.Records) == 0 {
		return nil, errors.New("no data records")
	}
	return d, nil
}

// sixToFour is 6to4 space (RFC 3056), the one range the database aliases to its IPv4 tree
// whose embedded address is the client's own: a 6to4 site's public IPv4 address, bits 16–47.
// The database's other aliases are not followed. In 2001::/32 (Teredo, RFC 4380) bits 32–63
// are the Teredo server's address, so its place is the relay's, not the client's; ::/96
// (IPv4-compatible addresses, deprecated by RFC 4291) is reserved space, bogon to the
// network data, which an alias would place at whatever IPv4 address its last bits spell
// (::8.8.8.8 in the United States). Those ranges are left without data instead; and
// ::ffff:0:0/96 is never looked up, since lookups unmap IPv4-mapped addresses first.
var sixToFour = netip.MustParsePrefix("2002::/16")

// addAliases covers [first, last], a range the database aliases to its IPv4 tree, with
// leaves: one alias leaf for 6to4 space where the range holds the whole of it, empty leaves
// elsewhere (sixToFour). An alias leaf reads the IPv4 address right after its own prefix,
// so only the whole of 2002::/16 is one: had the database data inside 6to4 space, a leaf
// for the rest of it (2002:8000::/17) would read bits 17–48, not the 16–47 that hold it.
func addAliases(d *ipgeo.Data, first, last netip.Addr) {
	lo, hi := sixToFour.Addr(), lastAddr(sixToFour)
	if first.Less(lo) {
		addLeaves(d, first, minAddr(last, lo.Prev()), ipgeo.LeafEmpty)
	}
	if !last.Less(lo) && !hi.Less(first) {
		from, to := maxAddr(first, lo), minAddr(last, hi)
		kind := ipgeo.LeafEmpty
		if from == lo && to == hi {
			kind = ipgeo.LeafAlias
		}
		addLeaves(d, from, to, kind)
	}
	if hi.Less(last) {
		addLeaves(d, maxAddr(first, hi.Next()), last, ipgeo.LeafEmpty)
	}
}

// addLeaves covers [first, last] with leaves of kind.
func addLeaves(d *ipgeo.Data, first, last netip.Addr, kind ipgeo.LeafKind) {
	for _, p := range rangePrefixes(first, last) {
		d.V6 = append(d.V6, ipgeo.Leaf{Prefix: p, Kind: kind})
	}
}

func minAddr(a, b netip.Addr) netip.Addr {
	if b.Less(a) {
		return b
	}
	return a
}

func maxAddr(a, b netip.Addr) netip.Addr {
	if a.Less(b) {
		return b
	}
	return a
}

func maxIPv6() netip.Addr {
	var b [16]byte
	for i := range b {
		b[i] = 0xff
	}
	return netip.AddrFrom16(b)
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// rangePrefixes returns the fewest prefixes that cover [first, last] exactly, in order.
func rangePrefixes(first, last netip.Addr) []netip.Prefix {
	var out []netip.Prefix
	for {
		bits := first.BitLen()
		for b := 0; b <= first.BitLen(); b++ {
			p := netip.PrefixFrom(first, b)
			if p.Masked().Addr() == first && !last.Less(lastAddr(p)) {
				bits = b
				break
			}
		}
		p := netip.PrefixFrom(first, bits)
		out = append(out, p)
		end := lastAddr(p)
		if end == last {
			return out
		}
		first = end.Next()
	}
}

// assembler dedupes records (by data offset) and places (by content).
type assembler struct {
	d       *ipgeo.Data
	places  map[string]int
	records map[uintptr]int
}

func (a *assembler) record(res maxminddb.Result) (int, error) {
	if i, ok := a.records[res.Offset()]; ok {
		return i, nil
	}
	var m MMDBRecord
	if err := res.Decode(&m); err != nil {
		return 0, err
	}
	r, err := a.convert(&m)
	if err != nil {
		return 0, err
	}
	i := len(a.d.Records)
	a.d.Records = append(a.d.Records, r)
	a.records[res.Offset()] = i
	return i, nil
}

// convert turns a decoded record into an ipgeo.RecordData, adding its places.
func (a *assembler) convert(m *MMDBRecord) (ipgeo.RecordData, error) {
	r := ipgeo.RecordData{
		Continent:         a.place(m.Continent.Code, m.Continent),
		Country:           a.place(m.Country.ISOCode, m.Country),
		RegisteredCountry: a.place(m.RegisteredCountry.ISOCode, m.RegisteredCountry),
		City:              a.place("", m.City),
		Postcode:          m.Postal.Code,
		TimeZone:          m.Location.TimeZone,
	}
	for _, s := range m.Subdivisions {
		code := s.ISOCode
		if code != "" && m.Country.ISOCode != "" {
			code = m.Country.ISOCode + "-" + code
		}
		if p := a.place(code, s); p != ipgeo.NoPlace {
			r.Subdivisions = append(r.Subdivisions, p)
		}
	}
	l := m.Location
	if l.Latitude != nil && l.Longitude != nil {
		lat, lon := *l.Latitude, *l.Longitude
		if math.IsNaN(lat) || math.IsNaN(lon) || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
			return r, fmt.Errorf("coordinates %v, %v out of range", lat, lon)
		}
		r.HasLocation, r.Latitude, r.Longitude, r.AccuracyRadius = true, lat, lon, int(l.AccuracyRadius)
	}
	return r, nil
}

// place returns the index of the place, adding it if new; NoPlace for an empty one.
func (a *assembler) place(code string, m MMDBPlace) int {
	var names [ipgeo.NumLanguages]string
	for i := range names {
		names[i] = m.Names[ipgeo.Language(i)]
	}
	if code == "" && m.GeonameID == 0 && names == ([ipgeo.NumLanguages]string{}) {
		return ipgeo.NoPlace
	}
	var key strings.Builder
	key.WriteString(code)
	key.WriteByte(0)
	key.WriteString(strconv.FormatUint(uint64(m.GeonameID), 10))
	for _, n := range names {
		key.WriteByte(0)
		key.WriteString(n)
	}
	if i, ok := a.places[key.String()]; ok {
		return i
	}
	i := len(a.d.Places)
	a.d.Places = append(a.d.Places, ipgeo.PlaceData{Code: code, GeonameID: m.GeonameID, Names: names})
	a.places[key.String()] = i
	return i
}

// readMaybeGzip returns the contents of name, or of name+".gz" decompressed.
func readMaybeGzip(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name + ".gz")
	if errors.Is(err, fs.ErrNotExist) {
		return fs.ReadFile(fsys, name)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	var buf bytes.Buffer
	if fi, err := f.Stat(); err == nil && fi.Size() > 0 {
		buf.Grow(int(min(2*fi.Size(), maxMMDB)))
	}
	n, err := io.Copy(&buf, io.LimitReader(zr, maxMMDB+1))
	if err != nil {
		return nil, fmt.Errorf("%s.gz: %w", name, err)
	}
	if n > maxMMDB {
		return nil, fmt.Errorf("%s.gz: larger than %d bytes", name, maxMMDB)
	}
	return buf.Bytes(), nil
}
