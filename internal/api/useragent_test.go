package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/useragent"
	"github.com/ipatlas/ipatlas/internal/web"
)

const chrome76 = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/76.0.3809.132 Safari/537.36"

func TestUserAgentInfo(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t)) // no snapshot data needed
	tests := []struct {
		name, raw, want string
	}{
		{"the reference's example", chrome76,
			`{"device":"Desktop","os":"Windows 10","userAgent":"Chrome 76.0.3809","family":"Chrome","versionMajor":"76","versionMinor":"0","versionPatch":"3809","isSpider":false,"isMobile":false,"userAgentDisplay":"Windows 10 Desktop Chrome 76.0.3809"}`},
		{"crawler", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
			`{"device":"Spider","os":"Other","userAgent":"Googlebot 2.1","family":"Googlebot","versionMajor":"2","versionMinor":"1","isSpider":true,"isMobile":false,"userAgentDisplay":"Other Spider Googlebot 2.1"}`},
		{"empty: no version fields", "",
			`{"device":"Other","os":"Other","userAgent":"Other","family":"Other","isSpider":false,"isMobile":false,"userAgentDisplay":"Other Other Other"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := placesGet(t, s, "/data/user-agent-info?key=good&userAgentRaw="+url.QueryEscape(tt.raw), "")
			if rec.Code != 200 || rec.Body.String() != tt.want {
				t.Errorf("status %d\n got %s\nwant %s", rec.Code, rec.Body, tt.want)
			}
		})
	}
	// A longer string is parsed by its first useragent.MaxLen bytes, as client-info's header.
	short := placesGet(t, s, "/data/user-agent-info?key=good&userAgentRaw="+url.QueryEscape(chrome76), "")
	long := chrome76 + strings.Repeat(" x", useragent.MaxLen)
	if rec := placesGet(t, s, "/data/user-agent-info?key=good&userAgentRaw="+url.QueryEscape(long), ""); rec.Code != 200 || rec.Body.String() != short.Body.String() {
		t.Errorf("%d bytes: status %d: %s, want %s", len(long), rec.Code, rec.Body, short.Body)
	}
}

func TestUserAgentInfoErrors(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	tests := []struct {
		name, target string
		code         int
		desc         string
	}{
		{"no key", "?userAgentRaw=curl/8", 401, "No API key"},
		{"volume used up", "?key=spent&userAgentRaw=curl/8", 402, "ip-geolocation package"},
		{"missing", "?key=good", 400, "userAgentRaw parameter is required"},
		{"query does not decode", "?key=good&userAgentRaw=%zz", 400, "query string is not valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			placesWantError(t, placesGet(t, s, "/data/user-agent-info"+tt.target, ""), tt.code, tt.desc)
		})
	}
}

func TestClientInfo(t *testing.T) {
	s := proxiedServer(t, datasettest.Snapshot(t), web.HeaderXForwardedFor)
	type body struct {
		IPString         string          `json:"ipString"`
		IPNumeric        json.Number     `json:"ipNumeric"`
		IPType           string          `json:"ipType"`
		IsBehindProxy    bool            `json:"isBehindProxy"`
		Device           string          `json:"device"`
		OS               string          `json:"os"`
		UserAgent        string          `json:"userAgent"`
		Family           string          `json:"family"`
		VersionMajor     string          `json:"versionMajor,omitempty"`
		VersionMinor     string          `json:"versionMinor,omitempty"`
		VersionPatch     string          `json:"versionPatch,omitempty"`
		IsSpider         bool            `json:"isSpider"`
		IsMobile         bool            `json:"isMobile"`
		UserAgentDisplay string          `json:"userAgentDisplay"`
		UserAgentRaw     string          `json:"userAgentRaw"`
		UserLanguages    json.RawMessage `json:"userLanguages"`
	}
	iphone := "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1"
	long := chrome76 + strings.Repeat(" x", 300)
	tests := []struct {
		name    string
		remote  string
		headers map[string]string
		want    body
	}{
		{"the reference's example", "8.8.8.8:4000", map[string]string{"User-Agent": chrome76, "Accept-Language": "en-US,en;q=0.9"},
			body{"8.8.8.8", "134744072", "IPv4", false, "Desktop", "Windows 10", "Chrome 76.0.3809", "Chrome", "76", "0", "3809", false, false,
				"Windows 10 Desktop Chrome 76.0.3809", chrome76, json.RawMessage(`["en-US","en"]`)}},
		{"behind a trusted proxy, IPv6", "10.0.0.2:4000", map[string]string{"User-Agent": iphone, "X-Forwarded-For": "2001:db8::1", "Accept-Language": "de-CH, fr;q=0.5, *;q=0.1"},
			body{"2001:db8::1", "42540766411282592856903984951653826561", "IPv6", true, "iPhone", "iOS 17.1", "Mobile Safari 17.1", "Mobile Safari", "17", "1", "", false, true,
				"iOS 17.1 iPhone Mobile Safari 17.1", iphone, json.RawMessage(`["de-CH","fr"]`)}},
		{"no headers", "[::ffff:192.0.2.1]:4000", map[string]string{"User-Agent": ""},
			body{"192.0.2.1", "3221225985", "IPv4", false, "Other", "Other", "Other", "Other", "", "", "", false, false,
				"Other Other Other", "", json.RawMessage(`[]`)}},
		{"over-long header: parsed by its start, echoed whole", "8.8.8.8:4000", map[string]string{"User-Agent": long},
			body{"8.8.8.8", "134744072", "IPv4", false, "Desktop", "Windows 10", "Chrome 76.0.3809", "Chrome", "76", "0", "3809", false, false,
				"Windows 10 Desktop Chrome 76.0.3809", long, json.RawMessage(`[]`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := serveFrom(s, "GET", "/data/client-info", tt.remote, tt.headers)
			if rec.Code != 200 || rec.Header().Get("Access-Control-Allow-Origin") != "*" || rec.Header().Get("Cache-Control") != "no-store" {
				t.Fatalf("status %d, headers %v: %s", rec.Code, rec.Header(), rec.Body)
			}
			var got body
			dec := json.NewDecoder(rec.Body)
			dec.DisallowUnknownFields()
			dec.UseNumber()
			if err := dec.Decode(&got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, c := range []struct {
		method string
		code   int
	}{{"OPTIONS", 204}, {"PUT", 405}} {
		rec := serveFrom(s, c.method, "/data/client-info", "8.8.8.8:4000", map[string]string{"Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
		if rec.Code != c.code || rec.Header().Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: status %d, headers %v", c.method, rec.Code, rec.Header())
		}
	}
}

// TestUserAgentSourceListed: the compiled-in regexes are credited with the snapshot's
// sources on /data/sources and /docs, whatever snapshot serves.
func TestUserAgentSourceListed(t *testing.T) {
	s := placesServer(t, datasettest.Snapshot(t))
	rec := placesGet(t, s, "/data/sources", "")
	var md struct {
		Sources []struct{ Name, Version, Licence, Attribution string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &md); err != nil {
		t.Fatal(err)
	}
	found := false
	for i, src := range md.Sources {
		if i > 0 && md.Sources[i-1].Name > src.Name {
			t.Errorf("sources out of name order: %s before %s", md.Sources[i-1].Name, src.Name)
		}
		if src.Name == useragent.SourceName {
			found = src.Version == useragent.ModuleVersion && strings.Contains(src.Licence, "Apache-2.0") && src.Attribution != ""
		}
	}
	if !found {
		t.Errorf("/data/sources does not credit %s: %s", useragent.SourceName, rec.Body)
	}
	if page := placesGet(t, s, "/docs", "").Body.String(); !strings.Contains(page, "uap-core") {
		t.Error("/docs does not credit uap-core")
	}
}

// TestClientInfoParseBudget: unseen User-Agent strings are parsed within a budget per client
// address (here 5 at once) inside one for all callers (here 10 at once), on stopped clocks:
// past the first the answer is a 429, past the second a 503, both with Retry-After; a
// string already seen is answered whatever is left.
func TestClientInfoParseBudget(t *testing.T) {
	s := proxiedServer(t, datasettest.Snapshot(t), web.HeaderXForwardedFor)
	s.uaBudget = parseBudget{perClient: newKeylessLimiter(1, 5, 64), all: newKeylessLimiter(5, 10, 1)}
	stopped := func() time.Duration { return 0 }
	s.uaBudget.perClient.now, s.uaBudget.all.now = stopped, stopped
	get := func(ua string, client byte) *httptest.ResponseRecorder {
		remote := netip.AddrFrom4([4]byte{198, 51, 100, client}).String() + ":4000"
		return serveFrom(s, "GET", "/data/client-info", remote, map[string]string{"User-Agent": ua})
	}
	wantStatus := func(rec *httptest.ResponseRecorder, code int) {
		t.Helper()
		if rec.Code != code {
			t.Fatalf("status %d, want %d: %s", rec.Code, code, rec.Body)
		}
		if code != 200 && (rec.Header().Get("Retry-After") == "" || rec.Header().Get("Access-Control-Allow-Origin") != "*") {
			t.Errorf("%d headers %v", code, rec.Header())
		}
	}
	wantStatus(get(chrome76, 1), 200) // the first of client 1's five
	for i := range 4 {
		wantStatus(get(fmt.Sprintf("probe/1/%d", i), 1), 200)
	}
	wantStatus(get("probe/1/5", 1), http.StatusTooManyRequests)
	wantStatus(get(chrome76, 1), 200) // seen: no parse
	for i := range 5 {
		wantStatus(get(fmt.Sprintf("probe/2/%d", i), 2), 200) // the server's last five
	}
	wantStatus(get("probe/3/0", 3), http.StatusServiceUnavailable)
	wantStatus(get(chrome76, 3), 200)
}
