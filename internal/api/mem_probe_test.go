package api

import (
	"log/slog"
	"net/http/httptest"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestMemoryAllLanguages reports load time and heap growth with every language rendered, on
// the real snapshot (IPATLAS_TEST_SNAPSHOT), loading it afresh to time the load.
func TestMemoryAllLanguages(t *testing.T) {
	path := os.Getenv(datasettest.RealEnv)
	if path == "" {
		datasettest.Real(t) // skips, or fails under CI
	}
	var m0, m1, m2 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	snap, err := dataset.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	load := time.Since(t0)
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"k": {ID: 1}}, Meter: fakeMeter{}, Data: dataset.NewStatic(snap)})
	if _, err := s.countryView(); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	langs := snap.Countries.Languages()
	for _, l := range langs {
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/data/countries?key=k&localityLanguage="+l, nil))
		if rec.Code != 200 {
			t.Fatal(rec.Code)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m2)
	runtime.KeepAlive(s)
	runtime.KeepAlive(snap)
	t.Logf("load %v; heap after load %.1f MiB; after rendering %d languages %.1f MiB", load, float64(m1.HeapAlloc-m0.HeapAlloc)/(1<<20), len(langs), float64(m2.HeapAlloc-m0.HeapAlloc)/(1<<20))
}
