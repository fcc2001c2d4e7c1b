package api

import (
	"bytes"
	"encoding/json"
	"flag"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/loadtest"
	"github.com/ipatlas/ipatlas/internal/web"
)

var ipUpdateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/")

var (
	ipRealOnce sync.Once
	ipRealSrv  *Server
)

// newRealServer serves the real snapshot named by IPATLAS_TEST_SNAPSHOT (skips without it).
func ipRealServer(tb testing.TB) *Server {
	tb.Helper()
	snap := datasettest.Real(tb)
	ipRealOnce.Do(func() {
		ipRealSrv = New(Options{
			Log:   slog.New(slog.DiscardHandler),
			Auth:  fakeAuth{"good": {ID: 1}},
			Meter: fakeMeter{},
			Data:  dataset.NewStatic(snap),
			// For BenchmarkLoadTestStatic, the load test's baseline.
			LoadTestStatic: true,
		})
	})
	return ipRealSrv
}

func ipGetJSON(t *testing.T, s *Server, target string, wantCode int) map[string]any {
	t.Helper()
	rec := do(t, s, "GET", target, nil)
	if rec.Code != wantCode {
		t.Fatalf("%s: status %d, want %d; body %s", target, rec.Code, wantCode, rec.Body)
	}
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		t.Fatalf("%s: body is not a JSON object: %v\n%s", target, err, rec.Body)
	}
	if wantCode != 200 {
		if m["status"] != float64(wantCode) || m["description"] == "" {
			t.Errorf("%s: error body %v", target, m)
		}
	}
	return m
}

// path walks m by keys and array indexes ("network", "carriers", 0, "asn").
func ipPath(m any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			mm, ok := m.(map[string]any)
			if !ok {
				return nil
			}
			m = mm[k]
		case int:
			a, ok := m.([]any)
			if !ok || k >= len(a) {
				return nil
			}
			m = a[k]
		}
	}
	return m
}

func TestIPEndpointsFixtureSnapshot(t *testing.T) {
	// The fixture snapshot has no IP engines: the endpoints say so with a 503, and bad
	// input is still refused first where it does not need the data.
	s := newTestServer(t)
	for _, target := range []string{
		"/data/ip-geolocation-with-confidence?key=good&ip=8.8.8.8",
		"/data/network-by-ip?key=good&ip=8.8.8.8",
		"/data/network-by-cidr?key=good&cidr=8.8.8.0/24",
		"/data/asn-info-transit-to?key=good&asn=13335",
	} {
		snap := datasettest.Snapshot(t)
		want := 503
		if snap.Net != nil {
			want = 200
		}
		ipGetJSON(t, s, target, want)
	}
}

func TestGeolocationReal(t *testing.T) {
	s := ipRealServer(t)
	m := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=8.8.8.8", 200)
	if got := ipPath(m, "country", "isoAlpha2"); got != "US" {
		t.Errorf("country %v, want US", got)
	}
	if got := ipPath(m, "network", "carriers", 0, "asn"); got != "AS15169" {
		t.Errorf("carrier %v, want AS15169", got)
	}
	if got := ipPath(m, "isReachableGlobally"); got != true {
		t.Errorf("isReachableGlobally %v", got)
	}
	switch c := m["confidence"]; c {
	case "low", "moderate", "high":
	default:
		t.Errorf("confidence %v", c)
	}
	ipCheckClosed(t, m["confidenceArea"])
	if ipPath(m, "location", "timeZone", "utcTime") != nil {
		t.Error("utcTime without utcReference")
	}

	// Numeric form, IPv6, utcReference.
	m2 := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=134744072", 200)
	if m2["ip"] != "8.8.8.8" {
		t.Errorf("numeric ip answered as %v", m2["ip"])
	}
	m6 := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=2001:4860:4860::8888&utcReference=1700000000", 200)
	if ipPath(m6, "network", "carriers", 0, "asn") != "AS15169" || ipPath(m6, "country", "isoAlpha2") == nil {
		t.Errorf("IPv6: %v", m6)
	}
	if got := ipPath(m6, "location", "timeZone", "utcTime"); got != "2023-11-14T22:13:20.0000000Z" {
		t.Errorf("utcTime %v", got)
	}

	// A bogon: 200, unreachable, no invented location.
	mb := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=10.1.2.3", 200)
	if mb["isReachableGlobally"] != false || ipPath(mb, "network", "isBogon") != true {
		t.Errorf("bogon: %v", mb)
	}
	if mb["location"] != nil || mb["country"] != nil || mb["confidence"] != "low" {
		t.Errorf("bogon has location/country or confidence not low: %v", mb)
	}
	if a, _ := mb["confidenceArea"].([]any); len(a) != 0 {
		t.Errorf("bogon has a confidence area")
	}

	// Unannounced registry space the geolocation data places (IBM's 9.0.0.0/8): the country
	// and location it gives, but no confidence area, since no network delivers the address.
	mu := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=9.28.82.83", 200)
	if mu["isReachableGlobally"] != false || ipPath(mu, "network", "isBogon") != false || ipPath(mu, "country", "isoAlpha2") != "US" {
		t.Errorf("unannounced 9.28.82.83: %v", mu)
	}
	if a, _ := mu["confidenceArea"].([]any); mu["confidence"] != "low" || a == nil || len(a) != 0 {
		t.Errorf("unannounced 9.28.82.83: confidence %v, area %v; want low and []", mu["confidence"], mu["confidenceArea"])
	}
	// IBM's legacy block: the registered country is the registry file's, or where the
	// snapshot has no ARIN file (the shared mirror), the geolocation data's.
	if got := ipPath(mu, "network", "registeredCountry"); got != "US" {
		t.Errorf("unannounced 9.28.82.83: network registeredCountry %v, want US", got)
	}

	// default language: Germany in German.
	md := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=80.150.0.1&localityLanguage=default", 200)
	if md["localityLanguageRequested"] != "default" {
		t.Errorf("localityLanguageRequested %v", md["localityLanguageRequested"])
	}
	if ipPath(md, "country", "isoAlpha2") == "DE" && ipPath(md, "country", "name") != "Deutschland" {
		t.Errorf("default-language name %v", ipPath(md, "country", "name"))
	}

	// Invalid IP: 405 with the JSON error body.
	ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=999.1.1.1", 405)
	ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?ip=8.8.8.8", 401)
}

func ipCheckClosed(t *testing.T, v any) {
	t.Helper()
	pts, ok := v.([]any)
	if !ok || len(pts) < 4 {
		t.Fatalf("confidenceArea %v: want a closed polygon", v)
	}
	first := pts[0]
	closed := 0
	for i := 1; i < len(pts); i++ {
		p := pts[i].(map[string]any)
		lat, lon := p["latitude"].(float64), p["longitude"].(float64)
		if lat < -90 || lat > 90 || lon < -180 || lon > 180 {
			t.Errorf("point %v out of range", p)
		}
		if ipSamePoint(pts[i], first) {
			closed++
			if i+1 < len(pts) {
				first = pts[i+1]
				i++
			}
		}
	}
	if closed == 0 || !ipSamePoint(pts[len(pts)-1], first) && !ipSamePoint(pts[len(pts)-1], pts[0]) {
		t.Errorf("confidenceArea is not closed: %v", pts)
	}
}

func ipSamePoint(a, b any) bool {
	pa, pb := a.(map[string]any), b.(map[string]any)
	return pa["latitude"] == pb["latitude"] && pa["longitude"] == pb["longitude"]
}

func TestNetworkByIPReal(t *testing.T) {
	s := ipRealServer(t)
	m := ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=1.1.1.1", 200)
	if got := ipPath(m, "carriers", 0, "asn"); got != "AS13335" {
		t.Errorf("1.1.1.1 carrier %v, want AS13335", got)
	}
	if m["ip"] != "1.1.1.1" || m["bgpPrefix"] == nil || m["totalAddresses"] == nil {
		t.Errorf("1.1.1.1: %v", m)
	}
	if _, ok := m["totalAddresses"].(string); !ok {
		t.Errorf("totalAddresses is not a string: %v", m["totalAddresses"])
	}
	rt, _ := ipPath(m, "carriers", 0, "rankText").(string)
	if !strings.HasPrefix(rt, "#") || !strings.Contains(rt, " out of ") {
		t.Errorf("rankText %q", rt)
	}
	m6 := ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=2001:4860:4860::8888", 200)
	if ipPath(m6, "carriers", 0, "asn") != "AS15169" {
		t.Errorf("IPv6 carrier %v", ipPath(m6, "carriers", 0, "asn"))
	}
	mb := ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=10.1.2.3", 200)
	if mb["isBogon"] != true || mb["isReachableGlobally"] != false {
		t.Errorf("10.1.2.3: %v", mb)
	}
	mde := ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=8.8.8.8&localityLanguage=de", 200)
	if mde["registeredCountryName"] != "Vereinigte Staaten" {
		t.Errorf("de registeredCountryName %v", mde["registeredCountryName"])
	}
	if v, _ := mde["viaCarriers"].([]any); len(v) > 5 {
		t.Errorf("%d viaCarriers", len(v))
	}
	// Registered space with no country in the registry files the snapshot has: the
	// geolocation data's registered country (Ford's legacy 19.0.0.0/8; a RIPE NCC block that
	// no network announces). Space a registry holds in reserve stays without one.
	for ip, want := range map[string]string{"19.196.12.178": "US", "89.126.76.8": "SE", "45.68.79.76": ""} {
		m := ipGetJSON(t, s, "/data/network-by-ip?key=good&ip="+ip+"&localityLanguage=de", 200)
		if m["registeredCountry"] != want || (want == "US") != (m["registeredCountryName"] == "Vereinigte Staaten") {
			t.Errorf("%s: registeredCountry %v (%v), want %q", ip, m["registeredCountry"], m["registeredCountryName"], want)
		}
	}
	ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=999.1.1.1", 405)
	ipGetJSON(t, s, "/data/network-by-ip?key=good&ip=fe80::1%25eth0", 405)
}

func TestNetworkByCIDRReal(t *testing.T) {
	s := ipRealServer(t)
	m := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr=8.8.8.0/24", 200)
	if ipPath(m, "cidr") != "8.8.8.0/24" || ipPath(m, "network", "carriers", 0, "asn") != "AS15169" {
		t.Errorf("8.8.8.0/24: %v", m)
	}
	// A range spanning many networks, paged.
	m1 := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr=1.0.0.0/8&subnetsBatchSize=5&depthLimit=2", 200)
	subs, _ := ipPath(m1, "network", "subnets").([]any)
	total, _ := ipPath(m1, "network", "totalSubnets").(float64)
	if len(subs) > 5 || total < 5 {
		t.Errorf("1.0.0.0/8: %d subnets of %v", len(subs), total)
	}
	m2 := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr=1.0.0.0/8&subnetsBatchSize=5&subnetsOffset=5", 200)
	subs2, _ := ipPath(m2, "network", "subnets").([]any)
	if len(subs) == 5 && len(subs2) > 0 && ipPath(subs[0], "startAddress") == ipPath(subs2, 0, "startAddress") {
		t.Error("subnetsOffset did not move the page")
	}
	if n, _ := m1["networks"].([]any); len(n) == 0 {
		t.Errorf("1.0.0.0/8 has no networks: %v", m1)
	}
	m6 := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr=2001:4860::/32&subnetsBatchSize=3", 200)
	if ipPath(m6, "cidr") != "2001:4860::/32" {
		t.Errorf("IPv6: %v", m6["cidr"])
	}
	ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr=10.0.0.0/8&bogonsOnly=true", 200)
	// Registered ranges the registry files give no country: the geolocation data's, where
	// one of its records holds the whole range (network-by-ip's answer for an address in
	// it); none for reserved space, nor for a range whose networks lie in several countries.
	for cidr, want := range map[string]string{"19.196.12.0/24": "US", "45.68.79.0/24": "", "89.126.0.0/16": ""} {
		m := ipGetJSON(t, s, "/data/network-by-cidr?key=good&cidr="+cidr, 200)
		if got := ipPath(m, "network", "registeredCountry"); got != want {
			t.Errorf("%s: registeredCountry %v, want %q", cidr, got, want)
		}
	}
	for _, q := range []string{
		"", "cidr=", "cidr=1.2.3.4/33", "cidr=nonsense", "cidr=8.8.8.0/24&subnetsBatchSize=21",
		"cidr=8.8.8.0/24&subnetsOffset=-1", "cidr=8.8.8.0/24&depthLimit=9", "cidr=8.8.8.0/24&bogonsOnly=maybe",
	} {
		ipGetJSON(t, s, "/data/network-by-cidr?key=good&"+q, 400)
	}
}

func TestASNInfoTransitToReal(t *testing.T) {
	s := ipRealServer(t)
	for _, asn := range []string{"13335", "AS13335", "ASN13335", "as13335"} {
		m := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn="+asn, 200)
		if m["asn"] != "AS13335" || m["asnNumeric"] != float64(13335) {
			t.Errorf("%s: %v", asn, m)
		}
		if _, ok := m["totalTransitTo"].(float64); !ok {
			t.Errorf("%s: totalTransitTo %v", asn, m["totalTransitTo"])
		}
		if _, ok := m["transitTo"].([]any); !ok {
			t.Errorf("%s: transitTo %v", asn, m["transitTo"])
		}
	}
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=4199999999", 404)
	// Private-use numbers, all alike, whether or not a leaked route put one in the data.
	for _, asn := range []string{"64512", "64513", "65534", "4200000000", "4294967294"} {
		m := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn="+asn, 404)
		if d, _ := m["description"].(string); !strings.Contains(d, "reserved for private use") {
			t.Errorf("AS%s: %q does not say it is a private-use number", asn, d)
		}
	}
	// AS 0 is well formed and reserved: a 404 like the other reserved numbers, not a 400.
	for _, asn := range []string{"0", "AS0", "asn0"} {
		m := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn="+asn, 404)
		if d, _ := m["description"].(string); !strings.Contains(d, "RFC 7607") {
			t.Errorf("%s: %q does not say AS0 is reserved", asn, d)
		}
	}
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good", 400)
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=ASX1", 400)
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=4294967296", 400)
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=13335&batchSize=51", 400)
	ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=13335&offset=-1", 400)
	m := ipGetJSON(t, s, "/data/asn-info-transit-to?key=good&asn=3356&batchSize=50", 200)
	tt, _ := m["transitTo"].([]any)
	total, _ := m["totalTransitTo"].(float64)
	if len(tt) > 50 || (total > 0 && len(tt) == 0) {
		t.Errorf("AS3356: %d of %v", len(tt), total)
	}
	var prev float64
	for _, e := range tt {
		r, ok := ipPath(e, "rank").(float64)
		if !ok {
			break // unranked ASes come last
		}
		if r < prev {
			t.Errorf("transitTo not ordered by rank: %v after %v", r, prev)
		}
		prev = r
	}
}

// The golden addresses: IPv4 and IPv6, several countries, a bogon.
var geoGoldenIPs = []string{
	"8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "80.150.0.1", "81.2.69.142", "203.0.113.5",
	"133.242.0.1", "200.160.2.3", "2a02:2e0:3fe:1001:302::", "41.0.0.1", "10.1.2.3", "77.88.8.8",
	"24.1.1.1", "23.16.0.1", // census codes: fips with a county subdivision, csdCode
}

// TestGeolocationGolden renders every golden address in four languages at a fixed instant
// (utcReference) and compares with testdata/geolocation; -update rewrites the files.
func TestGeolocationGolden(t *testing.T) {
	s := ipRealServer(t)
	for _, ip := range geoGoldenIPs {
		for _, lang := range []string{"en", "de", "ja", "default"} {
			name := strings.NewReplacer(":", "_", ".", "_").Replace(ip) + "." + lang + ".json"
			t.Run(name, func(t *testing.T) {
				rec := do(t, s, "GET", "/data/ip-geolocation-with-confidence?key=good&utcReference=1781000000&ip="+ip+"&localityLanguage="+lang, nil)
				if rec.Code != 200 && rec.Code != 404 {
					t.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				var out bytes.Buffer
				if err := json.Indent(&out, rec.Body.Bytes(), "", "  "); err != nil {
					t.Fatalf("not JSON: %v", err)
				}
				out.WriteByte('\n')
				file := filepath.Join("testdata", "geolocation", name)
				if *ipUpdateGolden {
					if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run with -update)", err)
				}
				if !bytes.Equal(want, out.Bytes()) {
					t.Errorf("%s differs from golden; run with -update and review the diff", name)
				}
			})
		}
	}
}

// TestIPJSONMatchesEncodingJSON checks the string appender against encoding/json.
func TestIPJSONMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "Zürich", "東京", "q\"b\\s", "ctl\x01\x1f\n\t\r", "bad\xffutf8", "\u2028\u2029", "<&>"} {
		want, _ := web.Marshal(s)
		if got := web.AppendJSONString(nil, s); string(got) != string(want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
	if got := string(ipAppendGrouped(nil, 62872)); got != "62,872" {
		t.Errorf("grouped %s", got)
	}
	for _, n := range []uint64{0, 1, 999, 1000, 1234567} {
		got := string(ipAppendGrouped(nil, n))
		if strings.ReplaceAll(got, ",", "") != strings.TrimSpace(string(ipMust(web.Marshal(n)))) {
			t.Errorf("grouped %d = %s", n, got)
		}
	}
	for _, tc := range []struct {
		rank, total int
		want        string
	}{{53, 62872, `"#53 out of 62,872"`}, {16959, 77428, `"#16,959 out of 77,428"`}, {1000, 1000, `"#1,000 out of 1,000"`}} {
		if got := string(ipRankText(nil, tc.rank, tc.total)); got != tc.want {
			t.Errorf("rank text %d of %d: %s, want %s", tc.rank, tc.total, got, tc.want)
		}
	}
}

func ipMust(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzGeolocationParams drives the geolocation and network handlers with arbitrary
// parameters: they must answer JSON with a status from the spec's table and never panic.
// Without IPATLAS_TEST_SNAPSHOT it runs against the fixture (503 bodies).
func FuzzGeolocationParams(f *testing.F) {
	for _, s := range []string{"8.8.8.8", "134744072", "::1", "999.1.1.1", "", "fe80::1%eth0", "::ffff:1.2.3.4", "4294967296"} {
		f.Add(s, "en", "1700000000")
	}
	f.Add("8.8.8.8", "default", "x")
	f.Add("8.8.8.8", "zh-Hant-TW", "-99999999999999")
	var s *Server
	if os.Getenv(datasettest.RealEnv) != "" {
		s = ipRealServer(f)
	} else {
		s = New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{}, Data: dataset.NewStatic(datasettest.Snapshot(f))})
	}
	f.Fuzz(func(t *testing.T, ip, lang, ref string) {
		q := "key=good&ip=" + ipQueryEscape(ip) + "&localityLanguage=" + ipQueryEscape(lang) + "&utcReference=" + ipQueryEscape(ref)
		for _, p := range []string{"/data/ip-geolocation-with-confidence?", "/data/network-by-ip?"} {
			r := httptest.NewRequest("GET", "/", nil)
			r.URL.RawQuery = q
			r.URL.Path = strings.TrimSuffix(p, "?")
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, r)
			switch rec.Code {
			case 200, 400, 404, 405, 503:
			default:
				t.Fatalf("%s%s: status %d %s", p, q, rec.Code, rec.Body)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("%s%s: invalid JSON %q", p, q, rec.Body)
			}
		}
	})
}

func ipQueryEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == ':' {
			b.WriteByte(c)
		} else {
			b.WriteString("%")
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&0xf])
		}
	}
	return b.String()
}

func ipBenchServe(b *testing.B, s *Server, target string) {
	r := httptest.NewRequest("GET", target, nil)
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	if w.Code != 200 {
		b.Fatalf("%s: status %d: %s", target, w.Code, w.Body)
	}
	b.ReportAllocs()
	for b.Loop() {
		w.Body.Reset()
		s.Handler().ServeHTTP(w, r)
	}
}

// The four benchmarks go through the whole handler stack (middleware, fake auth and
// meter); compare them as ratios within one run.
func BenchmarkCountryInfo(b *testing.B) {
	ipBenchServe(b, ipRealServer(b), "/data/country-info?key=good&code=DE&localityLanguage=de")
}

func BenchmarkGeolocation(b *testing.B) {
	ipBenchServe(b, ipRealServer(b), "/data/ip-geolocation-with-confidence?key=good&ip=81.2.69.142&localityLanguage=de")
}

// BenchmarkLoadTestStatic is the load test's keyed static baseline through the same stack:
// what the other handler benchmarks cost beyond it is their own work.
func BenchmarkLoadTestStatic(b *testing.B) {
	ipBenchServe(b, ipRealServer(b), LoadTestPath+"?key=good")
}

func BenchmarkNetworkByIP(b *testing.B) {
	ipBenchServe(b, ipRealServer(b), "/data/network-by-ip?key=good&ip=8.8.8.8")
}

// BenchmarkGeolocationRender is the in-process lookup + render of the body alone (the
// DESIGN.md target: ≤ 2 µs, 0–2 allocs), over a spread of addresses.
func BenchmarkGeolocationRender(b *testing.B) {
	s := ipRealServer(b)
	v, err := s.countryView()
	if err != nil {
		b.Fatal(err)
	}
	var addrs []netip.Addr
	for _, ip := range geoGoldenIPs {
		addrs = append(addrs, netip.MustParseAddr(ip))
	}
	at := time.Unix(1781000000, 0)
	buf := make([]byte, 0, 8192)
	for _, a := range addrs { // warm the confidence memo and the name caches
		buf, _ = geoAppendBody(buf[:0], v, a, "de", "de", at, true, geoWithConfidence)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		buf, _ = geoAppendBody(buf[:0], v, addrs[i%len(addrs)], "de", "de", at, true, geoWithConfidence)
		i++
	}
}

// BenchmarkNetworkByIPRender is the in-process lookup + render of the network object.
func BenchmarkNetworkByIPRender(b *testing.B) {
	s := ipRealServer(b)
	v, err := s.countryView()
	if err != nil {
		b.Fatal(err)
	}
	a := netip.MustParseAddr("8.8.8.8")
	buf := make([]byte, 0, 8192)
	b.ReportAllocs()
	for b.Loop() {
		n, _ := v.snap.Net.Lookup(a)
		buf = netAppendNetworkFields(buf[:0], v.snap.Net, v, n, "en")
	}
}

// BenchmarkCountryInfoRenderReal is BenchmarkCountryInfoRender on the real snapshot, the
// yardstick for the two render benchmarks above.
func BenchmarkCountryInfoRenderReal(b *testing.B) {
	s := ipRealServer(b)
	v, _ := s.countryView()
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		i, _ := v.lookup("irl")
		buf = v.appendCountry(buf[:0], i, v.locale("de"))
	}
}

// BenchmarkGeolocationRenderRandom is BenchmarkGeolocationRender over 65 536 random
// addresses, so that the caches hold little of what one answer reads, as under a load of
// random addresses: "announced" draws addresses of random announced prefixes (IPv4 and IPv6
// alike), "load-mix" the load test's addresses (loadtest.RandomAddr: four in five uniform
// IPv4, many of them unannounced); "no-prefetch" is the same without geoAppendBody's
// prefetching, to measure what it saves.
func BenchmarkGeolocationRenderRandom(b *testing.B) {
	s := ipRealServer(b)
	v, err := s.countryView()
	if err != nil {
		b.Fatal(err)
	}
	var announced []netip.Prefix
	for n := range v.snap.Net.Announced() {
		announced = append(announced, n.BGPPrefix)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	inAnnounced := make([]netip.Addr, 1<<16)
	for i := range inAnnounced {
		p := announced[rng.IntN(len(announced))]
		bs := p.Addr().AsSlice()
		for j := range bs {
			free := min(8, max(0, (j+1)*8-p.Bits()))
			bs[j] |= byte(rng.Uint32()) & byte(1<<free-1)
		}
		inAnnounced[i], _ = netip.AddrFromSlice(bs)
	}
	loadMix := geoLoadMix(rng)
	at := time.Unix(1781000000, 0)
	buf := make([]byte, 0, 8192)
	for _, tc := range []struct {
		name  string
		addrs []netip.Addr
	}{{"announced", inAnnounced}, {"load-mix", loadMix}} {
		for _, pf := range []bool{true, false} {
			name := tc.name
			if !pf {
				name += "/no-prefetch"
			}
			b.Run(name, func(b *testing.B) {
				geoPrefetch = pf
				defer func() { geoPrefetch = true }()
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					buf, _ = geoAppendBody(buf[:0], v, tc.addrs[i&(len(tc.addrs)-1)], "en", "en", at, false, geoWithConfidence)
					i++
				}
			})
		}
	}
}

// Under localityLanguage=default a geolocation answer is in the geolocated country's
// language throughout: 35.200.0.1 is geolocated in Japan and announced by a US-registered
// network, so its registered country and carriers are named in Japanese, as with ja.
func TestGeolocationDefaultIsOneLanguage(t *testing.T) {
	s := ipRealServer(t)
	def := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=35.200.0.1&localityLanguage=default", 200)
	ja := ipGetJSON(t, s, "/data/ip-geolocation-with-confidence?key=good&ip=35.200.0.1&localityLanguage=ja", 200)
	if ipPath(def, "country", "isoAlpha2") != "JP" || ipPath(def, "network", "registeredCountry") != "US" {
		t.Fatalf("35.200.0.1 is no longer a JP address on a US network in this data: %v, %v",
			ipPath(def, "country", "isoAlpha2"), ipPath(def, "network", "registeredCountry"))
	}
	for _, p := range [][]any{
		{"country", "name"},
		{"location", "city"},
		{"network", "registeredCountryName"},
		{"network", "carriers", 0, "registeredCountryName"},
	} {
		if got, want := ipPath(def, p...), ipPath(ja, p...); got != want || got == nil {
			t.Errorf("%v: default gives %v, ja %v", p, got, want)
		}
	}
}

// geoLoadMix returns 65 536 of the load test's addresses.
func geoLoadMix(rng *rand.Rand) []netip.Addr {
	addrs := make([]netip.Addr, 1<<16)
	for i := range addrs {
		addrs[i] = loadtest.RandomAddr(rng)
	}
	return addrs
}

// BenchmarkGeolocationRenderAfterSyscall is the render with one system call (getpid) before
// each, as a server makes several between two requests: on a machine where a system call
// evicts much of the caches (a virtual machine whose system calls go through the host) the
// render costs more after it than back to back, which is most of why the load test's
// numbers exceed the in-process ones. "syscall" alone is the call's own cost, to subtract.
func BenchmarkGeolocationRenderAfterSyscall(b *testing.B) {
	s := ipRealServer(b)
	v, err := s.countryView()
	if err != nil {
		b.Fatal(err)
	}
	one := []netip.Addr{netip.MustParseAddr("8.8.8.8")}
	loadMix := geoLoadMix(rand.New(rand.NewPCG(5, 6)))
	at := time.Unix(1781000000, 0)
	buf := make([]byte, 0, 8192)
	for _, tc := range []struct {
		name    string
		addrs   []netip.Addr
		syscall bool
	}{
		{"syscall", nil, true},
		{"8.8.8.8", one, false},
		{"8.8.8.8+syscall", one, true},
		{"load-mix", loadMix, false},
		{"load-mix+syscall", loadMix, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				if tc.syscall {
					syscall.Getpid()
				}
				if len(tc.addrs) > 0 {
					buf, _ = geoAppendBody(buf[:0], v, tc.addrs[i%len(tc.addrs)], "en", "en", at, false, geoWithConfidence)
				}
				i++
			}
		})
	}
}
