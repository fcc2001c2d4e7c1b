package risk_test

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"sync"
	"testing"

	"github.com/ipatlas/ipatlas/internal/risk"
)

// realistic returns lists of the real ones' shape and size (about 280,000 ranges in 780 lists;
// riskbuild benchmarks the real section), for benchmarks that must not depend on the sources.
func realistic() risk.Data {
	rng := rand.New(rand.NewPCG(11, 12))
	v4 := func(bitsMin, bitsMax int) risk.Range {
		a := netip.AddrFrom4([4]byte{byte(1 + rng.IntN(222)), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())})
		return risk.PrefixRange(netip.PrefixFrom(a, bitsMin+rng.IntN(bitsMax-bitsMin+1)))
	}
	v6 := func(bitsMin, bitsMax int) risk.Range {
		var b [16]byte
		b[0], b[1] = 0x20, byte(rng.IntN(16))
		for i := 2; i < 16; i++ {
			b[i] = byte(rng.Uint32())
		}
		return risk.PrefixRange(netip.PrefixFrom(netip.AddrFrom16(b), bitsMin+rng.IntN(bitsMax-bitsMin+1)))
	}
	list := func(name string, kind risk.Kind, provider string, score, n4, n6 int, r4, r6 [2]int) risk.List {
		l := risk.List{Name: name, Kind: kind, Provider: provider, Score: score}
		for range n4 {
			l.Ranges = append(l.Ranges, v4(r4[0], r4[1]))
		}
		for range n6 {
			l.Ranges = append(l.Ranges, v6(r6[0], r6[1]))
		}
		return l
	}
	host, single := [2]int{32, 32}, [2]int{128, 128}
	d := risk.Data{Lists: []risk.List{
		list("tor/exits", risk.KindTorExit, "", 0, 5000, 1500, host, single),
		list("tor/relays", risk.KindTorRelay, "", 0, 14000, 4000, host, single),
		list("vpn", risk.KindVPN, "", 0, 11000, 500, [2]int{20, 32}, [2]int{29, 48}),
		list("datacenter", risk.KindDatacenter, "", 0, 42000, 8800, [2]int{12, 24}, [2]int{29, 64}),
		list("drop", risk.KindDrop, "", 0, 1400, 80, [2]int{12, 24}, [2]int{28, 48}),
	}}
	for i := range 22 {
		d.Lists = append(d.Lists, list(fmt.Sprint("cloud/", i), risk.KindCloud, fmt.Sprint("Cloud ", i), 0, 700, 500, [2]int{14, 28}, [2]int{32, 64}))
	}
	for i := range 738 {
		d.Lists = append(d.Lists, list("ipcat", risk.KindDatacenter, fmt.Sprint("Provider ", i), 0, 5, 0, [2]int{14, 24}, single))
	}
	for score, n := range []int{89657, 16556, 8863, 3941, 1095, 248, 47, 14, 6, 3} {
		d.Lists = append(d.Lists, list("ipsum", risk.KindBlocklist, "", score+1, n, 0, host, single))
	}
	hosting := make([]uint32, 906)
	for i := range hosting {
		hosting[i] = uint32(1 + rng.IntN(400000))
	}
	d.ASNLists = []risk.ASNList{{Name: "hosting-asn", Kind: risk.KindDatacenter, ASNs: hosting}}
	return d
}

var benchData = sync.OnceValues(func() ([]byte, error) { return risk.Encode(realistic()) })

func benchDB(b *testing.B) *risk.DB {
	section, err := benchData()
	if err != nil {
		b.Fatal(err)
	}
	db, err := risk.Decode(section)
	if err != nil {
		b.Fatal(err)
	}
	return db
}

func BenchmarkHazards(b *testing.B) {
	db := benchDB(b)
	rng := rand.New(rand.NewPCG(13, 14))
	for _, fam := range []string{"ipv4", "ipv6"} {
		as := make([]netip.Addr, 4096)
		for i := range as {
			if fam == "ipv4" {
				as[i] = netip.AddrFrom4([4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())})
			} else {
				var a [16]byte
				a[0], a[1], a[2] = 0x20, byte(rng.IntN(16)), byte(rng.Uint32())
				as[i] = netip.AddrFrom16(a)
			}
		}
		f := risk.Facts{IsReachable: true, ASN: 3320, ASOrganisation: "Deutsche Telekom AG"}
		b.Run(fam, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				db.Hazards(as[i&4095], f)
				i++
			}
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	section, err := benchData()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := risk.Decode(section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	d := realistic()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := risk.Encode(d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRate(b *testing.B) {
	for name, h := range map[string]risk.Hazards{
		"low":      {},
		"moderate": {CloudProvider: "Amazon", IsKnownAsDatacenter: true, HostingProvider: "Amazon AWS", IsHostingAsn: true},
		"high":     {IsKnownAsTorServer: true, IsKnownAsTorExit: true, IsBlocklisted: true, BlocklistCount: 5},
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				risk.Rate(h)
			}
		})
	}
}
