package api

import (
	"net/http"

	"github.com/ipatlas/ipatlas/internal/quota"
)

// placeRoutes registers user risk and the hazard report, phone validation, reverse
// geocoding and the keyless endpoints, which share the server's keyless rate limiter (see
// the keyless notes in keyless.go).
func (s *Server) placeRoutes() {
	s.keyed("GET /data/user-risk", quota.IPGeolocation, s.userRisk)
	s.keyed("GET /data/hazard-report", quota.IPGeolocation, s.hazardReport)
	s.keyed("GET /data/phone-number-validate", quota.PhoneEmail, s.phoneValidate)
	s.keyed("GET /data/reverse-geocode", quota.ReverseGeocoding, s.reverseGeocode)

	lim := s.keylessLim
	always := func(*http.Request) bool { return true }
	s.openCORS("GET /data/reverse-geocode-client", always, s.keyless(lim, s.reverseGeocodeClient))
	s.openCORS("OPTIONS /data/reverse-geocode-client", always, keylessPreflight)
	s.openCORS("/data/reverse-geocode-client", always, wrongMethod("GET, HEAD"))
	s.openCORS("GET /data/am-i-roaming", always, s.keyless(lim, s.amIRoaming))
	s.openCORS("OPTIONS /data/am-i-roaming", always, keylessPreflight)
	s.openCORS("/data/am-i-roaming", always, wrongMethod("GET, HEAD"))
}
