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
		"":                              "",
		"ip=1.2.3.4":                    "ip=1.2.3.4",
		"key=secret":                    "key=REDACTED",
		"ip=1&key=s&key=t":              "ip=1&key=REDACTED&key=REDACTED",
		"k%65y=secret":                  "k%65y=REDACTED",
		"keyboard=1":                    "keyboard=1",
		"monkey=1&key=abc&x=%2":         "monkey=1&key=REDACTED&x=%2",
		"code=IE&KEY=secret":            "code=IE&KEY=REDACTED",
		"Key=secret&ip=1":               "Key=REDACTED&ip=1",
		"K%45Y=secret":                  "K%45Y=REDACTED",
		"apikey=ipa_ABC234XYZ&ip=1":     "apikey=REDACTED&ip=1",
		"foo=ipa_ABC234XYZ":             "foo=REDACTED",
		"key%3Dipa_ABC234XYZ":           "key%3DREDACTED",
		"x=ipa%5FABC234XYZ&y=ipa%5fQQ2": "x=REDACTED&y=REDACTED",
		"x=ipa_%41BC234XYZ&y=1":         "x=REDACTED&y=1",
		"ip=8.8.8.8&lang=ipa":           "ip=8.8.8.8&lang=ipa",
		// Encoded beyond the underscore, under any name.
		"api_key=%69pa_DPAJYZCOE6KBB5BEW4YDHWLRVB&ip=1": "api_key=REDACTED&ip=1",
		"apikey=i%70a_DPAJYZCOE6KBB5BEW4YDHWLRVB":       "apikey=REDACTED",
		"x=%69%70%61%5F%41":                             "x=REDACTED",
		"%69pa_DPAJYZ=1&ip=2":                           "REDACTED=1&ip=2",
		"q=%69pa&lang=%zz":                              "q=%69pa&lang=%zz",
		// Keys run together, and keys encoded twice (a careless client's double escaping).
		"code=IE&localityLanguage=ipa_AAA234ipa_BBB234ipa_CCC": "code=IE&localityLanguage=REDACTED",
		"code=IE&ip=%2569pa_DPAJYZCOE6KBB5BEW4YDHWLRVB":        "code=IE&ip=REDACTED",
		"x=ipa%255FDPAJYZCOE6KBB5BEW4YDHWLRVB":                 "x=REDACTED",
		// A password, as a dashboard form sent by GET would carry it.
		"email=a%40example.org&password=hunter2hunter2": "email=a%40example.org&password=REDACTED",
		"PASSWORD=x&next=%2Faccount%2F":                 "PASSWORD=REDACTED&next=%2Faccount%2F",
		"p%61ssword=x":                                  "p%61ssword=REDACTED",
		"passwords=x":                                   "passwords=x",
		"a=1;password=hunter2hunter2&b=2":               "a=1;password=REDACTED&b=2",
		"a=1;key=secret;b=2&":                           "a=1;key=REDACTED;b=2&",
	}
	for in, want := range tests {
		if got := RedactQuery(in); got != want {
			t.Errorf("RedactQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactKeys(t *testing.T) {
	for in, want := range map[string]string{
		"/data/country-info":               "/data/country-info",
		"/data/ipa_ABC234XYZ/country-info": "/data/REDACTED/country-info",
		"/ipa_A/ipa_B":                     "/REDACTED/REDACTED",
		"/capital-ipa":                     "/capital-ipa",
	} {
		if got := RedactKeys(in); got != want {
			t.Errorf("RedactKeys(%q) = %q, want %q", in, got, want)
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

// LimitRequests gives the handler a context that ends at the time limit, and runs it on the
// caller's goroutine (no buffering: what the handler writes goes straight out).
func TestLimitRequestsDeadline(t *testing.T) {
	var deadline time.Time
	var hasDeadline bool
	h := LimitRequests(1<<10, 50*time.Millisecond)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		deadline, hasDeadline = r.Context().Deadline()
		<-r.Context().Done()
		w.WriteHeader(http.StatusTeapot)
	}))
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/data/x", nil))
	end := time.Now()
	if !hasDeadline || deadline.Before(start.Add(50*time.Millisecond)) || deadline.After(end) {
		t.Errorf("deadline %v (set %v), want 50ms after the request began (%v), before it ended (%v)", deadline, hasDeadline, start, end)
	}
	if rec.Code != http.StatusTeapot {
		t.Errorf("status %d: the handler's own answer should go out unchanged", rec.Code)
	}
}

// FuzzRedactQuery: whatever the query, what is logged holds no key-like run, and redacting
// again changes nothing.
func FuzzRedactQuery(f *testing.F) {
	for _, s := range []string{"key=ipa_ABC", "KEY=x&ip=1", "ip=%2569pa_Q", "a=ipa%255FQ", "a=ipa_ipa_Q", "ipa%5Fipa_Z", "%zz&key", "ipaipa_", "k=%69pa_Q", "%69%70%61%5f%5A=1", "ip=2a02%3A2e0%3A%3A1&localityLanguage=de", "k%65y=1", "Ke%79=x", "a=1&k+ey=2", "a=1;password=x", "p%61ssword=y&a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if hasKey(unescapeAll(RedactQuery(raw))) {
			t.Fatalf("RedactQuery(%q) = %q keeps an encoded key", raw, RedactQuery(raw))
		}
		out := RedactQuery(raw)
		for i := strings.Index(out, KeyPrefix); i >= 0; i = strings.Index(out, KeyPrefix) {
			if rest := out[i+len(KeyPrefix):]; rest != "" && isKeyChar(rest[0]) {
				t.Fatalf("RedactQuery(%q) = %q keeps a key", raw, out)
			}
			out = out[i+len(KeyPrefix):]
		}
		if again := RedactQuery(RedactQuery(raw)); again != RedactQuery(raw) {
			t.Fatalf("not idempotent: %q -> %q", RedactQuery(raw), again)
		}
		// The fast path against the full one.
		if nothingToRedact(raw) && redactQuery(raw) != raw {
			t.Fatalf("nothingToRedact(%q), but redactQuery gives %q", raw, redactQuery(raw))
		}
	})
}

// BenchmarkObserveAccessLog measures what the access log line costs per request (the text
// handler, writing to io.Discard; a server also pays its write), at Info where it is written
// and at Warn where it is not, for the load test's baseline and for geolocation queries.
func BenchmarkObserveAccessLog(b *testing.B) {
	body := []byte(`{"x":1}`)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) })
	for _, lv := range []slog.Level{slog.LevelInfo, slog.LevelWarn} {
		obs := Observe(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: lv})), nil, "r")(h)
		for _, q := range []struct{ name, target string }{
			{"static", "/data/load-test-static"},
			{"geo-v4", "/data/ip-geolocation-with-confidence?ip=203.0.113.77&localityLanguage=de"},
			{"geo-v6", "/data/ip-geolocation-with-confidence?ip=2a02%3A2e0%3A3fe%3A1001%3A302%3A%3A1&localityLanguage=default"},
		} {
			b.Run(lv.String()+"/"+q.name, func(b *testing.B) {
				r := httptest.NewRequest("GET", q.target, nil)
				w := httptest.NewRecorder()
				b.ReportAllocs()
				for b.Loop() {
					obs.ServeHTTP(w, r)
				}
			})
		}
	}
}

// BenchmarkRedactCrafted redacts 32 KB queries made of key prefixes, which took time in
// the square of their length before keyStart looked at each "ipa" once.
func BenchmarkRedactCrafted(b *testing.B) {
	for name, raw := range map[string]string{
		"prefixes":   "x=" + strings.Repeat("ipa_!", 6500),
		"parameters": strings.Repeat("ipa_=%41&", 3600),
		"plain":      "x=" + strings.Repeat("abcd!", 6500),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				RedactQuery(raw)
			}
		})
	}
}

func TestRedactPath(t *testing.T) {
	for in, want := range map[string]string{
		"/data/countries":                   "/data/countries",
		"/data%2Fcountry-info":              "/data%2Fcountry-info",
		"/data/ipa_ABCDEFGH234567":          "/data/REDACTED",
		"/data/%69pa_ABCDEFGH234567":        "/data/REDACTED",
		"/data/ipa%5FABCDEFGH234567/x":      "/data/REDACTED/x",
		"/assets/%69%70%61%5Fabc/style.css": "/assets/REDACTED/style.css",
		"/data/%zz":                         "/data/%zz",
		"/data/%2569pa_ABCDEFGH234567":      "/data/REDACTED",
	} {
		if got := RedactPath(in); got != want {
			t.Errorf("RedactPath(%q) = %q, want %q", in, got, want)
		}
	}
}
