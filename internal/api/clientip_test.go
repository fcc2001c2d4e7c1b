package api

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/web"
)

// proxiedServer serves snap behind trusted proxies in 10.0.0.0/8 and ::1, which write
// the client's address to header.
func proxiedServer(tb testing.TB, snap *dataset.Snapshot, header string) *Server {
	tb.Helper()
	return New(Options{
		Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{},
		Data: dataset.NewStatic(snap),
		ClientAddrs: web.ClientAddrs{Header: header, Trusted: []netip.Prefix{
			netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("::1/128")}},
	})
}

// serveFrom sends method target from remote (host:port) with headers.
func serveFrom(s *Server, method, target, remote string, headers map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	r.RemoteAddr = remote
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	return rec
}

func TestClientIP(t *testing.T) {
	snap := datasettest.Snapshot(t) // client-ip needs no data
	xff := proxiedServer(t, snap, web.HeaderXForwardedFor)
	fwd := proxiedServer(t, snap, web.HeaderForwarded)
	type body struct {
		IPString string `json:"ipString"`
		IPType   string `json:"ipType"`
		ProxyIP  string `json:"proxyIp,omitempty"`
	}
	tests := []struct {
		name    string
		s       *Server
		remote  string
		headers map[string]string
		want    body
	}{
		{"IPv4 peer", xff, "198.51.100.7:4000", nil, body{"198.51.100.7", "IPv4", ""}},
		{"IPv6 peer", xff, "[2001:db8::7]:4000", nil, body{"2001:db8::7", "IPv6", ""}},
		{"IPv4-mapped peer", xff, "[::ffff:198.51.100.7]:4000", nil, body{"198.51.100.7", "IPv4", ""}},
		{"untrusted peer's header ignored", xff, "198.51.100.7:4000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, body{"198.51.100.7", "IPv4", ""}},
		{"trusted proxy", xff, "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, body{"203.0.113.9", "IPv4", "10.1.2.3"}},
		{"trusted proxy, IPv6 client", xff, "10.1.2.3:4000", map[string]string{"X-Forwarded-For": "2001:db8::9"}, body{"2001:db8::9", "IPv6", "10.1.2.3"}},
		{"chain of trusted proxies", xff, "[::1]:4000", map[string]string{"X-Forwarded-For": "6.6.6.6, 203.0.113.9, 10.9.9.9"}, body{"203.0.113.9", "IPv4", "::1"}},
		{"trusted proxy without a header", xff, "10.1.2.3:4000", nil, body{"10.1.2.3", "IPv4", ""}},
		{"trusted proxy's other header not read", xff, "10.1.2.3:4000", map[string]string{"Forwarded": "for=203.0.113.9"}, body{"10.1.2.3", "IPv4", ""}},
		{"Forwarded", fwd, "10.1.2.3:4000", map[string]string{"Forwarded": `for="[2001:db8::9]:5000";proto=https`}, body{"2001:db8::9", "IPv6", "10.1.2.3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serveFrom(tt.s, "GET", "/data/client-ip?ignored=1", tt.remote, tt.headers)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got body
			dec := json.NewDecoder(rec.Body)
			dec.DisallowUnknownFields()
			if err := dec.Decode(&got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			h := rec.Header()
			if h.Get("Access-Control-Allow-Origin") != "*" || h.Get("Cache-Control") != "no-store" {
				t.Errorf("headers %v", h)
			}
		})
	}
}

// TestClientIPKeyless: CORS on every answer, the preflight, the JSON 405 for other methods,
// the query string's 400, and the rate limit shared with the other keyless endpoints.
func TestClientIPKeyless(t *testing.T) {
	s := proxiedServer(t, datasettest.Snapshot(t), "")
	tests := []struct {
		name, method, target string
		code                 int
	}{
		{"preflight", "OPTIONS", "/data/client-ip", 204},
		{"wrong method", "POST", "/data/client-ip", 405},
		{"query does not decode", "GET", "/data/client-ip?a=%zz", 400},
		{"over-long localityLanguage", "GET", "/data/client-ip?localityLanguage=" + strings.Repeat("x", 36), 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serveFrom(s, tt.method, tt.target, "198.51.100.8:4000", map[string]string{"Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
			if rec.Code != tt.code || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("status %d, headers %v: %s", rec.Code, rec.Header(), rec.Body)
			}
			if tt.code >= 400 {
				var e web.ErrorBody
				if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Status != tt.code || e.Description == "" {
					t.Errorf("error body %s", rec.Body)
				}
			}
		})
	}

	frozen := s.keylessLim.now()
	s.keylessLim.now = func() time.Duration { return frozen }
	for range KeylessBurst {
		serveFrom(s, "GET", "/data/am-i-roaming?latitude=1&longitude=2", "198.51.100.9:4000", nil)
	}
	rec := serveFrom(s, "GET", "/data/client-ip", "198.51.100.9:4000", nil)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("after a burst elsewhere: status %d, headers %v", rec.Code, rec.Header())
	}
	rec = serveFrom(s, "GET", "/data/client-ip", "198.51.100.10:4000", nil)
	if rec.Code != 200 {
		t.Errorf("another address: status %d", rec.Code)
	}
}
