package api

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// writeSnapshot writes a fixture snapshot whose Irish name in German is `deName`, the way
// `data update` does (temp file + rename), so readers never see a partial file.
func writeSnapshot(t *testing.T, path, deName string) {
	t.Helper()
	cs := datasettest.Countries()
	for i := range cs {
		if cs[i].Alpha2 == "IE" {
			names := map[string]string{}
			for k, v := range cs[i].Names {
				names[k] = v
			}
			names["de"] = deName
			cs[i].Names = names
		}
	}
	sec, err := country.Encode(cs)
	if err != nil {
		t.Fatal(err)
	}
	w := dbfile.NewWriter(dbfile.Metadata{FormatVersion: dbfile.FormatVersion})
	if err := w.AddSection(dataset.SectionCountry, sec); err != nil {
		t.Fatal(err)
	}
	if err := dbfile.WriteFile(context.Background(), path, w); err != nil {
		t.Fatal(err)
	}
}

// TestReloadUnderLoad swaps snapshots while requests run: no request may fail, every answer
// comes whole from one snapshot or the other, and a truncated file is refused while the old
// snapshot keeps answering.
func TestReloadUnderLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ipatlas.snapshot")
	writeSnapshot(t, path, "Irland-A")
	live, err := dataset.NewLive(path, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{}, Data: live})

	// At least 1.5 s and 10 swaps: a loaded machine makes fewer swaps in the time, and a
	// count of them is what the test needs, not a speed.
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	var stop atomic.Bool
	var ok, failed, requests atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for !stop.Load() {
				rec := httptest.NewRecorder()
				s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/data/country-info?code=IE&localityLanguage=de&key=good", nil))
				requests.Add(1)
				var c countryJSON
				if rec.Code != 200 || json.Unmarshal(rec.Body.Bytes(), &c) != nil || (c.Name != "Irland-A" && c.Name != "Irland-B") {
					failed.Add(1)
					continue
				}
				ok.Add(1)
			}
		})
	}
	swaps := 0
	for swaps < 10 || ctx.Err() == nil {
		name := "Irland-A"
		if swaps%2 == 0 {
			name = "Irland-B"
		}
		writeSnapshot(t, path, name)
		if err := live.Reload(); err != nil {
			t.Fatalf("reload %d: %v", swaps, err)
		}
		swaps++
		time.Sleep(20 * time.Millisecond)
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d requests, %d snapshot swaps", requests.Load(), swaps)
	if failed.Load() != 0 || ok.Load() == 0 {
		t.Fatalf("%d failed, %d ok, %d swaps", failed.Load(), ok.Load(), swaps)
	}

	// A truncated snapshot is refused; the previous one keeps answering.
	before := live.Current()
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, good[:len(good)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := live.Reload(); err == nil {
		t.Fatal("a truncated snapshot was accepted")
	}
	if live.Current() != before {
		t.Fatal("a refused snapshot replaced the serving one")
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/data/country-info?code=IE&key=good", nil))
	if rec.Code != 200 {
		t.Fatalf("after a refused reload: %d %s", rec.Code, rec.Body)
	}
}
