package dashboard

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/account/sqlite"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/web"
)

type harness struct {
	t     *testing.T
	store account.Store
	srv   *httptest.Server
	logs  *bytes.Buffer
	d     *Server
}

func newHarness(t *testing.T, signup bool, tls bool, tweak ...func(*Options)) *harness {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	logs := &bytes.Buffer{}
	opt := Options{Store: st, Signup: signup, Log: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, f := range tweak {
		f(&opt)
	}
	d, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(d.Handler())
	} else {
		srv = httptest.NewServer(d.Handler())
	}
	t.Cleanup(srv.Close)
	return &harness{t: t, store: st, srv: srv, logs: logs, d: d}
}

// postAtOnce posts n forms to path at the same moment, each from its own browser with its
// own CSRF token (form(i) gives the other fields), and returns their statuses.
func (h *harness) postAtOnce(n int, path string, form func(i int) url.Values) []int {
	h.t.Helper()
	clients, forms := make([]*http.Client, n), make([]url.Values, n)
	for i := range n {
		clients[i] = h.browser()
		forms[i] = form(i)
		forms[i].Set("csrf", h.csrf(clients[i], path))
	}
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			r, err := clients[i].PostForm(h.srv.URL+path, forms[i])
			if err != nil {
				h.t.Error(err)
				return
			}
			r.Body.Close()
			codes[i] = r.StatusCode
		})
	}
	wg.Wait()
	return codes
}

// browser is a client with its own cookies, like one person's browser.
func (h *harness) browser() *http.Client {
	jar, _ := cookiejar.New(nil)
	c := h.srv.Client()
	return &http.Client{Transport: c.Transport, Jar: jar}
}

type resp struct {
	code   int
	body   string
	url    string
	header http.Header
}

func (h *harness) get(c *http.Client, path string) resp {
	h.t.Helper()
	r, err := c.Get(h.srv.URL + path)
	if err != nil {
		h.t.Fatal(err)
	}
	return read(h.t, r)
}

func (h *harness) post(c *http.Client, path string, form url.Values) resp {
	h.t.Helper()
	r, err := c.PostForm(h.srv.URL+path, form)
	if err != nil {
		h.t.Fatal(err)
	}
	return read(h.t, r)
}

func read(t *testing.T, r *http.Response) resp {
	t.Helper()
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp{code: r.StatusCode, body: string(b), url: r.Request.URL.Path, header: r.Header}
}

var (
	csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
	keyRE  = regexp.MustCompile(`value="(ipa_[A-Z2-7]{26})"`)
)

// csrf loads path and returns the form token on it.
func (h *harness) csrf(c *http.Client, path string) string {
	h.t.Helper()
	r := h.get(c, path)
	m := csrfRE.FindStringSubmatch(r.body)
	if m == nil {
		h.t.Fatalf("no CSRF token on %s (%d):\n%s", path, r.code, r.body)
	}
	return m[1]
}

// signup signs up from a fresh browser and returns it (logged in) and the key shown.
func (h *harness) signup(email, password string) (*http.Client, string) {
	h.t.Helper()
	c := h.browser()
	r := h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {email}, "password": {password}})
	m := keyRE.FindStringSubmatch(r.body)
	if r.code != http.StatusOK || r.url != "/account/credentials" || m == nil {
		h.t.Fatalf("sign-up: %d at %s, key found %v:\n%s", r.code, r.url, m != nil, r.body)
	}
	return c, m[1]
}

func (h *harness) accountOf(key string) account.Account {
	h.t.Helper()
	a, err := h.store.AccountByKey(h.t.Context(), account.HashKey(key))
	if err != nil {
		h.t.Fatalf("AccountByKey: %v", err)
	}
	return a
}

func want(t *testing.T, r resp, code int, text string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.body, text) {
		t.Errorf("got %d, want %d with %q; body:\n%s", r.code, code, text, r.body)
	}
}

const pw = "correct horse battery"

func TestKeyShownOnceThenHint(t *testing.T) {
	h := newHarness(t, true, false)
	c, key := h.signup("ada@example.org", pw)
	r := h.get(c, "/account/credentials")
	if strings.Contains(r.body, key) {
		t.Fatal("the key is shown again on the second view")
	}
	want(t, r, http.StatusOK, account.KeyHint(key)+`<span aria-hidden="true">`)
	if a := h.accountOf(key); a.Email != "ada@example.org" || a.Plan != "free" {
		t.Errorf("account = %+v", a)
	}
}

func TestWrongPassword(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	c := h.browser()
	r := h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ada@example.org"}, "password": {"not the password"}})
	want(t, r, http.StatusUnauthorized, "Wrong email or password")
	if r := h.get(c, "/account/credentials"); r.url != "/login" {
		t.Errorf("after a wrong password, /account/credentials went to %s, want /login", r.url)
	}
	r = h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ADA@example.org "}, "password": {pw}})
	want(t, r, http.StatusOK, "Your API key")
}

func TestDuplicateEmail(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	// An account made by `ipatlas keys create` (no password) counts too.
	if _, err := h.store.CreateAccount(t.Context(), account.NewAccount{Email: "cli@example.org", Plan: "free", KeyHash: account.HashKey(auth.NewKey())}); err != nil {
		t.Fatal(err)
	}
	for _, email := range []string{"ada@example.org", "Ada@Example.org", "cli@example.org"} {
		c := h.browser()
		r := h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {email}, "password": {pw}})
		want(t, r, http.StatusConflict, "duplicate email")
	}
}

func TestAccountWithoutPasswordCannotLogIn(t *testing.T) {
	h := newHarness(t, true, false)
	if _, err := h.store.CreateAccount(t.Context(), account.NewAccount{Email: "cli@example.org", Plan: "free", KeyHash: account.HashKey(auth.NewKey())}); err != nil {
		t.Fatal(err)
	}
	c := h.browser()
	for _, p := range []string{"", "anything at all"} {
		r := h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"cli@example.org"}, "password": {p}})
		want(t, r, http.StatusUnauthorized, "Wrong email or password")
	}
}

func TestMissingCSRFToken(t *testing.T) {
	h := newHarness(t, true, false)
	c, key := h.signup("ada@example.org", pw)
	const msg = "security token is missing or does not match"
	const formMsg = "security token is missing or out of date" // the form is shown again
	t.Run("regenerate", func(t *testing.T) {
		want(t, h.post(c, "/account/credentials/regenerate", url.Values{}), http.StatusForbidden, msg)
		h.accountOf(key) // still the key
	})
	t.Run("logout", func(t *testing.T) {
		want(t, h.post(c, "/logout", url.Values{}), http.StatusForbidden, formMsg)
		if r := h.get(c, "/account/credentials"); r.url != "/account/credentials" {
			t.Errorf("the refused log-out ended the session")
		}
	})
	t.Run("login", func(t *testing.T) {
		b := h.browser()
		h.get(b, "/login") // has the cookie, but the form field is missing
		want(t, h.post(b, "/login", url.Values{"email": {"ada@example.org"}, "password": {pw}}), http.StatusForbidden, formMsg)
	})
	t.Run("signup", func(t *testing.T) {
		b := h.browser()
		want(t, h.post(b, "/signup", url.Values{"csrf": {"forged-token-forged-token-1234"}, "email": {"eve@example.org"}, "password": {pw}}), http.StatusForbidden, formMsg)
		if _, err := h.store.AccountByEmail(t.Context(), "eve@example.org"); err == nil {
			t.Error("the refused sign-up made an account")
		}
	})
	t.Run("cross-site form", func(t *testing.T) {
		req, _ := http.NewRequest("POST", h.srv.URL+"/account/credentials/regenerate", strings.NewReader(url.Values{"csrf": {h.csrf(c, "/account/credentials")}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		r, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		want(t, read(t, r), http.StatusForbidden, "sent from another site")
		h.accountOf(key)
	})
}

func TestOtherAccountsToken(t *testing.T) {
	h := newHarness(t, true, false)
	a, keyA := h.signup("alice@example.org", pw)
	b, keyB := h.signup("bob@example.org", pw)
	tokenB := h.csrf(b, "/account/credentials")
	// Alice's session cookie with Bob's form token: refused, and nobody's key changes.
	r := h.post(a, "/account/credentials/regenerate", url.Values{"csrf": {tokenB}})
	want(t, r, http.StatusForbidden, "does not match your session")
	h.accountOf(keyA)
	h.accountOf(keyB)
	// Alice's own token works, and only on Alice's account.
	r = h.post(a, "/account/credentials/regenerate", url.Values{"csrf": {h.csrf(a, "/account/credentials")}})
	m := keyRE.FindStringSubmatch(r.body)
	if r.code != http.StatusOK || m == nil {
		t.Fatalf("regenerate: %d\n%s", r.code, r.body)
	}
	if _, err := h.store.AccountByKey(t.Context(), account.HashKey(keyA)); err == nil {
		t.Error("Alice's old key still works")
	}
	if got := h.accountOf(m[1]); got.Email != "alice@example.org" {
		t.Errorf("new key belongs to %s", got.Email)
	}
	h.accountOf(keyB)
	// Bob's page never shows Alice's key, even if her flash cookie were replayed to him.
	req, _ := http.NewRequest("GET", h.srv.URL+"/account/credentials", nil)
	req.AddCookie(&http.Cookie{Name: flashCookie, Value: m[1]})
	resp, err := b.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if r := read(t, resp); strings.Contains(r.body, m[1]) {
		t.Error("Bob's credentials page shows Alice's key")
	}
}

func TestSignupDisabled(t *testing.T) {
	h := newHarness(t, false, false)
	c := h.browser()
	want(t, h.get(c, "/signup"), http.StatusNotFound, "Sign-up is turned off")
	want(t, h.post(c, "/signup", url.Values{"email": {"eve@example.org"}, "password": {pw}}), http.StatusNotFound, "Sign-up is turned off")
	if r := h.get(c, "/login"); strings.Contains(r.body, `href="/signup"`) {
		t.Error("the log-in page links to the disabled sign-up")
	}
	// Log-in still works for accounts with a password.
	a, err := h.store.CreateAccount(t.Context(), account.NewAccount{Email: "ops@example.org", Plan: "free", KeyHash: account.HashKey(auth.NewKey())})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.store.SetPassword(t.Context(), a.ID, auth.HashPassword(pw)); err != nil {
		t.Fatal(err)
	}
	r := h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ops@example.org"}, "password": {pw}})
	want(t, r, http.StatusOK, "Your API key")
}

// TestSignupThrottled: one address may create MaxSignupsPerAddr accounts a window; the next
// is refused with 429 and creates nothing; refused forms (a bad email) do not count.
func TestSignupThrottled(t *testing.T) {
	h := newHarness(t, true, false, func(o *Options) { o.MaxSignupsPerAddr = 3 })
	c := h.browser()
	want(t, h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"not an email"}, "password": {pw}}), http.StatusBadRequest, "valid email")
	for i := range 3 {
		h.signup(fmt.Sprintf("user%d@example.org", i), pw)
	}
	c = h.browser()
	want(t, h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"user9@example.org"}, "password": {pw}}), http.StatusTooManyRequests, "Too many sign-ups")
	if _, err := h.store.AccountByEmail(t.Context(), "user9@example.org"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("the refused sign-up created an account: %v", err)
	}
}

// TestSignupEnumerationThrottled: asking sign-up about an email that has an account counts
// as accounts made do (in a table of its own), so that it cannot test emails faster than
// accounts can be made.
func TestSignupEnumerationThrottled(t *testing.T) {
	h := newHarness(t, true, false, func(o *Options) { o.MaxSignupsPerAddr = 3 })
	h.signup("ada@example.org", pw)
	c := h.browser()
	for range 3 {
		want(t, h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"ada@example.org"}, "password": {pw}}), http.StatusConflict, "already exists")
	}
	want(t, h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"ada@example.org"}, "password": {pw}}), http.StatusTooManyRequests, "Too many sign-ups")
	// Those tries did not use up the address's accounts: two more can be made.
	for _, e := range []string{"bob@example.org", "cy@example.org"} {
		h.signup(e, pw)
	}
}

// TestDisabledAccountSession: disabling an account ends what its open sessions can see and
// do, as it refuses its log-ins.
func TestDisabledAccountSession(t *testing.T) {
	h := newHarness(t, true, false)
	c, _ := h.signup("ada@example.org", pw)
	tok := h.csrf(c, "/account/credentials")
	acct, err := h.store.AccountByEmail(t.Context(), "ada@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.store.UpdatePlan(t.Context(), acct.ID, acct.Plan, acct.MonthlyLimit, true); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/account/credentials", "/account/usage"} {
		if r := h.get(c, path); r.code != http.StatusForbidden || !strings.Contains(r.body, "disabled") {
			t.Errorf("GET %s for a disabled account: %d", path, r.code)
		}
	}
	want(t, h.post(c, "/account/credentials/regenerate", url.Values{"csrf": {tok}}), http.StatusForbidden, "disabled")
	if after, _ := h.store.AccountByID(t.Context(), acct.ID); after.KeyHint != acct.KeyHint {
		t.Error("a disabled account's session regenerated its key")
	}
}

// TestSignupThrottledAtOnce: sign-ups sent at the same moment from one address cannot all
// pass the check before any is counted.
func TestSignupThrottledAtOnce(t *testing.T) {
	h := newHarness(t, true, false, func(o *Options) { o.MaxSignupsPerAddr = 3 })
	const n = 12
	codes := h.postAtOnce(n, "/signup", func(i int) url.Values {
		return url.Values{"email": {fmt.Sprintf("at%d@example.org", i)}, "password": {pw}}
	})
	created := 0
	for i := range n {
		if _, err := h.store.AccountByEmail(t.Context(), fmt.Sprintf("at%d@example.org", i)); err == nil {
			created++
		}
	}
	if created != 3 {
		t.Errorf("%d accounts created at once (statuses %v), want 3", created, codes)
	}
}

func TestLoginThrottled(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	c := h.browser()
	tok := h.csrf(c, "/login")
	for range 5 {
		want(t, h.post(c, "/login", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {"wrong password"}}), http.StatusUnauthorized, "Wrong")
	}
	// Even the right password is refused until the window passes.
	want(t, h.post(c, "/login", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {pw}}), http.StatusTooManyRequests, "Too many failed log-ins")
}

// TestPasswordHashingBounded: log-ins and sign-ups hash one per core at a time, and one
// that gets no turn in time is told that the server is busy, without counting as a failed
// log-in or an account made.
func TestPasswordHashingBounded(t *testing.T) {
	defer func(w time.Duration) { hashWait = w }(hashWait)
	hashWait = 50 * time.Millisecond
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	for range cap(h.d.hashing) {
		h.d.hashing <- struct{}{} // every turn taken
	}
	c := h.browser()
	tok := h.csrf(c, "/login")
	for range 6 {
		want(t, h.post(c, "/login", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {pw}}), http.StatusServiceUnavailable, "busy")
	}
	want(t, h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"bob@example.org"}, "password": {pw}}), http.StatusServiceUnavailable, "busy")
	for range cap(h.d.hashing) {
		<-h.d.hashing
	}
	// The six refusals counted nothing: the right password still logs in.
	r := h.post(c, "/login", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {pw}})
	if r.code != http.StatusOK && r.code != http.StatusSeeOther {
		t.Errorf("log-in after the busy spell: %d %s", r.code, r.body)
	}
}

// forwardedFor is a transport that sends every request as if through a trusted proxy for
// the client address addr.
type forwardedFor struct {
	addr string
	next http.RoundTripper
}

func (f forwardedFor) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", f.addr)
	return f.next.RoundTrip(r)
}

// TestLoginThrottledPerAddress checks that failing to log in as someone locks out only the
// address that failed: the owner, elsewhere, still logs in. Failures from many addresses
// together still meet the per-email ceiling.
func TestLoginThrottledPerAddress(t *testing.T) {
	h := newHarness(t, true, false, func(o *Options) {
		o.ClientAddrs = web.ClientAddrs{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
		o.MaxEmailLoginFailures = 12
	})
	h.signup("ada@example.org", pw)
	from := func(addr string) (*http.Client, string) {
		c := h.browser()
		c.Transport = forwardedFor{addr, c.Transport}
		return c, h.csrf(c, "/login")
	}
	try := func(c *http.Client, tok, password string) resp {
		return h.post(c, "/login", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {password}})
	}

	mallory, tok := from("203.0.113.7")
	for range 5 {
		want(t, try(mallory, tok, "wrong password"), http.StatusUnauthorized, "Wrong")
	}
	want(t, try(mallory, tok, pw), http.StatusTooManyRequests, "Too many failed log-ins")
	ada, adaTok := from("198.51.100.1")
	if r := try(ada, adaTok, pw); r.code != http.StatusOK || !strings.Contains(r.url, "/account/credentials") {
		t.Fatalf("the owner, from another address, got %d at %s", r.code, r.url)
	}

	// 5 + 5 + 2 failures from three addresses reach the ceiling of 12 for the email.
	for i, n := range []int{5, 2} {
		c, tok := from(fmt.Sprintf("192.0.2.%d", i+1))
		for range n {
			want(t, try(c, tok, "wrong password"), http.StatusUnauthorized, "Wrong")
		}
	}
	fresh, freshTok := from("192.0.2.99")
	want(t, try(fresh, freshTok, pw), http.StatusTooManyRequests, "Too many failed log-ins")
	// Where the owner logged in before, the ceiling does not apply.
	ada, adaTok = from("198.51.100.1")
	if r := try(ada, adaTok, pw); r.code != http.StatusOK || !strings.Contains(r.url, "/account/credentials") {
		t.Fatalf("the owner, from where they logged in before, got %d at %s", r.code, r.url)
	}
}

// TestLoginThrottledAtOnce: parallel wrong guesses from one address are counted as they
// start, so no more than the limit get a password check.
func TestLoginThrottledAtOnce(t *testing.T) {
	h := newHarness(t, true, false)
	h.signup("ada@example.org", pw)
	const n = 12
	codes := h.postAtOnce(n, "/login", func(int) url.Values {
		return url.Values{"email": {"ada@example.org"}, "password": {"wrong password"}}
	})
	checked := 0
	for _, c := range codes {
		if c == http.StatusUnauthorized {
			checked++
		} else if c != http.StatusTooManyRequests {
			t.Errorf("status %d", c)
		}
	}
	if checked != 5 {
		t.Errorf("%d of %d parallel guesses were checked (statuses %v), want 5", checked, n, codes)
	}
}

func TestThrottleBounded(t *testing.T) {
	th := newThrottle(2, time.Minute, 3, failClosed)
	now := time.Unix(1_000_000, 0)
	for _, k := range []string{"a", "b", "c"} {
		if !th.take(k, now) {
			t.Fatalf("%s refused", k)
		}
	}
	if th.take("d", now) {
		t.Error("a new key was let in with the table full of live entries")
	}
	if !th.take("d", now.Add(time.Minute)) || len(th.hits) != 1 {
		t.Errorf("expired entries were not swept: %d left", len(th.hits))
	}
	th.take("a", now)
	th.take("a", now)
	if th.take("a", now) || !th.take("a", now.Add(time.Minute)) {
		t.Error("window not applied")
	}
	later := now.Add(time.Minute) // a's window holds one event
	th.giveBack("a", later)
	taken := 0
	for range 3 {
		if th.take("a", later) {
			taken++
		}
	}
	if taken != 2 {
		t.Errorf("after a give-back %d more events were taken, want 2 (one freed, one left)", taken)
	}
}

// TestThrottleEvictsWhenFull: a full table of the evicting kind makes room for a new key,
// and a key given back to no events takes no room.
func TestThrottleEvictsWhenFull(t *testing.T) {
	th := newThrottle(2, time.Minute, 3, evictWhenFull)
	now := time.Unix(1_000_000, 0)
	for _, k := range []string{"a", "b", "c", "d"} {
		if !th.take(k, now) {
			t.Fatalf("%s refused", k)
		}
	}
	if len(th.hits) != 3 {
		t.Errorf("%d entries, want the limit of 3", len(th.hits))
	}
	th.giveBack("d", now)
	if _, ok := th.hits["d"]; ok || len(th.hits) != 2 {
		t.Errorf("a key given back to no events is still held (%d entries)", len(th.hits))
	}
	// A key at its limit stays locked however the table fills (map order is random, so
	// try often enough that an arbitrary choice would show).
	for range 50 {
		th := newThrottle(2, time.Minute, 3, evictWhenFull)
		th.take("locked", now)
		th.take("locked", now)
		for _, k := range []string{"x", "y", "z"} {
			th.take(k, now)
		}
		if th.take("locked", now) {
			t.Fatal("filling the table lifted a key's lock")
		}
	}
}

// TestLoginLimitsBounded: an address out of attempts adds no entry for the emails it goes
// on trying (each of which would otherwise hold a pair entry for the window).
func TestLoginLimitsBounded(t *testing.T) {
	l := newLoginLimits(Options{MaxLoginFailures: 5, MaxAddrLoginFailures: 20, MaxEmailLoginFailures: 100, LoginWindow: 15 * time.Minute})
	now := time.Unix(1_000_000, 0)
	for i := range 20 {
		if _, ok := l.begin("192.0.2.1", fmt.Sprintf("u%d@example.com", i), now); !ok {
			t.Fatalf("attempt %d refused", i)
		}
	}
	for i := range 1000 {
		if _, ok := l.begin("192.0.2.1", fmt.Sprintf("v%d@example.com", i), now); ok {
			t.Fatal("an attempt over the address's limit was let through")
		}
	}
	if n := len(l.byPair.hits); n != 20 {
		t.Errorf("%d pair entries, want the 20 attempts counted", n)
	}
	if _, ok := l.begin("198.51.100.7", "owner@example.com", now); !ok {
		t.Error("another address's first attempt was refused")
	}
}

// An address out of attempts must not touch the pair table: were the pair counted first
// and given back after the address refused, such an attempt would, in a full table, first
// evict another pair's failures to make room for its own. Here the owner's pair is the
// only one below its limit, so it is the one a full table would forget.
func TestLoginLimitsAddressFirst(t *testing.T) {
	const attackerPairs = 10
	l := newLoginLimits(Options{MaxLoginFailures: 5, MaxAddrLoginFailures: 5 * attackerPairs, MaxEmailLoginFailures: 100, LoginWindow: 15 * time.Minute})
	l.byPair = newThrottle(5, 15*time.Minute, attackerPairs+1, evictWhenFull)
	now := time.Unix(1_000_000, 0)
	const owner, ownerAddr = "owner@example.com", "198.51.100.7"
	for range 3 {
		if _, ok := l.begin(ownerAddr, owner, now); !ok {
			t.Fatal("the owner's pair refused early")
		}
	}
	// The attacker's pairs reach their limit, which brings its address to its own, and the
	// pair table is full.
	for i := range attackerPairs {
		for range 5 {
			if _, ok := l.begin("192.0.2.1", fmt.Sprintf("u%d@example.com", i), now); !ok {
				t.Fatalf("attempt on u%d refused early", i)
			}
		}
	}
	if n := len(l.byPair.hits); n != attackerPairs+1 {
		t.Fatalf("%d pair entries, want a full table of %d", n, attackerPairs+1)
	}
	for i := range 5 {
		if _, ok := l.begin("192.0.2.1", fmt.Sprintf("v%d@example.com", i), now); ok {
			t.Fatal("an attempt over the address's limit was let through")
		}
	}
	if w := l.byPair.hits[ownerAddr+"\x00"+owner]; w == nil || w.n != 3 {
		t.Errorf("the owner's pair lost its 3 failures to refused attempts of another address: %+v", w)
	}
}

func TestCookies(t *testing.T) {
	for _, tls := range []bool{false, true} {
		t.Run(map[bool]string{false: "http", true: "https"}[tls], func(t *testing.T) {
			h := newHarness(t, true, tls)
			c := h.browser()
			tok := h.csrf(c, "/signup")
			noRedirect := &http.Client{Transport: c.Transport, Jar: c.Jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			r, err := noRedirect.PostForm(h.srv.URL+"/signup", url.Values{"csrf": {tok}, "email": {"ada@example.org"}, "password": {pw}})
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			// The session goes with every request to the host; the new key only to the
			// page that shows it once.
			for _, want := range []struct{ name, tlsPrefix, path string }{
				{sessionCookie, "__Host-", "/"},
				{flashCookie, "__Secure-", accountHome},
			} {
				name := want.name
				if tls {
					name = want.tlsPrefix + name
				}
				var found bool
				for _, ck := range r.Cookies() {
					if ck.Name == name {
						found = true
						if !ck.HttpOnly || ck.Secure != tls || ck.SameSite != http.SameSiteLaxMode || ck.Path != want.path || ck.Domain != "" {
							t.Errorf("%s cookie %+v", want.name, ck)
						}
					}
				}
				if !found {
					t.Errorf("no %s cookie in %v", name, r.Cookies())
				}
			}
		})
	}
}

// TestCookiesBehindTLSProxy: behind a trusted proxy that terminated TLS (as the Kubernetes
// deployment's ingress does) the cookies are Secure too; a client's own claim is not
// believed.
func TestCookiesBehindTLSProxy(t *testing.T) {
	trustLocal := func(o *Options) {
		o.ClientAddrs = web.ClientAddrs{Trusted: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	}
	for _, tc := range []struct {
		name   string
		tweak  []func(*Options)
		secure bool
	}{
		{"trusted proxy", []func(*Options){trustLocal}, true},
		{"no trusted proxy", nil, false},
	} {
		h := newHarness(t, true, false, tc.tweak...)
		req, _ := http.NewRequest("GET", h.srv.URL+"/login", nil)
		req.Header.Set("X-Forwarded-Proto", "https")
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		var got *http.Cookie
		for _, ck := range r.Cookies() {
			if strings.HasSuffix(ck.Name, preCookie) {
				got = ck
			}
		}
		if got == nil || got.Secure != tc.secure || strings.HasPrefix(got.Name, "__Host-") != tc.secure {
			t.Errorf("%s: CSRF cookie %+v, want Secure and __Host- %v", tc.name, got, tc.secure)
		}
	}
}

func TestNoSecretsInLogs(t *testing.T) {
	h := newHarness(t, true, false)
	c, key := h.signup("ada@example.org", pw)
	h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ada@example.org"}, "password": {"wrong password"}})
	r := h.post(c, "/account/credentials/regenerate", url.Values{"csrf": {h.csrf(c, "/account/credentials")}})
	key2 := keyRE.FindStringSubmatch(r.body)
	if key2 == nil {
		t.Fatal("no key after regeneration")
	}
	logs := h.logs.String()
	if logs == "" {
		t.Fatal("nothing was logged; the test would prove nothing")
	}
	for _, secret := range []string{key, key2[1], pw, "wrong password"} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log holds a secret %q:\n%s", secret, logs)
		}
	}
}

func TestLogoutEndsSession(t *testing.T) {
	h := newHarness(t, true, false)
	c, _ := h.signup("ada@example.org", pw)
	r := h.post(c, "/logout", url.Values{"csrf": {h.csrf(c, "/account/credentials")}})
	if r.url != "/login" {
		t.Fatalf("after log-out at %s", r.url)
	}
	if r := h.get(c, "/account/usage"); r.url != "/login" {
		t.Errorf("after log-out, /account/usage went to %s", r.url)
	}
}

func TestPagesRender(t *testing.T) {
	h := newHarness(t, true, false)
	c, _ := h.signup("ada@example.org", pw)
	for _, p := range []string{"/account/credentials", "/account/usage", "/account/explorer", "/account/credentials?confirm=regenerate"} {
		r := h.get(c, p)
		want(t, r, http.StatusOK, `<meta name="viewport"`)
	}
	want(t, h.get(c, "/account/nope"), http.StatusNotFound, "no such page")
	// A page asked for with another method: 405 naming the ones it takes.
	want(t, h.get(c, "/account/credentials/regenerate"), http.StatusMethodNotAllowed, "This page takes POST.")
	r := h.post(c, "/account/usage", url.Values{"csrf": {h.csrf(c, "/account/usage")}})
	want(t, r, http.StatusMethodNotAllowed, "This page takes GET, HEAD.")
	want(t, h.get(c, "/account/usage"), http.StatusOK, "<svg")
	want(t, h.get(c, "/account/explorer"), http.StatusOK, "/data/country-info")
	want(t, h.get(c, "/assets/style.css"), http.StatusOK, "font")
	// Anything else under /assets/ is the JSON 404, not the file server's text or a listing.
	for _, p := range []string{"/assets/", "/assets/nope.js", "/assets/STYLE.CSS"} {
		r := h.get(c, p)
		want(t, r, http.StatusNotFound, `{"status":404,"description":"There is no asset at `+p+`."}`)
	}
	want(t, h.get(c, "/assets/ipa_ABCDEFGH234567"), http.StatusNotFound, "There is no asset at /assets/REDACTED.")
}

// TestFormLimitsAnswerInHTML: the dashboard's pages answer a form over the limit, sent with
// a length or chunked, with the HTML 413 (a chunked one used to reach the handler cut
// short, as a form without its CSRF token: 403), and a wrong method on the log-in and
// sign-up pages with the HTML 405, as under /account/.
func TestFormLimitsAnswerInHTML(t *testing.T) {
	h := newHarness(t, true, false)
	c := h.browser()
	tok := h.csrf(c, "/login")
	big := url.Values{"csrf": {tok}, "email": {strings.Repeat("a", maxForm)}, "password": {pw}}.Encode()
	for _, chunked := range []bool{false, true} {
		req, _ := http.NewRequest("POST", h.srv.URL+"/login", strings.NewReader(big))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if chunked {
			req.ContentLength = -1
		}
		r, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("chunked %v: %d %s: %.80s", chunked, r.StatusCode, r.Header.Get("Content-Type"), body)
		}
	}
	for _, tc := range []struct{ method, path, allow string }{
		{"PUT", "/login", "GET, HEAD, POST"}, {"DELETE", "/signup", "GET, HEAD, POST"}, {"PUT", "/logout", "GET, HEAD, POST"},
	} {
		req, _ := http.NewRequest(tc.method, h.srv.URL+tc.path, nil)
		r, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != tc.allow || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s %s: %d, Allow %q, %s", tc.method, tc.path, r.StatusCode, r.Header.Get("Allow"), r.Header.Get("Content-Type"))
		}
	}
}

// TestLateFormIs408: a form that has not arrived within formTimeout gets the HTML 408.
func TestLateFormIs408(t *testing.T) {
	defer func(d time.Duration) { formTimeout = d }(formTimeout)
	formTimeout = 200 * time.Millisecond
	h := newHarness(t, true, false)
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\ncsrf=")
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	r, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Body.Close()
	if r.StatusCode != http.StatusRequestTimeout || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("late form: %d %s, want the HTML 408", r.StatusCode, r.Header.Get("Content-Type"))
	}
}

type fakeMeter []account.DayUsage

func (f fakeMeter) UnusedAround(_ account.ID, read func() error) ([]account.DayUsage, error) {
	return f, read()
}

// The store holds what was reserved in leases; the page shows what was served.
func TestUsageSubtractsUnusedLease(t *testing.T) {
	today := time.Now().UTC().Truncate(24 * time.Hour)
	h := newHarness(t, true, false, func(o *Options) {
		o.Meter = fakeMeter{{Day: today, Package: "ip-geolocation", Used: 624}}
	})
	c, key := h.signup("ada@example.org", pw)
	a := h.accountOf(key)
	if _, err := h.store.Reserve(context.Background(), a.ID, "ip-geolocation", time.Now(), 625, 10_000); err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Reserve(context.Background(), a.ID, "phone-email", time.Now(), 1500, 10_000); err != nil {
		t.Fatal(err)
	}
	r := h.get(c, "/account/usage")
	want(t, r, http.StatusOK, `data-package="ip-geolocation">1<`)
	want(t, r, http.StatusOK, `data-package="phone-email">1,500<`)
	want(t, r, http.StatusOK, "1,501 queries in the last 30 days")
	want(t, r, http.StatusOK, ">15%</meter>")
}

// TestPagesObserved checks that with Options.Observe every page's answer is logged as the
// API's are, one line each with its route's path and status, and that neither the
// password nor the key of the account reaches the log, even from a form sent by GET.
func TestPagesObserved(t *testing.T) {
	var routes []string
	var mu sync.Mutex
	h := newHarness(t, true, false, func(o *Options) {
		log := o.Log
		o.Observe = func(route string) web.Middleware {
			mu.Lock()
			routes = append(routes, route)
			mu.Unlock()
			return web.Observe(log, nil, route)
		}
	})
	c, key := h.signup("ada@example.org", pw)
	h.get(c, "/account/usage")
	h.get(c, "/assets/style.css")
	h.post(h.browser(), "/login", url.Values{"email": {"ada@example.org"}, "password": {pw}}) // no CSRF token: 403
	h.get(h.browser(), "/login?email=ada%40example.org&password="+url.QueryEscape(pw))        // a form sent by GET
	logs := h.logs.String()
	for _, line := range []string{
		`msg=request method=POST path=/signup query="" status=303`,
		`msg=request method=GET path=/account/usage query="" status=200`,
		`msg=request method=GET path=/assets/style.css query="" status=200`,
		`msg=request method=POST path=/login query="" status=403`,
		`msg=request method=GET path=/login query="email=REDACTED%40example.org&password=REDACTED" status=200`,
	} {
		if !strings.Contains(logs, line) {
			t.Errorf("no access-log line with %q in:\n%s", line, logs)
		}
	}
	if strings.Contains(logs, pw) || strings.Contains(logs, key) {
		t.Errorf("the password or the key reached the log:\n%s", logs)
	}
	if !slices.Contains(routes, "GET /assets/") || !slices.Contains(routes, "POST /login") {
		t.Errorf("routes observed: %v", routes)
	}
}

// TestWeakPasswordRefused checks that sign-up refuses a password auth.WeakPassword calls
// weak, saying why, and makes no account.
func TestWeakPasswordRefused(t *testing.T) {
	h := newHarness(t, true, false)
	for _, tc := range []struct{ password, why string }{
		{"1234567890", "consecutive letters or digits"},
		{"lovelace@example.org", "email address"},
		{"          ", "spaces alone"},
	} {
		c := h.browser()
		r := h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {"lovelace@example.org"}, "password": {tc.password}})
		want(t, r, http.StatusBadRequest, tc.why)
	}
	if _, err := h.store.AccountByEmail(t.Context(), "lovelace@example.org"); !errors.Is(err, account.ErrNotFound) {
		t.Errorf("an account was made with a weak password: %v", err)
	}
}
