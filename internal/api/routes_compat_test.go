package api

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCompatEndpoints: each of the commercial service's extra endpoints is the part or the
// combination of the spec's answers that it names, for the same parameters.
func TestCompatEndpoints(t *testing.T) {
	s := ipRealServer(t)
	const k = "&utcReference=1781000000&key=good"
	get := func(target string) map[string]any { return ipGetJSON(t, s, target+k, 200) }
	for _, tc := range []struct{ ip, lang string }{
		{"8.8.8.8", "en"}, {"185.220.101.1", "de"}, {"10.1.2.3", "en"}, {"2001:4860:4860::8888", "default"}, {"1.1.1.1", "ja"},
	} {
		q := fmt.Sprintf("?ip=%s&localityLanguage=%s", tc.ip, tc.lang)
		geo := get("/data/ip-geolocation-with-confidence" + q)

		want := maps.Clone(geo)
		delete(want, "confidence")
		delete(want, "confidenceArea")
		if diff := cmp.Diff(want, get("/data/ip-geolocation"+q)); diff != "" {
			t.Errorf("ip-geolocation%s (-with-confidence less its confidence, +ip-geolocation):\n%s", q, diff)
		}

		want = maps.Clone(geo)
		want["hazardReport"] = get("/data/hazard-report?ip=" + tc.ip)
		full := get("/data/ip-geolocation-full" + q)
		if _, ok := full["securityThreat"].(string); !ok {
			t.Errorf("ip-geolocation-full%s: securityThreat %v", q, full["securityThreat"])
		}
		want["securityThreat"] = full["securityThreat"]
		if diff := cmp.Diff(want, full); diff != "" {
			t.Errorf("ip-geolocation-full%s (-with-confidence and hazard-report, +full):\n%s", q, diff)
		}

		want = map[string]any{}
		for _, m := range []string{"ip", "localityLanguageRequested", "isReachableGlobally", "country", "lastUpdated"} {
			if v, ok := geo[m]; ok {
				want[m] = v
			}
		}
		if diff := cmp.Diff(want, get("/data/country-by-ip"+q)); diff != "" {
			t.Errorf("country-by-ip%s (-with-confidence's members, +country-by-ip):\n%s", q, diff)
		}
	}
	if got := get("/data/ip-geolocation-full?ip=185.220.101.1")["securityThreat"]; got != "known as a Tor exit node" {
		t.Errorf("a Tor exit's securityThreat: %v", got)
	}
	if got := get("/data/ip-geolocation-full?ip=8.8.8.8")["securityThreat"]; got != "unknown" {
		t.Errorf("8.8.8.8's securityThreat: %v", got)
	}

	for _, asn := range []string{"AS13335", "15169", "ASN3356"} {
		want := get("/data/asn-info-transit-to?asn=" + asn + "&localityLanguage=de")
		delete(want, "totalTransitTo")
		delete(want, "transitTo")
		if diff := cmp.Diff(want, get("/data/asn-info?asn="+asn+"&localityLanguage=de")); diff != "" {
			t.Errorf("asn-info %s (-transit-to less its transit, +asn-info):\n%s", asn, diff)
		}
	}

	for _, p := range []string{"latitude=53.35&longitude=-6.26&localityLanguage=de", "latitude=35.68&longitude=139.77", "latitude=0&longitude=-30"} {
		want := get("/data/reverse-geocode?" + p)
		want["timeZone"] = get("/data/timezone-by-location?" + p)
		if diff := cmp.Diff(want, get("/data/reverse-geocode-with-timezone?"+p)); diff != "" {
			t.Errorf("reverse-geocode-with-timezone?%s (-reverse-geocode and timezone-by-location, +with-timezone):\n%s", p, diff)
		}
	}

	for _, tc := range []struct {
		target string
		code   int
	}{
		{"/data/ip-geolocation?ip=999.1.1.1", 405},
		{"/data/ip-geolocation-full?ip=example.org", 405},
		{"/data/country-by-ip?ip=1.2.3", 405},
		{"/data/asn-info?asn=65000", 404},
		{"/data/asn-info?asn=AS", 400},
		{"/data/asn-info?", 400},
		{"/data/asn-info-transit-to?asn=65000&batchSize=51", 400}, // parameters are checked before the AS is looked up
		{"/data/reverse-geocode-with-timezone?latitude=91&longitude=0", 401},
		{"/data/reverse-geocode-with-timezone?latitude=1", 400},
		{"/data/email-verify?emailAddress=a@example.org", 404},
	} {
		ipGetJSON(t, s, tc.target+"&key=good", tc.code)
	}
	// The endpoint not served says so, whatever the method, and not as a typo would.
	for _, m := range []string{"GET", "POST"} {
		rec := do(t, s, m, "/data/email-verify?emailAddress=a@example.org", nil)
		if !strings.Contains(rec.Body.String(), "does not serve /data/email-verify") {
			t.Errorf("%s email-verify: %d %s", m, rec.Code, rec.Body)
		}
	}
}
