package ipgeo

import (
	"net/netip"
	"testing"
	"time"
)

// Benchmarks on the small fixture; package ipgeobuild benchmarks the real section.

func BenchmarkLookup(b *testing.B) {
	db, _ := mustDB(b, fixture())
	for _, s := range []string{"1.0.0.1", "2400:cb00::1", "2002:100::1"} {
		a := netip.MustParseAddr(s)
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				db.Lookup(a)
			}
		})
	}
}

func BenchmarkConfidence(b *testing.B) {
	db, _ := mustDB(b, fixture())
	p, _ := db.Lookup(netip.MustParseAddr("6.0.0.1"))
	ev := Evidence{BGPPrefix: netip.MustParsePrefix("6.0.0.0/23"), SecondOpinion: "AU"}
	b.Run("memo", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			db.Confidence(p, ev)
		}
	})
	b.Run("compute", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			db.computeEstimate(db.samples(ev.BGPPrefix))
		}
	})
}

func BenchmarkTimeZone(b *testing.B) {
	db, _ := mustDB(b, fixture())
	at := time.Date(2026, 1, 10, 12, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for b.Loop() {
		db.TimeZone("Australia/Sydney", at, "de")
	}
}

func BenchmarkDecode(b *testing.B) {
	_, sec := mustDB(b, fixture())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(sec); err != nil {
			b.Fatal(err)
		}
	}
}
