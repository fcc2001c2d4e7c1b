package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

// A log-in form left open in a second tab, sent after the first tab logged in (which
// replaced the forms' token), lands in the account instead of on a bare 403.
func TestLoginFormFromAnotherTab(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	c := h.browser()
	tok := h.csrf(c, "/login") // both tabs show this token
	form := url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {pw}}
	if r := h.post(c, "/login", form); r.url != "/account/credentials" {
		t.Fatalf("first tab's log-in at %s (%d)", r.url, r.code)
	}
	r := h.post(c, "/login", form)
	if r.code != http.StatusOK || r.url != "/account/credentials" {
		t.Errorf("second tab's log-in: %d at %s, want the Credentials page", r.code, r.url)
	}
	// Logged out by then, the second tab gets the form again with a fresh token and the
	// email kept, the password field marked.
	d := h.browser()
	h.csrf(d, "/login")
	r = h.post(d, "/login", url.Values{"csrf": {"stale-token-stale-token-1234"}, "email": {"ada@example.org"}, "password": {pw}})
	want(t, r, http.StatusForbidden, `value="ada@example.org"`)
	if !csrfRE.MatchString(r.body) || !strings.Contains(r.body, `type="password" autocomplete="current-password" required autofocus aria-invalid="true"`) {
		t.Errorf("stale log-in form not shown again with a token and the password marked:\n%s", r.body)
	}
}

// A log-out form from before a log-in in another tab asks again with this session's token
// instead of refusing with a bare 403; the session ends on the second click.
func TestLogoutFormFromAnotherTab(t *testing.T) {
	h := newHarness(t, true, false)
	c, _ := h.signup("ada@example.org", pw)
	old := h.csrf(c, "/account/credentials")
	h.post(c, "/logout", url.Values{"csrf": {old}})
	if r := h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ada@example.org"}, "password": {pw}}); r.url != "/account/credentials" {
		t.Fatalf("log-in at %s", r.url)
	}
	r := h.post(c, "/logout", url.Values{"csrf": {old}})
	want(t, r, http.StatusForbidden, "so you are still logged in")
	m := csrfRE.FindStringSubmatch(r.body)
	if m == nil || m[1] == old {
		t.Fatalf("the page asks again without the new session's token:\n%s", r.body)
	}
	if r := h.post(c, "/logout", url.Values{"csrf": {m[1]}}); r.url != "/login" {
		t.Errorf("log-out with the new token at %s", r.url)
	}
	if r := h.get(c, "/account/usage"); !strings.HasPrefix(r.url, "/login") {
		t.Errorf("still logged in: /account/usage at %s", r.url)
	}
	// With the session ended anyway, an old form just clears the cookie.
	if r := h.post(c, "/logout", url.Values{"csrf": {old}}); r.url != "/login" {
		t.Errorf("log-out without a session at %s (%d)", r.url, r.code)
	}
}

// Typing /logout shows a log-out button (a link must not log out); logged out, it is the
// log-in page.
func TestLogoutPage(t *testing.T) {
	h := newHarness(t, true, false)
	c, _ := h.signup("ada@example.org", pw)
	want(t, h.get(c, "/logout"), http.StatusOK, `<form method="post" action="/logout" class="card">`)
	if r := h.get(c, "/account/usage"); r.url != "/account/usage" {
		t.Fatalf("GET /logout logged out: /account/usage at %s", r.url)
	}
	if r := h.get(h.browser(), "/logout"); r.url != "/login" {
		t.Errorf("GET /logout without a session at %s", r.url)
	}
}

// A page asked for without a session goes to log-in and back to that page after it;
// logged in, the log-in and sign-up pages go to the account.
func TestLoginReturnsToPage(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	c := h.browser()
	r := h.get(c, "/account/usage")
	want(t, r, http.StatusOK, "Log in to see that page")
	if !strings.Contains(r.body, `name="next" value="/account/usage"`) {
		t.Fatalf("the log-in form does not carry the page:\n%s", r.body)
	}
	m := csrfRE.FindStringSubmatch(r.body)
	r = h.post(c, "/login", url.Values{"csrf": {m[1]}, "email": {"ada@example.org"}, "password": {pw}, "next": {"/account/usage"}})
	if r.url != "/account/usage" {
		t.Errorf("after log-in at %s, want /account/usage", r.url)
	}
	for _, p := range []string{"/login", "/signup", "/login?next=/account/explorer"} {
		want := "/account/credentials"
		if strings.Contains(p, "next") {
			want = "/account/explorer"
		}
		if r := h.get(c, p); r.url != want {
			t.Errorf("logged in, GET %s at %s, want %s", p, r.url, want)
		}
	}
}

func TestAfterLogin(t *testing.T) {
	for next, want := range map[string]string{
		"":               "/account/credentials",
		"/account/usage": "/account/usage",
		"/account/credentials?confirm=regenerate": "/account/credentials", // no state from a link
		"/account/usage#top":                      "/account/usage",
		"/account/%2e%2e/login":                   "/account/credentials",
		"/account/%2F%2Fevil.example":             "/account/credentials",
		"/account/..%2flogin":                     "/account/credentials",
		"//evil.example/account/":                 "/account/credentials",
		"https://evil.example/account/usage":      "/account/credentials",
		"/account/../logout":                      "/account/credentials",
		"/account/./usage":                        "/account/credentials",
		"/account/\\evil.example":                 "/account/credentials",
		"/login":                                  "/account/credentials",
		"/account/usage\r\nSet-Cookie: x=y":       "/account/credentials",
	} {
		if got := afterLogin(next); got != want {
			t.Errorf("afterLogin(%q) = %q, want %q", next, got, want)
		}
	}
}

// Each form error marks the field it is about, for screen readers and for focus.
func TestFormErrorMarksItsField(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	const marked = `autofocus aria-invalid="true" aria-describedby="form-error"`
	for _, tc := range []struct {
		path, email, password, field string
	}{
		{"/signup", "not-an-email", pw, "email"},
		{"/signup", "bob@example.org", "short", "password"},
		{"/signup", "ada@example.org", pw, "email"}, // taken
		{"/login", "not-an-email", pw, "email"},
		{"/login", "ada@example.org", "wrong password!", "password"},
	} {
		c := h.browser()
		r := h.post(c, tc.path, url.Values{"csrf": {h.csrf(c, tc.path)}, "email": {tc.email}, "password": {tc.password}})
		other := map[string]string{"email": "password", "password": "email"}[tc.field]
		if !strings.Contains(r.body, `id="`+tc.field+`"`) || !regexpField(tc.field, marked).MatchString(r.body) || regexpField(other, "aria-invalid").MatchString(r.body) {
			t.Errorf("%s %s/%s: want only %s marked:\n%s", tc.path, tc.email, tc.password, tc.field, r.body)
		}
	}
}

// A POST whose session has ended says so with a way to log in, and drops the cookie.
func TestEndedSessionPost(t *testing.T) {
	h := newHarness(t, true, false)
	c, key := h.signup("ada@example.org", pw)
	tok := h.csrf(c, "/account/credentials")
	u, _ := url.Parse(h.srv.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == sessionCookie {
			if err := h.store.DeleteSession(t.Context(), account.HashSession(ck.Value)); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := h.post(c, "/account/credentials/regenerate", url.Values{"csrf": {tok}})
	want(t, r, http.StatusUnauthorized, `<a href="/login">Log in</a>`)
	for _, ck := range c.Jar.Cookies(u) {
		if ck.Name == sessionCookie {
			t.Errorf("the ended session's cookie was kept")
		}
	}
	h.accountOf(key) // not regenerated
}

// Over TLS the pages ask browsers to keep to it; the assets are named by their content's
// version, so an upgrade is not hidden behind a cached copy.
func TestPageHeadersAndAssets(t *testing.T) {
	for _, tls := range []bool{false, true} {
		h := newHarness(t, true, tls)
		r, err := h.browser().Get(h.srv.URL + "/login")
		if err != nil {
			t.Fatal(err)
		}
		body := read(t, r).body
		if got := r.Header.Get("Strict-Transport-Security"); (got != "") != tls {
			t.Errorf("TLS %v: Strict-Transport-Security %q", tls, got)
		}
		for _, a := range []string{"style.css", "app.js"} {
			u := assetURL(a)
			if !strings.Contains(body, `"`+u+`"`) {
				t.Errorf("page does not name %s", u)
			}
			want(t, h.get(h.browser(), u), http.StatusOK, "")
		}
	}
	if len(assetVersion) != 12 {
		t.Errorf("assetVersion = %q", assetVersion)
	}
	// The version follows the content: a changed byte or a renamed file changes it.
	files := fstest.MapFS{"static/app.js": {Data: []byte("a")}, "static/style.css": {Data: []byte("b")}}
	v := contentVersion(files, "static")
	files["static/app.js"] = &fstest.MapFile{Data: []byte("c")}
	v2 := contentVersion(files, "static")
	files["static/app2.js"], files["static/app.js"] = files["static/app.js"], nil
	delete(files, "static/app.js")
	v3 := contentVersion(files, "static")
	if v == v2 || v2 == v3 || v != contentVersion(fstest.MapFS{"static/app.js": {Data: []byte("a")}, "static/style.css": {Data: []byte("b")}}, "static") {
		t.Errorf("contentVersion: %s, %s after a change, %s after a rename", v, v2, v3)
	}
}

// regexpField matches the input of id field when its tag holds attr.
func regexpField(field, attr string) *regexp.Regexp {
	return regexp.MustCompile(`<input id="` + field + `"[^>]*` + regexp.QuoteMeta(attr))
}

func TestWaitText(t *testing.T) {
	for d, want := range map[time.Duration]string{
		15 * time.Minute: "15 minutes", time.Minute: "1 minute", time.Hour: "1 hour",
		2 * time.Hour: "2 hours", 90 * time.Minute: "90 minutes", 30 * time.Second: "30 seconds",
		10 * time.Second: "10 seconds", time.Second: "1 second", 500 * time.Millisecond: "1 second",
		0: "1 second", 59*time.Second + 500*time.Millisecond: "1 minute", 61 * time.Second: "2 minutes",
		14*time.Minute + 50*time.Second: "15 minutes",
	} {
		if got := waitText(d); got != want {
			t.Errorf("waitText(%v) = %q, want %q", d, got, want)
		}
	}
}

// A request the browser gave up on (a second click) is not a server error: nothing is
// logged at ERROR and no 500 page is written.
func TestClientGoneIsNoError(t *testing.T) {
	h := newHarness(t, true, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequestWithContext(ctx, "GET", "/x", nil)
	rec := httptest.NewRecorder()
	h.d.wrap(func(http.ResponseWriter, *http.Request) error { return ctx.Err() }).ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || strings.Contains(h.logs.String(), "level=ERROR") {
		t.Errorf("client gone: %d, %d bytes, logs:\n%s", rec.Code, rec.Body.Len(), h.logs)
	}
}
