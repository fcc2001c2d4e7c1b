package api

import (
	"math"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
)

func TestParseIPParam(t *testing.T) {
	tests := []struct{ in, want string }{
		{"8.8.8.8", "8.8.8.8"},
		{" 8.8.8.8 ", "8.8.8.8"},
		{"134744072", "8.8.8.8"},
		{"0", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"2001:4860:4860::8888", "2001:4860:4860::8888"},
		{"::ffff:1.2.3.4", "1.2.3.4"},
		{"999.1.1.1", ""},
		{"4294967296", ""},
		{"1.2.3", ""},
		{"fe80::1%eth0", ""},
		{"", ""},
		{"08.8.8.8", ""},
		{"0134744072", ""}, // octal to inet_aton: 1.115.200.58 there
		{"00", ""},
		{"-1", ""},
	}
	for _, tt := range tests {
		got, ok := parseIPParam(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("parseIPParam(%q) = %v, want invalid", tt.in, got)
			}
			continue
		}
		if !ok || got != netip.MustParseAddr(tt.want) {
			t.Errorf("parseIPParam(%q) = %v, %v; want %s", tt.in, got, ok, tt.want)
		}
	}
}

func TestParseCIDRParam(t *testing.T) {
	tests := []struct{ in, want string }{
		{"8.8.8.0/24", "8.8.8.0/24"},
		{"8.8.8.8/24", "8.8.8.0/24"},
		{"0.0.0.0/0", "0.0.0.0/0"},
		{"2001:db8::/32", "2001:db8::/32"},
		{"::ffff:10.0.0.0/104", "10.0.0.0/8"},
		{"1.1.1.1", "1.1.1.1/32"},
		{"8.8.8.0/33", ""},
		{"8.8.8/24", ""},
		{"::ffff:1.2.3.4/120", "1.2.3.0/24"},
		{"::ffff:0:0/96", "0.0.0.0/0"},
		{"::ffff:0:0/95", "::fffe:0:0/95"}, // wider than the mapped block: an IPv6 range
		{"::ffff:0:0/90", "::ffc0:0:0/90"},
		{"::ffff:1.2.3.4/64", "::/64"},
		{"::ffff:0:0/129", ""},
		{"", ""},
	}
	for _, tt := range tests {
		got, ok := parseCIDRParam(tt.in)
		if tt.want == "" {
			if ok {
				t.Errorf("parseCIDRParam(%q) = %v, want invalid", tt.in, got)
			}
			continue
		}
		if !ok || got != netip.MustParsePrefix(tt.want) {
			t.Errorf("parseCIDRParam(%q) = %v, %v; want %s", tt.in, got, ok, tt.want)
		}
	}
}

func TestParseASNParam(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
		ok   bool
	}{
		{"15169", 15169, true}, {"AS15169", 15169, true}, {"as15169", 15169, true}, {"ASN15169", 15169, true},
		{"4294967295", 4294967295, true}, {"0", 0, true}, {"AS0", 0, true}, {" 7 ", 7, true},
		{"asn 1", 0, false}, {"4294967296", 0, false}, {"AS", 0, false}, {"", 0, false}, {"15169x", 0, false}, {"+5", 0, false}, {"-1", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseASNParam(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseASNParam(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzParseIPParam: whatever is accepted is a valid, unmapped, zone-free address that
// round-trips through its string form; dotted input agrees with netip.ParseAddr.
func FuzzParseIPParam(f *testing.F) {
	for _, s := range []string{"8.8.8.8", "134744072", "::1", "::ffff:1.2.3.4", "999.1.1.1", "fe80::1%x", "00000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := parseIPParam(s)
		if !ok {
			return
		}
		if !a.IsValid() || a.Is4In6() || a.Zone() != "" {
			t.Fatalf("parseIPParam(%q) = %v", s, a)
		}
		if b, ok2 := parseIPParam(a.String()); !ok2 || b != a {
			t.Fatalf("%v does not round-trip", a)
		}
		if ref, err := netip.ParseAddr(s); err == nil && ref.Zone() == "" && ref.Unmap() != a {
			t.Fatalf("parseIPParam(%q) = %v, netip says %v", s, a, ref)
		}
	})
}

func FuzzParseCIDRParam(f *testing.F) {
	for _, s := range []string{"8.8.8.0/24", "::/0", "1.1.1.1", "::ffff:1.0.0.0/100", "x/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parseCIDRParam(s)
		if !ok {
			return
		}
		if !p.IsValid() || p != p.Masked() || p.Addr().Is4In6() {
			t.Fatalf("parseCIDRParam(%q) = %v", s, p)
		}
	})
}

func FuzzParseASNParam(f *testing.F) {
	for _, s := range []string{"15169", "AS1", "asn4294967295", "AS0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, ok := parseASNParam(s)
		if !ok {
			return
		}
		// Whatever is accepted is the number its digits say.
		digits := strings.TrimLeft(strings.TrimSpace(s), "ASNasn")
		if ref, err := strconv.ParseUint(digits, 10, 32); err != nil || uint32(ref) != n {
			t.Fatalf("parseASNParam(%q) = %d; its digits %q say %d, %v", s, n, digits, ref, err)
		}
	})
}

func TestCoordParams(t *testing.T) {
	for _, tc := range []struct {
		query    string
		lat, lon float64
		ok       bool
	}{
		{"latitude=48.8584&longitude=2.2945", 48.8584, 2.2945, true},
		{"latitude=-33.86&longitude=+151.2", -33.86, 151.2, true},
		{"latitude=1e1&longitude=-1.5E1", 10, -15, true},
		{"latitude=-0&longitude=-0.0", 0, 0, true},
		{"latitude=1_0&longitude=0", 0, 0, false},
		{"latitude=0x1p3&longitude=0", 0, 0, false},
		{"latitude=Inf&longitude=0", 0, 0, false},
		{"latitude=0&longitude=180.0001", 0, 0, false},
	} {
		r := httptest.NewRequest("GET", "/?"+tc.query, nil)
		lat, lon, err := coordParams(r)
		if (err == nil) != tc.ok || tc.ok && (lat != tc.lat || lon != tc.lon || lat == 0 && math.Signbit(lat) || lon == 0 && math.Signbit(lon)) {
			t.Errorf("%s: %v, %v, %v", tc.query, lat, lon, err)
		}
	}
}

// TestCallerAnswersNoStore: an answer about the caller (ip omitted) is Cache-Control:
// no-store on every keyed endpoint that takes ip, and the same request naming the address
// is not (utcReference pins the time zone fields, which would mark it for another reason).
func TestCallerAnswersNoStore(t *testing.T) {
	s := ipRealServer(t)
	for _, path := range []string{
		"/data/ip-geolocation-with-confidence?utcReference=1781000000",
		"/data/ip-geolocation?utcReference=1781000000",
		"/data/ip-geolocation-full?utcReference=1781000000",
		"/data/network-by-ip?",
		"/data/country-by-ip?",
		"/data/user-risk?",
		"/data/hazard-report?",
		"/data/timezone-by-ip?utcReference=1781000000",
		"/data/phone-number-validate-by-ip?number=%2B1+650-253-0000",
	} {
		for _, ip := range []string{"", "&ip=8.8.8.8"} {
			r := httptest.NewRequest("GET", path+ip+"&key=good", nil)
			r.RemoteAddr = "8.8.8.8:41000"
			rec := httptest.NewRecorder()
			s.Handler().ServeHTTP(rec, r)
			want := ""
			if ip == "" {
				want = "no-store"
			}
			if rec.Code != 200 || rec.Header().Get("Cache-Control") != want {
				t.Errorf("%s%s: status %d, Cache-Control %q, want 200 and %q", path, ip, rec.Code, rec.Header().Get("Cache-Control"), want)
			}
		}
	}
}
