package risk_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/risk/risktest"
)

func mustEncode(tb testing.TB, d risk.Data) []byte {
	tb.Helper()
	b, err := risk.Encode(d)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestEncodeDeterministic checks that the bytes depend on the facts only: the order of lists
// and ranges, split lists, overlapping or adjacent ranges and IPv4-mapped spellings do not
// matter.
func TestEncodeDeterministic(t *testing.T) {
	want := mustEncode(t, sample())
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		d := sample()
		rng.Shuffle(len(d.Lists), func(i, j int) { d.Lists[i], d.Lists[j] = d.Lists[j], d.Lists[i] })
		rng.Shuffle(len(d.ASNLists), func(i, j int) { d.ASNLists[i], d.ASNLists[j] = d.ASNLists[j], d.ASNLists[i] })
		for i := range d.Lists {
			rs := d.Lists[i].Ranges
			rng.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
		}
		if got := mustEncode(t, d); !bytes.Equal(got, want) {
			t.Fatal("shuffled input encodes differently")
		}
	}

	d := sample()
	// Split the VPN list in two, cover part of its first range again and add the same prefix
	// cut into adjacent halves, one written as IPv4-mapped IPv6.
	vpn := d.Lists[2]
	d.Lists = append(d.Lists, risk.List{Name: vpn.Name, Kind: vpn.Kind, Ranges: append(prefixes("2.56.17.0/24", "2.56.16.0/23"),
		risk.PrefixRange(netip.MustParsePrefix("::ffff:2.56.18.0/119")))})
	d.ASNLists[0].ASNs = append(d.ASNLists[0].ASNs, 16509)
	if got := mustEncode(t, d); !bytes.Equal(got, want) {
		t.Error("redundant input encodes differently")
	}
}

func TestEncodeRejects(t *testing.T) {
	a := netip.MustParseAddr("192.0.2.1")
	b := netip.MustParseAddr("192.0.2.9")
	v6 := netip.MustParseAddr("2001:db8::1")
	ok := risk.Range{From: a, To: b}
	tests := []struct {
		name string
		d    risk.Data
		want string
	}{
		{"empty name", risk.Data{Lists: []risk.List{{Kind: risk.KindVPN}}}, "list name"},
		{"control character in name", risk.Data{Lists: []risk.List{{Name: "a\nb", Kind: risk.KindVPN}}}, "list name"},
		{"no kind", risk.Data{Lists: []risk.List{{Name: "x"}}}, "kind"},
		{"unknown kind", risk.Data{Lists: []risk.List{{Name: "x", Kind: 99}}}, "kind"},
		{"cloud without provider", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindCloud}}}, "provider"},
		{"blocklist without score", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindBlocklist}}}, "score"},
		{"score on a tor list", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindTorExit, Score: 2}}}, "score"},
		{"date before 1970", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindVPN, Date: time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC)}}}, "date"},
		{"reversed range", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindVPN, Ranges: []risk.Range{{From: b, To: a}}}}}, "bad range"},
		{"mixed families", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindVPN, Ranges: []risk.Range{{From: a, To: v6}}}}}, "bad range"},
		{"invalid address", risk.Data{Lists: []risk.List{{Name: "x", Kind: risk.KindVPN, Ranges: []risk.Range{ok, {To: b}}}}}, "bad range"},
		{"ASN list of another kind", risk.Data{ASNLists: []risk.ASNList{{Name: "x", Kind: risk.KindCloud, ASNs: []uint32{1}}}}, "kind"},
		{"ASN 0", risk.Data{ASNLists: []risk.ASNList{{Name: "x", Kind: risk.KindVPN, ASNs: []uint32{0}}}}, "ASN 0"},
		{"two ASN lists of one kind", risk.Data{ASNLists: []risk.ASNList{{Name: "x", Kind: risk.KindVPN}, {Name: "y", Kind: risk.KindVPN}}}, "two ASN lists"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := risk.Encode(tt.d)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Encode error = %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

// TestDecodeRejects checks that every truncation and many corruptions of a valid section fail
// cleanly with ErrFormat, or decode to something harmless, and never panic.
func TestDecodeRejects(t *testing.T) {
	valid := mustEncode(t, sample())
	for n := range len(valid) {
		if _, err := risk.Decode(valid[:n]); !errors.Is(err, risk.ErrFormat) {
			t.Fatalf("Decode of the first %d of %d bytes: err = %v, want ErrFormat", n, len(valid), err)
		}
	}
	if _, err := risk.Decode(append(slices.Clone(valid), 0)); !errors.Is(err, risk.ErrFormat) {
		t.Errorf("trailing byte: err = %v, want ErrFormat", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		b := slices.Clone(valid)
		for range 1 + rng.IntN(3) {
			b[len("ipatlas-risk\x00")+rng.IntN(len(b)-len("ipatlas-risk\x00"))] = byte(rng.Uint32())
		}
		if db, err := risk.Decode(b); err == nil {
			db.Hazards(netip.MustParseAddr("2.56.16.1"), risk.Facts{ASN: 16509}) // must not panic
		}
	}
}

func TestRoundTripLists(t *testing.T) {
	d := sample()
	d.Lists = append(d.Lists, risk.List{Name: "edges", Kind: risk.KindDrop, Ranges: []risk.Range{
		risk.PrefixRange(netip.MustParsePrefix("0.0.0.0/32")),
		risk.PrefixRange(netip.MustParsePrefix("255.255.255.255/32")),
		risk.PrefixRange(netip.MustParsePrefix("::/128")),
		risk.PrefixRange(netip.MustParsePrefix("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128")),
	}})
	db := risktest.MustDB(t, d)
	for _, s := range []string{"0.0.0.0", "255.255.255.255", "::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"} {
		a := netip.MustParseAddr(s)
		if h := db.Hazards(a, risk.Facts{IsReachable: true}); !h.IsSpamhausDrop {
			t.Errorf("%s: not on the list at the edge of the space", s)
		}
		for _, n := range []netip.Addr{a.Prev(), a.Next()} {
			if n.IsValid() && db.Hazards(n, risk.Facts{IsReachable: true}).IsSpamhausDrop {
				t.Errorf("%s: on the list beside the edge", n)
			}
		}
	}
	// A whole-space range.
	db = risktest.MustDB(t, risk.Data{Lists: []risk.List{{Name: "all", Kind: risk.KindVPN, Ranges: prefixes("0.0.0.0/0", "::/0")}}})
	for _, s := range []string{"0.0.0.0", "128.0.0.1", "255.255.255.255", "::", "8000::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"} {
		if !db.Hazards(netip.MustParseAddr(s), risk.Facts{}).IsKnownAsVpn {
			t.Errorf("%s: not in a whole-space list", s)
		}
	}
}

func TestPrefixRange(t *testing.T) {
	tests := []struct{ prefix, from, to string }{
		{"192.0.2.0/24", "192.0.2.0", "192.0.2.255"},
		{"192.0.2.77/24", "192.0.2.0", "192.0.2.255"},
		{"0.0.0.0/0", "0.0.0.0", "255.255.255.255"},
		{"10.1.2.3/32", "10.1.2.3", "10.1.2.3"},
		{"2001:db8::/32", "2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"},
		{"::ffff:192.0.2.0/120", "192.0.2.0", "192.0.2.255"},
		{"::ffff:0:0/95", "::fffe:0:0", "::ffff:ffff:ffff"}, // wider than the mapped space: stays IPv6
	}
	for _, tt := range tests {
		got := risk.PrefixRange(netip.MustParsePrefix(tt.prefix))
		want := risk.Range{From: netip.MustParseAddr(tt.from), To: netip.MustParseAddr(tt.to)}
		if got != want {
			t.Errorf("PrefixRange(%s) = %v-%v, want %v-%v", tt.prefix, got.From, got.To, want.From, want.To)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(mustEncode(f, risk.Data{}))
	f.Add(mustEncode(f, sample()))
	f.Add(mustEncode(f, randomData(rand.New(rand.NewPCG(5, 6)), 4, 20)))
	f.Add([]byte("ipatlas-risk\x00\x01"))
	f.Add([]byte("ipatlas-risk\x00\x01\x00\x00\x00\x00\x01\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		db, err := risk.Decode(b)
		if err != nil {
			if !errors.Is(err, risk.ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		for _, s := range []string{"0.0.0.0", "1.2.3.4", "255.255.255.255", "::", "2001:db8::1", "ffff::1"} {
			h := db.Hazards(netip.MustParseAddr(s), risk.Facts{IsReachable: true, ASN: 1})
			risk.Rate(h)
			if h.HostingLikelihood < 0 || h.HostingLikelihood > 10 {
				t.Fatalf("HostingLikelihood %d", h.HostingLikelihood)
			}
		}
		db.Lists()
	})
}

// FuzzHazards builds lists from fuzzed bytes, encodes them and compares Hazards with the slow
// reference on the addresses around every boundary.
func FuzzHazards(f *testing.F) {
	f.Add([]byte{0, 10, 0, 0, 0, 24, 1, 10, 0, 0, 128, 25}, uint32(3))
	f.Add([]byte{2, 255, 255, 255, 255, 32, 3, 0, 0, 0, 0, 0}, uint32(0))
	f.Fuzz(func(t *testing.T, b []byte, asn uint32) {
		kinds := []risk.Kind{risk.KindTorExit, risk.KindTorRelay, risk.KindVPN, risk.KindPrivateRelay, risk.KindCloud,
			risk.KindDatacenter, risk.KindBlocklist, risk.KindDrop}
		var d risk.Data
		for len(b) >= 6 && len(d.Lists) < 16 { // kind, 4 address bytes, prefix length
			k := kinds[int(b[0])%len(kinds)]
			l := risk.List{Name: string(rune('a' + b[0]%5)), Kind: k}
			switch k {
			case risk.KindCloud, risk.KindDatacenter:
				l.Provider = string(rune('P' + b[1]%3))
			case risk.KindBlocklist:
				l.Score = 1 + int(b[2])%5
			}
			a := netip.AddrFrom4([4]byte(b[1:5]))
			p := netip.PrefixFrom(a, int(b[5])%33)
			if b[0]&0x80 != 0 {
				p = netip.PrefixFrom(netip.AddrFrom16(a.As16()), 96+int(b[5])%33)
			}
			l.Ranges = []risk.Range{risk.PrefixRange(p)}
			d.Lists = append(d.Lists, l)
			b = b[6:]
		}
		d.ASNLists = []risk.ASNList{{Name: "asn", Kind: risk.KindDatacenter, ASNs: []uint32{3, 7}}}
		db := risktest.MustDB(t, d)
		facts := risk.Facts{IsReachable: true, ASN: asn}
		for _, l := range d.Lists {
			for _, r := range l.Ranges {
				for _, a := range []netip.Addr{r.From.Prev(), r.From, r.To, r.To.Next()} {
					if !a.IsValid() {
						continue
					}
					if got, want := db.Hazards(a, facts), risktest.Slow(d, a, facts); !risktest.Equal(got, want) {
						t.Fatalf("Hazards(%s) (-slow +fast):\n%s", a, cmp.Diff(want, got))
					}
				}
			}
		}
	})
}
