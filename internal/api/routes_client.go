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
//
// The keyless ones share the server's keyless rate limiter and CORS headers (keyless.go).
func (s *Server) clientRoutes() {
	s.keyed("GET /data/phone-number-validate-by-ip", quota.PhoneEmail, s.phoneValidateByIP)

	lim := s.keylessLim
	always := func(*http.Request) bool { return true }
	s.openCORS("GET /data/client-ip", always, s.keyless(lim, s.clientIP))
	s.openCORS("OPTIONS /data/client-ip", always, keylessPreflight)
	s.openCORS("/data/client-ip", always, wrongMethod("GET, HEAD"))
}
