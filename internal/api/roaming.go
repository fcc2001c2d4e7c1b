package api

import "net/http"

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
//	latitude, longitude the device position, as sent
//	deviceCountryCode   ISO 3166-1 alpha-2 of the country at the position (reverse
//	                    geocoding; territorial waters count), "" at sea
//	deviceCountryName   its name in localityLanguage (default en)
//	networkCountryCode  ISO 3166-1 alpha-2 where the caller's IP address is used (IP
//	                    geolocation), "" for addresses the data does not place
//	networkCountryName  its name in localityLanguage
//
// Latitude and longitude are required (400), and in range (401 naming the valid ranges, as
// the commercial service answers). The caller's address is the client address (see the
// keyless notes on proxies); there is no ip parameter, as in the commercial service: the
// endpoint is about the caller.
func (s *Server) amIRoaming(w http.ResponseWriter, r *http.Request) error {
	lat, lon, err := coordParams(r)
	if err != nil {
		return err
	}
	v, err := s.viewWith(enginePlaces | engineIPGeo)
	if err != nil {
		return err
	}
	snap := v.snap
	lang := revgeoRequestedLang(r)
	place, _ := snap.Places.Lookup(lat, lon)
	device := place.Country.Code
	network := ""
	if a, ok := s.opt.ClientAddrs.Of(r); ok {
		if p, ok := snap.IPGeo.Lookup(a); ok {
			network = p.Country.Code
		}
	}
	name := func(code string) string {
		if code == "" {
			return ""
		}
		c, ok := v.snap.Countries.Lookup(code)
		if !ok {
			return ""
		}
		return v.snap.Countries.Name(c, revgeoLang(v, lang, c, true))
	}
	deviceName, networkName := name(device), name(network)
	if deviceName == "" && device != "" {
		deviceName = place.Country.Name
	}

	status, desc := "unknown", ""
	switch {
	case device == "" && network == "":
		desc = "Neither country is known: the position is in no country (open sea) and the caller's address is not placed by the IP data."
	case device == "":
		desc = "The device position is in no country (open sea), so roaming cannot be told."
	case network == "":
		desc = "The IP data places the caller's address in no country (a private or reserved address, or one the geolocation data has no country for), so roaming cannot be told."
	case device == network:
		status, desc = "home", "The device is in "+roamingLabel(deviceName, device)+", the country of its network."
	default:
		status, desc = "roaming", "The device is in "+roamingLabel(deviceName, device)+"; its network is in "+roamingLabel(networkName, network)+"."
	}

	bp := bufPool.Get().(*[]byte)
	b := append((*bp)[:0], '{')
	b = placesAppendBool(b, true, "isRoaming", status == "roaming")
	b = placesAppendField(b, false, "roamingStatus", status)
	b = placesAppendField(b, false, "description", desc)
	b = placesAppendFloat(b, false, "latitude", lat)
	b = placesAppendFloat(b, false, "longitude", lon)
	b = placesAppendField(b, false, "deviceCountryCode", device)
	b = placesAppendField(b, false, "deviceCountryName", deviceName)
	b = placesAppendField(b, false, "networkCountryCode", network)
	b = placesAppendField(b, false, "networkCountryName", networkName)
	b = append(b, '}')
	writeJSONPooled(w, bp, b)
	return nil
}

func roamingLabel(name, code string) string {
	if name == "" {
		return code
	}
	return name + " (" + code + ")"
}
