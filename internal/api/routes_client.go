package api

import (
	"github.com/ipatlas/ipatlas/internal/quota"
)

// clientRoutes registers the commercial service's endpoints about the caller and its
// software, and the lists built on them (reference-api.md gives their shapes):
//
//	/data/phone-number-validate-by-ip  phone-number-validate with the country of an IP address
func (s *Server) clientRoutes() {
	s.keyed("GET /data/phone-number-validate-by-ip", quota.PhoneEmail, s.phoneValidateByIP)
}
