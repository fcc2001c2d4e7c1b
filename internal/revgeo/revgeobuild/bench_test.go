package revgeobuild

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/revgeo"
)

// BenchmarkRealData builds the section from the real sources once, then measures Lookup on
// random points over land and sea, Decode, and what a loaded section costs: its size, the
// load time and the resident memory of a fresh process that only loads it.
func BenchmarkRealData(b *testing.B) {
	rb := buildReal(b)
	db := rb.db

	rng := rand.New(rand.NewPCG(7, 7))
	var sea, land, mixed []revgeo.Point
	for range 4096 {
		// Uniform on the sphere: seven points in ten fall in the oceans.
		sea = append(sea, revgeo.Point{Lat: math.Asin(2*rng.Float64()-1) * 180 / math.Pi, Lon: 360*rng.Float64() - 180})
	}
	for len(land) < 4096 {
		// Around populated places, where most queries land: up to ~20 km away.
		lat, lon := 70*(2*rng.Float64()-1), 180*(2*rng.Float64()-1)
		p, _ := db.Lookup(lat, lon)
		if p.Country.IsZero() || p.Locality.IsZero() {
			continue
		}
		land = append(land, revgeo.Point{Lat: p.Locality.Latitude + 0.1*rng.NormFloat64(), Lon: p.Locality.Longitude + 0.1*rng.NormFloat64()})
	}
	for i := range 4096 {
		if i%2 == 0 {
			mixed = append(mixed, sea[i])
		} else {
			mixed = append(mixed, land[i])
		}
	}
	for _, set := range []struct {
		name string
		pts  []revgeo.Point
	}{{"sea", sea}, {"land", land}, {"mixed", mixed}} {
		b.Run("Lookup/"+set.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p := set.pts[i%len(set.pts)]
				db.Lookup(p.Lat, p.Lon)
				i++
			}
		})
	}
	b.Run("PlusCode", func(b *testing.B) {
		p, _ := db.Lookup(-33.8568, 151.2153)
		b.ReportAllocs()
		for b.Loop() {
			_ = p.PlusCode()
		}
	})
	b.Run("Decode", func(b *testing.B) {
		b.SetBytes(int64(len(rb.section)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := revgeo.Decode(rb.section); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(rb.section))/1e6, "section-MB")
	})
	b.Run("Load", func(b *testing.B) {
		path := filepath.Join(b.TempDir(), "revgeo.section")
		if err := os.WriteFile(path, rb.section, 0o600); err != nil {
			b.Fatal(err)
		}
		var rss, heap, load float64
		for b.Loop() {
			rss, heap, load = loadInChild(b, path)
		}
		b.ReportMetric(rss, "rss-MB")
		b.ReportMetric(heap, "heap-MB")
		b.ReportMetric(load, "load-ms")
	})
}

// loadInChild runs this test binary's TestLoadHelper in a fresh process to load the section
// at path, and returns the process's resident memory and live heap in MB after the load and
// the load time (read + Decode) in milliseconds.
func loadInChild(tb testing.TB, path string) (rss, heap, ms float64) {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLoadHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REVGEO_LOAD_HELPER="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("load helper: %v\n%s", err, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "revgeo-load "); ok {
			if _, err := fmt.Sscan(rest, &rss, &heap, &ms); err != nil {
				tb.Fatalf("load helper said %q: %v", line, err)
			}
			return rss, heap, ms
		}
	}
	tb.Fatalf("load helper said nothing useful:\n%s", out)
	return 0, 0, 0
}

// TestLoadHelper is not a test: run by loadInChild in a child process, it loads a section and
// prints what that cost.
func TestLoadHelper(t *testing.T) {
	path := os.Getenv("REVGEO_LOAD_HELPER")
	if path == "" {
		t.Skip("only run by BenchmarkRealData")
	}
	t0 := time.Now()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := revgeo.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(t0)
	b = nil
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("revgeo-load %.1f %.1f %.1f\n", vmRSS()/1e6, float64(ms.HeapAlloc)/1e6, float64(load.Microseconds())/1e3)
	runtime.KeepAlive(db)
}

// vmRSS returns the resident set size of this process in bytes (Linux), or 0.
func vmRSS() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) * 1024
		}
	}
	return 0
}
