package netinfo_test

import (
	"math/rand/v2"
	"os"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// Tests on the real snapshot named by IPATLAS_TEST_SNAPSHOT (skipped without it).

// realSection returns the netinfo section of the real snapshot, read once: the bytes the
// serve path hands to Decode.
var realSection = sync.OnceValues(func() ([]byte, error) {
	f, err := dbfile.Open(os.Getenv(datasettest.RealEnv))
	if err != nil {
		return nil, err
	}
	b, _ := f.Section(dataset.SectionNetInfo)
	return b, nil
})

func realSectionOrSkip(tb testing.TB) []byte {
	tb.Helper()
	datasettest.Real(tb) // skips (or fails under CI) without the snapshot
	b, err := realSection()
	if err != nil || len(b) == 0 {
		tb.Fatalf("the real snapshot has no netinfo section: %v", err)
	}
	return b
}

// TestRealDecodeCost reports the time Decode takes on the real section and the heap the DB
// keeps, so that what the load-time indexes (ReceivingFrom, the rank orders, the prefixes
// of each AS) cost can be read off. Reported, never asserted: timing swings with the
// machine's load and under -race.
func TestRealDecodeCost(t *testing.T) {
	b := realSectionOrSkip(t)
	for range 2 { // the first pays for faulting the section in; BenchmarkRealDecode repeats
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		db, err := netinfo.Decode(b)
		d := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		t.Logf("Decode %d bytes: %v, heap +%.1f MiB", len(b), d, float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
		runtime.KeepAlive(db)
	}
}

func BenchmarkRealDecode(b *testing.B) {
	section := realSectionOrSkip(b)
	b.SetBytes(int64(len(section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := netinfo.Decode(section); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRealASOutward checks ReceivingFrom, RankList and ASPrefixes on the real snapshot
// against the scanning references, for the large carriers and a random sample.
func TestRealASOutward(t *testing.T) {
	db := datasettest.Real(t).Net
	if db == nil {
		t.Fatal("the real snapshot has no netinfo section")
	}
	ases := db.AllASes()
	n := 20
	if testing.Short() {
		n = 5
	}
	asns := sampleASNs(ases, rand.New(rand.NewPCG(2026, 12)), n, 3356, 15169, 13335, 174, 1299, 7018, 6939, 4134)
	checkASOutward(t, db, ases, db.AllNetworks(), asns)
}

// BenchmarkRealASIndexes measures the part of Decode that builds the AS-outward indexes.
func BenchmarkRealASIndexes(b *testing.B) {
	db, err := netinfo.Decode(realSectionOrSkip(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		db.BuildASIndexes()
	}
}

// TestRealSpace checks Space on the real data against what is known of the address space
// independently of it: IPv4's five RIRs and IANA all have space, the announced total is
// the sum of the announced IPv4 prefixes' sizes (Announced), and each registry's share of
// announced and bogon space is within its total. It logs the answer and how long the first
// call took (reported, never asserted).
func TestRealSpace(t *testing.T) {
	b := realSectionOrSkip(t)
	db, err := netinfo.Decode(b) // a DB of its own, so that the first call is timed
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	s := db.Space(true)
	t.Logf("IPv4 space in %v: %+v", time.Since(start), s)
	if s.Total.String() != "4294967296" {
		t.Errorf("IPv4 total %s", s.Total)
	}
	var announced netinfo.AddrCount
	for n := range db.Announced() {
		if n.BGPPrefix.Addr().Is4() {
			announced = announced.Add(netinfo.PrefixSize(n.BGPPrefix))
		}
	}
	if s.Announced.Cmp(announced) != 0 {
		t.Errorf("announced %s, the announced IPv4 prefixes hold %s", s.Announced, announced)
	}
	names := map[string]bool{}
	var sum netinfo.AddrCount
	for _, r := range s.Registries {
		names[r.Registry] = true
		sum = sum.Add(r.Total)
		if r.Announced.Cmp(r.Total) > 0 || r.Bogon.Cmp(r.Total) > 0 || r.Total.IsZero() {
			t.Errorf("%s: %+v", r.Registry, r)
		}
	}
	for _, want := range []string{"AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE NCC", "IANA"} {
		if !names[want] {
			t.Errorf("no %s in %v", want, s.Registries)
		}
	}
	if sum.Cmp(s.Total) > 0 {
		t.Errorf("the registries hold %s of %s", sum, s.Total)
	}
	start = time.Now()
	s6 := db.Space(false)
	t.Logf("IPv6 space in %v: %+v", time.Since(start), s6)
	if s6.Announced.IsZero() || s6.Bogon.IsZero() || len(s6.Registries) < 5 {
		t.Errorf("IPv6: %+v", s6)
	}
}
