package netinfo

import (
	"cmp"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"
)

// Input is what a build gathered from its sources, in source terms: blocks as address
// ranges, announced networks as prefixes, AS records as the sources state them. Encode
// compiles it into a section; the package documentation gives the rules that resolve
// overlapping blocks.
type Input struct {
	Registry []RegistryBlock
	Bogons   []BogonBlock
	Networks []Announced
	ASes     []ASRecord
	Sources  Sources
}

// RegistryBlock is one registration record: a range, who registered it and how.
type RegistryBlock struct {
	First, Last netip.Addr // inclusive, one family
	Registry    string     // see Network.Registry
	Status      string     // see Network.RegistryStatus
	Country     string     // ISO 3166-1 alpha-2 or ""
	// Priority orders blocks whose pieces coincide: the higher wins. Builders give more
	// authoritative sources (an RIR's own file over IANA's table) higher priorities.
	Priority uint8
}

// BogonBlock marks a range as bogon space, or, with Bogon false, as explicitly not bogon
// inside a larger bogon block (IANA special-purpose blocks that are globally reachable).
type BogonBlock struct {
	First, Last netip.Addr // inclusive, one family
	Bogon       bool
	Priority    uint8 // as in RegistryBlock
}

// Announced is one announced network. Announced networks must not overlap.
type Announced struct {
	Prefix       netip.Prefix // an IPv4 or IPv6 prefix, not IPv4-mapped IPv6
	Carriers     []uint32     // origin ASes, principal first; at most MaxCarriers
	ViaCarriers  []uint32     // at most MaxViaCarriers, most significant first
	Organisation string
	Country      string // registered country of the network, alpha-2 or ""
}

// ASRecord is what sources state about one AS. Counts and rank are not part of it: the DB
// computes them from the announced networks.
type ASRecord struct {
	ASN                    uint32
	Organisation           string
	Name                   string
	Registry               string
	Country                string // alpha-2 or ""
	RegistrationDate       string // "yyyy-mm-dd" or ""
	RegistrationLastChange string // "yyyy-mm-dd" or ""
	TransitTo              []uint32
}

// Limits on input sizes, so that a section cannot describe absurd structures.
const (
	maxStringLen = 1 << 12
	maxTransit   = 1 << 20
)

// compiled is an Input resolved into what the section stores: unique sorted pieces, sorted
// disjoint networks, AS records sorted by ASN, one for every AS any record mentions.
type compiled struct {
	sources  Sources
	registry []regPiece
	bogons   []bogonPiece
	networks []Announced
	ases     []ASRecord
}

type regPiece struct {
	prefix                    netip.Prefix
	registry, status, country string
	priority                  uint8
}

type bogonPiece struct {
	prefix   netip.Prefix
	bogon    bool
	priority uint8
}

// comparePrefixes orders prefixes IPv4 first, then by address, then shorter first, which
// is the pre-order of the prefix tree.
func comparePrefixes(a, b netip.Prefix) int {
	if a.Addr().Is4() != b.Addr().Is4() {
		if a.Addr().Is4() {
			return -1
		}
		return 1
	}
	if c := a.Addr().Compare(b.Addr()); c != 0 {
		return c
	}
	return cmp.Compare(a.Bits(), b.Bits())
}

func checkRange(first, last netip.Addr) error {
	switch {
	case !first.IsValid() || !last.IsValid():
		return fmt.Errorf("invalid range %v-%v", first, last)
	case first.Zone() != "" || last.Zone() != "":
		return fmt.Errorf("range %v-%v has a zone", first, last)
	case first.Is4() != last.Is4() || first.Is4In6() || last.Is4In6():
		return fmt.Errorf("range %v-%v mixes families or uses IPv4-mapped addresses", first, last)
	case last.Less(first):
		return fmt.Errorf("range %v-%v is reversed", first, last)
	}
	return nil
}

func checkString(what, s string) error {
	if len(s) > maxStringLen || !utf8.ValidString(s) {
		return fmt.Errorf("%s %.40q: too long or not UTF-8", what, s)
	}
	return nil
}

func checkCountry(cc string) error {
	if cc == "" || len(cc) == 2 && isUpper(cc[0]) && isUpper(cc[1]) {
		return nil
	}
	return fmt.Errorf("country %q is not an alpha-2 code", cc)
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// checkDate accepts "" and "yyyy-mm-dd" with plausible month and day.
func checkDate(d string) error {
	if d == "" {
		return nil
	}
	ok := len(d) == 10 && d[4] == '-' && d[7] == '-'
	for i := 0; ok && i < len(d); i++ {
		if i != 4 && i != 7 && (d[i] < '0' || d[i] > '9') {
			ok = false
		}
	}
	if ok {
		m := (d[5]-'0')*10 + d[6] - '0'
		day := (d[8]-'0')*10 + d[9] - '0'
		ok = m >= 1 && m <= 12 && day >= 1 && day <= 31
	}
	if !ok {
		return fmt.Errorf("date %q is not yyyy-mm-dd", d)
	}
	return nil
}

// compile validates in and resolves it. It does not modify in.
func compile(in Input) (*compiled, error) {
	c := &compiled{sources: in.Sources}

	regs := map[netip.Prefix]regPiece{}
	var buf []netip.Prefix
	for _, b := range in.Registry {
		if err := checkRange(b.First, b.Last); err != nil {
			return nil, fmt.Errorf("registry block: %w", err)
		}
		for _, s := range []string{b.Registry, b.Status} {
			if err := checkString("registry block", s); err != nil {
				return nil, err
			}
		}
		if err := checkCountry(b.Country); err != nil {
			return nil, fmt.Errorf("registry block %v-%v: %w", b.First, b.Last, err)
		}
		buf = pieces(buf[:0], b.First, b.Last)
		for _, p := range buf {
			cand := regPiece{p, b.Registry, b.Status, b.Country, b.Priority}
			if old, ok := regs[p]; !ok || regWins(cand, old) {
				regs[p] = cand
			}
		}
	}
	c.registry = slices.SortedFunc(maps.Values(regs), func(a, b regPiece) int { return comparePrefixes(a.prefix, b.prefix) })

	bogons := map[netip.Prefix]bogonPiece{}
	for _, b := range in.Bogons {
		if err := checkRange(b.First, b.Last); err != nil {
			return nil, fmt.Errorf("bogon block: %w", err)
		}
		buf = pieces(buf[:0], b.First, b.Last)
		for _, p := range buf {
			cand := bogonPiece{p, b.Bogon, b.Priority}
			if old, ok := bogons[p]; !ok || bogonWins(cand, old) {
				bogons[p] = cand
			}
		}
	}
	c.bogons = slices.SortedFunc(maps.Values(bogons), func(a, b bogonPiece) int { return comparePrefixes(a.prefix, b.prefix) })

	mentioned := map[uint32]bool{}
	c.networks = make([]Announced, 0, len(in.Networks))
	for _, n := range in.Networks {
		p := n.Prefix
		if !p.IsValid() || p.Addr().Zone() != "" || p.Addr().Is4In6() {
			return nil, fmt.Errorf("network %v: invalid prefix", p)
		}
		if p != p.Masked() {
			return nil, fmt.Errorf("network %v: host bits set", p)
		}
		if len(n.Carriers) > MaxCarriers || len(n.ViaCarriers) > MaxViaCarriers {
			return nil, fmt.Errorf("network %v: %d carriers, %d via carriers", p, len(n.Carriers), len(n.ViaCarriers))
		}
		if err := checkString("organisation", n.Organisation); err != nil {
			return nil, fmt.Errorf("network %v: %w", p, err)
		}
		if err := checkCountry(n.Country); err != nil {
			return nil, fmt.Errorf("network %v: %w", p, err)
		}
		for _, a := range n.Carriers {
			mentioned[a] = true
		}
		for _, a := range n.ViaCarriers {
			mentioned[a] = true
		}
		c.networks = append(c.networks, n)
	}
	slices.SortFunc(c.networks, func(a, b Announced) int { return comparePrefixes(a.Prefix, b.Prefix) })
	for i := 1; i < len(c.networks); i++ {
		if c.networks[i-1].Prefix.Overlaps(c.networks[i].Prefix) {
			return nil, fmt.Errorf("networks %v and %v overlap", c.networks[i-1].Prefix, c.networks[i].Prefix)
		}
	}

	c.ases = make([]ASRecord, 0, len(in.ASes)+len(mentioned))
	for _, a := range in.ASes {
		for _, s := range []string{a.Organisation, a.Name, a.Registry} {
			if err := checkString("AS record", s); err != nil {
				return nil, fmt.Errorf("AS%d: %w", a.ASN, err)
			}
		}
		if err := checkCountry(a.Country); err != nil {
			return nil, fmt.Errorf("AS%d: %w", a.ASN, err)
		}
		for _, d := range [2]string{a.RegistrationDate, a.RegistrationLastChange} {
			if err := checkDate(d); err != nil {
				return nil, fmt.Errorf("AS%d: %w", a.ASN, err)
			}
		}
		if len(a.TransitTo) > maxTransit {
			return nil, fmt.Errorf("AS%d: %d transit ASes", a.ASN, len(a.TransitTo))
		}
		a.TransitTo = slices.Compact(slices.Sorted(slices.Values(a.TransitTo)))
		for _, t := range a.TransitTo {
			mentioned[t] = true
		}
		c.ases = append(c.ases, a)
	}
	slices.SortFunc(c.ases, func(a, b ASRecord) int { return cmp.Compare(a.ASN, b.ASN) })
	for i := 1; i < len(c.ases); i++ {
		if c.ases[i-1].ASN == c.ases[i].ASN {
			return nil, fmt.Errorf("AS%d: duplicate record", c.ases[i].ASN)
		}
	}
	for _, a := range c.ases {
		delete(mentioned, a.ASN)
	}
	for asn := range mentioned {
		c.ases = append(c.ases, ASRecord{ASN: asn})
	}
	slices.SortFunc(c.ases, func(a, b ASRecord) int { return cmp.Compare(a.ASN, b.ASN) })
	return c, nil
}

// regWins reports whether registry piece a beats b for the same prefix.
func regWins(a, b regPiece) bool {
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	return cmp.Or(strings.Compare(a.registry, b.registry), strings.Compare(a.status, b.status), strings.Compare(a.country, b.country)) < 0
}

// bogonWins reports whether bogon piece a beats b for the same prefix.
func bogonWins(a, b bogonPiece) bool {
	if a.priority != b.priority {
		return a.priority > b.priority
	}
	return a.bogon && !b.bogon
}
