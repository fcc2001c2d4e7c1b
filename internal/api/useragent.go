package api

import (
	"math/big"
	"net/http"
	"strings"

	"github.com/ipatlas/ipatlas/internal/useragent"
	"github.com/ipatlas/ipatlas/internal/web"
)

// userAgentInfo answers /data/user-agent-info?userAgentRaw= (keyed): what a User-Agent
// string says, in the fields appendUserAgent writes. userAgentRaw is required (400 when
// absent; an empty one, what a client that sent none has, is answered with "Other"
// fields) and at most useragent.MaxLen bytes (400 beyond).
func (s *Server) userAgentInfo(w http.ResponseWriter, r *http.Request) error {
	raw, ok := paramOK(r, "userAgentRaw")
	if !ok {
		return badRequest("The userAgentRaw parameter is required: the User-Agent header to parse, as the browser sent it.")
	}
	if len(raw) > useragent.MaxLen {
		return badRequest("The userAgentRaw parameter is %d bytes long; at most %d are read (browsers send a few hundred).", len(raw), useragent.MaxLen)
	}
	p, err := s.uaParser()
	if err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	b := appendUserAgent(append((*bp)[:0], '{'), p.Parse(raw), true)
	writeJSONPooled(w, bp, append(b, '}'))
	return nil
}

// clientInfo answers /data/client-info (keyless): who is asking, from the request alone.
//
//	ipString, ipType  as client-ip
//	ipNumeric         ipString as an unsigned integer (an IPv6 address's is exact in the
//	                  JSON, though beyond what JavaScript's numbers hold exactly)
//	isBehindProxy     ipString came from a trusted proxy's forwarding header (client-ip's
//	                  proxyIp is present); not a guess about proxies the server cannot see
//	device ... userAgentDisplay  the User-Agent header parsed (appendUserAgent); one
//	                  longer than useragent.MaxLen bytes is parsed by its first MaxLen
//	userAgentRaw      the User-Agent header as sent ("" without one)
//	userLanguages     the Accept-Language header's languages, most preferred first
//	                  (useragent.Languages); [] without one
//
// Like client-ip, the answer carries Cache-Control: no-store.
//
// A User-Agent string the
// parser has not seen costs milliseconds of CPU (useragent.MaxLen), and anyone may send
// any, so such strings are parsed at most KeylessUAParses times a second for all callers
// together (uaBudget); past that the answer is a 503 with Retry-After, while strings
// already seen (every common browser's) are answered from the cache as ever.

func (s *Server) clientInfo(w http.ResponseWriter, r *http.Request) error {
	c, err := s.callerOf(r)
	if err != nil {
		return err
	}
	p, err := s.uaParser()
	if err != nil {
		return err
	}
	raw := r.Header.Get("User-Agent")
	ua, ok := p.ParseIf(raw, s.uaBudget.take)
	if !ok {
		w.Header().Set("Retry-After", "1")
		return web.Errorf(http.StatusServiceUnavailable, "The server is parsing too many User-Agent strings it has not seen before (at most %d a second, for all clients of the keyless endpoints); retry after 1 s.", KeylessUAParses)
	}
	w.Header()["Cache-Control"] = noStore
	bp := bufPool.Get().(*[]byte)
	b := ipStr(append((*bp)[:0], '{'), `"ipString":`, c.client.String())
	b = ipKey(b, `,"ipNumeric":`)
	b = new(big.Int).SetBytes(c.client.AsSlice()).Append(b, 10)
	b = ipStr(b, `,"ipType":`, ipTypeOf(c.client))
	b = ipBool(b, `,"isBehindProxy":`, c.proxy.IsValid())
	b = appendUserAgent(b, ua, false)
	b = ipStr(b, `,"userAgentRaw":`, raw)
	b = ipKey(b, `,"userLanguages":[`)
	for i, l := range useragent.Languages(strings.Join(r.Header.Values("Accept-Language"), ",")) {
		if i > 0 {
			b = append(b, ',')
		}
		b = web.AppendJSONString(b, l)
	}
	writeJSONPooled(w, bp, append(b, ']', '}'))
	return nil
}

// appendUserAgent appends the members of a parsed User-Agent, first in the object when
// first: device, os, userAgent, family, versionMajor, versionMinor and versionPatch
// (each omitted where the string has none), isSpider, isMobile and userAgentDisplay.
func appendUserAgent(b []byte, ua useragent.Info, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = ipStr(b, `"device":`, ua.Device)
	b = ipStr(b, `,"os":`, ua.OS)
	b = ipStr(b, `,"userAgent":`, ua.UserAgent)
	b = ipStr(b, `,"family":`, ua.Family)
	b = ipStrOpt(b, `,"versionMajor":`, ua.Major)
	b = ipStrOpt(b, `,"versionMinor":`, ua.Minor)
	b = ipStrOpt(b, `,"versionPatch":`, ua.Patch)
	b = ipBool(b, `,"isSpider":`, ua.IsSpider)
	b = ipBool(b, `,"isMobile":`, ua.IsMobile)
	return ipStr(b, `,"userAgentDisplay":`, ua.Display)
}
