package api

import (
	"net/http"
	"strings"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/quota"
)

// timeZoneRoutes registers the commercial service's time zone endpoints, which the spec
// does not list but its clients call: each answers the timeZone object of the geolocation
// answer on its own, for an IANA id, an address or a point. utcReference (Unix seconds)
// sets the instant, as in the geolocation; utcTime is written only with it.
func (s *Server) timeZoneRoutes() {
	s.keyed("GET /data/timezone-info", quota.IPGeolocation, s.timeZoneInfo)
	s.keyed("GET /data/timezone-by-ip", quota.IPGeolocation, s.timeZoneByIP)
	s.keyed("GET /data/timezone-by-location", quota.ReverseGeocoding, s.timeZoneByLocation)
}

// maxTimeZoneID bounds timeZoneId: the longest IANA id is 32 bytes
// (America/Argentina/ComodRivadavia).
const maxTimeZoneID = 64

// timeZoneInfo answers /data/timezone-info?timeZoneId=Australia/Sydney. Names follow
// localityLanguage; "default" is English (an id has no country). Any id of the IANA
// database is answered: CLDR's aliases of its zones (US/Eastern, GB) as those zones, the
// ids CLDR does not name (Etc/GMT+2) with names made of their offset. Others are a 404, as
// are zoneinfo files that are no zone (localtime, posixrules, Factory, posix/ and right/:
// ipgeo's notAZone). Ids are case-sensitive, as IANA's are.
func (s *Server) timeZoneInfo(w http.ResponseWriter, r *http.Request) error {
	id := strings.TrimSpace(param(r, "timeZoneId"))
	switch {
	case id == "":
		return badRequest("The timeZoneId parameter is required: an IANA time zone id such as Australia/Sydney.")
	case len(id) > maxTimeZoneID:
		return badRequest("The timeZoneId parameter is too long: IANA time zone ids have at most %d characters.", maxTimeZoneID)
	}
	v, err := s.viewWith(engineIPGeo)
	if err != nil {
		return err
	}
	lang := v.placeLang(0, false, v.resolvedLang(r)) // a zone has no country: "default" is English
	return writeTimeZone(w, r, v.snap.IPGeo, id, lang, "No time zone with the id %s is known: use an IANA id such as Australia/Sydney (case matters).", quoteInput(id))
}

// timeZoneByIP answers /data/timezone-by-ip: location.timeZone of the address's
// geolocation answer for the same parameters, 404 when the data places the address in no
// time zone.
func (s *Server) timeZoneByIP(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineIPGeo)
	if err != nil {
		return err
	}
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	p, _ := v.snap.IPGeo.Lookup(a)
	ci, hasCountry := v.indexOf(p.Country.Code)
	lang := v.placeLang(ci, hasCountry, v.resolvedLang(r)) // as geoAppendBody names the place
	return writeTimeZone(w, r, v.snap.IPGeo, p.TimeZone, lang, "No time zone is known for the IP address %s.", a)
}

// timeZoneByLocation answers /data/timezone-by-location: the time zone of the point, as
// reverse geocoding finds it (at sea, the nautical Etc/GMT±N zone); 404 where the data has
// no zone.
func (s *Server) timeZoneByLocation(w http.ResponseWriter, r *http.Request) error {
	lat, lon, err := coordParams(r)
	if err != nil {
		return err
	}
	v, err := s.viewWith(enginePlaces | engineIPGeo)
	if err != nil {
		return err
	}
	p, _ := v.snap.Places.Lookup(lat, lon)
	c, hasCountry := v.snap.Countries.Lookup(p.Country.Code)
	lang := revgeoLang(v, revgeoRequestedLang(r), c, hasCountry && p.Country.Code != "")
	return writeTimeZone(w, r, v.snap.IPGeo, p.TimeZone, lang, "No time zone is known at latitude %v, longitude %v.", lat, lon)
}

// writeTimeZone writes the timeZone object of zone id at utcReference (or now) in lang, or
// returns a 404 with the message when the data has no such zone. An answer for now is
// marked so (markNoStore).
func writeTimeZone(w http.ResponseWriter, r *http.Request, db *ipgeo.DB, id, lang, missing string, args ...any) error {
	at, hasRef := geoInstant(r)
	tz, hasRef, ok := geoTimeZone(db, id, at, hasRef, lang)
	if !ok {
		return notFound(missing, args...)
	}
	if !hasRef {
		markNoStore(w)
	}
	bp := bufPool.Get().(*[]byte)
	writeJSONPooled(w, bp, geoAppendTimeZone((*bp)[:0], tz, hasRef))
	return nil
}
