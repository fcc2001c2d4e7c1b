package graphql

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeREST answers from the REST bodies in testdata/rest, and records every call.
type fakeREST struct {
	mu    sync.Mutex
	calls []string // path?query
	// override answers a path with a status and body instead of the file.
	override map[string]func(q url.Values) Reply
}

var restFiles = map[string]string{
	pathGeolocation:   "geolocation.json",
	pathCountryInfo:   "country.json",
	pathCountries:     "countries.json",
	pathUserRisk:      "risk.json",
	pathHazardReport:  "hazards.json",
	pathNetworkByIP:   "network.json",
	pathNetworkByCIDR: "cidr.json",
	pathASNInfo:       "asn.json",
	pathPhone:         "phone.json",
	pathReverse:       "reverse.json",
	pathReverseClient: "reverse.json",
	pathAmIRoaming:    "roaming.json",
	pathTimeZoneInfo:  "timezone.json",
}

var restBodies = sync.OnceValues(func() (map[string][]byte, error) {
	out := map[string][]byte{}
	for path, file := range restFiles {
		b, err := os.ReadFile(filepath.Join("testdata", "rest", file))
		if err != nil {
			return nil, err
		}
		out[path] = []byte(strings.TrimSpace(string(b)))
	}
	// PathIPData's answer, composed as package api composes it (the files are of different
	// addresses: only the shape matters here).
	geo, hz := out[pathGeolocation], out[pathHazardReport]
	// timezone-by-ip's answer is the geolocation's location.timeZone, as package api answers it.
	out[pathTimeZoneByIP] = descend(out[pathGeolocation], []string{"location", "timeZone"})
	out[PathIPData] = fmt.Appendf(nil, `%s,"confidenceReason":"the network serves several countries","hazardReport":%s,"securityThreat":"known as a Tor exit node","userRisk":%s}}`,
		geo[:len(geo)-1], hz[:len(hz)-1], out[pathUserRisk])
	return out, nil
})

func (f *fakeREST) Answer(r *http.Request, path, rawQuery string) Reply {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return Reply{Status: 400, Body: []byte(`{"status":400,"description":"bad query string"}`)}
	}
	f.mu.Lock()
	f.calls = append(f.calls, path+"?"+q.Encode())
	fn := f.override[path]
	f.mu.Unlock()
	if fn != nil {
		return fn(q)
	}
	if q.Get("ip") == "1.2.3.4.5" {
		return Reply{Status: 405, Body: []byte(`{"status":405,"description":"The requested IP address \"1.2.3.4.5\" is not valid."}`)}
	}
	bodies, err := restBodies()
	if err != nil {
		return Reply{Status: 500, Body: []byte(`{"status":500,"description":"` + err.Error() + `"}`)}
	}
	b, ok := bodies[path]
	if !ok {
		return Reply{Status: 404, Body: []byte(`{"status":404,"description":"There is no endpoint at ` + path + `."}`)}
	}
	return Reply{Status: 200, Body: b}
}

func (f *fakeREST) callList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func newTestService(t testing.TB) (*Service, *fakeREST) {
	t.Helper()
	f := &fakeREST{}
	s, err := New(f)
	if err != nil {
		t.Fatal(err)
	}
	return s, f
}

// serve runs one request body and returns the HTTP status, the raw body, and the
// RequestError if the body was refused.
func serve(t testing.TB, s *Service, pkg, body string) (string, error) {
	t.Helper()
	p, ok := s.Package(pkg)
	if !ok {
		t.Fatalf("no package %s", pkg)
	}
	r := httptest.NewRequest("POST", "/graphql/"+pkg, nil)
	w := httptest.NewRecorder()
	if err := s.Serve(w, r, p, []byte(body)); err != nil {
		return "", err
	}
	if w.Code != 200 {
		t.Fatalf("status %d", w.Code)
	}
	if !json.Valid(w.Body.Bytes()) {
		t.Fatalf("response is not JSON: %s", w.Body)
	}
	return w.Body.String(), nil
}

// query wraps a query (and variables) into a request body.
func query(q string, vars map[string]any) string {
	req := map[string]any{"query": q}
	if vars != nil {
		req["variables"] = vars
	}
	b, _ := json.Marshal(req)
	return string(b)
}

// result is a decoded response.
type result struct {
	Data   json.RawMessage `json:"data"`
	Errors []struct {
		Message    string         `json:"message"`
		Path       []any          `json:"path"`
		Extensions map[string]any `json:"extensions"`
	} `json:"errors"`
}

func run(t *testing.T, s *Service, pkg, q string, vars map[string]any) result {
	t.Helper()
	body, err := serve(t, s, pkg, query(q, vars))
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	var res result
	if err := json.Unmarshal([]byte(body), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func TestGraphQLProjection(t *testing.T) {
	s, _ := newTestService(t)
	tests := []struct {
		name, pkg, query string
		vars             map[string]any
		want             string // data, exactly (key order matters)
	}{
		{"spec example", IPGeolocation,
			`{ ipGeolocation(ip: "81.2.69.160") { location { city country } confidence network { organisation } } }`, nil,
			`{"ipGeolocation":{"location":{"city":"East Finchley","country":"United Kingdom"},"confidence":"moderate","network":{"organisation":"Andrews & Arnold Ltd"}}}`},
		{"selection order, not REST order", IPGeolocation,
			`{ ipGeolocation { confidence ip } }`, nil,
			`{"ipGeolocation":{"confidence":"moderate","ip":"81.2.69.160"}}`},
		{"aliases and __typename", IPGeolocation,
			`{ g: ipGeolocation { t: __typename where: location { c: city } } __typename }`, nil,
			`{"g":{"t":"IPGeolocation","where":{"c":"East Finchley"}},"__typename":"Query"}`},
		{"fragments merge with fields", IPGeolocation,
			`{ ipGeolocation { country { isoAlpha2 } ...F ... on IPGeolocation { country { name } } } } fragment F on IPGeolocation { country { isoAlpha3 isoAlpha2 } }`, nil,
			`{"ipGeolocation":{"country":{"isoAlpha2":"GB","isoAlpha3":"GBR","name":"United Kingdom"}}}`},
		{"skip and include", IPGeolocation,
			`query($yes: Boolean!) { ipGeolocation { ip @skip(if: $yes) confidence @include(if: $yes) lastUpdated @include(if: false) } }`, map[string]any{"yes": true},
			`{"ipGeolocation":{"confidence":"moderate"}}`},
		{"omitted member is null", IPGeolocation,
			`{ ipGeolocation { location { fips: postcode timeZone { utcTime } } network { ip } } }`, nil,
			`{"ipGeolocation":{"location":{"fips":"N2","timeZone":{"utcTime":"2023-11-14T22:13:20.0000000Z"}},"network":{"ip":null}}}`},
		{"lists of objects", IPGeolocation,
			`{ ipGeolocation { location { localityInfo { informative { name order } } } } }`, nil,
			`{"ipGeolocation":{"location":{"localityInfo":{"informative":[{"name":"Europe","order":1},{"name":"Europe/London","order":3}]}}}}`},
		{"timeZone root", IPGeolocation,
			`{ timeZone(ip: "81.2.69.160") { ianaTimeId utcOffsetSeconds } }`, nil,
			`{"timeZone":{"ianaTimeId":"Europe/London","utcOffsetSeconds":0}}`},
		{"list root", IPGeolocation,
			`{ countries { isoAlpha2 } }`, nil,
			`{"countries":[{"isoAlpha2":"DE"},{"isoAlpha2":"IE"},{"isoAlpha2":"JP"}]}`},
		{"big integers as REST writes them", NetworkEngineering,
			`{ asnInfo(asn: 3356) { asnNumeric totalIpv4Addresses transitTo { asn } } }`, nil,
			`{"asnInfo":{"asnNumeric":3356,"totalIpv4Addresses":27346687,"transitTo":[{"asn":"AS7018"},{"asn":"AS701"},{"asn":"AS3320"}]}}`},
		{"string list", IPGeolocation,
			`{ hazardReport { blocklistCount lists } }`, nil,
			`{"hazardReport":{"blocklistCount":4,"lists":["ipsum","tor/doodad-exits","tor/doodad-relays","tor/exit-addresses","tor/onionoo-exits","tor/onionoo-relays","tor/torbulkexitlist","x4bnet-lists-vpn/datacenter","x4bnet-lists-vpn/datacenter-asn","x4bnet-lists-vpn/vpn","x4bnet-lists-vpn/vpn-asn"]}}`},
		{"free-api", FreeAPI,
			`{ amIRoaming(latitude: 53.35, longitude: -6.26) { isRoaming roamingStatus } }`, nil,
			`{"amIRoaming":{"isRoaming":true,"roamingStatus":"roaming"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := run(t, s, tt.pkg, tt.query, tt.vars)
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %+v", res.Errors)
			}
			if got := string(res.Data); got != tt.want {
				t.Errorf("data\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestArgumentsBecomeParameters checks the one thing resolvers do: arguments to REST query
// parameters of the same names, with locale filling localityLanguage.
func TestGraphQLArgumentsBecomeParameters(t *testing.T) {
	tests := []struct {
		name, pkg, query string
		vars             map[string]any
		want             string
	}{
		{"literals", IPGeolocation, `{ ipGeolocation(ip: "8.8.8.8", localityLanguage: "de", utcReference: 1700000000) { ip } }`, nil,
			pathGeolocation + "?ip=8.8.8.8&localityLanguage=de&utcReference=1700000000"},
		{"BigInt as a string of digits", IPGeolocation, `{ ipGeolocation(ip: "8.8.8.8", utcReference: "-1700000000") { ip } }`, nil,
			pathGeolocation + "?ip=8.8.8.8&utcReference=-1700000000"},
		{"omitted ip is omitted", IPGeolocation, `{ userRisk { risk } }`, nil, pathUserRisk + "?"},
		{"null is omitted", IPGeolocation, `{ userRisk(ip: null) { risk } }`, nil, pathUserRisk + "?"},
		{"variables", NetworkEngineering, `query($a: ID!, $n: Int, $o: Int = 2) { asnInfo(asn: $a, batchSize: $n, offset: $o) { asn } }`,
			map[string]any{"a": 3356, "n": 5}, pathASNInfo + "?asn=3356&batchSize=5&offset=2"},
		{"unset variable is omitted", NetworkEngineering, `query($n: Int) { asnInfo(asn: "AS1", batchSize: $n) { asn } }`, nil,
			pathASNInfo + "?asn=AS1"},
		{"locale alias", IPGeolocation, `{ ipData(ip: "1.1.1.1", locale: "ja") { ip } }`, nil,
			PathIPData + "?ip=1.1.1.1&localityLanguage=ja"},
		{"localityLanguage wins over locale", IPGeolocation, `{ countryInfo(code: "IE", locale: "ja", localityLanguage: "de") { name } }`, nil,
			pathCountryInfo + "?code=IE&localityLanguage=de"},
		{"floats and booleans", NetworkEngineering, `{ networkByCidr(cidr: "8.8.8.0/22", bogonsOnly: true, depthLimit: 2) { cidr } }`, nil,
			pathNetworkByCIDR + "?bogonsOnly=true&cidr=8.8.8.0%2F22&depthLimit=2"},
		{"float variables", ReverseGeocoding, `query($lat: Float!, $lon: Float!) { reverseGeocode(latitude: $lat, longitude: $lon) { city } }`,
			map[string]any{"lat": 53.35, "lon": -6},
			pathReverse + "?latitude=53.35&longitude=-6"},
		{"phone", PhoneEmail, `{ phoneNumber(number: "+61 2 9374 4000", countryCode: "au") { isValid } }`, nil,
			pathPhone + "?countryCode=au&number=%2B61+2+9374+4000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, f := newTestService(t)
			res := run(t, s, tt.pkg, tt.query, tt.vars)
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %+v", res.Errors)
			}
			if diff := cmp.Diff([]string{tt.want}, f.callList()); diff != "" {
				t.Errorf("REST calls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGraphQLRESTErrorIsFieldError(t *testing.T) {
	s, _ := newTestService(t)
	res := run(t, s, IPGeolocation, `{ a: userRisk { risk } b: ipGeolocation(ip: "1.2.3.4.5") { ip } }`, nil)
	if string(res.Data) != `{"a":{"risk":"Moderate"},"b":null}` {
		t.Errorf("data %s", res.Data)
	}
	if len(res.Errors) != 1 {
		t.Fatalf("errors %+v", res.Errors)
	}
	e := res.Errors[0]
	if !strings.Contains(e.Message, `"1.2.3.4.5" is not valid`) || e.Extensions["status"] != float64(405) || cmp.Diff([]any{"b"}, e.Path) != "" {
		t.Errorf("error %+v", e)
	}
}

// TestGraphQLRefusalRetryAfter: a lookup refused with a wait (a 429's Retry-After) is a
// field error carrying the wait as extensions.retryAfter, since the GraphQL answer itself
// is HTTP 200; an error without a wait has no retryAfter.
func TestGraphQLRefusalRetryAfter(t *testing.T) {
	s, f := newTestService(t)
	f.override = map[string]func(url.Values) Reply{pathClientIP: func(url.Values) Reply {
		return Reply{Status: 429, Body: []byte(`{"status":429,"description":"Too many requests from this address."}`), RetryAfter: 3}
	}}
	res := run(t, s, FreeAPI, `{ clientIp { ipString } }`, nil)
	if len(res.Errors) != 1 || string(res.Data) != `{"clientIp":null}` {
		t.Fatalf("got %s %+v", res.Data, res.Errors)
	}
	if ext := res.Errors[0].Extensions; ext["status"] != float64(429) || ext["retryAfter"] != float64(3) || ext["code"] != codeREST {
		t.Errorf("extensions %v, want status 429 and retryAfter 3", ext)
	}
	res = run(t, s, IPGeolocation, `{ ipGeolocation(ip: "1.2.3.4.5") { ip } }`, nil)
	if len(res.Errors) != 1 || res.Errors[0].Extensions["retryAfter"] != nil {
		t.Errorf("a 405 has a retryAfter: %+v", res.Errors)
	}
}

func TestGraphQLNonNullViolationBubbles(t *testing.T) {
	s, f := newTestService(t)
	// A REST answer without the non-null confidence (a drift the schema test would catch).
	f.override = map[string]func(url.Values) Reply{
		pathGeolocation: func(url.Values) Reply {
			return Reply{Status: 200, Body: []byte(`{"ip":"1.2.3.4","network":{"carriers":[{"asn":"AS1","asnNumeric":1},{"asnNumeric":2}]}}`)}
		},
	}
	res := run(t, s, IPGeolocation, `{ ipGeolocation { ip confidence } other: ipGeolocation { network { carriers { asn } } } }`, nil)
	// confidence is non-null: ipGeolocation becomes null. carriers is [Carrier!]! inside a
	// non-null network, so the missing asn makes the nearest nullable field, other, null.
	if string(res.Data) != `{"ipGeolocation":null,"other":null}` {
		t.Errorf("data %s", res.Data)
	}
	if len(res.Errors) != 2 || cmp.Diff([]any{"ipGeolocation", "confidence"}, res.Errors[0].Path) != "" ||
		cmp.Diff([]any{"other", "network", "carriers", float64(1), "asn"}, res.Errors[1].Path) != "" {
		t.Errorf("errors %+v", res.Errors)
	}
}

func TestGraphQLRequestErrors(t *testing.T) {
	s, _ := newTestService(t)
	tests := []struct {
		name, pkg, body string
		code            string // extensions.code of the first error
		msg             string // substring of its message
	}{
		{"syntax", IPGeolocation, query(`{ ipGeolocation { ip `, nil), codeParse, "Expected Name"},
		{"unknown field", IPGeolocation, query(`{ ipGeolocation { nope } }`, nil), codeValidation, `Cannot query field "nope" on type "IPGeolocation"`},
		{"cross package", IPGeolocation, query(`{ phoneNumber(number: "1") { isValid } }`, nil), codeCrossPkg, "phoneNumber is served by /graphql/phone-email"},
		{"cross package in fragment", FreeAPI, query(`query { ...R } fragment R on Query { reverseGeocode(latitude: 1, longitude: 2) { city } }`, nil), codeCrossPkg, "reverseGeocode is served by /graphql/reverse-geocoding"},
		{"shared root, other package", NetworkEngineering, query(`{ countries { name } }`, nil), codeCrossPkg, "/graphql/ip-geolocation"},
		{"missing argument", PhoneEmail, query(`{ phoneNumber { isValid } }`, nil), codeValidation, `argument "number" of type "String!" is required`},
		{"mutation", IPGeolocation, query(`mutation { x }`, nil), codeValidation, "mutation"},
		{"missing variable", IPGeolocation, query(`query($ip: String!) { userRisk(ip: $ip) { risk } }`, nil), codeBadInput, `Variable "$ip" of required type String! was not provided`},
		{"variable of wrong type", IPGeolocation, `{"query":"query($ip: String) { userRisk(ip: $ip) { risk } }","variables":{"ip":5}}`, codeBadInput, `Variable "$ip" got invalid value 5`},
		{"Int out of range", NetworkEngineering, `{"query":"query($n: Int) { asnInfo(asn: 1, batchSize: $n) { asn } }","variables":{"n":1e10}}`, codeBadInput, "Int cannot represent"},
		{"Int literal out of range", NetworkEngineering, query(`{ asnInfo(asn: 1, batchSize: 3000000000) { asn } }`, nil), codeValidation, "Int cannot represent 3000000000"},
		{"BigInt variable in exponent form", IPGeolocation, `{"query":"query($t: BigInt) { ipGeolocation(ip: \"8.8.8.8\", utcReference: $t) { ip } }","variables":{"t":1e300}}`, codeBadInput, "BigInt cannot represent 1e300: it must be a whole number written in decimal digits"},
		{"BigInt variable a string", IPGeolocation, `{"query":"query($t: BigInt) { ipGeolocation(ip: \"8.8.8.8\", utcReference: $t) { ip } }","variables":{"t":"ipa_ABCDEFGH234567"}}`, codeBadInput, "BigInt cannot represent a value that is not a whole number"},
		{"BigInt literal not a number", IPGeolocation, query(`{ ipGeolocation(ip: "8.8.8.8", utcReference: "abc") { ip } }`, nil), codeValidation, "BigInt cannot represent"},
		{"BigInt literal a float", IPGeolocation, query(`{ ipGeolocation(ip: "8.8.8.8", utcReference: 1.5) { ip } }`, nil), codeValidation, "BigInt cannot represent"},
		{"BigInt literal a boolean", IPGeolocation, query(`{ ipGeolocation(ip: "8.8.8.8", utcReference: true) { ip } }`, nil), codeValidation, "BigInt cannot represent"},
		{"operation not found", IPGeolocation, `{"query":"query A { userRisk { risk } }","operationName":"B"}`, codeOperation, `no operation named "B"`},
		// Messages quote the query; a key pasted into it is not repeated.
		{"key as an enum value", IPGeolocation, query(`{ countryInfo(code: ipa_ABCDEFGH234567) { name } }`, nil), codeValidation, "String cannot represent a non string value: REDACTED"},
		{"key as a field", IPGeolocation, query(`{ ipa_ABCDEFGH234567 }`, nil), codeValidation, `Cannot query field "REDACTED"`},
		{"several operations", IPGeolocation, query(`query A { userRisk { risk } } query B { hazardReport { isBogon } }`, nil), codeOperation, "say which one"},
		{"only a comment", IPGeolocation, query("# nothing to run", nil), codeOperation, "it is empty (or only comments)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := serve(t, s, tt.pkg, tt.body)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			var res result
			if err := json.Unmarshal([]byte(body), &res); err != nil {
				t.Fatal(err)
			}
			if res.Data != nil {
				t.Errorf("a request error has data: %s", body)
			}
			if len(res.Errors) == 0 || res.Errors[0].Extensions["code"] != tt.code || !strings.Contains(res.Errors[0].Message, tt.msg) {
				t.Errorf("got %s\nwant code %s and a message containing %q", body, tt.code, tt.msg)
			}
		})
	}
}

func TestGraphQLOperationName(t *testing.T) {
	s, f := newTestService(t)
	body := `{"query":"query A { userRisk { risk } } query B($ip: String) { hazardReport(ip: $ip) { isBogon } }","operationName":"B","variables":{"ip":"9.9.9.9"}}`
	out, err := serve(t, s, IPGeolocation, body)
	if err != nil {
		t.Fatal(err)
	}
	if out != `{"data":{"hazardReport":{"isBogon":false}}}` {
		t.Errorf("got %s", out)
	}
	if diff := cmp.Diff([]string{pathHazardReport + "?ip=9.9.9.9"}, f.callList()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

func TestGraphQLCacheReusesDocuments(t *testing.T) {
	s, _ := newTestService(t)
	q := query(`{ userRisk { risk } }`, nil)
	for range 3 {
		if _, err := serve(t, s, IPGeolocation, q); err != nil {
			t.Fatal(err)
		}
	}
	// The same text for another package is another document (and there, a cross-package error).
	if _, err := serve(t, s, FreeAPI, q); err != nil {
		t.Fatal(err)
	}
	if n := s.cache.len(); n != 2 {
		t.Errorf("cache holds %d documents, want 2", n)
	}
	p := s.pkgs[IPGeolocation]
	a, b := s.document(p, `{ userRisk { risk } }`), s.document(p, `{ userRisk { risk } }`)
	if a != b || a.doc == nil {
		t.Error("the second lookup did not come from the cache")
	}
}

func TestGraphQLDocCacheEvicts(t *testing.T) {
	c := newDocCache(2)
	for _, q := range []string{"a", "b", "a", "c"} { // b is least recently used when c comes
		if _, ok := c.get("p", q); !ok {
			c.put(&cacheEntry{key: cacheKey{"p", q}})
		}
	}
	if _, ok := c.get("p", "b"); ok {
		t.Error("b was not evicted")
	}
	if _, ok := c.get("p", "a"); !ok {
		t.Error("a was evicted")
	}
	c.put(&cacheEntry{key: cacheKey{"p", strings.Repeat("x", CacheMaxQuery+1)}})
	if c.len() != 2 {
		t.Errorf("len %d", c.len())
	}
}

func TestGraphQLQueryEscaping(t *testing.T) {
	for _, s := range []string{"", "8.8.8.0/22", "+61 2 9374 4000", "a&b=c", "ü€%", "AS15169", "x y+z~-._"} {
		if got, want := string(appendQueryEscaped(nil, s)), url.QueryEscape(s); got != want {
			t.Errorf("appendQueryEscaped(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestGraphQLConcurrent runs different queries at once: the pools and the cache must keep
// every answer its own (run with -race).
func TestGraphQLConcurrent(t *testing.T) {
	s, _ := newTestService(t)
	queries := []struct{ pkg, q string }{
		{IPGeolocation, `{ ipGeolocation { location { city country } confidence network { organisation } } }`},
		{IPGeolocation, `{ countries { isoAlpha2 name } a: userRisk { risk } }`},
		{NetworkEngineering, `{ networkByCidr(cidr: "8.8.8.0/22") { networks { cidr network { carriers { asn } } } } }`},
		{FreeAPI, `{ amIRoaming(latitude: 1, longitude: 2) { description } }`},
		{IPGeolocation, `{ __schema { types { name } } }`},
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		out, err := serve(t, s, q.pkg, query(q.q, nil))
		if err != nil {
			t.Fatal(err)
		}
		want[i] = out
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 40 {
				i := (g + n) % len(queries)
				out, err := serve(t, s, queries[i].pkg, query(queries[i].q, nil))
				if err != nil || out != want[i] {
					t.Errorf("query %d: got %.200s (%v)", i, out, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestASNInfoFullRegisteredCountry: asnInfoFull's registeredCountry is REST's code and
// localised name as an object, and null where REST's code is empty (an AS no registry
// file places).
func TestASNInfoFullRegisteredCountry(t *testing.T) {
	s, f := newTestService(t)
	f.override = map[string]func(url.Values) Reply{pathASNFull: func(q url.Values) Reply {
		cc, name := `"US"`, `"Vereinigte Staaten"`
		if q.Get("asn") == "213373" {
			cc, name = `""`, `""`
		}
		return Reply{Status: 200, Body: []byte(`{"asn":"AS` + q.Get("asn") + `","registeredCountry":` + cc + `,"registeredCountryName":` + name + `,"totalReceivingFrom":0,"receivingFrom":[],"totalTransitTo":0,"transitTo":[]}`)}
	}}
	for asn, want := range map[string]string{
		"3356":   `{"asnInfoFull":{"asn":"AS3356","registeredCountry":{"isoAlpha2":"US","name":"Vereinigte Staaten"},"registeredCountryName":"Vereinigte Staaten","confidenceArea":null}}`,
		"213373": `{"asnInfoFull":{"asn":"AS213373","registeredCountry":null,"registeredCountryName":"","confidenceArea":null}}`,
	} {
		res := run(t, s, NetworkEngineering, `{ asnInfoFull(asn: `+asn+`) { asn registeredCountry { isoAlpha2 name } registeredCountryName confidenceArea { latitude } } }`, nil)
		if len(res.Errors) != 0 || string(res.Data) != want {
			t.Errorf("asnInfoFull(%s): %s %v, want %s", asn, res.Data, res.Errors, want)
		}
	}
}
