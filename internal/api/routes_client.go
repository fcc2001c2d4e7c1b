package api

import (
	"net/http"

	"github.com/ipatlas/ipatlas/internal/quota"
)

// clientRoutes registers the commercial service's endpoints about the caller and its
// software, and the lists built on them (reference-api.md gives their shapes):
//
//	/data/phone-number-validate-by-ip  phone-number-validate with the country of an IP address
//	/data/client-ip                    the caller's address (keyless)
//	/data/user-agent-info              a User-Agent string parsed
//	/data/client-info                  the caller's address, User-Agent and languages (keyless)
//	/data/tor-exit-nodes-list          a page of the Tor exit addresses the risk data holds
//
// The keyless ones share the server's keyless rate limiter and CORS headers (keyless.go).
func (s *Server) clientRoutes() {
	s.keyed("GET /data/phone-number-validate-by-ip", quota.PhoneEmail, s.phoneValidateByIP)
	s.keyed("GET /data/user-agent-info", quota.IPGeolocation, s.userAgentInfo)
	s.keyed("GET /data/tor-exit-nodes-list", quota.NetworkEngineering, s.torExitNodesList)

	lim := s.keylessLim
	always := func(*http.Request) bool { return true }
	s.openCORS("GET /data/client-ip", always, s.keyless(lim, s.clientIP))
	s.openCORS("OPTIONS /data/client-ip", always, keylessPreflight)
	s.openCORS("/data/client-ip", always, wrongMethod("GET, HEAD"))
	s.openCORS("GET /data/client-info", always, s.keyless(lim, s.clientInfo))
	s.openCORS("OPTIONS /data/client-info", always, keylessPreflight)
	s.openCORS("/data/client-info", always, wrongMethod("GET, HEAD"))
}
