package netinfo

// specialASNs are IANA's special-purpose AS numbers and reserved blocks: none names a public
// network, so a route through one is a leak and no registry describes one.
var specialASNs = []struct {
	first, last uint32
	purpose     string
}{
	{0, 0, "reserved (RFC 7607)"},
	{23456, 23456, "AS_TRANS, the stand-in for 4-byte AS numbers on 2-byte sessions (RFC 6793)"},
	{64496, 64511, "reserved for documentation (RFC 5398)"},
	{64512, 65534, "reserved for private use (RFC 6996)"},
	{65535, 65535, "reserved (RFC 7300)"},
	{65536, 65551, "reserved for documentation (RFC 5398)"},
	{65552, 131071, "reserved by IANA"},
	{4200000000, 4294967294, "reserved for private use (RFC 6996)"},
	{4294967295, 4294967295, "reserved (RFC 7300)"},
}

// SpecialASN reports whether asn is a special-purpose or reserved AS number, and what for.
func SpecialASN(asn uint32) (purpose string, ok bool) {
	for _, s := range specialASNs {
		if s.first <= asn && asn <= s.last {
			return s.purpose, true
		}
	}
	return "", false
}
