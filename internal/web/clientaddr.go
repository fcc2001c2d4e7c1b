package web

import (
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// ClientAddrs finds the address of the caller. Behind a reverse proxy the TCP peer is the
// proxy, so when the peer is in Trusted, the header the proxies write (Header) is read from
// the right, skipping trusted hops: the first untrusted hop is the client. Hops further left
// were written by the client itself and cannot be believed.
type ClientAddrs struct {
	Trusted []netip.Prefix
	// Header is the one header the trusted proxies write the client's address to:
	// HeaderXForwardedFor (also when empty) or HeaderForwarded. The other is never read, since
	// a proxy that writes one passes the other through as the client sent it: reading
	// Forwarded whenever present would let any client behind an X-Forwarded-For proxy choose
	// its own address.
	Header string
}

// The headers a trusted proxy can write the client's address to.
const (
	HeaderXForwardedFor = "X-Forwarded-For"
	HeaderForwarded     = "Forwarded" // RFC 7239
)

// ParseForwardedHeader reads the name of the header trusted proxies write (any case).
func ParseForwardedHeader(s string) (string, error) {
	switch {
	case strings.EqualFold(s, HeaderXForwardedFor):
		return HeaderXForwardedFor, nil
	case strings.EqualFold(s, HeaderForwarded):
		return HeaderForwarded, nil
	}
	return "", fmt.Errorf("%q is neither %s nor %s", s, HeaderXForwardedFor, HeaderForwarded)
}

// ParseTrustedProxies parses a comma-separated list of addresses or CIDR prefixes.
func ParseTrustedProxies(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if strings.Contains(f, "/") {
			p, err := netip.ParsePrefix(f)
			if err != nil {
				return nil, err
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, err
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

func (c ClientAddrs) trusted(a netip.Addr) bool {
	for _, p := range c.Trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// Of returns the caller's address, unmapped from IPv4-in-IPv6, or false when the request
// carries no usable address (which net/http never produces for real connections).
func (c ClientAddrs) Of(r *http.Request) (netip.Addr, bool) {
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok {
		return netip.Addr{}, false
	}
	if len(c.Trusted) == 0 || !c.trusted(peer) {
		return peer, true
	}
	hops := forwardedHops(r.Header, c.Header)
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHostAddr(hops[i])
		if !ok {
			// An unparsable hop (an obfuscated identifier or garbage) ends the chain we can
			// trust; the last good address is the best answer.
			return peer, true
		}
		if !c.trusted(a) {
			return a, true
		}
		peer = a
	}
	return peer, true
}

// Peer returns the TCP peer of r, unmapped from IPv4-in-IPv6, whatever the headers say:
// behind a trusted proxy, the proxy. It reports false when r carries no usable address.
func Peer(r *http.Request) (netip.Addr, bool) { return parseHostAddr(r.RemoteAddr) }

// ViaHTTPS reports whether the client sent r over TLS: to this server, or, when the TCP peer
// is a trusted proxy that terminated TLS, to the proxy, which says so in the header it
// writes the client's address to (Forwarded's proto=https) or, with X-Forwarded-For, in
// X-Forwarded-Proto. The nearest proxy's word counts (the last element, the rightmost
// value), so the proxy must write it (as proxies that terminate TLS do): one that passes a
// client's header on lets the client decide for itself. An untrusted peer's headers are
// never read: a client could claim https over plain HTTP.
func (c ClientAddrs) ViaHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	peer, ok := parseHostAddr(r.RemoteAddr)
	if !ok || !c.trusted(peer) {
		return false
	}
	if c.Header == HeaderForwarded {
		elems := listValues(r.Header, HeaderForwarded)
		if len(elems) == 0 {
			return false
		}
		proto, _ := forwardedParam(elems[len(elems)-1], "proto")
		return strings.EqualFold(proto, "https")
	}
	protos := listValues(r.Header, "X-Forwarded-Proto")
	return len(protos) > 0 && strings.EqualFold(protos[len(protos)-1], "https")
}

// forwardedHops lists proxy hops, leftmost first, from the header named (X-Forwarded-For
// when empty).
func forwardedHops(h http.Header, name string) []string {
	if name != HeaderForwarded {
		return listValues(h, HeaderXForwardedFor)
	}
	var hops []string
	for _, elem := range listValues(h, HeaderForwarded) {
		if v, ok := forwardedParam(elem, "for"); ok {
			hops = append(hops, v)
		}
	}
	return hops
}

// listValues is the comma-separated list of header name, over all its lines, leftmost
// first, without empty elements.
func listValues(h http.Header, name string) []string {
	var out []string
	for _, line := range h.Values(name) {
		for f := range strings.SplitSeq(line, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// forwardedParam is the value of parameter key in one element of a Forwarded header
// (for=192.0.2.60;proto=https), unquoted.
func forwardedParam(elem, key string) (string, bool) {
	for pair := range strings.SplitSeq(elem, ";") {
		if k, v, ok := strings.Cut(strings.TrimSpace(pair), "="); ok && strings.EqualFold(k, key) {
			return strings.Trim(v, `"`), true
		}
	}
	return "", false
}

// parseHostAddr accepts "1.2.3.4", "1.2.3.4:80", "[::1]:80", "[::1]" and "::1".
func parseHostAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().WithZone("").Unmap(), true // a zone names an interface of the sender's
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.WithZone("").Unmap(), true
}

// ClientKey is what limits count a client by: its address, or for IPv6 its /64, which one
// subscriber usually holds whole and can draw fresh addresses from.
func ClientKey(a netip.Addr) netip.Addr {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}
