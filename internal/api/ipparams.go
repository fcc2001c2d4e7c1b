package api

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// parseIPParam parses the spec's `ip` parameter: dotted IPv4, IPv4 as a decimal number
// ("134744072" is 8.8.8.8) or IPv6. IPv4-mapped IPv6 is unmapped; zones are refused (they
// name an interface of the caller's machine, not an Internet address). A number with a
// leading zero is refused as dotted IPv4 with one is ("08.8.8.8"): C's inet_aton and the
// tools built on it read such a number as octal, so the caller may mean another address.
func parseIPParam(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return netip.Addr{}, false
	}
	if isDigits(s) {
		if len(s) > 1 && s[0] == '0' {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
	}
	a, err := netip.ParseAddr(s)
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// requestIP returns the address a request asks about: the `ip` parameter, or the caller's
// own address when it is absent (spec). A malformed one is the spec's 405. An answer about
// the caller is marked no-store: a shared cache in front of several callers with one key
// (an office proxy, a CDN) would otherwise give one caller's answer to the next.
func (s *Server) requestIP(w http.ResponseWriter, r *http.Request) (netip.Addr, error) {
	v, ok := paramOK(r, "ip")
	if !ok || strings.TrimSpace(v) == "" {
		a, ok := s.opt.ClientAddrs.Of(r)
		if !ok {
			return netip.Addr{}, invalidIP("The caller's address could not be determined; pass the ip parameter.")
		}
		markNoStore(w)
		return a, nil
	}
	a, ok := parseIPParam(v)
	if !ok {
		return netip.Addr{}, invalidIP("The requested IP address %s is not valid: use dotted IPv4 (8.8.8.8), IPv4 as a number without leading zeros (134744072) or IPv6 (2001:4860:4860::8888).", quoteInput(v))
	}
	return a, nil
}

// parseCIDRParam parses a CIDR range: IPv4 `x.x.x.x/y` (y 0–32) or IPv6 `addr/y` (y 0–128).
// A bare address is its own host prefix. Host bits are cleared: clients write 8.8.8.8/24.
// IPv4-mapped ranges are unmapped (::ffff:8.8.8.0/120 is 8.8.8.0/24), as addresses are.
func parseCIDRParam(s string) (netip.Prefix, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return netip.Prefix{}, false
	}
	if !strings.Contains(s, "/") {
		a, ok := parseIPParam(s)
		if !ok {
			return netip.Prefix{}, false
		}
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil || p.Addr().Zone() != "" {
		return netip.Prefix{}, false
	}
	// An IPv4-mapped range is the IPv4 range it maps, as a mapped address is that address;
	// one wider than ::ffff:0:0/96 is an IPv6 range like any other once its host bits go.
	p = p.Masked()
	if p.Addr().Is4In6() && p.Bits() >= 96 {
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	return p, true
}

// parseASNParam parses an AS number written as "15169", "AS15169" or "ASN15169" (any case),
// 0 to 4294967295. AS 0 is well formed, so it is not refused here: like the other reserved
// numbers it is a 404 (no public network has it), not a malformed request.
func parseASNParam(s string) (uint32, bool) {
	s = strings.TrimSpace(s)
	if len(s) >= 3 && strings.EqualFold(s[:3], "asn") {
		s = s[3:]
	} else if len(s) >= 2 && strings.EqualFold(s[:2], "as") {
		s = s[2:]
	}
	if !isDigits(s) || len(s) > 10 {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, false
	}
	return uint32(n), true
}

// intParam reads an optional integer parameter in [lo, hi], with a default when absent. Out
// of range or malformed is a 400 naming the parameter and its range.
func intParam(r *http.Request, name string, def, lo, hi int) (int, error) {
	v, ok := paramOK(r, name)
	if !ok || strings.TrimSpace(v) == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, badRequest("The %s parameter must be a whole number from %d to %d; got %s.", name, lo, hi, quoteInput(v))
	}
	return n, nil
}

// boolParam reads an optional true/false parameter.
func boolParam(r *http.Request, name string) (bool, error) {
	v, ok := paramOK(r, name)
	if !ok || v == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return false, badRequest("The %s parameter must be true or false; got %s.", name, quoteInput(v))
	}
	return b, nil
}

// decimalNumber reports whether s is written as a plain decimal number (sign, digits, point,
// exponent), not in the other forms ParseFloat takes from Go's syntax: 1_0, 0x1p4, Inf, NaN.
func decimalNumber(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9', c == '.', c == '+', c == '-', c == 'e', c == 'E':
		default:
			return false
		}
	}
	return true
}

// coordParams reads latitude and longitude: both required (400), plain decimal numbers in
// range (401 otherwise, see badCoordinates).
func coordParams(r *http.Request) (lat, lon float64, err error) {
	parse := func(name string, limit float64) (float64, error) {
		v, ok := paramOK(r, name)
		if !ok || strings.TrimSpace(v) == "" {
			return 0, badRequest("The %s parameter is required. Expecting latitude in (+/- 90) and longitude in (+/- 180) range values.", name)
		}
		t := strings.TrimSpace(v)
		f, err := strconv.ParseFloat(t, 64)
		if err != nil || !decimalNumber(t) || f < -limit || f > limit {
			return 0, badCoordinates("Invalid coordinates: %s is %s. Expecting latitude in (+/- 90) and longitude in (+/- 180) range values.", name, quoteInput(v))
		}
		if f == 0 {
			f = 0 // -0 is 0: the answer echoes the coordinates
		}
		return f, nil
	}
	if lat, err = parse("latitude", 90); err != nil {
		return 0, 0, err
	}
	if lon, err = parse("longitude", 180); err != nil {
		return 0, 0, err
	}
	return lat, lon, nil
}
