package risk

import (
	"net/netip"
	"strconv"
	"time"
)

// Kind says what being on a list means.
type Kind uint8

// List kinds. The order is the order of Lists in the section and of DB.Lists.
const (
	KindTorExit      Kind = iota + 1 // Tor exit relays
	KindTorRelay                     // Tor relays of any kind (guards, middles, exits)
	KindVPN                          // VPN provider servers or networks
	KindPrivateRelay                 // iCloud Private Relay egress
	KindCloud                        // a cloud or service provider's own published ranges
	KindDatacenter                   // datacenter or hosting ranges; for an ASNList, hosting ASNs
	KindBlocklist                    // an aggregate of public blocklists; Score = lists the address is on
	KindDrop                         // Spamhaus DROP/DROPv6: networks hijacked or run by criminals
	maxKind          = KindDrop
)

// String returns the kind's name in lower case, e.g. "tor-exit".
func (k Kind) String() string {
	switch k {
	case KindTorExit:
		return "tor-exit"
	case KindTorRelay:
		return "tor-relay"
	case KindVPN:
		return "vpn"
	case KindPrivateRelay:
		return "private-relay"
	case KindCloud:
		return "cloud"
	case KindDatacenter:
		return "datacenter"
	case KindBlocklist:
		return "blocklist"
	case KindDrop:
		return "drop"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Range is an inclusive range of addresses of one family, From <= To.
type Range struct{ From, To netip.Addr }

// PrefixRange returns the range of addresses p covers. An IPv4-mapped IPv6 prefix becomes the
// IPv4 range it maps, so that lists and lookups agree on one form.
func PrefixRange(p netip.Prefix) Range {
	p = p.Masked()
	a := p.Addr()
	if a.Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(a.Unmap(), p.Bits()-96)
		a = p.Addr()
	}
	return Range{From: a, To: lastAddr(p)}
}

// lastAddr returns the last address of the masked prefix p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// List is one address list as the builder parsed it.
type List struct {
	Name     string // e.g. "tor/exit-addresses"; several lists may share a name (ipcat providers, ipsum levels)
	Kind     Kind
	Provider string    // KindCloud, KindDatacenter: the provider, e.g. "Amazon"; else ""
	Score    int       // KindBlocklist: how many blocklists each address is on (>= 1); else 0
	Date     time.Time // the data's own date; zero if unknown
	Ranges   []Range   // any order; overlaps and 4-in-6 addresses are normalised by Encode
}

// ASNList is a list of autonomous systems. Kind is KindDatacenter (hosting ASNs) or KindVPN.
type ASNList struct {
	Name string // e.g. "x4bnet-lists-vpn/datacenter-asn"
	Kind Kind
	Date time.Time
	ASNs []uint32 // any order; 0 is not an ASN and is rejected
}

// Data is everything the risk section holds.
type Data struct {
	Lists    []List
	ASNLists []ASNList // at most one per kind
}

// ListInfo describes one list of a decoded section, for provenance pages and the build log.
type ListInfo struct {
	Name     string
	Kind     Kind
	Provider string
	Score    int
	Date     time.Time // zero if unknown
	Ranges   int       // address ranges after merging overlaps (address lists)
	ASNs     int       // autonomous systems (ASN lists)
}
