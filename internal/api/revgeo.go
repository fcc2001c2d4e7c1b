package api

import (
	"cmp"
	"net/http"
	"slices"
	"strings"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// Reverse geocoding: /data/reverse-geocode (keyed) and /data/reverse-geocode-client
// (keyless, for browsers and apps).
//
// Parameters: latitude and longitude (decimal degrees; missing is a 400, out of range or not
// a number a 401 naming the valid ranges, as the commercial service answers),
// localityLanguage (default en; "default" is the first administrative language of the
// point's country).
//
// Body, in the commercial service's field names:
//
//	latitude, longitude        the point answered for: the one requested, or the IP's pin
//	lookupSource               "coordinates", or "ipGeolocation" when the client endpoint
//	                           was called without coordinates and answered from the
//	                           caller's address
//	plusCode                   Open Location Code of the point, 10 digits
//	localityLanguageRequested  the localityLanguage as sent ("en" when absent)
//	continent, continentCode   continent name, localised where the geolocation data has it,
//	                           and its two-letter code
//	countryName, countryCode   localised country name, ISO 3166-1 alpha-2
//	principalSubdivision(Code) localised admin-1 name, ISO 3166-2 code ("" if none): the
//	                           subdivision geolocation names for the place, the first level
//	                           above Natural Earth's feature where that is a second-level
//	                           one (see revgeoPrincipal)
//	city, locality             GeoNames places: the most significant place whose urban area
//	                           reaches the point, and the nearest populated place; named as
//	                           the geolocation data names the place in the language (GeoLite2's
//	                           eight languages, by GeoNames id), else by GeoNames
//	postcode                   "" from coordinates (no postcode data is loaded; nothing is
//	                           invented); the IP data's postcode from ipGeolocation
//	localityInfo               administrative and informative areas, largest first
//
// Fields the data does not have are empty strings, as the commercial service writes them;
// a point on the high seas has only its time zone and empty localityInfo lists. An address
// the IP data does not place (a private address, say) answers with empty fields, without
// latitude and longitude.
func (s *Server) reverseGeocode(w http.ResponseWriter, r *http.Request) error {
	lat, lon, err := coordParams(r)
	if err != nil {
		return err
	}
	return s.revgeoAnswer(w, r, lat, lon, 0)
}

// locationData answers graphql.PathLocationData, the answer behind the GraphQL root
// locationData, which no REST endpoint serves: the reverse-geocode answer with the
// country's object (country) and the time zone of the point (timeZone, at utcReference or
// now; left out without the geolocation data, which holds the zone tables) as two more
// members, which the commercial service's SDKs ask for there.
func (s *Server) locationData(w http.ResponseWriter, r *http.Request) error {
	lat, lon, err := coordParams(r)
	if err != nil {
		return err
	}
	return s.revgeoAnswer(w, r, lat, lon, revgeoWithCountry|revgeoWithTimeZone)
}

// reverseGeocodeWithTimezone answers /data/reverse-geocode-with-timezone, the commercial
// service's endpoint (not in the spec): the reverse-geocode answer with the point's time
// zone (timeZone, at utcReference or now) as one more member, left out where the data has
// no zone for the point.
func (s *Server) reverseGeocodeWithTimezone(w http.ResponseWriter, r *http.Request) error {
	lat, lon, err := coordParams(r)
	if err != nil {
		return err
	}
	return s.revgeoAnswer(w, r, lat, lon, revgeoWithTimeZone)
}

// revgeoExtras are members a reverse-geocode answer may have beyond the REST one's.
type revgeoExtras uint8

const (
	revgeoWithCountry  revgeoExtras = 1 << iota // country: the country's object
	revgeoWithTimeZone                          // timeZone: the point's, at utcReference or now
)

// reverseGeocodeClient is the keyless variant: coordinates are optional, and without them
// the answer comes from the caller's address (lookupSource "ipGeolocation").
func (s *Server) reverseGeocodeClient(w http.ResponseWriter, r *http.Request) error {
	_, hasLat := paramOK(r, "latitude")
	_, hasLon := paramOK(r, "longitude")
	if hasLat || hasLon {
		return s.reverseGeocode(w, r)
	}
	v, err := s.viewWith(engineIPGeo)
	if err != nil {
		return err
	}
	snap := v.snap
	reqLang := revgeoRequestedLang(r)
	var p ipgeo.Place
	if a, ok := s.opt.ClientAddrs.Of(r); ok {
		p, _ = snap.IPGeo.Lookup(a)
	}
	markNoStore(w) // the caller's place: a shared cache would give it to others
	c, hasCountry := v.snap.Countries.Lookup(p.Country.Code)
	lang := revgeoLang(v, reqLang, c, hasCountry && p.Country.Code != "")

	var body revgeoBody
	body.source = "ipGeolocation"
	body.requested = reqLang
	if p.HasLocation {
		body.lat, body.lon, body.plusCode = p.Latitude, p.Longitude, p.PlusCode
		body.hasPoint = true
	}
	body.continentCode = p.Continent.Code
	body.continent, _ = p.Continent.Names.Name(lang)
	if !p.Continent.IsZero() {
		body.addArea(revgeoArea{name: body.continent, description: "continent", geonameID: int(p.Continent.GeonameID)}, false)
	}
	if p.Country.Code != "" {
		body.countryCode = p.Country.Code
		body.countryName, _ = p.Country.Names.Name(lang)
		a := revgeoArea{name: body.countryName, description: "country", isoCode: p.Country.Code, adminLevel: 2, geonameID: int(p.Country.GeonameID)}
		if hasCountry {
			body.countryName = v.snap.Countries.Name(c, lang)
			a.name, a.isoName, a.wikidataID = body.countryName, c.ISOName, c.WikidataID
		}
		body.addArea(a, true)
	}
	if p.TimeZone != "" {
		body.addArea(revgeoArea{name: p.TimeZone, description: "time zone"}, false)
	}
	for i, sd := range p.Subdivisions {
		if i >= 2 {
			break
		}
		name, _ := sd.Names.Name(lang)
		level := 4
		desc := "principal subdivision"
		if i == 1 {
			level, desc = 6, "second-order administrative division"
		} else {
			body.subdivision, body.subdivisionCode = name, sd.Code
		}
		body.addArea(revgeoArea{name: name, description: desc, isoCode: sd.Code, adminLevel: level, geonameID: int(sd.GeonameID)}, true)
	}
	if !p.City.IsZero() {
		body.city, _ = p.City.Names.Name(lang)
		body.locality = body.city
		body.addArea(revgeoArea{name: body.city, description: "city", geonameID: int(p.City.GeonameID)}, false)
	}
	body.postcode = p.Postcode
	body.write(w)
	return nil
}

// revgeoAnswer answers for a point from the revgeo engine.
func (s *Server) revgeoAnswer(w http.ResponseWriter, r *http.Request, lat, lon float64, extras revgeoExtras) error {
	v, err := s.viewWith(enginePlaces)
	if err != nil {
		return err
	}
	snap := v.snap
	reqLang := revgeoRequestedLang(r)
	p, ok := snap.Places.Lookup(lat, lon)
	if !ok { // coordParams already checked the range; keep the engine's word anyway
		return badCoordinates("Invalid coordinates. Expecting latitude in (+/- 90) and longitude in (+/- 180) range values.")
	}
	c, hasCountry := v.snap.Countries.Lookup(p.Country.Code)
	hasCountry = hasCountry && p.Country.Code != ""
	lang := revgeoLang(v, reqLang, c, hasCountry)

	var body revgeoBody
	body.source = "coordinates"
	body.requested = reqLang
	body.lat, body.lon, body.plusCode = lat, lon, p.PlusCode()
	body.hasPoint = true
	body.continent, body.continentCode = p.Continent(), p.ContinentCode
	// The geolocation data names continents in its eight languages, with their GeoNames ids.
	continent, hasContinent := snap.IPGeo.Continent(p.ContinentCode)
	if name, ok := continent.Names.Name(lang); hasContinent && ok {
		body.continent = name
	}
	body.countryCode, body.countryName = p.Country.Code, p.Country.Name
	if hasCountry {
		body.countryName = v.snap.Countries.Name(c, lang)
	}
	body.city = revgeoGeoNamesName(snap.IPGeo, p.City.GeonameID, lang, p.City.Name)
	body.locality = revgeoGeoNamesName(snap.IPGeo, p.Locality.GeonameID, lang, p.Locality.Name)
	li, subdivision, subdivisionCode := revgeoPrincipal(v.subs.of(p.Subdivision), p.Subdivision, p.LocalityInfo(), lang)
	body.subdivision, body.subdivisionCode = subdivision, subdivisionCode
	for _, a := range li.Administrative {
		ra := revgeoFromArea(a, lang)
		if a.AdminLevel == 2 && hasCountry {
			ra.name, ra.isoName, ra.wikidataID = body.countryName, c.ISOName, c.WikidataID
		}
		body.addArea(ra, true)
	}
	for _, a := range li.Informative {
		ra := revgeoFromArea(a, lang)
		switch {
		case a.Description == "continent" && hasContinent:
			ra.name, ra.geonameID = body.continent, int(continent.GeonameID)
		case a.GeonameID == 0:
		case a.GeonameID == p.City.GeonameID:
			ra.name = body.city
		case a.GeonameID == p.Locality.GeonameID:
			ra.name = body.locality
		}
		body.addArea(ra, false)
	}
	if extras != 0 {
		body.extra = func(out []byte) []byte {
			if ci, ok := v.indexOf(p.Country.Code); ok && extras&revgeoWithCountry != 0 {
				out = v.appendCountry(placesAppendKey(out, false, "country"), ci, lang)
			}
			if extras&revgeoWithTimeZone == 0 || snap.IPGeo == nil { // it has the zone tables
				return out
			}
			at, hasRef := geoInstant(r)
			if tz, hasRef, ok := geoTimeZone(snap.IPGeo, p.TimeZone, at, hasRef, lang); ok {
				if !hasRef {
					markNoStore(w)
				}
				out = geoAppendTimeZone(placesAppendKey(out, false, "timeZone"), tz, hasRef)
			}
			return out
		}
	}
	body.write(w)
	return nil
}

// revgeoNest puts parent above the principal subdivision of li, which becomes a
// second-order division (adminLevel 6, as geolocation calls it), and moves every later area
// one order down; a GeoNames second-order division that is the same place is dropped.
func revgeoNest(li revgeo.LocalityInfo, parent revgeoArea) revgeo.LocalityInfo {
	i := slices.IndexFunc(li.Administrative, func(a revgeo.Area) bool { return a.AdminLevel == 4 })
	if i < 0 {
		return li
	}
	sub := li.Administrative[i]
	admin := make([]revgeo.Area, 0, len(li.Administrative)+1)
	for j, a := range li.Administrative {
		switch {
		case j == i:
			admin = append(admin, revgeo.Area{
				Names: revgeo.NewNames(parent.name, nil), Description: parent.description, ISOCode: parent.isoCode,
				AdminLevel: 4, Order: sub.Order, GeonameID: parent.geonameID,
			})
			a.AdminLevel, a.Description, a.ISOName = 6, "second-order administrative division", ""
		case a.AdminLevel == 6 && a.GeonameID != 0 && a.GeonameID == sub.GeonameID:
			continue
		}
		if a.Order >= sub.Order {
			a.Order++
		}
		admin = append(admin, a)
	}
	info := slices.Clone(li.Informative)
	for j := range info {
		if info[j].Order >= sub.Order {
			info[j].Order++
		}
	}
	// Close the gap a dropped duplicate leaves: orders run 1, 2, 3, ... over both arrays.
	all := make([]*revgeo.Area, 0, len(admin)+len(info))
	for j := range admin {
		all = append(all, &admin[j])
	}
	for j := range info {
		all = append(all, &info[j])
	}
	slices.SortStableFunc(all, func(a, b *revgeo.Area) int { return cmp.Compare(a.Order, b.Order) })
	for j, a := range all {
		a.Order = j + 1
	}
	return revgeo.LocalityInfo{Administrative: admin, Informative: info}
}

// revgeoGeoNamesName names the GeoNames populated place id in lang: the geolocation data's
// name for the same id where it has one in that language (München, ミュンヘン, and Cologne
// in English where GeoNames writes Köln), as the geolocation endpoint names it; else name,
// GeoNames' own. GeoNames ids fit in 32 bits (revgeo decodes them from uint32 fields).
func revgeoGeoNamesName(names *ipgeo.DB, id int, lang, name string) string {
	if i := ipgeo.LanguageIndex(lang); i >= 0 && id > 0 {
		if a, ok := names.AreaByGeonameID(uint32(id)); ok {
			if s := a.Names.Get(i); s != "" {
				return s
			}
		}
	}
	return name
}

// revgeoRequestedLang is localityLanguage as sent, "en" when absent, for
// localityLanguageRequested.
func revgeoRequestedLang(r *http.Request) string {
	if l := strings.TrimSpace(param(r, "localityLanguage")); l != "" {
		return l // at most locale.MaxTagLen long (checkLocalityLanguage)
	}
	return "en"
}

// revgeoLang is the language to name things in: the requested one, or for "default" the
// first administrative language of the country (English without one).
func revgeoLang(v *countryView, requested string, c country.Country, hasCountry bool) string {
	if !strings.EqualFold(requested, "default") {
		return requested
	}
	if hasCountry {
		if l := v.snap.Countries.LocalLanguage(c); l != "" {
			return l
		}
	}
	return "en"
}

func revgeoFromArea(a revgeo.Area, lang string) revgeoArea {
	return revgeoArea{
		name: a.Names.Name(lang), description: a.Description, isoName: a.ISOName, isoCode: a.ISOCode,
		adminLevel: a.AdminLevel, order: a.Order, wikidataID: a.WikidataID, geonameID: a.GeonameID,
	}
}

// revgeoArea is one localityInfo entry, its name already localised.
type revgeoArea struct {
	name, description, isoName, isoCode, wikidataID string
	adminLevel, order, geonameID                    int
	administrative                                  bool
}

// revgeoBody is the reverse-geocoding answer before rendering. Areas live in a fixed array
// so that building one does not allocate.
type revgeoBody struct {
	// hasPoint: lat and lon are known. An answer from the caller's address that the IP
	// data does not place has no point, and omits latitude and longitude rather than
	// claiming 0, 0.
	hasPoint                                           bool
	lat, lon                                           float64
	source, plusCode, requested                        string
	continent, continentCode, countryName, countryCode string
	subdivision, subdivisionCode, city, locality       string
	postcode                                           string
	areas                                              [8]revgeoArea
	nAreas                                             int
	extra                                              func([]byte) []byte // appends more members, if set
}

// addArea appends an area. An area without an order gets the next one: callers add areas
// largest first.
func (b *revgeoBody) addArea(a revgeoArea, administrative bool) {
	if b.nAreas == len(b.areas) || a.name == "" {
		return
	}
	a.administrative = administrative
	if a.order == 0 {
		a.order = b.nAreas + 1
	}
	b.areas[b.nAreas] = a
	b.nAreas++
}

func (b *revgeoBody) write(w http.ResponseWriter) {
	bp := bufPool.Get().(*[]byte)
	out := append((*bp)[:0], '{')
	if b.hasPoint {
		out = placesAppendFloat(out, true, "latitude", b.lat)
		out = placesAppendFloat(out, false, "longitude", b.lon)
		out = append(out, ',')
	}
	out = placesAppendField(out, true, "lookupSource", b.source)
	out = placesAppendField(out, false, "plusCode", b.plusCode)
	out = placesAppendField(out, false, "localityLanguageRequested", b.requested)
	out = placesAppendField(out, false, "continent", b.continent)
	out = placesAppendField(out, false, "continentCode", b.continentCode)
	out = placesAppendField(out, false, "countryName", b.countryName)
	out = placesAppendField(out, false, "countryCode", b.countryCode)
	out = placesAppendField(out, false, "principalSubdivision", b.subdivision)
	out = placesAppendField(out, false, "principalSubdivisionCode", b.subdivisionCode)
	out = placesAppendField(out, false, "city", b.city)
	out = placesAppendField(out, false, "locality", b.locality)
	out = placesAppendField(out, false, "postcode", b.postcode)
	out = placesAppendKey(out, false, "localityInfo")
	out = append(out, '{')
	// Both lists are always there, empty at sea or for an unplaced address: the commercial
	// service's clients type them as arrays and map over them.
	for i, key := range [2]string{"administrative", "informative"} {
		admin := i == 0
		out = append(placesAppendKey(out, admin, key), '[')
		n := 0
		for _, a := range b.areas[:b.nAreas] {
			if a.administrative != admin {
				continue
			}
			if n > 0 {
				out = append(out, ',')
			}
			n++
			out = revgeoAppendArea(out, a)
		}
		out = append(out, ']')
	}
	out = append(out, '}')
	if b.extra != nil {
		out = b.extra(out)
	}
	writeJSONPooled(w, bp, append(out, '}'))
}

// revgeoAppendArea renders one localityInfo entry; fields the data lacks are omitted, as
// the spec says ("if available").
func revgeoAppendArea(b []byte, a revgeoArea) []byte {
	b = placesAppendField(append(b, '{'), true, "name", a.name)
	b = placesAppendField(b, false, "description", a.description)
	if a.isoName != "" {
		b = placesAppendField(b, false, "isoName", a.isoName)
	}
	b = placesAppendInt(b, false, "order", a.order)
	if a.adminLevel != 0 {
		b = placesAppendInt(b, false, "adminLevel", a.adminLevel)
	}
	if a.isoCode != "" {
		b = placesAppendField(b, false, "isoCode", a.isoCode)
	}
	if a.wikidataID != "" {
		b = placesAppendField(b, false, "wikidataId", a.wikidataID)
	}
	if a.geonameID != 0 {
		b = placesAppendInt(b, false, "geonameId", a.geonameID)
	}
	return append(b, '}')
}
