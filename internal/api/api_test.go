package api

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/revgeo"
	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/prometheus/client_golang/prometheus"
)

// fakeAuth knows one key per account; fakeMeter refuses by account id.
type fakeAuth map[string]account.Account

func (f fakeAuth) Authenticate(_ context.Context, key string) (account.Account, error) {
	if key == "" {
		return account.Account{}, auth.ErrMissingKey
	}
	a, ok := f[key]
	if !ok {
		return account.Account{}, auth.ErrInvalidKey
	}
	return a, nil
}

type fakeMeter struct{}

func (fakeMeter) Charge(_ context.Context, a account.Account, pkg string) error {
	switch a.ID {
	case 2:
		return &quota.ExceededError{Package: pkg, Limit: 10}
	case 3:
		return &quota.ForbiddenError{Package: pkg, Reason: "the account is disabled"}
	case 4:
		return errors.New("database is on fire")
	}
	return nil
}

func newTestServer(t *testing.T) *Server {
	t.Helper()
	return New(Options{
		Log:      slog.New(slog.DiscardHandler),
		Auth:     fakeAuth{"good": {ID: 1}, "spent": {ID: 2}, "disabled": {ID: 3}, "broken": {ID: 4}},
		Meter:    fakeMeter{},
		Data:     dataset.NewStatic(datasettest.Snapshot(t)),
		Registry: prometheus.NewRegistry(),
	})
}

func do(t *testing.T, s *Server, method, target string, headers map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, r)
	return rec
}

func TestStatusCodesAndErrorBodies(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name    string
		method  string
		target  string
		headers map[string]string
		code    int
		desc    string // substring of the description
	}{
		{"no key", "GET", "/data/country-info?code=IE", nil, 401, "No API key"},
		{"wrong key", "GET", "/data/country-info?code=IE&key=nope", nil, 401, "not valid"},
		{"empty key", "GET", "/data/country-info?code=IE&key=", nil, 401, "No API key"},
		{"query key", "GET", "/data/country-info?code=IE&key=good", nil, 200, ""},
		{"x-service-key", "GET", "/data/country-info?code=IE", map[string]string{"x-service-key": "good"}, 200, ""},
		{"x-bdc-key", "GET", "/data/country-info?code=IE", map[string]string{"x-bdc-key": "good"}, 200, ""},
		{"quota exceeded", "GET", "/data/country-info?code=IE&key=spent", nil, 402, "volume of 10 for the ip-geolocation package is used up"},
		{"forbidden", "GET", "/data/country-info?code=IE&key=disabled", nil, 403, "disabled"},
		{"store failure", "GET", "/data/country-info?code=IE&key=broken", nil, 500, "Please try again"},
		{"missing code", "GET", "/data/country-info?key=good", nil, 400, "code parameter is required"},
		{"localityLanguage at its longest", "GET", "/data/country-info?code=IE&key=good&localityLanguage=" + strings.Repeat("x", 35), nil, 200, ""},
		{"localityLanguage too long", "GET", "/data/country-info?code=IE&key=good&localityLanguage=" + strings.Repeat("x", 36), nil, 400, "too long (35 characters at most)"},
		{"localityLanguage too long with spaces", "GET", "/data/country-info?code=IE&key=good&localityLanguage=" + strings.Repeat("%20", 34) + "de", nil, 400, "too long"},
		{"healthz ignores localityLanguage", "GET", "/healthz?localityLanguage=" + strings.Repeat("x", 36), nil, 200, ""},
		{"unknown code", "GET", "/data/country-info?code=XX&key=good", nil, 404, `"XX"`},
		{"malformed escape", "GET", "/data/country-info?code=IE%&key=good", nil, 400, `"code=IE%" has a '%' that is not followed by two hexadecimal digits`},
		{"semicolon separator", "GET", "/data/country-info?key=good;code=IE", nil, 400, "separated by '&', not ';'"},
		// Skipped, the pair would make ip absent: the caller's own address, another question.
		{"ip that does not decode", "GET", "/data/ip-geolocation-with-confidence?key=good&ip=8.8.8.8%", nil, 400, "query string is not valid"},
		{"endpoints without a key too", "GET", "/data/sources?x=%zz", nil, 400, "query string is not valid"},
		{"a key sent as the code is not repeated", "GET", "/data/country-info?key=good&code=ipa_ABCDEFGH234567", nil, 404, `"REDACTED"`},
		{"unknown path", "GET", "/data/nothing-here", nil, 404, "no endpoint"},
		{"escaped slash", "GET", "/data%2Fcountry-info?code=IE&key=good", nil, 404, "no endpoint at /data%2Fcountry-info."},
		{"key in the path", "GET", "/data/ipa_ABCDEFGH234567", nil, 404, "no endpoint at /data/REDACTED."},
		{"encoded key in the path", "GET", "/data/%69pa_ABCDEFGH234567", nil, 404, "no endpoint at /data/REDACTED."},
		{"twice-encoded key in the path", "GET", "/data/%2569pa_ABCDEFGH234567", nil, 404, "no endpoint at /data/REDACTED."},
		{"a key sent twice-encoded as the code is not repeated", "GET", "/data/country-info?key=good&code=%2569pa_ABCDEFGH234567", nil, 404, `"REDACTED"`},
		{"a twice-encoded key in an unclean path", "GET", "/data//%2569pa_ABCDEFGH234567", nil, 404, "use /data/REDACTED."},
		{"a key sent as the number is not repeated", "GET", "/data/phone-number-validate?key=good&number=ipa_ABCDEFGH234567", nil, 400, `"REDACTED"`},
		{"a key sent twice-encoded as the number is not repeated", "GET", "/data/phone-number-validate?key=good&number=%2569pa_ABCDEFGH234567", nil, 400, `"REDACTED"`},
		{"key in the path of a 405", "GET", "/graphql/ipa_ABCDEFGH234567", nil, 405, "not allowed on /graphql/REDACTED;"},
		{"double slash", "GET", "/data//countries?key=good", nil, 404, "use /data/countries"},
		{"dot segment", "GET", "/data/x/../countries?key=good", nil, 404, "use /data/countries"},
		{"wrong method", "POST", "/data/countries?key=good", nil, 405, "use GET, HEAD."},
		{"sources need no key", "GET", "/data/sources", nil, 200, ""},
		{"healthz", "GET", "/healthz", nil, 200, ""},
		{"readyz", "GET", "/readyz", nil, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := do(t, s, tt.method, tt.target, tt.headers)
			if rec.Code != tt.code {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tt.code, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if got := rec.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", got)
			}
			if got := rec.Header().Get("Allow"); tt.code == 405 && !strings.Contains(rec.Body.String(), "; use "+got+".") {
				t.Errorf("Allow %q is not the description's", got)
			}
			if tt.code == 200 {
				return
			}
			var body web.ErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
				t.Fatalf("error body is not JSON: %s", rec.Body)
			}
			if body.Status != tt.code || !strings.Contains(body.Description, tt.desc) {
				t.Errorf("body %+v; want status %d and a description containing %q", body, tt.code, tt.desc)
			}
			if strings.Contains(body.Description, "fire") {
				t.Error("internal error text leaked to the client")
			}
		})
	}
}

func TestCountryInfo(t *testing.T) {
	s := newTestServer(t)
	tests := []struct{ query, wantName, wantAlpha2 string }{
		{"code=IE", "Ireland", "IE"},
		{"code=ie&localityLanguage=de", "Irland", "IE"},
		{"code=IRL&localityLanguage=DE", "Irland", "IE"},
		{"code=372&localityLanguage=de-AT", "Irland", "IE"},
		{"code=036&localityLanguage=ja", "オーストラリア", "AU"},
		{"code=US&localityLanguage=xx", "United States", "US"},
		{"code=BR&localityLanguage=default", "Brasil", "BR"},
		{"code=BR&localityLanguage=", "Brazil", "BR"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			rec := do(t, s, "GET", "/data/country-info?key=good&"+tt.query, nil)
			if rec.Code != 200 {
				t.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
			var got countryJSON
			if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			if got.Name != tt.wantName || got.ISOAlpha2 != tt.wantAlpha2 {
				t.Errorf("got %s %q, want %s %q", got.ISOAlpha2, got.Name, tt.wantAlpha2, tt.wantName)
			}
		})
	}
}

// TestCountriesMatchReference checks the spliced rendering against the slow, obviously
// correct one: one Marshal of the whole wire slice, for every country and several languages.
func TestCountriesMatchReference(t *testing.T) {
	s := newTestServer(t)
	snap := datasettest.Snapshot(t)
	for _, lang := range []string{"en", "de", "ja", "pt", "zz"} {
		rec := do(t, s, "GET", "/data/countries?key=good&localityLanguage="+lang, nil)
		if rec.Code != 200 {
			t.Fatalf("status %d", rec.Code)
		}
		var want []countryJSON
		loc := lang
		if lang == "zz" {
			loc = "en"
		}
		for _, c := range snap.Countries.All() {
			want = append(want, toCountryJSON(c, snap.Countries.Name(c, loc)))
		}
		wantJSON, _ := web.Marshal(want)
		if diff := cmp.Diff(string(wantJSON), rec.Body.String()); diff != "" {
			t.Errorf("lang %s: spliced output differs from json.Marshal (-want +got):\n%s", lang, diff)
		}
	}
}

func TestCountryInfoNoAllocs(t *testing.T) {
	s := newTestServer(t)
	v, err := s.countryView()
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 4096)
	v.quotedNames("de") // first use of a language fills its cache
	n := testing.AllocsPerRun(100, func() {
		i, ok := v.lookup("IE")
		if !ok {
			t.Fatal("IE missing")
		}
		buf = v.appendCountry(buf[:0], i, "de")
	})
	if n != 0 {
		t.Errorf("country lookup + render allocated %v times", n)
	}
}

func BenchmarkCountryInfoRender(b *testing.B) {
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: fakeAuth{}, Meter: fakeMeter{}, Data: dataset.NewStatic(datasettest.Snapshot(b))})
	v, _ := s.countryView()
	buf := make([]byte, 0, 4096)
	b.ReportAllocs()
	for b.Loop() {
		i, _ := v.lookup("irl")
		buf = v.appendCountry(buf[:0], i, v.locale("de"))
	}
}

// BenchmarkAuthQuota measures the keyed-route overhead: key extraction, authentication from
// the cache and quota metering, with the real Authenticator and Meter over in-memory stores.
func BenchmarkAuthQuota(b *testing.B) {
	store := newMemStore()
	key := auth.NewKey()
	store.accts[account.HashKey(key)] = account.Account{ID: 1, Plan: "unlimited"}
	authn := auth.New(auth.Options{Store: store})
	meter := quota.NewMeter(quota.Options{Store: store, Plans: quota.DefaultPlans()})
	h := web.Handle(slog.New(slog.DiscardHandler), statusOf, func(w http.ResponseWriter, r *http.Request) error {
		k, _ := authKey(r)
		a, err := authn.Authenticate(r.Context(), k)
		if err != nil {
			return err
		}
		return meter.Charge(r.Context(), a, quota.IPGeolocation)
	})
	r := httptest.NewRequest("GET", "/data/country-info?code=IE&localityLanguage=en&key="+key, nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 200 {
		b.Fatalf("status %d: %s", w.Code, w.Body)
	}
	b.ReportAllocs()
	for b.Loop() {
		h.ServeHTTP(w, r)
	}
}

// stuckAuth is an account store that does not answer: it waits for the request's context.
type stuckAuth struct{}

func (stuckAuth) Authenticate(ctx context.Context, _ string) (account.Account, error) {
	<-ctx.Done()
	return account.Account{}, fmt.Errorf("reading the key: %w", ctx.Err())
}

// A store that does not answer within the request's time limit gives a 503 with the JSON
// error body, not a hung request or a 500.
func TestStoreTimeoutIs503(t *testing.T) {
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: stuckAuth{}, Meter: fakeMeter{},
		Data: dataset.NewStatic(datasettest.Snapshot(t)), Timeout: 30 * time.Millisecond})
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/data/country-info?code=IE&key=k", nil))
	var body web.ErrorBody
	if rec.Code != http.StatusServiceUnavailable || json.Unmarshal(rec.Body.Bytes(), &body) != nil || body.Status != 503 ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Errorf("got %d %q %s, want a 503 JSON error", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
}

// TestSlowBodyIs408: a body that has not arrived within the request's time limit ends
// the request with 408 then, instead of holding the handler until the server's read
// timeout and losing the answer to its write deadline.
func TestSlowBodyIs408(t *testing.T) {
	s := New(Options{Log: slog.New(slog.DiscardHandler), Auth: stuckAuth{}, Meter: fakeMeter{},
		Data: dataset.NewStatic(datasettest.Snapshot(t)), Timeout: 200 * time.Millisecond})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The keyless package: no key to check first. One byte of a 100-byte body, then nothing.
	fmt.Fprintf(conn, "POST /graphql/free-api HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var body web.ErrorBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || r.StatusCode != http.StatusRequestTimeout || body.Status != 408 {
		t.Errorf("slow body: %d, %+v, %v; want the JSON 408", r.StatusCode, body, err)
	}
}

// TestNeedData: each engine a handler needs and the snapshot lacks gives the 503 naming
// it; a snapshot with every engine needs nothing.
func TestNeedData(t *testing.T) {
	// needData looks only at which engines are loaded, so empty ones stand in for them.
	full := &dataset.Snapshot{IPGeo: &ipgeo.DB{}, Net: &netinfo.DB{}, Places: &revgeo.DB{}, Risk: &risk.DB{}}
	all := engineIPGeo | engineNet | enginePlaces | engineRisk
	if err := needData(full, all); err != nil {
		t.Fatalf("full fixture snapshot: %v", err)
	}
	for _, tc := range []struct {
		drop func(*dataset.Snapshot)
		need engines
		want string
	}{
		{func(s *dataset.Snapshot) { s.IPGeo = nil }, engineIPGeo, "IP geolocation"},
		{func(s *dataset.Snapshot) { s.Net = nil }, engineNet, "network"},
		{func(s *dataset.Snapshot) { s.Places = nil }, enginePlaces, "reverse geocoding"},
		{func(s *dataset.Snapshot) { s.Risk = nil }, engineRisk, "risk"},
	} {
		snap := *full
		tc.drop(&snap)
		if err := needData(&snap, all&^tc.need); err != nil {
			t.Errorf("%s missing but not needed: %v", tc.want, err)
		}
		var we *web.Error
		err := needData(&snap, tc.need)
		if !errors.As(err, &we) || we.Code != http.StatusServiceUnavailable || !strings.Contains(err.Error(), "no "+tc.want+" data") {
			t.Errorf("%s missing: %v, want a 503 naming it", tc.want, err)
		}
	}
}
