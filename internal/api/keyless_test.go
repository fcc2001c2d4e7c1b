package api

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// keylessTestLimiter returns a limiter on a clock the test moves.
func keylessTestLimiter(rate float64, burst, maxClients int) (*keylessLimiter, *time.Duration) {
	l := newKeylessLimiter(rate, burst, maxClients)
	var now time.Duration
	l.now = func() time.Duration { return now }
	return l, &now
}

func TestKeylessLimiterBucket(t *testing.T) {
	l, now := keylessTestLimiter(10, 20, 1000)
	a := netip.MustParseAddr("192.0.2.7")
	for i := range 20 {
		if ok, _ := l.allow(a); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	ok, wait := l.allow(a)
	if ok || wait != 100*time.Millisecond {
		t.Fatalf("21st request: allowed %v, wait %v; want refused, 100ms", ok, wait)
	}
	if ok, _ := l.allow(netip.MustParseAddr("192.0.2.8")); !ok {
		t.Error("another address shares the bucket")
	}
	*now += 250 * time.Millisecond // 2.5 tokens
	for i := range 2 {
		if ok, _ := l.allow(a); !ok {
			t.Fatalf("refilled request %d refused", i+1)
		}
	}
	if ok, _ := l.allow(a); ok {
		t.Error("half a token let a request through")
	}
	*now += time.Hour
	for i := range 20 {
		if ok, _ := l.allow(a); !ok {
			t.Fatalf("after an idle hour, request %d refused (the bucket must refill to the burst, no more)", i+1)
		}
	}
	if ok, _ := l.allow(a); ok {
		t.Error("bucket grew beyond the burst")
	}
}

func TestKeylessLimiterIPv6PerSlash64(t *testing.T) {
	l, _ := keylessTestLimiter(1, 2, 1000)
	l.allow(netip.MustParseAddr("2001:db8:1:2::1"))
	l.allow(netip.MustParseAddr("2001:db8:1:2:ffff::9"))
	if ok, _ := l.allow(netip.MustParseAddr("2001:db8:1:2::77")); ok {
		t.Error("addresses of one /64 have separate buckets")
	}
	if ok, _ := l.allow(netip.MustParseAddr("2001:db8:1:3::1")); !ok {
		t.Error("the next /64 shares the bucket")
	}
	l.allow(netip.MustParseAddr("::ffff:192.0.2.1"))
	l.allow(netip.MustParseAddr("192.0.2.1"))
	if ok, _ := l.allow(netip.MustParseAddr("192.0.2.1")); ok {
		t.Error("IPv4-mapped and plain IPv4 have separate buckets")
	}
}

func TestKeylessLimiterBounded(t *testing.T) {
	const maxClients = 256
	l, now := keylessTestLimiter(10, 20, maxClients)
	busy := netip.MustParseAddr("198.51.100.1")
	for range 20 {
		l.allow(busy)
	}
	for i := range 100_000 {
		*now += time.Microsecond
		a := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if ok, _ := l.allow(a); !ok {
			t.Fatalf("new client %v refused", a)
		}
	}
	n := 0
	for i := range l.shards {
		n += len(l.shards[i].m)
	}
	if n > maxClients {
		t.Errorf("%d clients tracked, bound %d", n, maxClients)
	}
}

func TestKeylessRateLimitHTTP(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	for _, path := range []string{"/data/am-i-roaming", "/data/reverse-geocode-client"} {
		t.Run(path, func(t *testing.T) {
			// Bad coordinates: a cheap 401, counted like any request.
			target := path + "?latitude=100&longitude=0"
			remote := "203.0.113.9"
			if path == "/data/reverse-geocode-client" {
				remote = "203.0.113.10"
			}
			var limited *httptest.ResponseRecorder
			n := 0
			for range KeylessBurst + 5 {
				rec := placesGet(t, s, target, remote)
				if rec.Code == http.StatusTooManyRequests {
					limited = rec
					break
				}
				if rec.Code != http.StatusUnauthorized {
					t.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
				n++
			}
			if limited == nil {
				t.Fatalf("no 429 after %d requests", KeylessBurst+5)
			}
			if n < KeylessBurst || n > KeylessBurst+2 { // a slow machine may refill a token or two
				t.Errorf("429 after %d requests, want about %d", n, KeylessBurst)
			}
			placesWantError(t, limited, http.StatusTooManyRequests, "Retry after")
			if ra, err := strconv.Atoi(limited.Header().Get("Retry-After")); err != nil || ra < 1 {
				t.Errorf("Retry-After %q", limited.Header().Get("Retry-After"))
			}
			if limited.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Error("429 without CORS header: a browser could not read it")
			}
			if rec := placesGet(t, s, target, "203.0.113.99"); rec.Code != http.StatusUnauthorized {
				t.Errorf("another client limited too: %d", rec.Code)
			}
		})
	}
}

func TestKeylessCORSPreflight(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	// A preflight is answered whatever the query, so that the request's own 400 reaches the
	// page; refused, it would be a bare "Failed to fetch" there.
	for _, path := range []string{
		"/data/am-i-roaming?latitude=1&longitude=2", "/data/reverse-geocode-client?latitude=1&longitude=2",
		"/data/am-i-roaming?latitude=%zz&longitude=1", "/data/reverse-geocode-client?localityLanguage=" + strings.Repeat("a", 36),
	} {
		r := httptest.NewRequest(http.MethodOptions, path, nil)
		r.Header.Set("Origin", "https://app.example")
		r.Header.Set("Access-Control-Request-Method", "GET")
		r.Header.Set("Access-Control-Request-Headers", "x-requested-with")
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, r)
		h := rec.Header()
		if rec.Code != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "*" ||
			h.Get("Access-Control-Allow-Methods") != "GET, OPTIONS" || h.Get("Access-Control-Allow-Headers") != "x-requested-with" {
			t.Errorf("%s preflight: %d %v", path, rec.Code, h)
		}
	}
	// Keyed endpoints do not invite browsers.
	rec := placesGet(t, s, "/data/reverse-geocode?key=good&latitude=1&longitude=1", "")
	if rec.Header().Get("Access-Control-Allow-Origin") != "" {
		t.Error("keyed endpoint sends CORS headers")
	}
}

// TestKeylessErrorsCarryCORS: every answer of a keyless endpoint carries the CORS headers,
// also those given before its handler runs (a query string that does not decode, a
// localityLanguage too long, a wrong method), so that the page that called can read them;
// keyed GraphQL packages do not.
func TestKeylessErrorsCarryCORS(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	for _, tc := range []struct {
		method, target string
		code           int
		cors           bool
	}{
		{"GET", "/data/am-i-roaming?latitude=9&longitude=9&x=%zz", 400, true},
		{"GET", "/data/reverse-geocode-client?latitude=1&longitude=1&localityLanguage=" + strings.Repeat("a", 36), 400, true},
		{"POST", "/data/am-i-roaming?latitude=9&longitude=9", 405, true},
		{"DELETE", "/data/reverse-geocode-client", 405, true},
		{"POST", "/graphql/free-api?x=%zz", 400, true},
		{"GET", "/graphql/free-api", 405, true},
		{"POST", "/graphql/ip-geolocation?x=%zz", 400, false},
		// A wrong path near them: the page can read the 404 that says so.
		{"GET", "/data/reverse-geocode-client/", 404, true},
		{"GET", "/data/reverse-geocode-clien", 404, true},
		{"GET", "//data/am-i-roaming", 404, true},
		{"POST", "/graphql/nope", 404, true},
		{"GET", "/nope", 404, false},
	} {
		r := httptest.NewRequest(tc.method, tc.target, strings.NewReader(`{"query":"{ amIRoaming(latitude: 1, longitude: 1) { isRoaming } }"}`))
		r.RemoteAddr = "198.51.100.200:1"
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, r)
		if got := rec.Header().Get("Access-Control-Allow-Origin") == "*"; rec.Code != tc.code || got != tc.cors {
			t.Errorf("%s %s: %d, CORS %v; want %d, CORS %v", tc.method, tc.target, rec.Code, got, tc.code, tc.cors)
		}
	}
}
