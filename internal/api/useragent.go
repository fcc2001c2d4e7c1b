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
// fields); one longer than useragent.MaxLen bytes is parsed by its first MaxLen, as
// client-info parses a header (some in-app browsers' strings are that long, and what
// tells the browser comes first).
func (s *Server) userAgentInfo(w http.ResponseWriter, r *http.Request) error {
	raw, ok := paramOK(r, "userAgentRaw")
	if !ok {
		return badRequest("The userAgentRaw parameter is required: the User-Agent header to parse, as the browser sent it.")
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
// A User-Agent string the parser has not seen costs milliseconds of CPU (up to 7 ms at
// useragent.MaxLen bytes), and anyone may send any, so parsing such strings draws on a
// budget (uaBudget): KeylessUAParsesPerClient a second from one client address, and
// KeylessUAParses a second from all of them together. Past the first the answer is a 429,
// past the second a 503, both with Retry-After; strings already seen (every common
// browser's) are answered from the cache as ever.
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
	var refused error
	ua, ok := p.ParseIf(raw, func() bool {
		refused = s.uaBudget.take(w, c.client)
		return refused == nil
	})
	if !ok {
		return refused
	}
	markNoStore(w)
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
