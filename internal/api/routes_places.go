package api

import "github.com/ipatlas/ipatlas/internal/quota"

// placeRoutes registers user risk and the hazard report, phone validation, reverse
// geocoding and the keyless endpoints, which share the server's keyless rate limiter (see
// the keyless notes in keyless.go).
func (s *Server) placeRoutes() {
	s.keyed("GET /data/user-risk", quota.IPGeolocation, s.userRisk)
	s.keyed("GET /data/hazard-report", quota.IPGeolocation, s.hazardReport)
	s.keyed("GET /data/phone-number-validate", quota.PhoneEmail, s.phoneValidate)
	s.keyed("GET /data/reverse-geocode", quota.ReverseGeocoding, s.reverseGeocode)

	lim := s.keylessLim
	s.open("GET /data/reverse-geocode-client", s.keyless(lim, s.reverseGeocodeClient))
	s.open("OPTIONS /data/reverse-geocode-client", keylessPreflight)
	s.open("GET /data/am-i-roaming", s.keyless(lim, s.amIRoaming))
	s.open("OPTIONS /data/am-i-roaming", keylessPreflight)
}
