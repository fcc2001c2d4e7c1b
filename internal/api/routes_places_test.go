package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/web"
)

// placesServer serves snap with the fake key "good".
func placesServer(tb testing.TB, snap *dataset.Snapshot) *Server {
	tb.Helper()
	return New(Options{
		Log:   slog.New(slog.DiscardHandler),
		Auth:  fakeAuth{"good": {ID: 1}, "spent": {ID: 2}},
		Meter: fakeMeter{},
		Data:  dataset.NewStatic(snap),
	})
}

// placesGet sends a GET from the client address remote ("" for httptest's default).
func placesGet(tb testing.TB, s *Server, target, remote string) *httptest.ResponseRecorder {
	tb.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	if remote != "" {
		r.RemoteAddr = netip.AddrPortFrom(netip.MustParseAddr(remote), 40000).String()
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	return rec
}

// placesDecode decodes a 200 body into a generic map.
func placesDecode(tb testing.TB, rec *httptest.ResponseRecorder) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &m); err != nil {
		tb.Fatalf("body is not JSON (%v): %s", err, rec.Body)
	}
	return m
}

// placesWantError checks a non-2xx answer: status and the JSON error body.
func placesWantError(tb testing.TB, rec *httptest.ResponseRecorder, code int, desc string) {
	tb.Helper()
	if rec.Code != code {
		tb.Fatalf("status %d, want %d: %s", rec.Code, code, rec.Body)
	}
	var body web.ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		tb.Fatalf("error body is not JSON: %s", rec.Body)
	}
	if body.Status != code || !strings.Contains(body.Description, desc) {
		tb.Errorf("error body %+v; want status %d and a description containing %q", body, code, desc)
	}
}

// TestPlacesErrorsOnFixture runs without real data: the fixture snapshot has countries
// only, so the engines' endpoints say 503, while parameter errors come first.
func TestPlacesErrorsOnFixture(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	tests := []struct {
		target string
		code   int
		desc   string
	}{
		{"/data/user-risk?ip=8.8.8.8", 401, "No API key"},
		{"/data/user-risk?key=spent&ip=8.8.8.8", 402, "ip-geolocation package"},
		{"/data/user-risk?key=good&ip=8.8.8.256", 405, `"8.8.8.256" is not valid`},
		{"/data/hazard-report?key=good&ip=nope", 405, "not valid"},
		{"/data/user-risk?key=good&ip=8.8.8.8", 503, "no network data"},
		{"/data/hazard-report?key=good&ip=8.8.8.8", 503, "no network data"},
		{"/data/phone-number-validate?key=spent&number=1", 402, "phone-email package"},
		{"/data/phone-number-validate?key=good", 400, "number parameter is required"},
		{"/data/phone-number-validate?key=good&number=abc", 400, "not a phone number"},
		{"/data/phone-number-validate?key=good&number=0293744000&countryCode=XYZ", 400, `"XYZ" is not a known country`},
		{"/data/phone-number-validate?key=good&number=0293744000", 400, "country is unknown"},
		{"/data/phone-number-validate?key=good&number=+442070313000", 400, "send it as %2B"},
		{"/data/phone-number-validate?key=good&number=" + strings.Repeat("1", 80), 400, "too long"},
		{"/data/reverse-geocode?key=spent&latitude=1&longitude=1", 402, "reverse-geocoding package"},
		{"/data/reverse-geocode?key=good&latitude=91&longitude=0", 401, "latitude in (+/- 90)"},
		{"/data/reverse-geocode?key=good&latitude=0&longitude=-180.5", 401, "longitude in (+/- 180)"},
		{"/data/reverse-geocode?key=good&latitude=NaN&longitude=0", 401, "Invalid coordinates"},
		{"/data/reverse-geocode?key=good&latitude=1_0&longitude=0", 401, "Invalid coordinates"},
		{"/data/reverse-geocode?key=good&latitude=0x1p3&longitude=0", 401, "Invalid coordinates"},
		{"/data/reverse-geocode?key=good&latitude=-Inf&longitude=0", 401, "Invalid coordinates"},
		{"/data/reverse-geocode?key=good&longitude=0", 400, "latitude parameter is required"},
		{"/data/reverse-geocode?key=good&latitude=1&longitude=1", 503, "no reverse geocoding data"},
		{"/data/reverse-geocode-client?latitude=1&longitude=x", 401, "Invalid coordinates"},
		{"/data/reverse-geocode-client?latitude=1&longitude=1", 503, "no reverse geocoding data"},
		{"/data/reverse-geocode-client", 503, "no IP geolocation data"},
		{"/data/am-i-roaming?longitude=1", 400, "latitude parameter is required"},
		{"/data/am-i-roaming?latitude=1", 400, "longitude parameter is required"},
		{"/data/am-i-roaming", 503, "no IP geolocation data"}, // without a position, only the caller's address is looked up
		{"/data/am-i-roaming?latitude=1&longitude=1", 503, "no reverse geocoding data"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			rec := placesGet(t, s, tt.target, "")
			placesWantError(t, rec, tt.code, tt.desc)
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			keyless := strings.Contains(tt.target, "-client") || strings.Contains(tt.target, "roaming")
			if got := rec.Header().Get("Access-Control-Allow-Origin"); (got == "*") != keyless {
				t.Errorf("Access-Control-Allow-Origin %q on %s", got, tt.target)
			}
		})
	}
}

// realPlacesServer serves the real snapshot (skips without it).
func realPlacesServer(tb testing.TB) *Server {
	tb.Helper()
	return placesServer(tb, datasettest.Real(tb))
}

// Benchmarks: in-process through the whole handler (middleware, fake auth and meter,
// lookup, rendering), with country-info through the same stack as the yardstick. Report
// them as ratios to CountryInfo of the same run.
func BenchmarkPlaces(b *testing.B) {
	s := realPlacesServer(b)
	snap := s.opt.Data.Current()
	runOn := func(h http.Handler, name, target string) {
		b.Run(name, func(b *testing.B) {
			r := httptest.NewRequest(http.MethodGet, target, nil)
			r.RemoteAddr = "81.2.69.142:40000"
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Fatalf("status %d: %s", w.Code, w.Body)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.Body.Reset()
				h.ServeHTTP(w, r)
			}
		})
	}
	run := func(name, target string) { runOn(s.Handler(), name, target) }
	// The keyless endpoints through the same stack, but with a limiter that never refuses
	// (the server's own would answer 429 after the burst); its bookkeeping is still paid.
	unlimited := newKeylessLimiter(1e12, 1<<30, KeylessMaxClients)
	keyless := func(name, target string, fn web.HandlerFunc) {
		runOn(s.stack(name, web.Handle(s.opt.Log, statusOf, s.keyless(unlimited, fn))), name, target)
	}
	run("CountryInfo", "/data/country-info?key=good&code=AU&localityLanguage=en")
	run("UserRisk", "/data/user-risk?key=good&ip=185.220.101.1")
	run("UserRiskLow", "/data/user-risk?key=good&ip=81.2.69.142")
	run("HazardReport", "/data/hazard-report?key=good&ip=3.5.140.2")
	run("PhoneValidate", "/data/phone-number-validate?key=good&number=%2B61%202%209374%204000&countryCode=au")
	run("PhoneValidateNational", "/data/phone-number-validate?key=good&number=030%20901820&countryCode=DE&localityLanguage=de")
	run("ReverseGeocode", "/data/reverse-geocode?key=good&latitude=-33.8688&longitude=151.2093&localityLanguage=en")
	keyless("ReverseGeocodeClientIP", "/data/reverse-geocode-client?localityLanguage=en", s.reverseGeocodeClient)
	keyless("AmIRoaming", "/data/am-i-roaming?latitude=48.8566&longitude=2.3522", s.amIRoaming)

	b.Run("UserRiskEngine", func(b *testing.B) {
		addrs := []netip.Addr{netip.MustParseAddr("185.220.101.1"), netip.MustParseAddr("81.2.69.142"), netip.MustParseAddr("3.5.140.2"), netip.MustParseAddr("10.1.2.3")}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			h, _ := riskHazards(snap, addrs[i&3])
			risk.Rate(h)
			i++
		}
	})
	b.Run("KeylessLimiter", func(b *testing.B) {
		l := newKeylessLimiter(KeylessRate, KeylessBurst, KeylessMaxClients)
		b.ReportAllocs()
		i := uint32(0)
		for b.Loop() {
			l.allow(netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})) // a new client each time: the worst case
			i++
		}
	})
	b.Run("ReverseGeocodeEngine", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			snap.Places.Lookup(-33.8688, 151.2093)
		}
	})
}
