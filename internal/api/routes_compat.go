package api

import (
	"net/http"

	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// compatRoutes registers endpoints of the commercial service that the spec does not list
// but its clients call, each a part or a combination of the spec's answers
// (reference-api.md gives their shapes):
//
//	/data/ip-geolocation                 the geolocation answer without confidence and confidenceArea
//	/data/ip-geolocation-full            the geolocation answer with securityThreat and hazardReport
//	/data/country-by-ip                  ip, localityLanguageRequested, isReachableGlobally, country, lastUpdated
//	/data/asn-info                       the AS's carrier object, without its transit
//	/data/reverse-geocode-with-timezone  the reverse-geocode answer with timeZone
func (s *Server) compatRoutes() {
	s.keyed("GET /data/ip-geolocation", quota.IPGeolocation, s.ipGeolocation)
	s.keyed("GET /data/ip-geolocation-full", quota.IPGeolocation, s.ipGeolocationFull)
	s.keyed("GET /data/country-by-ip", quota.IPGeolocation, s.countryByIP)
	s.keyed("GET /data/asn-info", quota.IPGeolocation, s.asnInfo)
	s.keyed("GET /data/reverse-geocode-with-timezone", quota.ReverseGeocoding, s.reverseGeocodeWithTimezone)
	// The one endpoint of the commercial service ipatlas does not serve says why, so that
	// its clients do not take the 404 for a typo.
	s.open("/data/email-verify", func(http.ResponseWriter, *http.Request) error {
		return notFound("ipatlas does not serve /data/email-verify, an endpoint of the commercial service: it needs live DNS and mail-server checks of the address's domain, which a service that works offline cannot make, and no loaded source lists disposable or spamming domains.")
	})
}

// ipGeolocation answers /data/ip-geolocation: ip-geolocation-with-confidence's answer
// without its last two members.
func (s *Server) ipGeolocation(w http.ResponseWriter, r *http.Request) error {
	bp, b, _, _, err := s.geoRender(w, r, 0, 0)
	if err != nil {
		return err
	}
	writeJSONPooled(w, bp, b)
	return nil
}

// ipGeolocationFull answers /data/ip-geolocation-full: ip-geolocation-with-confidence's
// answer with securityThreat (the strongest evidence against the address in words,
// "unknown" without any) and hazardReport (the hazard-report answer). It needs the risk
// data (503 without, as hazard-report).
func (s *Server) ipGeolocationFull(w http.ResponseWriter, r *http.Request) error {
	bp, b, v, a, err := s.geoRender(w, r, engineRisk, geoWithConfidence)
	if err != nil {
		return err
	}
	h, err := riskHazards(v.snap, a)
	if err != nil {
		bufPool.Put(bp)
		return err
	}
	b = placesAppendField(b[:len(b)-1], false, "securityThreat", risk.Threat(h)) // the body's closing brace reopened
	b = append(placesAppendKey(b, false, "hazardReport"), '{')
	b = append(appendHazards(b, h), '}', '}')
	writeJSONPooled(w, bp, b)
	return nil
}

// countryByIP answers /data/country-by-ip: the country part of the geolocation answer.
// country is omitted where the data places the address in none; an address neither the
// geolocation nor the network data knows is a 404, as in the geolocation.
func (s *Server) countryByIP(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineIPGeo | engineNet)
	if err != nil {
		return err
	}
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	place, hasPlace := v.snap.IPGeo.Lookup(a)
	net, hasNet := v.snap.Net.Lookup(a)
	if !hasPlace && !hasNet {
		return notFound("No valid entry was found for the IP address %s.", a)
	}
	ci, hasCountry := v.indexOf(place.Country.Code)
	bp := bufPool.Get().(*[]byte)
	b := geoAppendHead((*bp)[:0], v, a, geoRequestedLang(r), net.IsReachableGlobally, ci, hasCountry, v.resolvedLang(r))
	writeJSONPooled(w, bp, append(geoAppendLastUpdated(b, v.snap.IPGeo), '}'))
	return nil
}

// asnInfo answers /data/asn-info: the AS's carrier object, as asn-info-transit-to writes it
// before its transit.
func (s *Server) asnInfo(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	asn, err := asnFromParam(r)
	if err != nil {
		return err
	}
	if _, err := asnRecord(v.snap.Net, asn); err != nil {
		return err
	}
	bp := bufPool.Get().(*[]byte)
	writeJSONPooled(w, bp, netAppendCarrier((*bp)[:0], v.snap.Net, v, asn, v.resolvedLang(r), true))
	return nil
}
