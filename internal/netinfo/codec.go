package netinfo

import (
	"encoding/binary"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"unicode/utf8"
)

// The section layout. Integers are unsigned varints (encoding/binary.AppendUvarint); a "str"
// is a varint index into the string table, whose entry 0 is always "". A "prefix" is one tag
// byte, 0-32 for an IPv4 prefix of that length or 33-161 for an IPv6 prefix of length
// tag-33, then the ceil(length/8) leading bytes of the address, host bits zero.
//
//	magic     "ipatlas-netinfo\x00"
//	version   varint, formatVersion
//	sources   byte: bit 0 RIR stats, 1 IANA XML, 2 full bogons, 3 AS paths, 4 AS names
//	strings   varint count, then count × (varint byte length, UTF-8 bytes)
//	registry  varint count, then count pieces in strictly ascending prefix order:
//	          prefix, str registry, str status, str country
//	bogons    varint count, then count pieces in strictly ascending prefix order:
//	          prefix, byte bogon (0 or 1)
//	networks  varint count, then count networks in ascending, non-overlapping order:
//	          prefix, str organisation, str country,
//	          varint nCarriers, nCarriers × varint ASN, varint nVia, nVia × varint ASN
//	ases      varint count, then count records in strictly ascending ASN order:
//	          varint ASN minus the previous ASN (the first: the ASN itself),
//	          str organisation, str name, str registry, str country,
//	          str registration date, str last change,
//	          varint nTransit, nTransit × varint ASN in strictly ascending order
//
// Prefix order is IPv4 first, then address, then length (shorter first). The payload ends
// with the last AS record. Counts, ranks and every index the engine uses are derived at
// Decode, so they cannot disagree with the data.
const (
	magic         = "ipatlas-netinfo\x00"
	formatVersion = 1
)

const (
	srcRIRStats = 1 << iota
	srcIANAXML
	srcFullBogons
	srcASPaths
	srcASNames
)

func (s Sources) bits() byte {
	var b byte
	for i, set := range [...]bool{s.RIRStats, s.IANAXML, s.FullBogons, s.ASPaths, s.ASNames} {
		if set {
			b |= 1 << i
		}
	}
	return b
}

func sourcesOf(b byte) Sources {
	return Sources{
		RIRStats: b&srcRIRStats != 0, IANAXML: b&srcIANAXML != 0, FullBogons: b&srcFullBogons != 0,
		ASPaths: b&srcASPaths != 0, ASNames: b&srcASNames != 0,
	}
}

// Encode compiles in into a netinfo section payload. The bytes depend only on the facts in
// in, not on the order of its slices, so the same facts always encode identically. Encode
// rejects what Decode would reject (it decodes its own output to make sure).
func Encode(in Input) ([]byte, error) {
	c, err := compile(in)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInput, err)
	}
	e := encoder{index: map[string]uint64{"": 0}, table: []string{""}}

	e.uvarint(uint64(len(c.registry)))
	for _, r := range c.registry {
		e.prefix(r.prefix)
		e.str(r.registry)
		e.str(r.status)
		e.str(r.country)
	}
	e.uvarint(uint64(len(c.bogons)))
	for _, b := range c.bogons {
		e.prefix(b.prefix)
		if b.bogon {
			e.body = append(e.body, 1)
		} else {
			e.body = append(e.body, 0)
		}
	}
	e.uvarint(uint64(len(c.networks)))
	for _, n := range c.networks {
		e.prefix(n.Prefix)
		e.str(n.Organisation)
		e.str(n.Country)
		e.uvarint(uint64(len(n.Carriers)))
		for _, a := range n.Carriers {
			e.uvarint(uint64(a))
		}
		e.uvarint(uint64(len(n.ViaCarriers)))
		for _, a := range n.ViaCarriers {
			e.uvarint(uint64(a))
		}
	}
	e.uvarint(uint64(len(c.ases)))
	prev := uint64(0)
	for i, a := range c.ases {
		if i == 0 {
			e.uvarint(uint64(a.ASN))
		} else {
			e.uvarint(uint64(a.ASN) - prev)
		}
		prev = uint64(a.ASN)
		for _, s := range [...]string{a.Organisation, a.Name, a.Registry, a.Country, a.RegistrationDate, a.RegistrationLastChange} {
			e.str(s)
		}
		e.uvarint(uint64(len(a.TransitTo)))
		for _, t := range a.TransitTo {
			e.uvarint(uint64(t))
		}
	}

	out := make([]byte, 0, len(magic)+len(e.body)+16*len(e.table)+8)
	out = append(out, magic...)
	out = binary.AppendUvarint(out, formatVersion)
	out = append(out, c.sources.bits())
	out = binary.AppendUvarint(out, uint64(len(e.table)))
	for _, s := range e.table {
		out = binary.AppendUvarint(out, uint64(len(s)))
		out = append(out, s...)
	}
	out = append(out, e.body...)

	if _, err := decode(string(out)); err != nil {
		return nil, fmt.Errorf("netinfo: encode: output does not decode: %w", err)
	}
	return out, nil
}

// encoder accumulates the body and the string table of a section.
type encoder struct {
	body  []byte
	index map[string]uint64
	table []string
}

func (e *encoder) uvarint(v uint64) { e.body = binary.AppendUvarint(e.body, v) }

func (e *encoder) str(s string) {
	i, ok := e.index[s]
	if !ok {
		i = uint64(len(e.table))
		e.index[s] = i
		e.table = append(e.table, s)
	}
	e.uvarint(i)
}

func (e *encoder) prefix(p netip.Prefix) {
	tag := p.Bits()
	if !p.Addr().Is4() {
		tag += 33
	}
	e.body = append(e.body, byte(tag))
	n := (p.Bits() + 7) / 8
	if p.Addr().Is4() {
		b := p.Addr().As4()
		e.body = append(e.body, b[:n]...)
	} else {
		b := p.Addr().As16()
		e.body = append(e.body, b[:n]...)
	}
}

// raw is a decoded section before the engine's indexes are built.
type raw struct {
	sources Sources
	strs    []string
	regs    []regRec
	bogons  []bogonRec
	nets    []netRec
	pool    []uint32 // carriers and via carriers of nets
	ases    []asRec
	asns    []uint32
	transit []uint32
}

type regRec struct {
	v                         u128
	bits                      uint8
	is4                       bool
	registry, status, country uint32 // string indexes
}

func (r *regRec) prefix() netip.Prefix { return netip.PrefixFrom(r.v.addr(r.is4), int(r.bits)) }

type bogonRec struct {
	v     u128
	bits  uint8
	is4   bool
	bogon bool
}

func (b *bogonRec) prefix() netip.Prefix { return netip.PrefixFrom(b.v.addr(b.is4), int(b.bits)) }

type netRec struct {
	v            u128
	org, country uint32 // string indexes
	pool         uint32 // offset of the carriers in raw.pool, via carriers follow
	bits         uint8
	is4          bool
	bogon        bool // the prefix as a whole is bogon space; set at load
	nCarr, nVia  uint8
}

func (n *netRec) prefix() netip.Prefix { return netip.PrefixFrom(n.v.addr(n.is4), int(n.bits)) }

// last returns the last address of n as a u128.
func (n *netRec) last() u128 { return n.v.or(hostMask(width(n.is4) - int(n.bits))) }

type asRec struct {
	org, name, registry, country, date, lastChange uint32 // string indexes
	transitOff, transitN                           uint32
	v4Addrs                                        uint64
	v4Prefixes, v4Bogons, v6Prefixes, v6Bogons     uint32
	rank                                           uint32
}

type decoder struct {
	buf  string
	off  int
	strs []string
}

// decode parses and validates a section; buf is kept (its strings are slices of it).
func decode(buf string) (*raw, error) {
	d := decoder{buf: buf}
	r := &raw{}
	if !strings.HasPrefix(d.buf, magic) {
		return nil, errors.New("bad magic")
	}
	d.off = len(magic)
	v, err := d.uvarint()
	if err != nil {
		return nil, err
	}
	if v != formatVersion {
		return nil, fmt.Errorf("format version %d, want %d", v, formatVersion)
	}
	sb, err := d.byte()
	if err != nil {
		return nil, err
	}
	if sb >= 1<<5 {
		return nil, fmt.Errorf("unknown source bits %#x", sb)
	}
	r.sources = sourcesOf(sb)

	n, err := d.count(1)
	if err != nil {
		return nil, fmt.Errorf("string table: %w", err)
	}
	if n == 0 {
		return nil, errors.New("empty string table")
	}
	d.strs = make([]string, n)
	for i := range d.strs {
		l, err := d.uvarint()
		if err != nil {
			return nil, fmt.Errorf("string %d: %w", i, err)
		}
		if l > uint64(len(d.buf)-d.off) || l > maxStringLen {
			return nil, fmt.Errorf("string %d: length %d", i, l)
		}
		s := d.buf[d.off : d.off+int(l)]
		d.off += int(l)
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("string %d: invalid UTF-8", i)
		}
		d.strs[i] = s
	}
	if d.strs[0] != "" {
		return nil, errors.New("string 0 is not empty")
	}
	r.strs = d.strs

	// registry pieces
	if n, err = d.count(4); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if n > maxRegs {
		return nil, fmt.Errorf("registry: %d pieces, more than the %d the IPv4 table can index", n, maxRegs)
	}
	r.regs = make([]regRec, n)
	var prev netip.Prefix
	for i := range r.regs {
		p, err := d.prefix()
		if err != nil {
			return nil, fmt.Errorf("registry piece %d: %w", i, err)
		}
		if i > 0 && comparePrefixes(prev, p) >= 0 {
			return nil, fmt.Errorf("registry piece %v out of order", p)
		}
		prev = p
		g := &r.regs[i]
		g.v, g.bits, g.is4 = u128Of(p.Addr()), uint8(p.Bits()), p.Addr().Is4()
		if g.registry, err = d.str(); err == nil {
			if g.status, err = d.str(); err == nil {
				g.country, err = d.country()
			}
		}
		if err != nil {
			return nil, fmt.Errorf("registry piece %v: %w", p, err)
		}
	}

	// bogon pieces
	if n, err = d.count(2); err != nil {
		return nil, fmt.Errorf("bogons: %w", err)
	}
	r.bogons = make([]bogonRec, n)
	for i := range r.bogons {
		p, err := d.prefix()
		if err != nil {
			return nil, fmt.Errorf("bogon piece %d: %w", i, err)
		}
		if i > 0 && comparePrefixes(prev, p) >= 0 {
			return nil, fmt.Errorf("bogon piece %v out of order", p)
		}
		prev = p
		f, err := d.byte()
		if err != nil {
			return nil, err
		}
		if f > 1 {
			return nil, fmt.Errorf("bogon piece %v: flag %d", p, f)
		}
		r.bogons[i] = bogonRec{u128Of(p.Addr()), uint8(p.Bits()), p.Addr().Is4(), f == 1}
	}

	// networks
	if n, err = d.count(5); err != nil {
		return nil, fmt.Errorf("networks: %w", err)
	}
	r.nets = make([]netRec, n)
	var prevLast u128
	for i := range r.nets {
		p, err := d.prefix()
		if err != nil {
			return nil, fmt.Errorf("network %d: %w", i, err)
		}
		g := &r.nets[i]
		g.v, g.bits, g.is4 = u128Of(p.Addr()), uint8(p.Bits()), p.Addr().Is4()
		if i > 0 {
			q := &r.nets[i-1]
			if !q.is4 && g.is4 || q.is4 == g.is4 && g.v.cmp(prevLast) <= 0 {
				return nil, fmt.Errorf("network %v out of order or overlapping", p)
			}
		}
		prevLast = g.last()
		if g.org, err = d.str(); err == nil {
			g.country, err = d.country()
		}
		if err != nil {
			return nil, fmt.Errorf("network %v: %w", p, err)
		}
		g.pool = uint32(len(r.pool))
		for j, limit := range [2]int{MaxCarriers, MaxViaCarriers} {
			k, err := d.uvarint()
			if err != nil {
				return nil, err
			}
			if k > uint64(limit) {
				return nil, fmt.Errorf("network %v: %d ASes in list %d", p, k, j)
			}
			for range k {
				a, err := d.asn()
				if err != nil {
					return nil, fmt.Errorf("network %v: %w", p, err)
				}
				r.pool = append(r.pool, a)
			}
			if j == 0 {
				g.nCarr = uint8(k)
			} else {
				g.nVia = uint8(k)
			}
		}
	}

	// AS records
	if n, err = d.count(8); err != nil {
		return nil, fmt.Errorf("ases: %w", err)
	}
	r.ases = make([]asRec, n)
	r.asns = make([]uint32, n)
	var asn uint64
	for i := range r.ases {
		delta, err := d.uvarint()
		if err != nil {
			return nil, fmt.Errorf("AS record %d: %w", i, err)
		}
		if i > 0 && delta == 0 {
			return nil, fmt.Errorf("AS record %d: ASN not ascending", i)
		}
		if asn += delta; asn > 1<<32-1 || delta > 1<<32-1 {
			return nil, fmt.Errorf("AS record %d: ASN out of range", i)
		}
		r.asns[i] = uint32(asn)
		a := &r.ases[i]
		for _, f := range [...]*uint32{&a.org, &a.name, &a.registry} {
			if *f, err = d.str(); err != nil {
				return nil, fmt.Errorf("AS%d: %w", asn, err)
			}
		}
		if a.country, err = d.country(); err != nil {
			return nil, fmt.Errorf("AS%d: %w", asn, err)
		}
		for _, f := range [...]*uint32{&a.date, &a.lastChange} {
			if *f, err = d.str(); err == nil {
				err = checkDate(d.strs[*f])
			}
			if err != nil {
				return nil, fmt.Errorf("AS%d: %w", asn, err)
			}
		}
		k, err := d.count(1)
		if err != nil {
			return nil, fmt.Errorf("AS%d: transit: %w", asn, err)
		}
		a.transitOff, a.transitN = uint32(len(r.transit)), uint32(k)
		for j := range k {
			t, err := d.asn()
			if err != nil {
				return nil, fmt.Errorf("AS%d: transit: %w", asn, err)
			}
			if j > 0 && t <= r.transit[len(r.transit)-1] {
				return nil, fmt.Errorf("AS%d: transit list not ascending", asn)
			}
			r.transit = append(r.transit, t)
		}
	}
	if d.off != len(d.buf) {
		return nil, fmt.Errorf("%d trailing bytes", len(d.buf)-d.off)
	}
	if len(r.pool) > 1<<32-1 || len(r.transit) > 1<<32-1 {
		return nil, errors.New("too many ASNs")
	}
	return r, nil
}

// count reads a collection length and rejects one whose elements, each at least min bytes,
// could not fit in the remaining bytes, so garbage cannot make Decode allocate much.
func (d *decoder) count(min int) (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(d.buf)-d.off)/uint64(min) {
		return 0, fmt.Errorf("count %d exceeds the remaining %d bytes", n, len(d.buf)-d.off)
	}
	return int(n), nil
}

func (d *decoder) uvarint() (uint64, error) {
	var v uint64
	for shift := uint(0); shift < 64; shift += 7 {
		if d.off >= len(d.buf) {
			return 0, errors.New("unexpected end")
		}
		b := d.buf[d.off]
		d.off++
		if b < 0x80 {
			if shift == 63 && b > 1 {
				break
			}
			return v | uint64(b)<<shift, nil
		}
		v |= uint64(b&0x7f) << shift
	}
	return 0, errors.New("varint overflows 64 bits")
}

func (d *decoder) byte() (byte, error) {
	if d.off >= len(d.buf) {
		return 0, errors.New("unexpected end")
	}
	d.off++
	return d.buf[d.off-1], nil
}

func (d *decoder) asn() (uint32, error) {
	v, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if v > 1<<32-1 {
		return 0, fmt.Errorf("ASN %d out of range", v)
	}
	return uint32(v), nil
}

func (d *decoder) str() (uint32, error) {
	i, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if i >= uint64(len(d.strs)) {
		return 0, fmt.Errorf("string index %d out of range", i)
	}
	return uint32(i), nil
}

func (d *decoder) country() (uint32, error) {
	i, err := d.str()
	if err == nil {
		err = checkCountry(d.strs[i])
	}
	return i, err
}

func (d *decoder) prefix() (netip.Prefix, error) {
	tag, err := d.byte()
	if err != nil {
		return netip.Prefix{}, err
	}
	bitsLen, is4 := int(tag), true
	switch {
	case tag <= 32:
	case tag <= 33+128:
		bitsLen, is4 = int(tag)-33, false
	default:
		return netip.Prefix{}, fmt.Errorf("prefix tag %d", tag)
	}
	n := (bitsLen + 7) / 8
	if len(d.buf)-d.off < n {
		return netip.Prefix{}, errors.New("unexpected end")
	}
	var b [16]byte
	copy(b[:], d.buf[d.off:d.off+n])
	d.off += n
	var a netip.Addr
	if is4 {
		a = netip.AddrFrom4([4]byte(b[:4]))
	} else {
		a = netip.AddrFrom16(b)
	}
	p := netip.PrefixFrom(a, bitsLen)
	if p.Masked() != p {
		return netip.Prefix{}, fmt.Errorf("prefix %v has host bits set", p)
	}
	return p, nil
}
