package api

import (
	"net/http"
	"strings"
)

// phoneValidateByIP answers /data/phone-number-validate-by-ip: phone-number-validate's
// answer, with the country for a number in national form taken from where the IP address
// is used (the geolocation data's country of ip; ip omitted: the caller's address, parsed
// and refused with a 405 as every ip parameter is). countryCode is not read: the address
// stands in for it.
//
// An address the geolocation data places in no country (a bogon such as 10.0.0.1, space
// it does not cover) gives no country: a number in international form still validates
// (its calling code says where it belongs), and one in national form gets the 400 that
// phone-number-validate gives without countryCode, with a sentence naming the address.
func (s *Server) phoneValidateByIP(w http.ResponseWriter, r *http.Request) error {
	number, ok := paramOK(r, "number")
	if !ok || strings.TrimSpace(number) == "" {
		return badRequest("The number parameter is required: the phone number to validate, in any format (+61 2 9374 4000, or (02) 9374 4000 when the ip parameter's address is in Australia).")
	}
	v, err := s.viewWith(engineIPGeo)
	if err != nil {
		return err
	}
	a, err := s.requestIP(w, r)
	if err != nil {
		return err
	}
	region := ""
	if place, ok := v.snap.IPGeo.Lookup(a); ok && place.Country.Code != "" {
		region = place.Country.Code
	}
	// This endpoint takes no countryCode: the address stands in for it, here in vain.
	advice := "The IP address " + a.String() + " is placed in no country by the geolocation data. Write the number with + and its country calling code, or use /data/phone-number-validate with countryCode."
	return s.phoneAnswer(w, r, v, number, region, advice)
}
