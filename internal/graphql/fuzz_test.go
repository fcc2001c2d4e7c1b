package graphql

import (
	"encoding/json"
	"testing"
)

// FuzzGraphQLBody sends arbitrary request bodies through Serve, over the REST answers in
// testdata/rest: no input may panic, and every answer is either a RequestError (HTTP 400)
// or a JSON response with data, errors or both, every error with a message.
func FuzzGraphQLBody(f *testing.F) {
	seeds := []string{
		// The spec's example, and one realistic query per package.
		`{"query":"{ ipGeolocation(ip: \"81.2.69.160\") { location { city country } confidence network { organisation } } }"}`,
		`{"query":"query Q($ip: String, $l: String = \"de\") { ipData(ip: $ip, locale: $l) { country { name } timeZone: location { timeZone { localTime } } } }","variables":{"ip":"8.8.8.8"},"operationName":"Q"}`,
		`{"query":"{ reverseGeocode(latitude: 53.35, longitude: -6.26) { city localityInfo { administrative { name order } } } }"}`,
		`{"query":"{ phoneNumber(number: \"+61 2 9374 4000\") { isValid country { isoAlpha2 } } }"}`,
		`{"query":"{ networkByCidr(cidr: \"8.8.8.0/22\") { networks { size network { carriers { asn } } } } asnInfo(asn: 3356, batchSize: 3) { transitTo { asn } } }"}`,
		`{"query":"{ amIRoaming(latitude: 1, longitude: 2) { isRoaming } reverseGeocodeClient { lookupSource } }"}`,
		// Fragments, directives, introspection.
		`{"query":"{ ...F ... on Query { __typename } } fragment F on Query { countries @include(if: true) { name @skip(if: false) } }"}`,
		`{"query":"{ __schema { types { name fields { name type { name ofType { name } } } } } __type(name: \"Country\") { kind } }"}`,
		// Broken in various ways.
		`{"query":"{ phoneNumber(number: 1) { isValid } }"}`,
		`{"query":"{ ipGeolocation { nope } ","variables":{"a":[1,{"b":null}]}}`,
		`{"query":"query($n: Int!) { asnInfo(asn: \"1\", batchSize: $n) { asn } }","variables":{"n":"x"}}`,
		`{"query":"fragment A on Query { ...A } { ...A }"}`,
		`{"query":"subscription { x }"}`,
		`{"query":5}`,
		`[]`,
		`{"query":"{ a: userRisk { risk } a: hazardReport { isBogon } }"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	s, err := New(&fakeREST{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, pkg := range []string{IPGeolocation, NetworkEngineering, FreeAPI} {
			out, err := serve(t, s, pkg, string(body))
			if err != nil {
				if _, ok := err.(*RequestError); !ok {
					t.Fatalf("error %T %v", err, err)
				}
				continue
			}
			var res struct {
				Data   *json.RawMessage `json:"data"`
				Errors []struct {
					Message string `json:"message"`
				} `json:"errors"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("response is not JSON: %v\n%s", err, out)
			}
			if res.Data == nil && len(res.Errors) == 0 {
				t.Fatalf("response has neither data nor errors: %s", out)
			}
			for _, e := range res.Errors {
				if e.Message == "" {
					t.Fatalf("error without a message: %s", out)
				}
			}
		}
	})
}
