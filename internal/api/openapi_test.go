package api

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/openapi"
	"github.com/prometheus/client_golang/prometheus"
)

// The tests here hold the OpenAPI document and the handlers together: every answer of a
// table of real requests must match the document (status, body schema, content type,
// required headers), and the server's routes and the document's operations must be the
// same set.

func oaDoc(t *testing.T) *openapi.Doc {
	t.Helper()
	d, err := openapi.Default()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// oaServer serves snap with keys for every authentication and quota outcome.
func oaServer(snap *dataset.Snapshot) *Server {
	return New(Options{
		Log:            slog.New(slog.DiscardHandler),
		Auth:           fakeAuth{"good": {ID: 1}, "spent": {ID: 2}, "disabled": {ID: 3}, "broken": {ID: 4}},
		Meter:          fakeMeter{},
		Data:           dataset.NewStatic(snap),
		Registry:       prometheus.NewRegistry(),
		LoadTestStatic: true,
	})
}

type oaCase struct {
	name, method, target string
	body                 string // sent as application/json when not empty
	headers              map[string]string
	remote               string // client address; "" is httptest's 192.0.2.1
	want                 int
}

// oaCoverage records which documented (operation, status) pairs the answers exercised.
type oaCoverage map[string]bool

// oaCheck sends c and validates the answer against the document.
func oaCheck(t *testing.T, d *openapi.Doc, s *Server, c oaCase, cov oaCoverage) {
	t.Helper()
	var body io.Reader
	if c.body != "" {
		body = strings.NewReader(c.body)
	}
	r := httptest.NewRequest(c.method, c.target, body)
	if c.body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if c.remote != "" {
		r.RemoteAddr = netJoin(c.remote)
	}
	for k, v := range c.headers {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	if rec.Code != c.want {
		t.Errorf("%s: %s %s: status %d, want %d; body %.300s", c.name, c.method, c.target, rec.Code, c.want, rec.Body)
	}
	if err := d.ValidateResponse(c.method, r.URL.Path, rec.Code, rec.Body.Bytes()); err != nil {
		t.Errorf("%s: %v", c.name, err)
	}
	if err := d.ValidateHeader(c.method, r.URL.Path, rec.Code, rec.Header()); err != nil {
		t.Errorf("%s: %v", c.name, err)
	}
	if cov != nil {
		cov[c.method+" "+r.URL.Path+" "+strconv.Itoa(rec.Code)] = true
	}
}

func netJoin(addr string) string {
	if strings.Contains(addr, ":") {
		return "[" + addr + "]:40000"
	}
	return addr + ":40000"
}

// oaKeyedAuthCases: every keyed GET endpoint of the document, with each outcome of the
// key and quota checks.
func oaKeyedAuthCases(d *openapi.Doc) []oaCase {
	var out []oaCase
	for _, op := range d.Operations() {
		if op.Method != http.MethodGet || d.Keyless(op.Method, op.Path) {
			continue
		}
		out = append(out,
			oaCase{name: "no key", method: "GET", target: op.Path, want: 401},
			oaCase{name: "wrong key", method: "GET", target: op.Path + "?key=nope", want: 401},
			oaCase{name: "volume used up", method: "GET", target: op.Path, headers: map[string]string{"x-service-key": "spent"}, want: 402},
			oaCase{name: "disabled", method: "GET", target: op.Path, headers: map[string]string{"x-bdc-key": "disabled"}, want: 403},
			oaCase{name: "store failure", method: "GET", target: op.Path + "?key=broken", want: 500},
		)
	}
	return out
}

// TestOpenAPIAnswersFixture runs without real data: authentication and quota outcomes on
// every keyed endpoint, the catch-all 404 and 405, the service endpoints, and the 503 of
// endpoints whose engine the fixture snapshot lacks.
func TestOpenAPIAnswersFixture(t *testing.T) {
	d := oaDoc(t)
	s := oaServer(datasettest.Snapshot(t))
	cases := oaKeyedAuthCases(d)
	if len(cases) < 5*10 {
		t.Fatalf("only %d keyed cases: the document lost keyed endpoints", len(cases))
	}
	cases = append(cases, []oaCase{
		{name: "unknown path", method: "GET", target: "/data/nope?key=good", want: 404},
		{name: "unknown root path", method: "GET", target: "/nope", want: 404},
		{name: "wrong method", method: "POST", target: "/data/countries?key=good", want: 405},
		{name: "wrong method keyless", method: "DELETE", target: "/healthz", want: 405},
		{name: "no engine", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=8.8.8.8&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/network-by-ip?ip=8.8.8.8&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.0/24&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/asn-info-transit-to?asn=15169&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/asn-info-receiving-from?asn=15169&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/asn-info-full?asn=15169&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/asn-rank-list?key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/prefixes-list?asn=15169&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/user-risk?ip=8.8.8.8&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/reverse-geocode?latitude=1&longitude=2&key=good", want: 503},
		{name: "no engine", method: "GET", target: "/data/am-i-roaming?latitude=1&longitude=2", want: 503},
		{name: "country", method: "GET", target: "/data/country-info?code=IE&key=good", want: 200},
		{name: "countries", method: "GET", target: "/data/countries?key=good", want: 200},
		{name: "sources", method: "GET", target: "/data/sources", want: 200},
		{name: "healthz", method: "GET", target: "/healthz", want: 200},
		{name: "readyz", method: "GET", target: "/readyz", want: 200},
		{name: "metrics", method: "GET", target: "/metrics", want: 200},
		{name: "openapi", method: "GET", target: "/openapi.json", want: 200},
		{name: "docs", method: "GET", target: "/docs", want: 200},
		{name: "preflight", method: "OPTIONS", target: "/data/am-i-roaming", headers: map[string]string{"Access-Control-Request-Method": "GET"}, want: 204},
	}...)
	for _, c := range cases {
		oaCheck(t, d, s, c, nil)
	}
}

// TestOpenAPIAnswersReal validates answers of every endpoint on the real snapshot: valid
// and invalid input, bogons, IPv6, paging, keyless, and every error status the handlers
// give without an account store.
func TestOpenAPIAnswersReal(t *testing.T) {
	d := oaDoc(t)
	s := oaServer(datasettest.Real(t))
	const k = "&key=good"
	gqlKey := map[string]string{"x-service-key": "good"}
	cases := []oaCase{
		// IP geolocation
		{name: "geo v4", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=8.8.8.8" + k, want: 200},
		{name: "geo numeric", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=134744072" + k, want: 200},
		{name: "geo v6 with utcReference", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=2a00:1450:4001::1&utcReference=1700000000" + k, want: 200},
		{name: "geo bogon", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=10.1.2.3" + k, want: 200},
		{name: "geo default language", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=81.2.69.142&localityLanguage=default" + k, want: 200},
		{name: "geo German", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=2.16.0.1&localityLanguage=de" + k, want: 200},
		{name: "geo fips", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=24.1.1.1" + k, want: 200},
		{name: "geo csdCode", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=23.16.0.1" + k, want: 200},
		{name: "geo caller", method: "GET", target: "/data/ip-geolocation-with-confidence?localityLanguage=ja" + k, remote: "81.2.69.142", want: 200},
		{name: "geo invalid", method: "GET", target: "/data/ip-geolocation-with-confidence?ip=999.1.1.1" + k, want: 405},
		// the commercial service's other IP endpoints
		{name: "geo without confidence", method: "GET", target: "/data/ip-geolocation?ip=8.8.8.8" + k, want: 200},
		{name: "geo without confidence bogon", method: "GET", target: "/data/ip-geolocation?ip=10.1.2.3" + k, want: 200},
		{name: "geo full", method: "GET", target: "/data/ip-geolocation-full?ip=185.220.101.1&localityLanguage=de" + k, want: 200},
		{name: "geo full v6", method: "GET", target: "/data/ip-geolocation-full?ip=2a00:1450:4001::1" + k, want: 200},
		{name: "geo full invalid", method: "GET", target: "/data/ip-geolocation-full?ip=1.2.3" + k, want: 405},
		{name: "country by ip", method: "GET", target: "/data/country-by-ip?ip=81.2.69.160" + k, want: 200},
		{name: "country by ip bogon", method: "GET", target: "/data/country-by-ip?ip=10.1.2.3" + k, want: 200},
		{name: "asn short", method: "GET", target: "/data/asn-info?asn=AS13335" + k, want: 200},
		{name: "asn short unknown", method: "GET", target: "/data/asn-info?asn=4199999999" + k, want: 404},
		{name: "asn short missing", method: "GET", target: "/data/asn-info?" + k[1:], want: 400},
		{name: "reverse with time zone", method: "GET", target: "/data/reverse-geocode-with-timezone?latitude=53.35&longitude=-6.26&utcReference=1700000000" + k, want: 200},
		{name: "reverse with time zone at sea", method: "GET", target: "/data/reverse-geocode-with-timezone?latitude=0&longitude=-30" + k, want: 200},
		// time zones
		{name: "timezone by id", method: "GET", target: "/data/timezone-info?timeZoneId=Australia/Sydney&utcReference=1700000000" + k, want: 200},
		{name: "timezone by id unknown", method: "GET", target: "/data/timezone-info?timeZoneId=Mars/Olympus" + k, want: 404},
		{name: "timezone by id missing", method: "GET", target: "/data/timezone-info?" + k[1:], want: 400},
		{name: "timezone by ip", method: "GET", target: "/data/timezone-by-ip?ip=81.2.69.160&localityLanguage=de" + k, want: 200},
		{name: "timezone by ip bogon", method: "GET", target: "/data/timezone-by-ip?ip=10.1.2.3" + k, want: 404},
		{name: "timezone by ip invalid", method: "GET", target: "/data/timezone-by-ip?ip=999.1.1.1" + k, want: 405},
		{name: "timezone by location", method: "GET", target: "/data/timezone-by-location?latitude=-33.87&longitude=151.21" + k, want: 200},
		{name: "timezone by location at sea", method: "GET", target: "/data/timezone-by-location?latitude=0&longitude=-30" + k, want: 200},
		{name: "timezone by id without CLDR names", method: "GET", target: "/data/timezone-info?timeZoneId=Etc/GMT%2B2" + k, want: 200},
		{name: "timezone by location out of range", method: "GET", target: "/data/timezone-by-location?latitude=91&longitude=0" + k, want: 401},
		// network by IP
		{name: "network v4", method: "GET", target: "/data/network-by-ip?ip=8.8.8.8" + k, want: 200},
		{name: "network bogon", method: "GET", target: "/data/network-by-ip?ip=10.0.0.1" + k, want: 200},
		{name: "network v6", method: "GET", target: "/data/network-by-ip?ip=2001:4860:4860::8888" + k, want: 200},
		{name: "network invalid", method: "GET", target: "/data/network-by-ip?ip=example.org" + k, want: 405},
		// network by CIDR
		{name: "cidr v4 paged", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.0/22&subnetsBatchSize=2&subnetsOffset=1" + k, want: 200},
		{name: "cidr v6 nested", method: "GET", target: "/data/network-by-cidr?cidr=2001:4860::/32&depthLimit=2&subnetsBatchSize=5" + k, want: 200},
		{name: "cidr bogon", method: "GET", target: "/data/network-by-cidr?cidr=10.0.0.0/8&bogonsOnly=true" + k, want: 200},
		{name: "cidr truncated", method: "GET", target: "/data/network-by-cidr?cidr=12.0.0.0/8" + k, want: 200},
		{name: "cidr single network", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.8/32" + k, want: 200},
		{name: "cidr missing", method: "GET", target: "/data/network-by-cidr?" + k[1:], want: 400},
		{name: "cidr malformed", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.0/33" + k, want: 400},
		{name: "cidr batch over limit", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.0/22&subnetsBatchSize=21" + k, want: 400},
		{name: "cidr depth over limit", method: "GET", target: "/data/network-by-cidr?cidr=8.8.8.0/22&depthLimit=6" + k, want: 400},
		// AS info
		{name: "asn", method: "GET", target: "/data/asn-info-transit-to?asn=AS15169" + k, want: 200},
		{name: "asn paged", method: "GET", target: "/data/asn-info-transit-to?asn=3356&batchSize=2&offset=1" + k, want: 200},
		{name: "asn max batch", method: "GET", target: "/data/asn-info-transit-to?asn=ASN3356&batchSize=50" + k, want: 200},
		{name: "asn no names", method: "GET", target: "/data/asn-info-transit-to?asn=4674" + k, want: 200},
		{name: "asn unknown", method: "GET", target: "/data/asn-info-transit-to?asn=4199999999" + k, want: 404},
		{name: "asn private", method: "GET", target: "/data/asn-info-transit-to?asn=65000" + k, want: 404},
		{name: "asn missing", method: "GET", target: "/data/asn-info-transit-to?" + k[1:], want: 400},
		{name: "asn malformed", method: "GET", target: "/data/asn-info-transit-to?asn=google" + k, want: 400},
		{name: "asn batch over limit", method: "GET", target: "/data/asn-info-transit-to?asn=3356&batchSize=51" + k, want: 400},
		{name: "receiving", method: "GET", target: "/data/asn-info-receiving-from?asn=AS15169" + k, want: 200},
		{name: "receiving paged", method: "GET", target: "/data/asn-info-receiving-from?asn=3356&batchSize=50&offset=0" + k, want: 200},
		{name: "receiving unknown", method: "GET", target: "/data/asn-info-receiving-from?asn=4199999999" + k, want: 404},
		{name: "receiving private", method: "GET", target: "/data/asn-info-receiving-from?asn=65000" + k, want: 404},
		{name: "receiving batch over limit", method: "GET", target: "/data/asn-info-receiving-from?asn=3356&batchSize=51" + k, want: 400},
		{name: "full", method: "GET", target: "/data/asn-info-full?asn=AS3356" + k, want: 200},
		{name: "full capped", method: "GET", target: "/data/asn-info-full?asn=3356&peersCap=3&localityLanguage=de" + k, want: 200},
		{name: "full peersCap 0", method: "GET", target: "/data/asn-info-full?asn=15169&peersCap=0" + k, want: 200},
		{name: "full no names", method: "GET", target: "/data/asn-info-full?asn=4674" + k, want: 200},
		{name: "full unknown", method: "GET", target: "/data/asn-info-full?asn=4199999999" + k, want: 404},
		{name: "full peersCap malformed", method: "GET", target: "/data/asn-info-full?asn=3356&peersCap=many" + k, want: 400},
		{name: "rank list", method: "GET", target: "/data/asn-rank-list?" + k[1:], want: 200},
		{name: "rank list max", method: "GET", target: "/data/asn-rank-list?batchSize=1000&sort=organisation&order=desc" + k, want: 200},
		{name: "rank list country", method: "GET", target: "/data/asn-rank-list?batchSize=5&sort=countryCode" + k, want: 200},
		{name: "rank list past the end", method: "GET", target: "/data/asn-rank-list?offset=99999999" + k, want: 200},
		{name: "rank list bad sort", method: "GET", target: "/data/asn-rank-list?sort=size" + k, want: 400},
		{name: "rank list bad order", method: "GET", target: "/data/asn-rank-list?order=up" + k, want: 400},
		{name: "rank list batch over limit", method: "GET", target: "/data/asn-rank-list?batchSize=1001" + k, want: 400},
		{name: "prefixes v4", method: "GET", target: "/data/prefixes-list?asn=AS15169" + k, want: 200},
		{name: "prefixes v6 by size", method: "GET", target: "/data/prefixes-list?asn=15169&isv4=false&sort=size&order=desc&batchSize=1000" + k, want: 200},
		{name: "prefixes bogons", method: "GET", target: "/data/prefixes-list?asn=3356&bogonsOnly=true" + k, want: 200},
		{name: "prefixes none", method: "GET", target: "/data/prefixes-list?asn=174&isv4=false&offset=100000" + k, want: 200},
		{name: "prefixes unknown", method: "GET", target: "/data/prefixes-list?asn=4199999999" + k, want: 404},
		{name: "prefixes private", method: "GET", target: "/data/prefixes-list?asn=64512" + k, want: 404},
		{name: "prefixes missing asn", method: "GET", target: "/data/prefixes-list?" + k[1:], want: 400},
		{name: "prefixes bad isv4", method: "GET", target: "/data/prefixes-list?asn=15169&isv4=maybe" + k, want: 400},
		{name: "prefixes bad sort", method: "GET", target: "/data/prefixes-list?asn=15169&sort=rank" + k, want: 400},
		// risk
		{name: "risk low", method: "GET", target: "/data/user-risk?ip=81.2.69.142" + k, want: 200},
		{name: "risk moderate", method: "GET", target: "/data/user-risk?ip=8.8.8.8" + k, want: 200},
		{name: "risk high", method: "GET", target: "/data/user-risk?ip=185.220.101.1" + k, want: 200},
		{name: "risk v6", method: "GET", target: "/data/user-risk?ip=2001:4860:4860::8888" + k, want: 200},
		{name: "risk invalid", method: "GET", target: "/data/user-risk?ip=1.2.3" + k, want: 405},
		{name: "hazards tor", method: "GET", target: "/data/hazard-report?ip=185.220.101.1" + k, want: 200},
		{name: "hazards bogon", method: "GET", target: "/data/hazard-report?ip=192.168.1.1" + k, want: 200},
		{name: "hazards invalid", method: "GET", target: "/data/hazard-report?ip=::g" + k, want: 405},
		// phone
		{name: "phone valid", method: "GET", target: "/data/phone-number-validate?number=0293744000&countryCode=au" + k, want: 200},
		{name: "phone international", method: "GET", target: "/data/phone-number-validate?number=%2B49%2030%20901820&localityLanguage=de" + k, want: 200},
		{name: "phone no country", method: "GET", target: "/data/phone-number-validate?number=%2B80012345678" + k, want: 200},
		{name: "phone invalid", method: "GET", target: "/data/phone-number-validate?number=112&countryCode=AUS" + k, want: 200},
		{name: "phone invalid shared code", method: "GET", target: "/data/phone-number-validate?number=%2B1%20555%200100" + k, want: 200},
		{name: "phone not a number", method: "GET", target: "/data/phone-number-validate?number=abc" + k, want: 400},
		{name: "phone missing", method: "GET", target: "/data/phone-number-validate?countryCode=AU" + k, want: 400},
		{name: "phone bad country", method: "GET", target: "/data/phone-number-validate?number=123&countryCode=ZZZ" + k, want: 400},
		{name: "phone too long", method: "GET", target: "/data/phone-number-validate?number=12345678901234567890123&countryCode=AU" + k, want: 400},
		// countries
		{name: "country", method: "GET", target: "/data/country-info?code=IE&localityLanguage=de" + k, want: 200},
		{name: "country numeric", method: "GET", target: "/data/country-info?code=010" + k, want: 200},
		{name: "country unknown", method: "GET", target: "/data/country-info?code=XX" + k, want: 404},
		{name: "country missing", method: "GET", target: "/data/country-info?" + k[1:], want: 400},
		{name: "countries", method: "GET", target: "/data/countries?" + k[1:], want: 200},
		{name: "countries default", method: "GET", target: "/data/countries?localityLanguage=default" + k, want: 200},
		// reverse geocoding
		{name: "reverse", method: "GET", target: "/data/reverse-geocode?latitude=48.8584&longitude=2.2945" + k, want: 200},
		{name: "reverse at sea", method: "GET", target: "/data/reverse-geocode?latitude=0&longitude=-30" + k, want: 200},
		{name: "reverse default language", method: "GET", target: "/data/reverse-geocode?latitude=35.6762&longitude=139.6503&localityLanguage=default" + k, want: 200},
		{name: "reverse out of range", method: "GET", target: "/data/reverse-geocode?latitude=91&longitude=0" + k, want: 401},
		{name: "reverse missing", method: "GET", target: "/data/reverse-geocode?latitude=1" + k, want: 400},
		// keyless
		{name: "client coordinates", method: "GET", target: "/data/reverse-geocode-client?latitude=51.5074&longitude=-0.1278", want: 200},
		{name: "client by address", method: "GET", target: "/data/reverse-geocode-client?localityLanguage=de", remote: "81.2.69.142", want: 200},
		{name: "client private address", method: "GET", target: "/data/reverse-geocode-client", remote: "10.0.0.1", want: 200},
		{name: "client out of range", method: "GET", target: "/data/reverse-geocode-client?latitude=0&longitude=200", want: 401},
		{name: "client latitude missing", method: "GET", target: "/data/reverse-geocode-client?longitude=2", want: 400},
		{name: "client preflight", method: "OPTIONS", target: "/data/reverse-geocode-client", want: 204},
		{name: "roaming home", method: "GET", target: "/data/am-i-roaming?latitude=51.5074&longitude=-0.1278", remote: "81.2.69.142", want: 200},
		{name: "roaming abroad", method: "GET", target: "/data/am-i-roaming?latitude=48.8566&longitude=2.3522", remote: "81.2.69.142", want: 200},
		{name: "roaming unknown", method: "GET", target: "/data/am-i-roaming?latitude=0&longitude=-30", remote: "2001:db8::1", want: 200},
		{name: "roaming not a number", method: "GET", target: "/data/am-i-roaming?latitude=north&longitude=-30", want: 401},
		{name: "roaming missing", method: "GET", target: "/data/am-i-roaming?latitude=1", want: 400},
		{name: "roaming without a position", method: "GET", target: "/data/am-i-roaming", remote: "81.2.69.142", want: 200},
		{name: "reverse client at sea", method: "GET", target: "/data/reverse-geocode-client?latitude=0&longitude=-30", want: 200},
		{name: "roaming preflight", method: "OPTIONS", target: "/data/am-i-roaming", want: 204},
		// GraphQL
		{name: "graphql", method: "POST", target: "/graphql/ip-geolocation", headers: gqlKey, want: 200,
			body: `{"query":"{ ipGeolocation(ip: \"8.8.8.8\") { confidence location { city } network { organisation carriers { asn } } } }"}`},
		{name: "graphql variables", method: "POST", target: "/graphql/network-engineering?key=good", want: 200,
			body: `{"query":"query Q($asn: String!) { asnInfoTransitTo(asn: $asn, batchSize: 2) { name transitTo { asn } } }","variables":{"asn":"AS3356"},"operationName":"Q"}`},
		{name: "graphql lookup fails", method: "POST", target: "/graphql/ip-geolocation", headers: gqlKey, want: 200,
			body: `{"query":"{ ipGeolocation(ip: \"999.1.1.1\") { confidence } }"}`},
		{name: "graphql syntax error", method: "POST", target: "/graphql/ip-geolocation", headers: gqlKey, want: 200, body: `{"query":"{ ipGeolocation("}`},
		{name: "graphql invalid field", method: "POST", target: "/graphql/phone-email", headers: gqlKey, want: 200, body: `{"query":"{ nope }"}`},
		{name: "graphql introspection", method: "POST", target: "/graphql/reverse-geocoding", headers: gqlKey, want: 200, body: `{"query":"{ __schema { queryType { name } } }"}`},
		{name: "graphql free", method: "POST", target: "/graphql/free-api", want: 200,
			body: `{"query":"{ amIRoaming(latitude: 48.85, longitude: 2.35) { roamingStatus } }"}`},
		{name: "graphql no key", method: "POST", target: "/graphql/ip-geolocation", want: 401, body: `{"query":"{ __typename }"}`},
		{name: "graphql spent", method: "POST", target: "/graphql/ip-geolocation?key=spent", want: 402, body: `{"query":"{ __typename }"}`},
		{name: "graphql disabled", method: "POST", target: "/graphql/ip-geolocation?key=disabled", want: 403, body: `{"query":"{ __typename }"}`},
		{name: "graphql broken store", method: "POST", target: "/graphql/ip-geolocation?key=broken", want: 500, body: `{"query":"{ __typename }"}`},
		{name: "graphql unknown package", method: "POST", target: "/graphql/nope", headers: gqlKey, want: 404, body: `{"query":"{ __typename }"}`},
		{name: "graphql not a request", method: "POST", target: "/graphql/ip-geolocation", headers: gqlKey, want: 400, body: `[1]`},
		{name: "graphql too large", method: "POST", target: "/graphql/ip-geolocation", headers: gqlKey, want: 413,
			body: `{"query":"{ __typename }","variables":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}`},
		{name: "graphql preflight", method: "OPTIONS", target: "/graphql/free-api", want: 204},
		{name: "graphql preflight keyed", method: "OPTIONS", target: "/graphql/ip-geolocation", want: 405},
		{name: "graphql schema", method: "GET", target: "/graphql/free-api/schema.graphql", want: 200},
		{name: "graphql schema unknown", method: "GET", target: "/graphql/nope/schema.graphql", want: 404},
		{name: "graphql wrong method", method: "GET", target: "/graphql/free-api", want: 405},
		// service
		{name: "sources", method: "GET", target: "/data/sources", want: 200},
		{name: "healthz", method: "GET", target: "/healthz", want: 200},
		{name: "readyz", method: "GET", target: "/readyz", want: 200},
		{name: "openapi", method: "GET", target: "/openapi.json", want: 200},
		{name: "docs", method: "GET", target: "/docs", want: 200},
		{name: "metrics", method: "GET", target: "/metrics", want: 200},
		// catch-all
		{name: "unknown path", method: "GET", target: "/data/nope" + "?" + k[1:], want: 404},
		{name: "wrong method", method: "POST", target: "/data/ip-geolocation-with-confidence?ip=8.8.8.8" + k, want: 405},
	}
	cases = append(cases, oaClientCases...)
	cases = append(cases, oaKeyedAuthCases(d)...)
	cov := oaCoverage{}
	for _, c := range cases {
		oaCheck(t, d, s, c, cov)
	}

	// The keyless rate limit: one address sends until it is refused. The limiter's clock
	// stands still meanwhile, so that a slow run (the race detector, a busy machine) does not
	// refill a token between the requests.
	frozen := s.keylessLim.now()
	s.keylessLim.now = func() time.Duration { return frozen }
	for i := 0; i <= KeylessBurst; i++ {
		c := oaCase{name: "keyless burst", method: "GET", target: "/data/am-i-roaming?latitude=1&longitude=2", remote: "198.51.100.9", want: 200}
		if i == KeylessBurst {
			c.want = http.StatusTooManyRequests
		}
		oaCheck(t, d, s, c, cov)
	}
	// The same limit inside one GraphQL request: the roots past the burst are field errors
	// with retryAfter (TestGraphQLFreeAPIAliasesDrawOnLimit), which the document must allow.
	var aliases strings.Builder
	for i := range KeylessBurst + 2 {
		fmt.Fprintf(&aliases, " a%d: clientIp { ipString }", i)
	}
	oaCheck(t, d, s, oaCase{name: "graphql keyless burst", method: "POST", target: "/graphql/free-api", remote: "198.51.100.10", want: 200,
		body: `{"query":"{` + aliases.String() + ` }"}`}, cov)

	// Every documented operation was answered with success at least once.
	for _, op := range d.Operations() {
		ok := false
		segs := strings.Split(op.Path, "/")
		for i, seg := range segs {
			if oaParamRE.MatchString(seg) {
				segs[i] = "[^/]+"
			} else {
				segs[i] = regexp.QuoteMeta(seg)
			}
		}
		re := regexp.MustCompile("^" + strings.Join(segs, "/") + "$")
		for k := range cov {
			f := strings.Fields(k)
			if f[0] == op.Method && re.MatchString(f[1]) && f[2][0] == '2' {
				ok = true
			}
		}
		if !ok {
			t.Errorf("no case answered %s %s with success; add one", op.Method, op.Path)
		}
	}
	var seen []string
	for k := range cov {
		seen = append(seen, k)
	}
	sort.Strings(seen)
	t.Logf("validated %d distinct (request, status) pairs:\n%s", len(seen), strings.Join(seen, "\n"))
}

// oaNotDocumented lists routes that are deliberately outside the document, with why.
var oaNotDocumented = map[string]string{
	"/":                            "the catch-all answering 404 and 405 for everything else",
	"/data/reverse-geocode-client": "the keyless endpoint's 405 for other methods, with CORS headers",
	"/data/am-i-roaming":           "the keyless endpoint's 405 for other methods, with CORS headers",
	"/graphql/{package}":           "the 405 for other methods, with CORS headers on free-api",
	`"GET " + LoadTestPath`:        "the load-test baseline, registered only with serve --load-test-endpoint",
	"/data/email-verify":           "the commercial endpoint ipatlas does not serve: a 404 saying why, for every method",
	// routes_client.go's keyless endpoints
	"/data/client-ip":   "the keyless endpoint's 405 for other methods, with CORS headers",
	"/data/client-info": "the keyless endpoint's 405 for other methods, with CORS headers",
}

// TestOpenAPIRoutesMatchDocument: every route this package registers is a documented
// operation, and every documented operation is routed by the server.
func TestOpenAPIRoutesMatchDocument(t *testing.T) {
	d := oaDoc(t)
	s := oaServer(datasettest.Snapshot(t))
	documented := map[string]bool{}
	for _, op := range d.Operations() {
		documented[op.Method+" "+oaNormalize(op.Path)] = true
	}

	// Routes, as written in the registration calls of this package's source.
	patterns := oaRegisteredPatterns(t)
	if len(patterns) < 15 {
		t.Fatalf("found only %d route registrations; the source scan is broken: %v", len(patterns), patterns)
	}
	for _, p := range patterns {
		if _, skip := oaNotDocumented[p]; skip {
			continue
		}
		method, path, ok := strings.Cut(p, " ")
		if !ok {
			t.Errorf("route %q has no method; every route but the catch-all must name one", p)
			continue
		}
		if !documented[method+" "+oaNormalize(path)] {
			t.Errorf("route %s is registered but not in the OpenAPI document (internal/openapi/openapi.yaml)", p)
		}
		// The scan must agree with the live mux.
		if _, got := s.mux.Handler(httptest.NewRequest(method, oaConcrete(path), nil)); got != p {
			t.Errorf("route %s: the server's mux routes it to %q", p, got)
		}
	}

	// Documented operations, as the live mux routes them.
	for _, op := range d.Operations() {
		_, got := s.mux.Handler(httptest.NewRequest(op.Method, oaConcrete(op.Path), nil))
		want := op.Method + " " + oaNormalize(op.Path)
		if m, p, _ := strings.Cut(got, " "); m+" "+oaNormalize(p) == want {
			continue
		}
		t.Errorf("%s %s is in the OpenAPI document but the server routes it to %q", op.Method, op.Path, got)
	}
}

var oaParamRE = regexp.MustCompile(`\{[^}]*\}`)

// oaNormalize drops path parameter names: /graphql/{package} and /graphql/{pkg} are one route.
func oaNormalize(path string) string { return oaParamRE.ReplaceAllString(path, "{}") }

// oaConcrete fills path parameters with a value.
func oaConcrete(path string) string { return oaParamRE.ReplaceAllString(path, "ip-geolocation") }

// oaRegisteredPatterns reads the route patterns from the calls that register routes in
// this package (s.keyed, s.open, s.mux.Handle, s.mux.HandleFunc). A pattern that is not a
// string literal is reported by its source text.
func oaRegisteredPatterns(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if fn, ok := n.(*ast.FuncDecl); ok && fn.Recv != nil && (fn.Name.Name == "keyed" || fn.Name.Name == "open" || fn.Name.Name == "openCORS") {
				return false // the registration helpers pass their own pattern parameter on
			}
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			switch sel.Sel.Name {
			case "keyed", "open", "openCORS":
			case "Handle", "HandleFunc":
				if inner, ok := sel.X.(*ast.SelectorExpr); !ok || inner.Sel.Name != "mux" {
					return true
				}
			default:
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				p, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, p)
				return true
			}
			var b strings.Builder
			if err := printExpr(&b, fset, call.Args[0]); err != nil {
				t.Fatal(err)
			}
			if _, known := oaNotDocumented[b.String()]; !known {
				t.Errorf("%s: route pattern %s is not a string literal; write it as one so this test can check it", fset.Position(call.Pos()), b.String())
			}
			out = append(out, b.String())
			return true
		})
	}
	return out
}

// TestOpenAPIServed: /openapi.json is the document, readable from any origin; /docs is a
// self-contained page that lists every operation and schema, links only within itself
// (and to the two JSON endpoints), and shows the snapshot's attribution.
func TestOpenAPIServed(t *testing.T) {
	d := oaDoc(t)
	s := oaServer(datasettest.Snapshot(t))

	rec := do(t, s, "GET", "/openapi.json", nil)
	if rec.Code != 200 || rec.Body.String() != string(d.JSON()) || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("/openapi.json: %d, headers %v", rec.Code, rec.Header())
	}
	var doc struct {
		OpenAPI string                     `json:"openapi"`
		Paths   map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &doc); err != nil || doc.OpenAPI != "3.1.0" || len(doc.Paths) == 0 {
		t.Fatalf("/openapi.json is not an OpenAPI 3.1 document: %v %q", err, doc.OpenAPI)
	}

	rec = do(t, s, "GET", "/docs", nil)
	page := rec.Body.String()
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Fatalf("/docs: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	for _, op := range d.Operations() {
		if !strings.Contains(page, op.Path) {
			t.Errorf("/docs does not mention %s", op.Path)
		}
	}
	for _, want := range []string{`id="schema-Country"`, `id="schema-Error"`, "x-service-key", "x-bdc-key", "subnetsBatchSize", "1 to 20", "fixture", "test data"} {
		if !strings.Contains(page, want) {
			t.Errorf("/docs lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "<link", "<img", "src=", "@import", "url("} {
		if strings.Contains(page, banned) {
			t.Errorf("/docs contains %q: the page must not load anything (air-gapped installs)", banned)
		}
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if ids[m[1]] {
			t.Errorf("/docs: duplicate id %q", m[1])
		}
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="([^"]*)"`).FindAllStringSubmatch(page, -1) {
		href := m[1]
		switch {
		case strings.HasPrefix(href, "#"):
			if !ids[href[1:]] {
				t.Errorf("/docs: link %s has no target", href)
			}
		case href == "/openapi.json" || href == "/data/sources":
		default:
			t.Errorf("/docs: link %q leaves the page", href)
		}
	}
}

func printExpr(b *strings.Builder, fset *token.FileSet, e ast.Expr) error {
	switch e := e.(type) {
	case *ast.BasicLit:
		b.WriteString(e.Value)
	case *ast.Ident:
		b.WriteString(e.Name)
	case *ast.BinaryExpr:
		if err := printExpr(b, fset, e.X); err != nil {
			return err
		}
		b.WriteString(" " + e.Op.String() + " ")
		return printExpr(b, fset, e.Y)
	default:
		return fmt.Errorf("%s: cannot print route pattern expression %T", fset.Position(e.Pos()), e)
	}
	return nil
}
