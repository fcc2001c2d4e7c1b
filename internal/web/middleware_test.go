package web

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

func TestRedactQuery(t *testing.T) {
	tests := map[string]string{
		"":                      "",
		"ip=1.2.3.4":            "ip=1.2.3.4",
		"key=secret":            "key=REDACTED",
		"ip=1&key=s&key=t":      "ip=1&key=REDACTED&key=REDACTED",
		"k%65y=secret":          "k%65y=REDACTED",
		"keyboard=1":            "keyboard=1",
		"monkey=1&key=abc&x=%2": "monkey=1&key=REDACTED&x=%2",
	}
	for in, want := range tests {
		if got := RedactQuery(in); got != want {
			t.Errorf("RedactQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHandleAndRecover(t *testing.T) {
	var logs strings.Builder
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	mapErr := func(err error) (int, string) {
		var e *Error
		if errors.As(err, &e) {
			return e.Code, e.Msg
		}
		return 500, "internal"
	}
	tests := []struct {
		name     string
		fn       HandlerFunc
		code     int
		wantDesc string
	}{
		{"ok", func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, map[string]int{"a": 1}) }, 200, ""},
		{"client error", func(w http.ResponseWriter, r *http.Request) error { return Errorf(405, "bad ip %q", "x") }, 405, `bad ip "x"`},
		{"internal error hides cause", func(w http.ResponseWriter, r *http.Request) error { return errors.New("db password wrong") }, 500, "internal"},
		{"panic", func(w http.ResponseWriter, r *http.Request) error { panic("boom") }, 500, "An internal error occurred and the request was not completed. Please try again."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Stack(Handle(log, mapErr, tt.fn), Recover(log), NewRequestIDs().Middleware, Observe(log, NewMetrics(prometheus.NewRegistry()), "test"))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/x?key=topsecret", nil))
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d", rec.Code, tt.code)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if rec.Header().Get(RequestIDHeader) == "" {
				t.Error("no request id")
			}
			if tt.wantDesc != "" {
				var body ErrorBody
				if err := json.NewDecoder(rec.Body).Decode(&body); err != nil {
					t.Fatal(err)
				}
				if body.Status != tt.code || body.Description != tt.wantDesc {
					t.Errorf("body %+v", body)
				}
			}
			if strings.Contains(logs.String(), "topsecret") {
				t.Error("the key reached the log")
			}
		})
	}
}

func TestLimitRequestsBody(t *testing.T) {
	h := LimitRequests(10, 0)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			WriteError(w, http.StatusRequestEntityTooLarge, "too large")
			return
		}
		w.WriteHeader(200)
	}))
	for _, tc := range []struct {
		body string
		code int
	}{{"short", 200}, {strings.Repeat("x", 11), 413}} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/", strings.NewReader(tc.body)))
		if rec.Code != tc.code {
			t.Errorf("body %d bytes: status %d, want %d", len(tc.body), rec.Code, tc.code)
		}
	}
}

// A handler that overruns the time limit gets the JSON error body, labelled as JSON; one that
// answers in time keeps its own Content-Type (here: none set, so net/http sniffs HTML).
func TestLimitRequestsTimeoutIsJSON(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := LimitRequests(1<<10, 20*time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	rec := httptest.NewRecorder()
	slow.ServeHTTP(rec, httptest.NewRequest("GET", "/data/x", nil))
	if rec.Code != http.StatusServiceUnavailable || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("timeout: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var body ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Status != 503 || body.Description == "" {
		t.Errorf("timeout body %s: %v", rec.Body, err)
	}

	fast := LimitRequests(1<<10, time.Second)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!doctype html><p>page")
	}))
	srv := httptest.NewServer(fast) // a real server, which sniffs as clients see it
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Errorf("in-time answer: Content-Type %q, want the sniffed text/html", ct)
	}
}
