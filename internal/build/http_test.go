package build

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// listServer serves /list/data.txt (a dated list) and counts requests; failing makes every
// request a 503.
type listServer struct {
	*httptest.Server
	hits    atomic.Int64
	failing atomic.Bool
	body    atomic.Value // string
}

func newListServer(t *testing.T, body string) *listServer {
	s := &listServer{}
	s.body.Store(body)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		if s.failing.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		if r.URL.Path != "/list/data.txt" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(s.body.Load().(string)))
	}))
	t.Cleanup(s.Close)
	return s
}

func urlsOptions(t *testing.T, s *listServer, maxAge time.Duration) Options {
	dir := t.TempDir()
	return Options{
		DataDir: filepath.Join(dir, "data"), CacheDir: filepath.Join(dir, "cache"),
		Catalog: []Source{{Name: "live", Licence: "test", Fetch: URLs{MaxAge: maxAge, Files: []URLFile{
			{Path: "lists/data.txt", URL: s.URL + "/list/data.txt"},
			{Path: "lists/extra.txt", URL: s.URL + "/missing", Optional: true},
		}}}},
		Sections: []Section{lineSection("s", "live")},
		Progress: t.Output(),
	}
}

// TestURLsCacheAndMaxAge: a fresh copy is reused without a request; one past MaxAge is
// fetched again and the new content used; if that refetch fails the old copy serves, with a
// warning; offline, a stale copy serves too.
func TestURLsCacheAndMaxAge(t *testing.T) {
	s := newListServer(t, "2026-11-01\na\nb\n")
	opt := urlsOptions(t, s, time.Hour)
	first := mustUpdate(t, opt)
	if got := s.hits.Load(); got != 2 { // data.txt and the optional file that is missing
		t.Fatalf("first update: %d requests, want 2", got)
	}
	if info := sourceInfo(t, first.Metadata, "live"); info.Status != StatusOK || !strings.Contains(info.Note, "Fetched ") {
		t.Errorf("first update: %+v", info)
	}
	mustUpdate(t, opt)
	if got := s.hits.Load(); got != 2 {
		t.Errorf("second update within MaxAge made %d requests in all, want 2 (none)", got)
	}
	second, _ := os.ReadFile(first.Path)

	// Age the cached copy past MaxAge: the next update fetches the new content.
	manifest := filepath.Join(opt.CacheDir, "live", "live.manifest.json")
	b, _ := os.ReadFile(manifest)
	b = bytes.Replace(b, []byte(`"fetchedAt": "`+time.Now().UTC().Format("2006")), []byte(`"fetchedAt": "2000`), 1)
	os.WriteFile(manifest, b, 0o644)
	s.body.Store("2026-11-02\nc\n")
	res := mustUpdate(t, opt)
	if got := s.hits.Load(); got != 4 {
		t.Errorf("update past MaxAge: %d requests in all, want 4", got)
	}
	third, _ := os.ReadFile(res.Path)
	if bytes.Equal(second, third) || !bytes.Contains(third, []byte("live: c")) {
		t.Errorf("the refetched list was not used")
	}

	// Age it again and make the server fail: the stale copy serves, with a warning.
	b, _ = os.ReadFile(manifest)
	b = bytes.Replace(b, []byte(`"fetchedAt": "`+time.Now().UTC().Format("2006")), []byte(`"fetchedAt": "2000`), 1)
	os.WriteFile(manifest, b, 0o644)
	s.failing.Store(true)
	res = mustUpdate(t, opt)
	if info := sourceInfo(t, res.Metadata, "live"); info.Status != StatusOK || !strings.Contains(info.Note, "refetch failed") {
		t.Errorf("failed refetch: %+v", info)
	}
	if got, _ := os.ReadFile(res.Path); !bytes.Contains(got, []byte("live: c")) {
		t.Errorf("the stale copy was not used")
	}

	opt.Offline = true
	hits := s.hits.Load()
	mustUpdate(t, opt)
	if s.hits.Load() != hits {
		t.Error("offline update made a request")
	}
}

// TestURLsFetchErrors: a required file that fails, an unsafe path, and nothing downloaded
// are errors.
func TestURLsFetchErrors(t *testing.T) {
	s := newListServer(t, "x\n")
	for name, m := range map[string]URLs{
		"missing file":  {Files: []URLFile{{Path: "a.txt", URL: s.URL + "/nope"}}},
		"path escapes":  {Files: []URLFile{{Path: "../a.txt", URL: s.URL + "/list/data.txt"}}},
		"absolute path": {Files: []URLFile{{Path: "/a.txt", URL: s.URL + "/list/data.txt"}}},
		"all optional":  {Files: []URLFile{{Path: "a.txt", URL: s.URL + "/nope", Optional: true}}},
	} {
		if _, err := m.Fetch(t.Context(), t.TempDir()); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
