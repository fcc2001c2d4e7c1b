package web

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestClientAddrs(t *testing.T) {
	trusted, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.1, ::1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		trusted []netip.Prefix
		remote  string
		header  string // ClientAddrs.Header
		headers map[string]string
		want    string
	}{
		{"direct v4", nil, "203.0.113.9:1234", "", nil, "203.0.113.9"},
		{"direct v6", nil, "[2001:db8::1]:443", "", nil, "2001:db8::1"},
		{"mapped is unmapped", nil, "[::ffff:203.0.113.9]:80", "", nil, "203.0.113.9"},
		{"untrusted peer ignores XFF", trusted, "203.0.113.9:1", "", map[string]string{"X-Forwarded-For": "1.1.1.1"}, "203.0.113.9"},
		{"no proxies configured ignores XFF", nil, "10.0.0.1:1", "", map[string]string{"X-Forwarded-For": "1.1.1.1"}, "10.0.0.1"},
		{"trusted peer uses XFF", trusted, "10.1.1.1:1", "", map[string]string{"X-Forwarded-For": "198.51.100.7"}, "198.51.100.7"},
		{"rightmost untrusted wins", trusted, "10.1.1.1:1", "", map[string]string{"X-Forwarded-For": "6.6.6.6, 198.51.100.7, 10.2.2.2"}, "198.51.100.7"},
		{"all trusted gives leftmost", trusted, "10.1.1.1:1", "", map[string]string{"X-Forwarded-For": "10.3.3.3, 10.2.2.2"}, "10.3.3.3"},
		{"garbage hop stops", trusted, "10.1.1.1:1", "", map[string]string{"X-Forwarded-For": "1.2.3.4, nonsense"}, "10.1.1.1"},
		{"forwarded header", trusted, "[::1]:5", HeaderForwarded, map[string]string{"Forwarded": `for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"`}, "2001:db8:cafe::17"},
		// A proxy that writes one header passes the other on as the client sent it.
		{"XFF proxy ignores Forwarded", trusted, "10.1.1.1:1", "", map[string]string{"Forwarded": "for=198.51.100.1", "X-Forwarded-For": "198.51.100.2"}, "198.51.100.2"},
		{"XFF proxy named", trusted, "10.1.1.1:1", HeaderXForwardedFor, map[string]string{"Forwarded": "for=198.51.100.1", "X-Forwarded-For": "198.51.100.2"}, "198.51.100.2"},
		{"Forwarded proxy ignores XFF", trusted, "10.1.1.1:1", HeaderForwarded, map[string]string{"Forwarded": "for=198.51.100.1", "X-Forwarded-For": "198.51.100.2"}, "198.51.100.1"},
		{"Forwarded proxy, only XFF sent", trusted, "10.1.1.1:1", HeaderForwarded, map[string]string{"X-Forwarded-For": "198.51.100.2"}, "10.1.1.1"},
		{"a hop's zone is dropped", trusted, "10.1.1.1:1", "", map[string]string{"X-Forwarded-For": "[fe80::1%eth0]:80"}, "fe80::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.remote
			for k, v := range tt.headers {
				r.Header.Set(k, v)
			}
			got, ok := ClientAddrs{Trusted: tt.trusted, Header: tt.header}.Of(r)
			if !ok || got != netip.MustParseAddr(tt.want) {
				t.Errorf("Of = %v, %v; want %v", got, ok, tt.want)
			}
		})
	}
}

func TestParseTrustedProxiesRejectsGarbage(t *testing.T) {
	for _, s := range []string{"nope", "10.0.0.0/33", "1.2.3"} {
		if _, err := ParseTrustedProxies(s); err == nil {
			t.Errorf("ParseTrustedProxies(%q) accepted", s)
		}
	}
}

func TestParseForwardedHeader(t *testing.T) {
	for in, want := range map[string]string{"x-forwarded-for": HeaderXForwardedFor, "X-Forwarded-For": HeaderXForwardedFor, "FORWARDED": HeaderForwarded} {
		if got, err := ParseForwardedHeader(in); err != nil || got != want {
			t.Errorf("ParseForwardedHeader(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "X-Real-IP", "forwarded-for"} {
		if _, err := ParseForwardedHeader(in); err == nil {
			t.Errorf("ParseForwardedHeader(%q) accepted", in)
		}
	}
}

func FuzzClientAddrs(f *testing.F) {
	f.Add("10.0.0.1:1", "1.1.1.1, 10.0.0.2", "for=2.2.2.2")
	f.Add("[::1]:1", "", `for="[::1]:9";by=x, for=unknown`)
	f.Add("garbage", "x,,y", ";;=")
	trusted, _ := ParseTrustedProxies("10.0.0.0/8,::1")
	f.Fuzz(func(t *testing.T, remote, xff, fwd string) {
		r := &http.Request{RemoteAddr: remote, Header: http.Header{}}
		r.Header.Set("X-Forwarded-For", xff)
		r.Header.Set("Forwarded", fwd)
		for _, h := range []string{HeaderXForwardedFor, HeaderForwarded} {
			a, ok := ClientAddrs{Trusted: trusted, Header: h}.Of(r)
			if ok && (!a.IsValid() || a.Is4In6() || a.Zone() != "") {
				t.Fatalf("Of returned unusable %v", a)
			}
		}
	})
}

func TestViaHTTPS(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	xff := ClientAddrs{Trusted: proxies}
	fwd := ClientAddrs{Trusted: proxies, Header: HeaderForwarded}
	for _, tc := range []struct {
		name   string
		c      ClientAddrs
		peer   string
		header http.Header
		tls    bool
		want   bool
	}{
		{"direct TLS", ClientAddrs{}, "203.0.113.5:1", nil, true, true},
		{"plain HTTP", ClientAddrs{}, "203.0.113.5:1", nil, false, false},
		{"an untrusted client's claim", xff, "203.0.113.5:1", http.Header{"X-Forwarded-Proto": {"https"}}, false, false},
		{"no proxies configured", ClientAddrs{}, "10.0.0.1:1", http.Header{"X-Forwarded-Proto": {"https"}}, false, false},
		{"trusted proxy, https", xff, "10.0.0.1:1", http.Header{"X-Forwarded-Proto": {"https"}}, false, true},
		{"trusted proxy, http", xff, "10.0.0.1:1", http.Header{"X-Forwarded-Proto": {"http"}}, false, false},
		{"the nearest proxy's word", xff, "10.0.0.1:1", http.Header{"X-Forwarded-Proto": {"https, http"}}, false, false},
		{"trusted proxy, no header", xff, "10.0.0.1:1", nil, false, false},
		{"Forwarded proto", fwd, "10.0.0.1:1", http.Header{"Forwarded": {`for=203.0.113.5;proto=https`}}, false, true},
		{"Forwarded proxy ignores X-Forwarded-Proto", fwd, "10.0.0.1:1", http.Header{"X-Forwarded-Proto": {"https"}}, false, false},
		{"Forwarded: only the nearest element", fwd, "10.0.0.1:1", http.Header{"Forwarded": {`for=203.0.113.5;proto=https, for=10.0.0.2`}}, false, false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr, r.Header = tc.peer, tc.header
		if r.Header == nil {
			r.Header = http.Header{}
		}
		if tc.tls {
			r.TLS = &tls.ConnectionState{}
		}
		if got := tc.c.ViaHTTPS(r); got != tc.want {
			t.Errorf("%s: ViaHTTPS = %v, want %v", tc.name, got, tc.want)
		}
	}
}
