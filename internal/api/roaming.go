package api

import (
	"net/http"
	"net/netip"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// amIRoaming answers /data/am-i-roaming?latitude=&longitude= (keyless): whether the device
// is outside the country of its mobile network. A roaming phone's data usually leaves
// through its home network, so the caller's IP address geolocates to the home country
// while the device's position (from its GPS, in the parameters) is abroad.
//
// Body:
//
//	isRoaming           true when both countries are known and differ; false otherwise
//	roamingStatus       "roaming" (they differ), "home" (they are the same) or "unknown"
//	                    (either country is unknown: isRoaming is then false, not a guess)
//	description         the comparison in words, naming what is unknown and why
//	latitude, longitude the device position, as sent; absent when none was
//	deviceCountryCode   ISO 3166-1 alpha-2 of the country at the position (reverse
//	                    geocoding; territorial waters count), "" at sea
//	deviceCountryName   its name in localityLanguage (default en)
//	networkCountryCode  ISO 3166-1 alpha-2 where the caller's IP address is used (IP
//	                    geolocation), "" for addresses the data does not place
//	networkCountryName  its name in localityLanguage
//
// Latitude and longitude go together (one without the other is a 400) and must be in range
// (401 naming the valid ranges, as the commercial service answers). Without both, as the
// commercial service's own browser client calls it, the answer is "unknown": the caller's
// address alone shows where its network is, not where the device is. The caller's address
// is the client address (see the keyless notes on proxies); there is no ip parameter, as
// in the commercial service: the endpoint is about the caller. The answer is for this
// caller only, so it is marked Cache-Control: no-store.
func (s *Server) amIRoaming(w http.ResponseWriter, r *http.Request) error {
	_, hasLat := paramOK(r, "latitude")
	_, hasLon := paramOK(r, "longitude")
	hasPos := hasLat || hasLon
	var lat, lon float64
	if hasPos {
		var err error
		if lat, lon, err = coordParams(r); err != nil {
			return err
		}
	}
	need := engineIPGeo
	if hasPos {
		need |= enginePlaces
	}
	v, err := s.viewWith(need)
	if err != nil {
		return err
	}
	snap := v.snap
	lang := revgeoRequestedLang(r)
	var place revgeo.Place
	if hasPos {
		place, _ = snap.Places.Lookup(lat, lon)
	}
	device := place.Country.Code
	network := ""
	caller, hasCaller := s.opt.ClientAddrs.Of(r)
	if hasCaller {
		if p, ok := snap.IPGeo.Lookup(caller); ok {
			network = p.Country.Code
		}
	}
	name := func(code, lang string) string {
		if code == "" {
			return ""
		}
		c, ok := v.snap.Countries.Lookup(code)
		if !ok {
			return ""
		}
		return v.snap.Countries.Name(c, revgeoLang(v, lang, c, true))
	}
	deviceName, networkName := name(device, lang), name(network, lang)
	if deviceName == "" && device != "" {
		deviceName = place.Country.Name
	}

	// The description is English whatever localityLanguage asks, as every message of the
	// API is, so the names in it are English too: one sentence, one language.
	status, desc := "unknown", ""
	unplaced := roamingUnplaced(caller, hasCaller)
	switch {
	case !hasPos && network == "":
		desc = "No device position was sent (latitude and longitude, from the device), so roaming cannot be told; and " + unplaced
	case !hasPos:
		desc = "No device position was sent (latitude and longitude, from the device), so roaming cannot be told: the caller's address only shows that its network is in " + roamingLabel(name(network, "en"), network) + "."
	case device == "" && network == "":
		desc = "Neither country is known: the position is in no country (open sea), and " + unplaced
	case device == "":
		desc = "The device position is in no country (open sea), so roaming cannot be told."
	case network == "":
		desc = "Roaming cannot be told: " + unplaced
	case device == network:
		status, desc = "home", "The device is in "+roamingLabel(name(device, "en"), device)+", the country of its network."
	default:
		status, desc = "roaming", "The device is in "+roamingLabel(name(device, "en"), device)+"; its network is in "+roamingLabel(name(network, "en"), network)+"."
	}
	markNoStore(w)

	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], '{')
	b = placesAppendBool(b, true, "isRoaming", status == "roaming")
	b = placesAppendField(b, false, "roamingStatus", status)
	b = placesAppendField(b, false, "description", desc)
	if hasPos {
		b = placesAppendFloat(b, false, "latitude", lat)
		b = placesAppendFloat(b, false, "longitude", lon)
	}
	b = placesAppendField(b, false, "deviceCountryCode", device)
	b = placesAppendField(b, false, "deviceCountryName", deviceName)
	b = placesAppendField(b, false, "networkCountryCode", network)
	b = placesAppendField(b, false, "networkCountryName", networkName)
	b = append(b, '}')
	writeJSONPooled(w, bp, b)
	return nil
}

// roamingUnplaced says, as the end of a sentence, why the caller's address has no country.
func roamingUnplaced(a netip.Addr, ok bool) string {
	switch {
	case !ok:
		return "the caller's address is not known."
	case a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified():
		return "the caller's address " + a.String() + " is a private or loopback address, which no country holds. Behind a reverse proxy, list the proxy in --trusted-proxies so that the address it forwards is taken."
	default:
		return "the IP data places the caller's address " + a.String() + " in no country (a reserved address, or one the geolocation data has no country for)."
	}
}

func roamingLabel(name, code string) string {
	if name == "" {
		return code
	}
	return name + " (" + code + ")"
}
