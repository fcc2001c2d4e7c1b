package api

import (
	"encoding/json"
	"log/slog"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestLoadTestStatic: the baseline exists only when asked for, needs a key like every
// lookup, and is 1.5 KB of valid JSON.
func TestLoadTestStatic(t *testing.T) {
	if rec := do(t, newTestServer(t), "GET", LoadTestPath+"?key=good", nil); rec.Code != 404 {
		t.Errorf("without LoadTestStatic: %d, want 404", rec.Code)
	}
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{"good": {ID: 1}}, Meter: fakeMeter{},
		Data: dataset.NewStatic(datasettest.Snapshot(t)), LoadTestStatic: true})
	if rec := do(t, s, "GET", LoadTestPath, nil); rec.Code != 401 {
		t.Errorf("without a key: %d, want 401", rec.Code)
	}
	rec := do(t, s, "GET", LoadTestPath+"?key=good", nil)
	if rec.Code != 200 || rec.Body.Len() != 1536 || !json.Valid(rec.Body.Bytes()) {
		t.Errorf("%d, %d bytes, valid JSON %v", rec.Code, rec.Body.Len(), json.Valid(rec.Body.Bytes()))
	}
	for q, want := range map[string]int{"bytes=64": 64, "bytes=2560": 2560, "bytes=16384": 16384, "bytes=1536": 1536} {
		rec := do(t, s, "GET", LoadTestPath+"?key=good&"+q, nil)
		if rec.Code != 200 || rec.Body.Len() != want || !json.Valid(rec.Body.Bytes()) {
			t.Errorf("%s: %d, %d bytes, valid JSON %v", q, rec.Code, rec.Body.Len(), json.Valid(rec.Body.Bytes()))
		}
	}
	if rec := do(t, s, "GET", LoadTestPath+"?key=good&bytes=1536", nil); rec.Body.String() != string(loadTestBody) {
		t.Errorf("bytes=1536 is not the default body")
	}
	for _, q := range []string{"bytes=", "bytes=63", "bytes=16385", "bytes=2k", "bytes=-1", "bytes=99999999999999999999"} {
		if rec := do(t, s, "GET", LoadTestPath+"?key=good&"+q, nil); rec.Code != 400 || !json.Valid(rec.Body.Bytes()) {
			t.Errorf("%s: %d %s, want a 400 JSON error", q, rec.Code, rec.Body)
		}
	}
}
