package client_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// The client is tested against the real API handler on a live HTTP server, so what it
// decodes is exactly what the service sends.

const testKey = "ipa_TESTKEYTESTKEYTESTKEYTES"

// oneKey accepts testKey only, with the service's errors for a missing or wrong key.
type oneKey struct{}

func (oneKey) Authenticate(_ context.Context, key string) (account.Account, error) {
	switch key {
	case "":
		return account.Account{}, auth.ErrMissingKey
	case testKey:
		return account.Account{ID: 1}, nil
	}
	return account.Account{}, auth.ErrInvalidKey
}

func serve(tb testing.TB, snap *dataset.Snapshot) *httptest.Server {
	srv := api.New(api.Options{
		Log:   slog.New(slog.DiscardHandler),
		Auth:  oneKey{},
		Meter: api.Offline{},
		Data:  dataset.NewStatic(snap),
	})
	ts := httptest.NewServer(srv.Handler())
	tb.Cleanup(ts.Close)
	return ts
}

// realServer serves the real snapshot named by IPATLAS_TEST_SNAPSHOT (skips without it).
func realServer(tb testing.TB) *httptest.Server { return serve(tb, datasettest.Real(tb)) }

// fixtureServer serves the small fixture snapshot: countries only.
func fixtureServer(tb testing.TB) *httptest.Server { return serve(tb, datasettest.Snapshot(tb)) }

// recorder is a transport that keeps the last request and answer body, so tests can
// compare what the client decoded with what the server sent.
type recorder struct {
	mu   sync.Mutex
	req  *http.Request
	body []byte
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.req, r.body = req, body
	r.mu.Unlock()
	return resp, nil
}

func (r *recorder) last() (*http.Request, []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.req, r.body
}
