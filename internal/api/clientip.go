package api

import (
	"net/http"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/web"
)

// callerAddrs is who asked: the client's address as the keyless endpoints count it (the TCP
// peer, or behind a proxy in --trusted-proxies the address it forwarded), and the proxy,
// valid only when the client's address came from a trusted proxy's forwarding header.
type callerAddrs struct {
	client, proxy netip.Addr
}

// callerOf finds r's addresses. The proxy is the TCP peer, the nearest trusted proxy: with
// a chain of them, the others are in the forwarding header, where the caller may also
// have written anything it liked.
func (s *Server) callerOf(r *http.Request) (callerAddrs, error) {
	client, ok := s.opt.ClientAddrs.Of(r)
	if !ok {
		return callerAddrs{}, invalidIP("The caller's address could not be determined.")
	}
	c := callerAddrs{client: client}
	if peer, ok := web.Peer(r); ok && peer != client {
		c.proxy = peer
	}
	return c, nil
}

// ipTypeOf is the address family as the commercial service names it in ipType.
func ipTypeOf(a netip.Addr) string {
	if a.Is4() {
		return "IPv4"
	}
	return "IPv6"
}

// clientIP answers /data/client-ip (keyless): {ipString, ipType, proxyIp?}.
//
//	ipString  the caller's address (see callerOf), IPv4-mapped IPv6 unmapped
//	ipType    "IPv4" or "IPv6", ipString's family
//	proxyIp   the TCP peer, present only when ipString came from a trusted proxy's
//	          forwarding header (--trusted-proxies): the proxy that passed the request on
//
// There are no parameters; any the caller sends are ignored, as elsewhere. The answer
// carries Cache-Control: no-store, since it describes the request that asked.
func (s *Server) clientIP(w http.ResponseWriter, r *http.Request) error {
	c, err := s.callerOf(r)
	if err != nil {
		return err
	}
	markNoStore(w) // the answer is the request's own: no cache may give it to another
	bp := bufPool.Get().(*[]byte)
	b := ipStr(append((*bp)[:0], '{'), `"ipString":`, c.client.String())
	b = ipStr(b, `,"ipType":`, ipTypeOf(c.client))
	if c.proxy.IsValid() {
		b = ipStr(b, `,"proxyIp":`, c.proxy.String())
	}
	writeJSONPooled(w, bp, append(b, '}'))
	return nil
}
