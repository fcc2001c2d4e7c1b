package api

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestPhoneByIPIsPhoneWithTheIPsCountry: the by-ip answer is phone-number-validate's with
// countryCode the geolocated country of ip (or of the caller), byte for byte; an address
// placed in no country is phone-number-validate without countryCode.
func TestPhoneByIPIsPhoneWithTheIPsCountry(t *testing.T) {
	snap := datasettest.Real(t)
	s := placesServer(t, snap)
	tests := []struct {
		name, number, ip, remote, lang string
		country                        string // the countryCode phone-number-validate gets; "" none
	}{
		{name: "reference", number: "884633490", ip: "193.114.112.1", country: "AU"},
		{name: "national Australia", number: "(02) 9374 4000", ip: "1.128.0.1", country: "AU"},
		{name: "national German default language", number: "030 901820", ip: "2a00:1450:4001::1", lang: "default", country: "DE"},
		{name: "international elsewhere", number: "+61 2 9374 4000", ip: "8.8.8.8", country: "US"},
		{name: "caller", number: "884633490", remote: "193.114.112.1", country: "AU"},
		{name: "numeric ip", number: "884633490", ip: "3245502465", country: "AU"},
		{name: "invalid in the IP's country", number: "112", ip: "193.114.112.1", country: "AU"},
		{name: "bogon international", number: "+61 2 9374 4000", ip: "10.0.0.1"},
		{name: "bogon free phone", number: "+800 1234 5678", ip: "10.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := url.Values{"key": {"good"}, "number": {tt.number}}
			if tt.ip != "" {
				q.Set("ip", tt.ip)
			}
			if tt.lang != "" {
				q.Set("localityLanguage", tt.lang)
			}
			got := placesGet(t, s, "/data/phone-number-validate-by-ip?"+q.Encode(), tt.remote)
			q.Del("ip")
			if tt.country != "" {
				q.Set("countryCode", tt.country)
			}
			want := placesGet(t, s, "/data/phone-number-validate?"+q.Encode(), "")
			if got.Code != http.StatusOK || got.Code != want.Code || got.Body.String() != want.Body.String() {
				t.Errorf("by ip: %d %s\nwith countryCode %q: %d %s", got.Code, got.Body, tt.country, want.Code, want.Body)
			}
		})
	}
}

// TestPhoneByIPNoCountry: a number in national form with an address placed in no country
// is a 400 that says why and what to do instead; not to pass countryCode, which this
// endpoint does not read.
func TestPhoneByIPNoCountry(t *testing.T) {
	s := placesServer(t, datasettest.Real(t))
	got := placesGet(t, s, "/data/phone-number-validate-by-ip?key=good&number=0293744000&ip=10.0.0.1", "")
	placesWantError(t, got, http.StatusBadRequest, "country is unknown")
	body := got.Body.String()
	if !strings.Contains(body, "10.0.0.1 is placed in no country") || !strings.Contains(body, "use /data/phone-number-validate with countryCode") || strings.Contains(body, "Pass countryCode") {
		t.Errorf("by ip: %s", body)
	}
}

// TestPhoneByIPErrors: parameter errors, the engine's absence, and the keyed checks.
func TestPhoneByIPErrors(t *testing.T) {
	real := placesServer(t, datasettest.Real(t))
	fixture := placesServer(t, datasettest.Snapshot(t))
	tests := []struct {
		name   string
		s      *Server
		target string
		code   int
		desc   string
	}{
		{"no key", fixture, "?number=884633490&ip=193.114.112.1", 401, "No API key"},
		{"volume used up", fixture, "?key=spent&number=884633490", 402, "phone-email package"},
		{"number missing", fixture, "?key=good&ip=193.114.112.1", 400, "number parameter is required"},
		{"number blank", fixture, "?key=good&number=%20&ip=193.114.112.1", 400, "number parameter is required"},
		{"no geolocation data", fixture, "?key=good&number=884633490&ip=193.114.112.1", 503, ""},
		{"ip invalid", real, "?key=good&number=884633490&ip=193.114.112", 405, `"193.114.112" is not valid`},
		{"ip with leading zero", real, "?key=good&number=884633490&ip=0193.114.112.1", 405, "is not valid"},
		{"not a number", real, "?key=good&number=abc&ip=193.114.112.1", 400, "not a phone number"},
		{"too long", real, "?key=good&number=12345678901234567890123&ip=193.114.112.1", 400, "too long"},
		{"plus as a space", real, "?key=good&number=+61293744000&ip=10.0.0.1", 400, "%2B"},
		{"language too long", real, "?key=good&number=884633490&localityLanguage=" + strings.Repeat("x", 36), 400, "localityLanguage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			placesWantError(t, placesGet(t, tt.s, "/data/phone-number-validate-by-ip"+tt.target, ""), tt.code, tt.desc)
		})
	}
}
