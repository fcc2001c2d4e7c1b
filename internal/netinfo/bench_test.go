package netinfo_test

import (
	"math/rand/v2"
	"net/netip"
	"sync"
	"testing"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// Benchmarks on a synthetic table of 100,000 networks; netinfobuild benchmarks the real
// section.

var bench = sync.OnceValues(func() (netinfo.Input, []byte) {
	in := netinfotest.Synthetic(99, 100_000)
	b, err := netinfo.Encode(in)
	if err != nil {
		panic(err)
	}
	return in, b
})

func benchDB(b *testing.B) (*netinfo.DB, netinfo.Input) {
	in, section := bench()
	db, err := netinfo.Decode(section)
	if err != nil {
		b.Fatal(err)
	}
	return db, in
}

func BenchmarkDecode(b *testing.B) {
	_, section := bench()
	b.SetBytes(int64(len(section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := netinfo.Decode(section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	db, in := benchDB(b)
	addrs := netinfotest.Addrs(in, rand.New(rand.NewPCG(1, 2)), 1<<16)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		db.Lookup(addrs[i&(len(addrs)-1)])
		i++
	}
}

func BenchmarkAS(b *testing.B) {
	db, _ := benchDB(b)
	b.ReportAllocs()
	i := uint32(0)
	for b.Loop() {
		db.AS(i % 500)
		i++
	}
}

func BenchmarkWithin(b *testing.B) {
	db, _ := benchDB(b)
	for _, tc := range []struct {
		cidr   string
		depth  int
		bogons bool
	}{{"1.2.3.4/32", 1, false}, {"1.2.0.0/16", 1, false}, {"1.0.0.0/8", 2, false}, {"0.0.0.0/0", 1, false}, {"0.0.0.0/0", netinfo.MaxDepthLimit, false}, {"::/0", netinfo.MaxDepthLimit, false}, {"::/0", netinfo.MaxDepthLimit, true}} {
		p := netip.MustParsePrefix(tc.cidr)
		name := tc.cidr + "-depth" + string(rune('0'+tc.depth))
		if tc.bogons {
			name += "-bogonsOnly"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := db.Within(p, netinfo.WithinOptions{DepthLimit: tc.depth, BogonsOnly: tc.bogons}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
