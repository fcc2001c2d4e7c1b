package api

import (
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/revgeo"
	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/web"
)

// ipRoutes registers the IP endpoints: geolocation with confidence, network by IP and by
// CIDR, AS info with transit.
func (s *Server) ipRoutes() {
	s.keyed("GET /data/ip-geolocation-with-confidence", quota.IPGeolocation, s.geolocation)
	s.keyed("GET /data/network-by-ip", quota.IPGeolocation, s.networkByIP)
	s.keyed("GET /data/network-by-cidr", quota.NetworkEngineering, s.networkByCIDR)
	s.keyed("GET /data/asn-info-transit-to", quota.NetworkEngineering, s.asnInfoTransitTo)
}

// geoRequestedLang is the localityLanguage as received, "en" when absent or empty: the
// value of localityLanguageRequested.
func geoRequestedLang(r *http.Request) string {
	lang, ok := paramOK(r, "localityLanguage")
	if !ok || lang == "" {
		return "en"
	}
	return lang
}

// geoInstant is the instant of the time zone fields: utcReference (Unix seconds), with
// hasRef true, or now. Now is taken when utcReference is absent, 0 (the commercial
// service's documented default), malformed or outside years 1–9999 (and, by geoTimeZone,
// when the local time in the answer's zone is), and the answer then omits utcTime, as the
// commercial service documents ("when omitted or invalid, the current time is assumed").
// It is never an error.
func geoInstant(r *http.Request) (at time.Time, hasRef bool) {
	v, ok := paramOK(r, "utcReference")
	if !ok {
		return time.Now(), false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n == 0 || n < -62135596800 || n > 253402300799 {
		return time.Now(), false
	}
	return time.Unix(n, 0).UTC(), true
}

// geolocation answers /data/ip-geolocation-with-confidence.
//
// What an address the data does not fully know gets:
//   - a bogon or an address that is not announced (10.1.2.3, unannounced registry space):
//     200 with isReachableGlobally false, the network object (bogon flag, registry facts)
//     and confidence "low". country, location and a confidenceArea (the service area of
//     the geolocation data's network) are present only when the geolocation data places
//     the address, which it does for much unannounced registry space (9.28.82.83) and for
//     a few networks in space the bogon sources call free; nothing is invented, so
//     10.1.2.3's body has none of them and an empty confidenceArea.
//   - an address that neither the geolocation data nor the network data knows anything
//     about: 404 ("No valid entry was found"), the spec's "no entry". With the full
//     network data every address has at least registry or bogon facts, so in practice
//     this only happens with partial snapshots.
//
// Within location, string fields the data lacks are "" (principalSubdivision and its ISO
// fields, continent, continentCode, city/localityName, postcode); the coordinates and
// plusCode (together), timeZone and the census codes (fips, csdCode) are omitted. The
// census codes come from GeoNames' codes of the city
// (dataset.Snapshot.Census): fips for US cities with state and county (countySubdivision
// where GeoNames has it, place never), csdCode for the few Canadian cities GeoNames numbers.
func (s *Server) geolocation(w http.ResponseWriter, r *http.Request) error {
	bp, b, _, _, err := s.geoRender(w, r, 0, geoWithConfidence)
	if err != nil {
		return err
	}
	writeJSONPooled(w, bp, b)
	return nil
}

// ipData answers graphql.PathIPData, the answer behind the GraphQL root ipData, which no
// REST endpoint serves: the geolocation answer with two more members, confidenceReason
// (which rule set the confidence) and the address's hazard report, itself with
// securityThreat and the user-risk answer added (the commercial service's SDKs ask for
// these under ipData). Its statuses are the geolocation's; a snapshot without the risk
// data leaves the hazard report out, so that the rest still answers.
func (s *Server) ipData(w http.ResponseWriter, r *http.Request) error {
	bp, b, v, a, err := s.geoRender(w, r, 0, geoWithConfidence|geoWithReason)
	if err != nil {
		return err
	}
	b = b[:len(b)-1] // the body's closing brace reopened
	if h, err := riskHazards(v.snap, a); err == nil {
		b = append(b, `,"hazardReport":{`...)
		b = appendHazards(b, h)
		b = placesAppendField(b, false, "securityThreat", risk.Threat(h))
		b = append(appendUserRisk(placesAppendKey(b, false, "userRisk"), h), '}')
	}
	writeJSONPooled(w, bp, append(b, '}'))
	return nil
}

// geoRender renders r's geolocation answer with parts into a pooled buffer, which the
// caller writes and returns (writeJSONPooled); extra names engines the caller needs besides
// the geolocation's. It returns the view and the address answered for, and marks an answer
// for now as such (markNoStore).
func (s *Server) geoRender(w http.ResponseWriter, r *http.Request, extra engines, parts geoParts) (bp *[]byte, b []byte, v *countryView, a netip.Addr, err error) {
	v, err = s.viewWith(engineIPGeo | engineNet | extra)
	if err != nil {
		return nil, nil, nil, a, err
	}
	a, err = s.requestIP(w, r)
	if err != nil {
		return nil, nil, nil, a, err
	}
	at, hasRef := geoInstant(r)
	bp = bufPool.Get().(*[]byte)
	b, ok := geoAppendBody((*bp)[:0], v, a, geoRequestedLang(r), v.resolvedLang(r), at, hasRef, parts)
	if !ok {
		bufPool.Put(bp)
		return nil, nil, nil, a, notFound("No valid entry was found for the IP address %s.", a)
	}
	// Its location's timeZone, where it has one, is for now; and so it may be for an instant
	// in the calendar's first or last year, whose local time may leave it (geoTimeZone).
	// An answer without a timeZone is marked too: whether it has one is decided deep in the
	// render, and an uncached answer costs a client nothing it would not pay for a fresh one.
	if y := at.Year(); !hasRef || y == 1 || y == 9999 {
		markNoStore(w)
	}
	return bp, b, v, a, nil
}

// geoPrefetch turns geoAppendBody's prefetching on; benchmarks turn it off to measure it.
var geoPrefetch = true

// geoAppendBody appends the geolocation body of a with the optional parts named: requested
// is the localityLanguage as received, lang as countryView.resolvedLang resolved it, at the
// instant of the time zone fields (hasRef: it came from utcReference, so utcTime is
// written). It reports false when neither the geolocation nor the network data knows a.
// The snapshot's IPGeo and Net must not be nil.
//
// Under a load of random addresses the answer's cost is mostly waiting for memory: its
// records, names and polygon lie all over a snapshot far larger than the CPU's caches.
// So the reads that do not depend on one another are asked for together before the
// rendering needs them (geoPrefetch): both tables' buckets before either lookup (the
// network table's for IPv4 only), the place's text before the network lookup, the
// confidence polygon before the rest is written. BenchmarkGeolocationRenderRandom
// measures what that saves.
func geoAppendBody(b []byte, v *countryView, a netip.Addr, requested, lang string, at time.Time, hasRef bool, parts geoParts) ([]byte, bool) {
	snap := v.snap
	if geoPrefetch {
		snap.IPGeo.Prefetch(a)
		snap.Net.Prefetch(a)
	}
	place, hasPlace := snap.IPGeo.Lookup(a)
	ci, hasCountry := -1, false
	if place.Country.Code != "" {
		ci, hasCountry = v.indexOf(place.Country.Code)
	}
	// Names of places follow the country's language under "default".
	nameLang := v.placeLang(ci, hasCountry, lang)
	if geoPrefetch && hasPlace {
		place.Prefetch(nameLang)
	}
	net, hasNet := snap.Net.Lookup(a)
	if !hasPlace && !hasNet {
		return b, false
	}
	var conf ipgeo.Confidence
	if parts&geoWithConfidence != 0 {
		conf = geoConfidence(snap, place, net)
		if geoPrefetch {
			conf.Area.Prefetch()
		}
	}
	// After the confidence: its second opinion is the registry files' country alone, which
	// the geolocation data's own registered country would only echo.
	if hasPlace {
		dataset.CompleteRegisteredCountry(&net, place)
	}

	b = geoAppendHead(b, v, a, requested, net.IsReachableGlobally, ci, hasCountry, lang)
	if hasPlace && place.Placed() {
		b = ipKey(b, `,"location":`)
		b = geoAppendLocation(b, v, &place, ci, hasCountry, nameLang, at, hasRef)
	}
	b = geoAppendLastUpdated(b, snap.IPGeo)
	b = ipKey(b, `,"network":`)
	netAt := len(b)
	// Under "default" the network's country names follow the geolocated country too, so that
	// the answer is in one language; network-by-ip, which has no such country, names each
	// registered country in its own.
	b = netAppendNetworkFields(b, snap.Net, v, net, nameLang)
	b = append(ipOpenObject(b, netAt), '}')

	if parts&geoWithConfidence != 0 {
		b = ipStr(b, `,"confidence":`, conf.Level.String())
		b = ipKey(b, `,"confidenceArea":`)
		b = conf.Area.AppendJSON(b)
		if parts&geoWithReason != 0 {
			b = ipStr(b, `,"confidenceReason":`, conf.Reason)
		}
	}
	return append(b, '}'), true
}

// geoAppendHead opens a geolocation answer (and country-by-ip's) with its first members:
// ip, localityLanguageRequested, isReachableGlobally and, when hasCountry, the country i in
// lang.
func geoAppendHead(b []byte, v *countryView, a netip.Addr, requested string, reachable bool, i int, hasCountry bool, lang string) []byte {
	b = append(b, `{"ip":"`...)
	b = append(a.AppendTo(b), '"')
	b = ipStr(b, `,"localityLanguageRequested":`, requested)
	b = ipBool(b, `,"isReachableGlobally":`, reachable)
	if hasCountry {
		b = v.appendCountry(ipKey(b, `,"country":`), i, lang)
	}
	return b
}

// geoAppendLastUpdated appends the lastUpdated member: when the geolocation data was built.
func geoAppendLastUpdated(b []byte, db *ipgeo.DB) []byte {
	b = ipKey(b, `,"lastUpdated":"`)
	return append(ipgeo.AppendUTCTime(b, db.BuildTime()), '"')
}

// geoParts says which of the optional parts a geolocation answer has.
type geoParts uint8

const (
	// geoWithConfidence: confidence and confidenceArea (ip-geolocation-with-confidence);
	// without, the answer is ip-geolocation's.
	geoWithConfidence geoParts = 1 << iota
	// geoWithReason: confidenceReason too, which rule set the confidence (the answer behind
	// GraphQL's ipData).
	geoWithReason
)

// geoConfidence rates the geolocation place of an address with the network data's evidence
// of the same address, net.
func geoConfidence(snap *dataset.Snapshot, place ipgeo.Place, net netinfo.Network) ipgeo.Confidence {
	return snap.IPGeo.Confidence(place, ipgeo.Evidence{
		BGPPrefix:     net.BGPPrefix,
		SecondOpinion: net.RegisteredCountry,
		Unreachable:   !net.IsReachableGlobally,
	})
}

// geoArea is one localityInfo entry, its name already localised.
type geoArea struct {
	name, desc, isoName, isoCode, wikidataID string
	order, adminLevel                        int
	geonameID                                uint32
}

// geoAppendArea appends one localityInfo entry; fields the data lacks are omitted.
func geoAppendArea(b []byte, a geoArea) []byte {
	b = ipStr(append(b, '{'), `"name":`, a.name)
	b = ipStr(b, `,"description":`, a.desc)
	b = ipStrOpt(b, `,"isoName":`, a.isoName)
	b = ipInt(b, `,"order":`, int64(a.order))
	if a.adminLevel > 0 {
		b = ipInt(b, `,"adminLevel":`, int64(a.adminLevel))
	}
	b = ipStrOpt(b, `,"isoCode":`, a.isoCode)
	b = ipStrOpt(b, `,"wikidataId":`, a.wikidataID)
	if a.geonameID != 0 {
		b = ipInt(b, `,"geonameId":`, int64(a.geonameID))
	}
	return append(b, '}')
}

// geoAppendAreas appends a JSON array of areas.
func geoAppendAreas(b []byte, areas []geoArea) []byte {
	b = append(b, '[')
	for i, a := range areas {
		if i > 0 {
			b = append(b, ',')
		}
		b = geoAppendArea(b, a)
	}
	return append(b, ']')
}

// geoAppendLocation appends the location object of p.
//
// localityInfo is built from the geolocation data's own hierarchy, so that it agrees with
// the fields above it: administrative holds the country (adminLevel 2), up to two
// subdivisions (4, then 6) and the city (8); informative holds the continent and the time
// zone. order runs over both lists from the largest area to the smallest: continent,
// country, time zone, subdivisions, city. Descriptions are English (the data has no
// localised descriptions).
//
// The string members are always there, "" where the data lacks them (a record placed in a
// country alone has no subdivision, city or postcode): the spec says which members are
// omitted when unavailable (fips and its place, csdCode, utcTime, chinaAdminCode), and
// these are not among them; reverse geocoding answers so too, and clients of the
// commercial service read them without checking that they exist. The coordinates,
// plusCode and timeZone are left out where unknown rather than given an invented value.
//
// Every member is appended with a leading comma; ipOpenObject then turns the first comma
// into the opening brace, which spares moving the whole object back by one byte.
func geoAppendLocation(b []byte, v *countryView, p *ipgeo.Place, ci int, hasCountry bool, lang string, at time.Time, hasRef bool) []byte {
	start := len(b)
	sub := p.Subdivision(0)
	name, _ := sub.Names.Name(lang)
	en, _ := sub.Names.Name("en")
	b = ipStr(b, `,"principalSubdivision":`, name)
	b = ipStr(b, `,"isoPrincipalSubdivision":`, en)
	b = ipStr(b, `,"isoPrincipalSubdivisionCode":`, sub.Code)
	continent, _ := p.Continent.Names.Name(lang)
	b = ipStr(b, `,"continent":`, continent)
	b = ipStr(b, `,"continentCode":`, p.Continent.Code)
	city, _ := p.City.Names.Name(lang)
	b = ipStr(b, `,"city":`, city)
	b = ipStr(b, `,"localityName":`, city)
	b = ipStr(b, `,"postcode":`, p.Postcode)
	if p.HasLocation {
		b = ipFloat(b, `,"latitude":`, p.Latitude)
		b = ipFloat(b, `,"longitude":`, p.Longitude)
		b = ipStrOpt(b, `,"plusCode":`, p.PlusCode)
	}
	if c, ok := v.snap.Census(p); ok {
		b = geoAppendCensus(b, c)
	}
	if p.TimeZone != "" {
		if tz, hasRef, ok := geoTimeZone(v.snap.IPGeo, p.TimeZone, at, hasRef, lang); ok {
			b = ipKey(b, `,"timeZone":`)
			b = geoAppendTimeZone(b, tz, hasRef)
		}
	}

	var adminBuf [4]geoArea
	var infoBuf [2]geoArea
	admin, info := adminBuf[:0], infoBuf[:0]
	order := 1
	if !p.Continent.IsZero() {
		info = append(info, geoArea{name: continent, desc: "continent", order: order, geonameID: p.Continent.GeonameID})
		order++
	}
	if !p.Country.IsZero() {
		a := geoArea{desc: "country", isoCode: p.Country.Code, order: order, adminLevel: 2, geonameID: p.Country.GeonameID}
		a.name, _ = p.Country.Names.Name(lang)
		if hasCountry {
			c := v.all[ci]
			a.name, a.isoName, a.wikidataID = v.snap.Countries.Name(c, lang), c.ISOName, c.WikidataID
		}
		admin = append(admin, a)
		order++
	}
	if p.TimeZone != "" {
		info = append(info, geoArea{name: p.TimeZone, desc: "time zone", order: order})
		order++
	}
	for i, sd := range p.Subdivisions {
		if i >= 2 {
			break
		}
		a := geoArea{desc: "principal subdivision", isoCode: sd.Code, order: order, adminLevel: 4, geonameID: sd.GeonameID}
		if i == 1 {
			a.desc, a.adminLevel = "second-order administrative division", 6
		}
		a.name, _ = sd.Names.Name(lang)
		a.wikidataID, _ = v.subs.wikidataID(sd)
		admin = append(admin, a)
		order++
	}
	if !p.City.IsZero() {
		admin = append(admin, geoArea{name: city, desc: "city", order: order, adminLevel: 8, geonameID: p.City.GeonameID})
	}
	// Both lists are always there, empty where the data has no such area: the commercial
	// service's clients type them as arrays and map over them.
	b = geoAppendAreas(ipKey(b, `,"localityInfo":{"administrative":`), admin)
	b = geoAppendAreas(ipKey(b, `,"informative":`), info)
	b = append(b, '}')
	b = ipOpenObject(b, start)
	return append(b, '}')
}

// geoAppendCensus appends a location's census codes: fips for a US city, its members as the
// data has them (place never: no loaded source numbers Census places), or csdCode for a
// Canadian one.
func geoAppendCensus(b []byte, c revgeo.Census) []byte {
	if c.CSD != "" {
		return ipStr(b, `,"csdCode":`, c.CSD)
	}
	b = ipStr(b, `,"fips":{"state":`, c.State)
	b = ipStr(b, `,"county":`, c.County)
	b = ipStrOpt(b, `,"countySubdivision":`, c.CountySubdivision)
	return append(b, '}')
}

// ipOpenObject opens the object whose members, each appended with a leading comma, start at
// b[at]: the first comma becomes the brace, or a brace is appended when there are none.
func ipOpenObject(b []byte, at int) []byte {
	if len(b) == at {
		return append(b, '{')
	}
	b[at] = '{'
	return b
}

// geoTimeZone returns zone id's time zone fields at the instant at, and whether that is
// still the caller's utcReference (at and hasRef as geoInstant gives them). An instant
// whose local time in the zone leaves the years 1–9999 (9999-12-31T23:59:59Z is
// 10000-01-01 at Kiritimati's +14, 0001-01-01T00:00:00Z year 0 west of Greenwich) is
// taken as geoInstant takes a utcReference outside them: now, with stillRef false so that
// utcTime is omitted. localTime so always has four digits of year.
func geoTimeZone(db *ipgeo.DB, id string, at time.Time, hasRef bool, lang string) (tz ipgeo.TZ, stillRef, ok bool) {
	tz, ok = db.TimeZone(id, at, lang)
	if y := tz.Local.Year(); ok && hasRef && (y < 1 || y > 9999) {
		tz, ok = db.TimeZone(id, time.Now(), lang)
		hasRef = false
	}
	return tz, hasRef, ok
}

// geoAppendTimeZone appends the timeZone object; utcTime, tz's instant in UTC, only with
// hasRef.
func geoAppendTimeZone(b []byte, tz ipgeo.TZ, hasRef bool) []byte {
	b = append(b, '{')
	b = ipStr(b, `"ianaTimeId":`, tz.IANA)
	b = ipStr(b, `,"displayName":`, tz.DisplayName)
	b = ipStr(b, `,"effectiveTimeZoneFull":`, tz.EffectiveFull)
	b = ipStr(b, `,"effectiveTimeZoneShort":`, tz.EffectiveShort)
	b = ipInt(b, `,"utcOffsetSeconds":`, int64(tz.UTCOffsetSeconds))
	b = ipStr(b, `,"utcOffset":`, tz.UTCOffset)
	b = ipBool(b, `,"isDaylightSavingTime":`, tz.IsDST)
	b = ipKey(b, `,"localTime":`)
	b = append(b, '"')
	b = tz.AppendLocalTime(b)
	b = append(b, '"')
	if hasRef {
		b = ipKey(b, `,"utcTime":`)
		b = append(b, '"')
		b = ipgeo.AppendUTCTime(b, tz.Local)
		b = append(b, '"')
	}
	return append(b, '}')
}

// networkByIP answers /data/network-by-ip: the network object with the requested ip first.
// An address the network data knows nothing about is a 404; with the full data every
// address has at least registry or bogon facts.
func (s *Server) networkByIP(w http.ResponseWriter, r *http.Request) error {
	v, err := s.viewWith(engineNet)
	if err != nil {
		return err
	}
	snap := v.snap
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	n, ok := snap.Network(a)
	if !ok {
		return notFound("No valid entry was found for the IP address %s.", a)
	}
	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], `{"ip":"`...)
	b = a.AppendTo(b)
	b = append(b, '"')
	b = netAppendNetworkFields(b, snap.Net, v, n, v.resolvedLang(r))
	b = append(b, '}')
	web.WriteJSONBytes(w, http.StatusOK, b)
	*bp = b
	bufPool.Put(bp)
	return nil
}
