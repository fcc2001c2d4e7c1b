package ipgeobuild

import (
	"math/rand/v2"
	"net/netip"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// Benchmarks on the real section (built once; see shared).

// addrs returns n seeded random addresses inside the data's networks, 3/4 IPv4.
func addrs(tb testing.TB, rd *realData, n int) []netip.Addr {
	tb.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	var nets []netip.Prefix
	for res := range rd.mmdb.Networks() {
		if rng.IntN(16) == 0 {
			nets = append(nets, res.Prefix())
		}
	}
	out := make([]netip.Addr, n)
	for i := range out {
		out[i] = randomAddr(rng, 2+i%2, nets)
		if i%4 == 3 {
			out[i] = randomAddr(rng, 1, nets)
		}
	}
	return out
}

func BenchmarkRealLookup(b *testing.B) {
	rd := shared.get(b)
	as := addrs(b, rd, 1<<16)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		rd.db.Lookup(as[i&(len(as)-1)])
		i++
	}
}

// BenchmarkRealConfidence rates random addresses with their /16 (IPv4) or /32 (IPv6) as the
// BGP prefix: "miss" over 65,536 distinct prefixes (the memo holds 16,384), "hit" over 256.
func BenchmarkRealConfidence(b *testing.B) {
	rd := shared.get(b)
	for _, tc := range []struct {
		name string
		n    int
	}{{"miss", 1 << 16}, {"hit", 1 << 8}} {
		as := addrs(b, rd, tc.n)
		places := make([]ipgeo.Place, len(as))
		evs := make([]ipgeo.Evidence, len(as))
		for i, a := range as {
			places[i], _ = rd.db.Lookup(a)
			bits := 16
			if a.Is6() {
				bits = 32
			}
			evs[i] = ipgeo.Evidence{BGPPrefix: netip.PrefixFrom(a, bits).Masked(), SecondOpinion: places[i].Country.Code}
		}
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				j := i & (len(as) - 1)
				rd.db.Confidence(places[j], evs[j])
				i++
			}
		})
	}
}

func BenchmarkRealTimeZone(b *testing.B) {
	rd := shared.get(b)
	at := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	var buf [64]byte
	for b.Loop() {
		tz, _ := rd.db.TimeZone("America/Los_Angeles", at, "en")
		tz.AppendLocalTime(buf[:0])
	}
}

// BenchmarkRealAnswer is the engine's share of a geolocation-with-confidence answer: lookup,
// confidence (memo hit: the network's /24 as BGP prefix) and time zone.
func BenchmarkRealAnswer(b *testing.B) {
	rd := shared.get(b)
	as := addrs(b, rd, 1<<8)
	at := time.Now()
	b.ReportAllocs()
	i := 0
	var buf [64]byte
	for b.Loop() {
		p, _ := rd.db.Lookup(as[i&255])
		rd.db.Confidence(p, ipgeo.Evidence{SecondOpinion: p.Country.Code})
		tz, _ := rd.db.TimeZone(p.TimeZone, at, "en")
		tz.AppendLocalTime(buf[:0])
		i++
	}
}

func BenchmarkRealDecode(b *testing.B) {
	rd := shared.get(b)
	b.SetBytes(int64(len(rd.section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ipgeo.Decode(rd.section); err != nil {
			b.Fatal(err)
		}
	}
}
