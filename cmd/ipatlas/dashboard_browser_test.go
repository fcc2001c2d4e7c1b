package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var screenshotsDir = flag.String("screenshots", "", "write a screenshot of every dashboard page the browser test visits into this directory (default: only on failure, into the test's temp dir)")

const chromiumPath = "/usr/bin/chromium"

// browser starts headless chromium for t, or skips (fails under CI) without one.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := exec.LookPath(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium is missing and CI is set (.ci/run installs it): %v", err)
		}
		t.Skipf("chromium is missing (apt-get install chromium): %v", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.WindowSize(1000, 900))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	return ctx
}

// shots keeps a screenshot of each page and writes them out when the test fails, or always
// with -screenshots DIR.
type shots struct {
	t    *testing.T
	ctx  context.Context
	n    int
	pngs map[string][]byte
}

func newShots(t *testing.T, ctx context.Context) *shots {
	s := &shots{t: t, ctx: ctx, pngs: map[string][]byte{}}
	t.Cleanup(func() {
		dir := *screenshotsDir
		if dir == "" {
			if !t.Failed() {
				return
			}
			dir = t.TempDir()
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Error(err)
			return
		}
		for name, b := range s.pngs {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Error(err)
			}
		}
		t.Logf("screenshots in %s", dir)
	})
	return s
}

func (s *shots) take(name string) {
	s.t.Helper()
	b, err := chromedp.Run(s.ctx, chromedp.FullScreenshot(100)) // quality 100 gives PNG; below, JPEG
	if err != nil {
		s.t.Logf("screenshot %s: %v", name, err)
		return
	}
	s.n++
	s.pngs[fmt.Sprintf("%02d-%s.png", s.n, name)] = b
}

// do runs browser steps, failing the test (after a screenshot of where it stopped) on error.
func (s *shots) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	s.t.Helper()
	if err := chromedp.Do(s.ctx, steps...); err != nil {
		s.take("failed-" + strings.ReplaceAll(what, " ", "-"))
		s.t.Fatalf("%s: %v", what, err)
	}
}

func (s *shots) run(what string, a chromedp.Action[string]) string {
	s.t.Helper()
	v, err := chromedp.Run(s.ctx, a)
	if err != nil {
		s.take("failed-" + strings.ReplaceAll(what, " ", "-"))
		s.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// TestDashboardInBrowser goes through the dashboard as a person would: sign up, see the key,
// use it, see the usage, regenerate it (the old key is refused at once), log out, log in.
func TestDashboardInBrowser(t *testing.T) {
	ctx := browser(t)
	e := newEnv(t)
	srv := e.serve()
	b := newShots(t, ctx)
	const email, password = "ada@example.org", "correct horse battery"

	b.do("sign up",
		chromedp.Navigate(srv.base+"/signup"),
		chromedp.WaitVisible(chromedp.CSS("#email")),
	)
	b.take("signup")
	b.do("submit sign-up",
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS(`form[action="/signup"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS("#key")),
	)
	key := b.run("read key", chromedp.Value(chromedp.CSS("#key")))
	b.take("credentials-new-key")
	if !strings.HasPrefix(key, "ipa_") {
		t.Fatalf("key shown after sign-up = %q", key)
	}

	countryInfo := func(k string) int {
		code, _ := get(t, srv.base+"/data/country-info?code=IE&key="+k, nil)
		return code
	}
	if code := countryInfo(key); code != http.StatusOK {
		t.Fatalf("country-info with the new key: %d", code)
	}

	b.do("usage", chromedp.Navigate(srv.base+"/account/usage"), chromedp.WaitVisible(chromedp.CSS("svg")))
	if got := b.run("read usage", chromedp.Text(chromedp.CSS(`td[data-package="ip-geolocation"]`))); got != "1" {
		t.Errorf("usage page shows %q ip-geolocation queries, want 1", got)
	}
	b.take("usage")

	b.do("explorer",
		chromedp.Navigate(srv.base+"/account/explorer"),
		chromedp.WaitVisible(chromedp.CSS("#ex-key")),
	)
	// The key shown after sign-up is the explorer's in this tab, without pasting it.
	if got := b.run("read explorer key", chromedp.Value(chromedp.CSS("#ex-key"))); got != key {
		t.Errorf("explorer key %q, want the key just shown", got)
	}
	b.do("explorer send",
		chromedp.Click(chromedp.CSS(`#explorer button[type=submit]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("ex-status").textContent === "HTTP 200"`),
	)
	if got := b.run("read explorer", chromedp.Text(chromedp.CSS("#ex-result"))); !strings.Contains(got, `"isoAlpha2": "IE"`) {
		t.Errorf("explorer shows %q, want the country-info JSON", got)
	}
	b.take("explorer")
	explorerSendsAndShowsExactly(t, b, srv.base, key)

	b.do("regenerate",
		chromedp.Navigate(srv.base+"/account/credentials"),
		chromedp.WaitVisible(chromedp.CSS(".masked")),
		chromedp.Click(chromedp.CSS("#regenerate")),
		chromedp.WaitVisible(chromedp.CSS("#regenerate-confirm")),
	)
	b.take("regenerate-confirm")
	b.do("confirm regenerate",
		chromedp.Click(chromedp.CSS("#regenerate-confirm")),
		chromedp.WaitVisible(chromedp.CSS("#key")),
	)
	newKey := b.run("read new key", chromedp.Value(chromedp.CSS("#key")))
	b.take("credentials-regenerated")
	if newKey == key || !strings.HasPrefix(newKey, "ipa_") {
		t.Fatalf("key after regeneration = %q (old %q)", newKey, key)
	}
	if code := countryInfo(key); code != http.StatusUnauthorized {
		t.Errorf("old key after regeneration: %d, want 401", code)
	}
	if code := countryInfo(newKey); code != http.StatusOK {
		t.Errorf("new key: %d, want 200", code)
	}

	b.do("reload hides the key",
		chromedp.Reload(),
		chromedp.WaitVisible(chromedp.CSS(".masked")),
	)
	b.take("credentials")

	b.do("log out",
		chromedp.Click(chromedp.CSS(`form[action="/logout"] button`)),
		chromedp.WaitVisible(chromedp.CSS(`form[action="/login"]`)),
	)
	b.take("login")
	if kept := b.run("read the explorer's key", chromedp.Evaluate[string](`String(sessionStorage.getItem("ipatlas-key"))`)); kept != "null" {
		t.Errorf("the explorer's key outlived the log-out: %q", kept)
	}
	b.do("log in",
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS(`form[action="/login"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(".masked")),
	)
	if loc := b.run("location", chromedp.Location()); !strings.HasSuffix(loc, "/account/credentials") {
		t.Errorf("after log-in at %s, want /account/credentials", loc)
	}
	b.take("logged-in")

	// A key the tab kept for another account (one logged in before on this tab, whose
	// session ended without a log-out) is not offered to this one.
	b.do("explorer with another account's key",
		chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem("ipatlas-key", JSON.stringify({account: "999999", key: "ipa_OTHERACCOUNTSKEYOTHERACCO"}))`),
		chromedp.Navigate(srv.base+"/account/explorer"),
		chromedp.WaitVisible(chromedp.CSS("#ex-key")),
	)
	if got := b.run("read explorer key", chromedp.Value(chromedp.CSS("#ex-key"))); got != "" {
		t.Errorf("explorer offers another account's key %q", got)
	}
}

// TestServeSignupFlag: --signup=false turns sign-up off with a clear page; log-in stays,
// and accounts still come from the keys CLI.
func TestServeSignupFlag(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "ops@example.org")
	srv := e.serve("--signup=false")
	code, body := get(t, srv.base+"/signup", nil)
	if code != http.StatusNotFound || !strings.Contains(string(body), "Sign-up is turned off") {
		t.Errorf("GET /signup with --signup=false: %d\n%s", code, body)
	}
	if code, _ := get(t, srv.base+"/login", nil); code != http.StatusOK {
		t.Errorf("GET /login: %d", code)
	}
	if code, _ := get(t, srv.base+"/data/country-info?code=IE&key="+key, nil); code != http.StatusOK {
		t.Errorf("the CLI's key: %d", code)
	}
	// `keys password` lets the CLI's account log in.
	cmd := exec.Command(binPath, "keys", "password", "--email", "ops@example.org")
	cmd.Env = append(os.Environ(), "IPATLAS_STORE="+e.store)
	cmd.Stdin = strings.NewReader("a password for ops\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("keys password: %v\n%s", err, out)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	r, err := c.Get(srv.base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(r.Body)
	r.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on /login:\n%s", page)
	}
	r, err = c.PostForm(srv.base+"/login", url.Values{"csrf": {string(m[1])}, "email": {"ops@example.org"}, "password": {"a password for ops"}})
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusOK || r.Request.URL.Path != "/account/credentials" {
		t.Errorf("log-in after 'keys password': %d at %s", r.StatusCode, r.Request.URL.Path)
	}
	// The API keeps its JSON 404 for paths that are not the dashboard's.
	if code, body := get(t, srv.base+"/data/nope", nil); code != http.StatusNotFound || !strings.HasPrefix(string(body), "{") {
		t.Errorf("GET /data/nope: %d %s", code, body)
	}
}

// explorerSendsAndShowsExactly checks the explorer's text handling in the browser: what is
// typed reaches the server as typed (a + is not a space), and the answer is shown as sent,
// laid out as Go's json.Indent lays it out (parsing it in JavaScript would round an IPv6
// prefix's size).
func explorerSendsAndShowsExactly(t *testing.T, b *shots, base, key string) {
	t.Helper()
	for query, want := range map[string]string{
		"number=+353123456789":            "number=%2B353123456789",
		"number=%2B353123456789":          "number=%2B353123456789",
		"?ip=8.8.8.8#x":                   "ip=8.8.8.8%23x",
		"a=b c&flag&&q=50%":               "a=b%20c&flag&q=50%25",
		"timeZoneId=Australia/Sydney":     "timeZoneId=Australia%2FSydney",
		"latitude=53.35&longitude=-6.26 ": "latitude=53.35&longitude=-6.26%20",
	} {
		got := b.run("build "+query, chromedp.Evaluate[string](fmt.Sprintf(`ipatlasExplorer.buildQuery(%q)`, query)))
		if got != want {
			t.Errorf("explorer sends %q as %q, want %q", query, got, want)
		}
	}
	if got := b.run("carry", chromedp.Evaluate[string](`ipatlasExplorer.carry("ip=1.1.1.1&localityLanguage=de&x=1", "code=IE&localityLanguage=en")`)); got != "code=IE&localityLanguage=de" {
		t.Errorf("changing endpoint: query %q, want the language carried over", got)
	}

	for _, path := range []string{"/data/network-by-cidr?cidr=2001:4860::/32", "/data/phone-number-validate?number=%2B353123456789", "/data/country-info?code=XX"} {
		_, body := get(t, base+path+"&key="+key, nil)
		var want bytes.Buffer
		if err := json.Indent(&want, body, "", "  "); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		got := b.run("indent "+path, chromedp.Evaluate[string](fmt.Sprintf(`ipatlasExplorer.indent(%q)`, body)))
		if got != want.String() {
			t.Errorf("explorer shows %s as\n%s\nwant\n%s", path, got, want.String())
		}
	}

	// The whole way: the endpoint chosen, the number typed with its +, the answer on screen.
	b.do("explorer phone",
		chromedp.SetValue(chromedp.CSS("#ex-endpoint"), "/data/phone-number-validate"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("ex-endpoint").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS("#ex-query"), "number=+353 1 234 5678"),
		chromedp.Click(chromedp.CSS(`#explorer button[type=submit]`)),
		chromedp.Poll[chromedp.Void](`document.getElementById("ex-status").textContent === "HTTP 200"`),
	)
	if got := b.run("read phone answer", chromedp.Text(chromedp.CSS("#ex-result"))); !strings.Contains(got, "number=%2B353%201%20234%205678") || !strings.Contains(got, `"isValid": true`) {
		t.Errorf("explorer phone answer:\n%s", got)
	}
}
