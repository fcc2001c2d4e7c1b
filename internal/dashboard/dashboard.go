// Package dashboard is the account dashboard that `ipatlas serve` offers to people: sign-up,
// log-in and log-out, the Credentials page (the API key, shown once, and its regeneration),
// the Usage page (this month's volume per package and a 30-day chart) and an API explorer.
// Pages are server-rendered from embedded templates; sessions live in the account store,
// only as hashes, and every form is protected against cross-site request forgery.
package dashboard

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"runtime"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/web"
)

//go:embed templates/*.html static/*
var assets embed.FS

// KeySyncer applies the store's change log at once (auth.Authenticator), so that on this
// server a regenerated key is refused before the Credentials page shows the new one.
type KeySyncer interface {
	Sync(ctx context.Context) error
}

// UnusedCounter reports units reserved but not yet served (quota.Meter), under the day
// they are counted on in the store, so usage shown is what was answered rather than what
// was reserved in advance. UnusedAround calls read, which reads the store's usage, and
// reports the units that usage holds unserved.
type UnusedCounter interface {
	UnusedAround(id account.ID, read func() error) ([]account.DayUsage, error)
}

// Options configure a Server. Zero values select the documented defaults.
type Options struct {
	Store account.Store // required
	Plans quota.Plans   // default quota.DefaultPlans()
	Keys  KeySyncer     // optional
	Meter UnusedCounter // optional
	// Signup enables /signup. When false, /signup answers 404 and accounts are made with
	// `ipatlas keys create`; log-in still works.
	Signup      bool
	Log         *slog.Logger // default: discard
	ClientAddrs web.ClientAddrs
	// Observe, when set, wraps every route's handler (the pattern names it) so that its
	// answers are logged, counted and given request ids as the API's are (api.Server.Observe).
	Observe func(route string) web.Middleware
	// SessionTTL is how long a log-in lasts. Default 7 days.
	SessionTTL time.Duration
	// Failed log-ins are counted in LoginWindow (default 15 minutes), and past a limit
	// further attempts are refused with 429: MaxLoginFailures per email from one client
	// address (default 5), MaxAddrLoginFailures per address whatever the email (20), and
	// MaxEmailLoginFailures per email from all addresses together (50). The first is the
	// one a person who mistypes meets; counting it per address as well means that anyone
	// who knows an email cannot lock its owner out by failing five times. The last bounds
	// guessing one password from many addresses (ten at 5 each reach it); it does not
	// apply to an address from which the email logged in within 30 days, so that such
	// guesses lock the owner out only where they have not logged in before.
	MaxLoginFailures      int
	MaxAddrLoginFailures  int
	MaxEmailLoginFailures int
	LoginWindow           time.Duration
	// MaxSignupsPerAddr is how many accounts one client address may create in SignupWindow
	// before sign-ups from it are refused with 429, so that open sign-up cannot be used to
	// collect free keys by the dozen. Defaults 10 an hour.
	MaxSignupsPerAddr int
	SignupWindow      time.Duration
	Now               func() time.Time
}

// Server serves the dashboard. It is safe for concurrent use.
type Server struct {
	opt     Options
	pages   map[string]*template.Template
	logins  *loginLimits
	signups *throttle // accounts created per client address
	// signupProbes counts sign-ups per client address with an email that has an account.
	signupProbes *throttle
	csrfGuard    *http.CrossOriginProtection
	// dummyHash is checked against when an account has no password, so that case takes
	// as long as a real check.
	dummyHash string
	// hashing holds a token per password hash being computed (hashInTurn): each takes
	// 64 MiB and a core for a moment, and the log-in limits bound how many attempts an
	// address makes, not how many run at once.
	hashing chan struct{}
}

// hashWait is how long a log-in or sign-up waits for its turn to hash before it is told
// that the server is busy (a variable for tests).
var hashWait = 5 * time.Second

// hashInTurn runs hash (a password hash's computation) when a turn comes, and reports
// false, running nothing, when none came within hashWait (or the request ended).
func (s *Server) hashInTurn(r *http.Request, hash func()) bool {
	t := time.NewTimer(hashWait)
	defer t.Stop()
	select {
	case s.hashing <- struct{}{}:
		defer func() { <-s.hashing }()
		hash()
		return true
	case <-t.C:
	case <-r.Context().Done():
	}
	return false
}

// busyHashing answers a log-in or sign-up that got no turn to hash.
func busyHashing(w http.ResponseWriter, fail formFail) error {
	setRetryAfter(w, hashWait)
	return fail(http.StatusServiceUnavailable, "", "The server is busy checking other passwords. Try again in a few seconds.")
}

// New returns a Server; it parses the embedded templates once.
func New(opt Options) (*Server, error) {
	if opt.Store == nil {
		return nil, errors.New("dashboard: no store")
	}
	if opt.Plans == nil {
		opt.Plans = quota.DefaultPlans()
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 7 * 24 * time.Hour
	}
	if opt.MaxLoginFailures <= 0 {
		opt.MaxLoginFailures = 5
	}
	if opt.MaxAddrLoginFailures <= 0 {
		opt.MaxAddrLoginFailures = 20
	}
	if opt.MaxEmailLoginFailures <= 0 {
		opt.MaxEmailLoginFailures = 50
	}
	if opt.LoginWindow <= 0 {
		opt.LoginWindow = 15 * time.Minute
	}
	if opt.MaxSignupsPerAddr <= 0 {
		opt.MaxSignupsPerAddr = 10
	}
	if opt.SignupWindow <= 0 {
		opt.SignupWindow = time.Hour
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	s := &Server{
		opt:          opt,
		pages:        map[string]*template.Template{},
		logins:       newLoginLimits(opt),
		signups:      newThrottle(opt.MaxSignupsPerAddr, opt.SignupWindow, 100_000, failClosed),
		signupProbes: newThrottle(opt.MaxSignupsPerAddr, opt.SignupWindow, 100_000, evictWhenFull),
		csrfGuard:    http.NewCrossOriginProtection(),
		dummyHash:    auth.HashPassword("ipatlas: no password set"),
		hashing:      make(chan struct{}, runtime.GOMAXPROCS(0)),
	}
	s.csrfGuard.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.pageError(w, r, http.StatusForbidden, "This form was sent from another site, so it was refused.")
	}))
	funcs := template.FuncMap{"asset": assetURL}
	for _, name := range []string{"signup", "login", "logout", "credentials", "usage", "explorer", "error"} {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(assets, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard: parse %s: %w", name, err)
		}
		s.pages[name] = t
	}
	return s, nil
}

// assetVersion changes whenever a file under static/ does. Pages name their assets with it
// (assetURL), so that a browser holding an hour-old copy from before an upgrade asks for
// the new one.
var assetVersion = contentVersion(assets, "static")

// contentVersion hashes the names and contents of the files under dir.
func contentVersion(fsys fs.FS, dir string) string {
	h := sha256.New()
	fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, _ := fs.ReadFile(fsys, name)
			fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
			h.Write(b)
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// assetURL is the address of the static file name, for templates.
func assetURL(name string) string { return "/assets/" + name + "?v=" + assetVersion }

// Register adds the dashboard's routes to mux: /signup, /login, /logout, /account/...,
// /assets/... and the exact path / (which redirects to the Credentials page or to log-in).
func (s *Server) Register(mux *http.ServeMux) {
	observe := s.opt.Observe
	if observe == nil {
		observe = func(string) web.Middleware { return func(h http.Handler) http.Handler { return h } }
	}
	static, _ := fs.Sub(assets, "static")
	files := http.StripPrefix("/assets/", http.FileServerFS(static))
	mux.Handle("GET /assets/", observe("GET /assets/")(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only the files themselves: the file server's own 404 is plain text, and it lists
		// directories.
		if st, err := fs.Stat(static, strings.TrimPrefix(r.URL.Path, "/assets/")); err != nil || !st.Mode().IsRegular() {
			web.WriteError(w, http.StatusNotFound, "There is no asset at "+web.RedactPath(r.URL.EscapedPath())+".")
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	})))
	// allow collects the methods of each page, for the catch-alls' 405.
	allow := map[string][]string{}
	h := func(pattern string, fn func(http.ResponseWriter, *http.Request) error) {
		if method, path, ok := strings.Cut(pattern, " "); ok && path != "/{$}" {
			path = strings.TrimSuffix(path, "{$}")
			allow[path] = append(allow[path], method)
			if method == http.MethodGet { // ServeMux answers HEAD wherever it answers GET
				allow[path] = append(allow[path], http.MethodHead)
			}
		}
		mux.Handle(pattern, web.Stack(s.wrap(fn),
			web.Recover(s.opt.Log),
			observe(pattern),
			web.LimitRequestsAnswering(maxForm, formTimeout, s.formTooLarge),
			s.parseForm,
			s.csrfGuard.Handler,
		))
	}
	wrongMethod := func(w http.ResponseWriter, r *http.Request) error {
		// A catch-all takes every method, so a page asked for with the wrong one lands
		// there: say which method it takes.
		if methods, ok := allow[r.URL.Path]; ok {
			a := strings.Join(methods, ", ")
			w.Header().Set("Allow", a)
			return web.Errorf(http.StatusMethodNotAllowed, "This page takes %s.", a)
		}
		return web.Errorf(http.StatusNotFound, "There is no such page.")
	}
	h("GET /{$}", s.root)
	h("GET /signup", s.signupForm)
	h("POST /signup", s.signup)
	h("GET /login", s.loginForm)
	h("POST /login", s.login)
	h("GET /logout", s.logoutForm)
	h("POST /logout", s.logout)
	h("GET /account/{$}", func(w http.ResponseWriter, r *http.Request) error {
		http.Redirect(w, r, accountHome, http.StatusSeeOther)
		return nil
	})
	h("GET /account/credentials", s.authed(s.credentials))
	h("POST /account/credentials/regenerate", s.authed(s.regenerate))
	h("GET /account/usage", s.authed(s.usage))
	h("GET /account/explorer", s.authed(s.explorer))
	for _, p := range []string{"/account/", "/signup", "/login", "/logout"} {
		h(p, wrongMethod)
	}
}

// Bounds of a dashboard request: its body is a small form, which must arrive in
// formTimeout, shorter than the server's write timeout (30 s in cmd/ipatlas) so that the
// 408 can still be written (a variable for tests).
const maxForm = 64 << 10

var formTimeout = 20 * time.Second

func (s *Server) formTooLarge(w http.ResponseWriter, r *http.Request) {
	s.pageError(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("The form is larger than the limit of %d bytes.", maxForm))
}

// parseForm reads the form before the handlers do, answering in HTML as the pages do when
// it cannot: over maxForm (a chunked body, which no length announced) 413, not arrived
// within formTimeout 408. PostFormValue would take a body cut short for a form without its
// CSRF token.
func (s *Server) parseForm(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			var tooBig *http.MaxBytesError
			switch {
			case errors.As(err, &tooBig):
				s.formTooLarge(w, r)
			case web.BodyTimedOut(err):
				s.pageError(w, r, http.StatusRequestTimeout, "The form did not arrive in time.")
			default:
				s.pageError(w, r, http.StatusBadRequest, "The form could not be read.")
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Handler returns a handler serving only the dashboard's routes (everything else is 404).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.Register(mux)
	return mux
}

// page is the data every template gets.
type page struct {
	Title          string
	Nav            string // which navigation item is current
	Account        *account.Account
	CSRF           string
	Signup         bool
	Error          string
	Code           int    // the error page's HTTP status
	Invalid        string // the form field the Error is about: "email", "password" or none
	Notice         string // a note above the form that is not an error
	Next           string // the page to go to after log-in
	Email          string
	Key            string // a key shown once, right after it was made
	KeyStart       string // what the page may show of the current key: its hint, or the prefix
	Base           string // scheme and host the page was requested on, for examples
	Confirm        bool
	Usage          []pkgUsage
	Month          string
	Chart          chart
	EndpointGroups []endpointGroup
}

// pageHeaders sets the headers of every dashboard page.
func (s *Server) pageHeaders(w http.ResponseWriter, r *http.Request) {
	if r.TLS != nil {
		// Only where this server holds the certificate: a TLS proxy in front sets its own
		// policy, and one that also serves plain HTTP on this host must not be locked out.
		w.Header().Set("Strict-Transport-Security", "max-age=31536000")
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "same-origin")
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'")
}

// pageError answers with the error page outside a handler (see parseForm).
func (s *Server) pageError(w http.ResponseWriter, r *http.Request, code int, msg string) {
	s.pageHeaders(w, r)
	s.renderError(w, r, code, msg)
}

// wrap renders errors returned by fn as an HTML page; 5xx causes go to the log only.
func (s *Server) wrap(fn func(http.ResponseWriter, *http.Request) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.pageHeaders(w, r)
		err := fn(w, r)
		if err == nil {
			return
		}
		if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
			// The browser went away (a second click, a closed tab): nobody to answer, and
			// nothing went wrong here.
			s.opt.Log.DebugContext(r.Context(), "dashboard: request ended by the client", "path", web.RedactPath(r.URL.EscapedPath()))
			return
		}
		var we *web.Error
		if errors.As(err, &we) && we.Code < 500 {
			s.renderError(w, r, we.Code, we.Msg)
			return
		}
		s.opt.Log.ErrorContext(r.Context(), "dashboard: request failed", "path", web.RedactPath(r.URL.EscapedPath()), "err", err)
		s.renderError(w, r, http.StatusInternalServerError, "Something went wrong on our side; please try again.")
	})
}

func (s *Server) renderError(w http.ResponseWriter, r *http.Request, code int, msg string) {
	title, ok := errorTitles[code]
	if !ok {
		title = http.StatusText(code)
	}
	s.render(w, code, "error", page{Title: title, Error: msg, Signup: s.opt.Signup, Code: code})
}

// errorTitles head the error page, in words a person uses rather than HTTP's.
var errorTitles = map[int]string{
	http.StatusBadRequest:            "Something is wrong with the request",
	http.StatusUnauthorized:          "You are logged out",
	http.StatusForbidden:             "Not allowed",
	http.StatusNotFound:              "Page not found",
	http.StatusMethodNotAllowed:      "Not the way to this page",
	http.StatusRequestTimeout:        "The form took too long",
	http.StatusRequestEntityTooLarge: "The form is too large",
	http.StatusTooManyRequests:       "Too many tries",
	http.StatusInternalServerError:   "Something went wrong",
	http.StatusServiceUnavailable:    "The server is busy",
}

func (s *Server) render(w http.ResponseWriter, code int, name string, p page) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	if err := s.pages[name].Execute(w, p); err != nil {
		s.opt.Log.Error("dashboard: render", "page", name, "err", err)
	}
}

// ---- cookies, sessions, CSRF ----

// secure reports whether the browser reached the dashboard over TLS, here or at a trusted
// proxy in front (web.ClientAddrs.ViaHTTPS): the cookies are then Secure, so that they are
// never sent over plain HTTP.
func (s *Server) secure(r *http.Request) bool { return s.opt.ClientAddrs.ViaHTTPS(r) }

// cookieName uses the __Host- prefix when the cookie can be Secure: browsers then refuse it
// unless it is Secure, host-only and Path=/. The new key's cookie, which only its page is
// sent (setCookie), takes __Secure- instead, which asks for Secure alone.
func (s *Server) cookieName(r *http.Request, base string) string {
	switch {
	case !s.secure(r):
		return base
	case base == flashCookie:
		return "__Secure-" + base
	}
	return "__Host-" + base
}

func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, base, value string, maxAge int) {
	path := "/"
	if base == flashCookie {
		// A new key goes only to the page that shows it, not with every request to the
		// host (the API's among them) while it lasts.
		path = accountHome
	}
	http.SetCookie(w, &http.Cookie{
		Name: s.cookieName(r, base), Value: value, Path: path, MaxAge: maxAge,
		HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode,
	})
}

func (s *Server) cookie(r *http.Request, base string) string {
	c, err := r.Cookie(s.cookieName(r, base))
	if err != nil {
		return ""
	}
	return c.Value
}

const (
	sessionCookie = "ipatlas_session"
	preCookie     = "ipatlas_csrf" // CSRF token of forms shown before log-in
	flashCookie   = "ipatlas_key"  // a new key, shown once on the next view of Credentials
)

// csrfFor derives a session's form token from its secret token, so nothing more is stored.
func csrfFor(sessionToken string) string {
	m := hmac.New(sha256.New, []byte(sessionToken))
	m.Write([]byte("ipatlas dashboard csrf"))
	return hex.EncodeToString(m.Sum(nil))
}

func sameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

var errDisabled = web.Errorf(http.StatusForbidden, "This account is disabled.")

var errCSRF = web.Errorf(http.StatusForbidden, "The form's security token is missing or does not match your session. Reload the page and try again.")

// preToken returns the anonymous forms' CSRF token, setting its cookie if needed.
func (s *Server) preToken(w http.ResponseWriter, r *http.Request) string {
	if t := s.cookie(r, preCookie); len(t) >= 26 {
		return t
	}
	t := rand.Text()
	s.setCookie(w, r, preCookie, t, 0)
	return t
}

func (s *Server) checkPreToken(r *http.Request) error {
	if !sameToken(r.PostFormValue("csrf"), s.cookie(r, preCookie)) {
		return errCSRF
	}
	return nil
}

type session struct {
	token string
	acct  account.Account
}

// sessionOf returns the request's session, and account.ErrNotFound when it has none that
// is open.
func (s *Server) sessionOf(r *http.Request) (session, error) {
	tok := s.cookie(r, sessionCookie)
	if tok == "" || len(tok) > 64 {
		return session{}, account.ErrNotFound
	}
	id, err := s.opt.Store.SessionAccount(r.Context(), account.HashSession(tok), s.opt.Now())
	if err != nil {
		return session{}, err
	}
	acct, err := s.opt.Store.AccountByID(r.Context(), id)
	if err != nil {
		return session{}, err
	}
	return session{token: tok, acct: acct}, nil
}

// loggedIn reports whether the request comes with an open session of an account that is
// not disabled; a store error reads as no.
func (s *Server) loggedIn(r *http.Request) bool {
	ss, err := s.sessionOf(r)
	return err == nil && !ss.acct.Disabled
}

// authed runs fn with the logged-in account, redirecting to /login without one (and back
// here after it). POSTs must carry the session's CSRF token.
func (s *Server) authed(fn func(http.ResponseWriter, *http.Request, session) error) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		ss, err := s.sessionOf(r)
		if errors.Is(err, account.ErrNotFound) {
			if r.Method != http.MethodGet {
				s.setCookie(w, r, sessionCookie, "", -1)
				return errSessionEnded
			}
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.EscapedPath()), http.StatusSeeOther)
			return nil
		}
		if err != nil {
			return err
		}
		if ss.acct.Disabled {
			// As at log-in: a disabled account's sessions show nothing and change nothing
			// (they would otherwise still regenerate keys).
			return errDisabled
		}
		if r.Method == http.MethodPost && !sameToken(r.PostFormValue("csrf"), csrfFor(ss.token)) {
			return errCSRF
		}
		return fn(w, r, ss)
	}
}

var errSessionEnded = web.Errorf(http.StatusUnauthorized, "Your session has ended, so nothing was changed. Log in again.")

// accountHome is the page a log-in or sign-up lands on.
const accountHome = "/account/credentials"

// afterLogin is where a log-in goes: next if it names one of the account's pages, else
// accountHome. Only a path on this site is followed, so that a link to the log-in page
// cannot send people elsewhere once they have logged in, and without its query, so that
// it cannot open a page in a state the person did not ask for (?confirm=regenerate).
func afterLogin(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || !strings.HasPrefix(next, "/account/") ||
		strings.ContainsAny(next, "\\\r\n") || path.Clean(u.Path) != u.Path {
		return accountHome
	}
	return u.EscapedPath()
}

func (s *Server) newSession(ctx context.Context, w http.ResponseWriter, r *http.Request, id account.ID) error {
	tok := rand.Text()
	now := s.opt.Now()
	err := s.opt.Store.CreateSession(ctx, account.Session{Hash: account.HashSession(tok), AccountID: id, ExpiresAt: now.Add(s.opt.SessionTTL)}, now)
	if err != nil {
		return err
	}
	s.setCookie(w, r, sessionCookie, tok, int(s.opt.SessionTTL/time.Second))
	s.setCookie(w, r, preCookie, "", -1)
	return nil
}

// ---- handlers ----

func (s *Server) root(w http.ResponseWriter, r *http.Request) error {
	to := "/login"
	if s.cookie(r, sessionCookie) != "" {
		to = accountHome
	}
	http.Redirect(w, r, to, http.StatusSeeOther)
	return nil
}

var errSignupOff = web.Errorf(http.StatusNotFound, "Sign-up is turned off on this server. Ask its operator for an account, or log in if you have one.")

// formFail re-renders a form with an error about field ("email", "password" or "" for
// the form as a whole).
type formFail func(code int, field, msg string) error

// staleForm answers a log-in or sign-up whose form token no longer matches: after a log-in
// or log-out in another tab, or a server restart. Someone logged in by now goes to their
// account; anyone else gets the form again, with a fresh token and the email kept.
func (s *Server) staleForm(w http.ResponseWriter, r *http.Request, fail formFail) error {
	if s.loggedIn(r) {
		http.Redirect(w, r, afterLogin(r.PostFormValue("next")), http.StatusSeeOther)
		return nil
	}
	return fail(http.StatusForbidden, "password", "This form's security token is missing or out of date (after logging in or out in another tab, for instance), so it was not used. Enter your password again.")
}

// setRetryAfter tells the client to wait d: RFC 9110 counts whole seconds, so d is
// rounded up, and at least 1, since a refused request's 0 would invite an at-once retry.
func setRetryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", fmt.Sprint(max(seconds(d), 1)))
}

// seconds is d in whole seconds, rounded up.
func seconds(d time.Duration) int64 { return int64((d + time.Second - 1) / time.Second) }

// waitText says d in words, rounded up as Retry-After is: "10 seconds", "15 minutes",
// "1 hour".
func waitText(d time.Duration) string {
	switch s := max(seconds(d), 1); {
	case s < 60:
		return plural(int(s), "second")
	case d >= time.Hour && d%time.Hour == 0:
		return plural(int(d/time.Hour), "hour")
	}
	return plural(int((d+time.Minute-1)/time.Minute), "minute")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func (s *Server) signupForm(w http.ResponseWriter, r *http.Request) error {
	if !s.opt.Signup {
		return errSignupOff
	}
	if s.loggedIn(r) {
		http.Redirect(w, r, accountHome, http.StatusSeeOther)
		return nil
	}
	s.render(w, http.StatusOK, "signup", page{Title: "Sign up", Nav: "signup", CSRF: s.preToken(w, r), Signup: true})
	return nil
}

func (s *Server) signup(w http.ResponseWriter, r *http.Request) error {
	if !s.opt.Signup {
		return errSignupOff
	}
	email := account.NormalizeEmail(r.PostFormValue("email"))
	password := r.PostFormValue("password")
	fail := func(code int, field, msg string) error {
		s.render(w, code, "signup", page{Title: "Sign up", Nav: "signup", CSRF: s.preToken(w, r), Signup: true, Email: email, Error: msg, Invalid: field})
		return nil
	}
	if err := s.checkPreToken(r); err != nil {
		return s.staleForm(w, r, fail)
	}
	if !account.ValidEmail(email) {
		return fail(http.StatusBadRequest, "email", "Enter a valid email address, such as name@example.org.")
	}
	if !auth.PasswordLenOK(password) {
		return fail(http.StatusBadRequest, "password", fmt.Sprintf("Choose a password of %d to %d characters.", auth.MinPasswordLen, auth.MaxPasswordLen))
	}
	if why := auth.WeakPassword(password, email); why != "" {
		return fail(http.StatusBadRequest, "password", why+" Choose another.")
	}
	now, addr := s.opt.Now(), s.clientAddr(r)
	// tooMany refuses the sign-up, saying when the throttle that refused it lets it in.
	tooMany := func(t *throttle) error {
		wait := t.refusedFor(addr, now)
		setRetryAfter(w, wait)
		return fail(http.StatusTooManyRequests, "", "Too many sign-ups from your address. Try again in "+waitText(wait)+".")
	}
	// An email that has an account counts too, so that sign-up cannot test emails for
	// accounts faster than accounts can be made; in a table of its own that forgets when
	// full, since such tries cost nothing and, counted with the accounts made (a table that
	// refuses when full), would let anyone with enough addresses shut sign-up.
	if _, err := s.opt.Store.AccountByEmail(r.Context(), email); err == nil {
		if !s.signupProbes.take(addr, now) {
			return tooMany(s.signupProbes)
		}
		return fail(http.StatusConflict, "email", "An account with this email already exists (duplicate email). Log in instead.")
	}
	// The sign-up is counted before the slow part (hashing, the store), so that requests
	// sent at once cannot all pass the check; one that creates nothing gives it back.
	if !s.signups.take(addr, now) {
		return tooMany(s.signups)
	}
	counted := false
	defer func() {
		if !counted {
			s.signups.giveBack(addr, now)
		}
	}()
	var passwordHash string
	if !s.hashInTurn(r, func() { passwordHash = auth.HashPassword(password) }) {
		return busyHashing(w, fail)
	}
	key := auth.NewKey()
	acct, err := s.opt.Store.CreateAccount(r.Context(), account.NewAccount{
		Email: email, Plan: quota.DefaultPlan, KeyHash: account.HashKey(key), KeyHint: account.KeyHint(key), PasswordHash: passwordHash,
	})
	if errors.Is(err, account.ErrEmailTaken) {
		return fail(http.StatusConflict, "email", "An account with this email already exists (duplicate email). Log in instead.")
	}
	if err != nil {
		return err
	}
	counted = true
	s.opt.Log.Info("dashboard: account created", "account", acct.ID)
	if err := s.newSession(r.Context(), w, r, acct.ID); err != nil {
		return err
	}
	s.flashKey(w, r, key)
	http.Redirect(w, r, accountHome, http.StatusSeeOther)
	return nil
}

// clientAddr is the client as the throttles key it: its address, its /64 for IPv6 (see
// web.ClientKey), "?" when unknown.
func (s *Server) clientAddr(r *http.Request) string {
	if a, ok := s.opt.ClientAddrs.Of(r); ok {
		return web.ClientKey(a).String()
	}
	return "?"
}

func (s *Server) loginForm(w http.ResponseWriter, r *http.Request) error {
	next := r.URL.Query().Get("next")
	if s.loggedIn(r) {
		http.Redirect(w, r, afterLogin(next), http.StatusSeeOther)
		return nil
	}
	p := page{Title: "Log in", Nav: "login", CSRF: s.preToken(w, r), Signup: s.opt.Signup}
	if next != "" && afterLogin(next) == next {
		p.Next, p.Notice = next, "Log in to see that page (your session may have ended)."
	}
	s.render(w, http.StatusOK, "login", p)
	return nil
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) error {
	email := account.NormalizeEmail(r.PostFormValue("email"))
	password := r.PostFormValue("password")
	next := afterLogin(r.PostFormValue("next"))
	fail := func(code int, field, msg string) error {
		p := page{Title: "Log in", Nav: "login", CSRF: s.preToken(w, r), Signup: s.opt.Signup, Email: email, Error: msg, Invalid: field}
		if next != accountHome {
			p.Next = next
		}
		s.render(w, code, "login", p)
		return nil
	}
	if err := s.checkPreToken(r); err != nil {
		return s.staleForm(w, r, fail)
	}
	if !account.PlainEmail(email) {
		// No account has such an email; refused before it is counted, so that made-up
		// emails (up to the body's 64 KiB each) take no room in the limits' tables.
		return fail(http.StatusBadRequest, "email", "Enter a valid email address, such as name@example.org.")
	}
	now, addr := s.opt.Now(), s.clientAddr(r)
	try, ok := s.logins.begin(addr, email, now)
	if !ok {
		wait := s.logins.refusedFor(addr, email, now)
		setRetryAfter(w, wait)
		return fail(http.StatusTooManyRequests, "", "Too many failed log-ins. Try again in "+waitText(wait)+".")
	}
	acct, err := s.opt.Store.AccountByEmail(r.Context(), email)
	var hash string
	switch {
	case err == nil:
		hash, err = s.opt.Store.PasswordHash(r.Context(), acct.ID)
	case errors.Is(err, account.ErrNotFound):
		err = nil
	}
	if err != nil {
		try.cancel()
		return err
	}
	if hash == "" {
		// Spend the same time as a real check, so response times do not reveal which
		// emails have accounts.
		hash = s.dummyHash
	}
	var wrong bool
	if !s.hashInTurn(r, func() { wrong = auth.CheckPassword(hash, password) != nil }) {
		try.cancel()
		return busyHashing(w, fail)
	}
	if wrong || acct.ID == 0 || hash == s.dummyHash {
		s.opt.Log.Info("dashboard: log-in failed", "addr", addr)
		return fail(http.StatusUnauthorized, "password", "Wrong email or password. (An account made with 'ipatlas keys create' can log in once its operator has set a password with 'ipatlas keys password'.)")
	}
	if acct.Disabled {
		try.cancel()
		return fail(http.StatusForbidden, "", "This account is disabled.")
	}
	try.succeeded()
	if err := s.newSession(r.Context(), w, r, acct.ID); err != nil {
		return err
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
	return nil
}

// logoutForm asks to log out, for someone who typed /logout: a log-out is a form, so that
// another site cannot end the session with a link.
func (s *Server) logoutForm(w http.ResponseWriter, r *http.Request) error {
	ss, err := s.sessionOf(r)
	if errors.Is(err, account.ErrNotFound) {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return nil
	}
	if err != nil {
		return err
	}
	s.render(w, http.StatusOK, "logout", s.accountPage(ss, "Log out", ""))
	return nil
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) error {
	tok := s.cookie(r, sessionCookie)
	if tok != "" {
		if !sameToken(r.PostFormValue("csrf"), csrfFor(tok)) {
			// A form from before a log-in in another tab carries that older session's
			// token: ask again, with this session's.
			// (A session that has ended needs no protecting: its cookie is cleared below.)
			ss, err := s.sessionOf(r)
			if err == nil {
				p := s.accountPage(ss, "Log out", "")
				p.Error = "This log-out form's security token is missing or out of date (after logging in again in another tab, for instance), so you are still logged in."
				s.render(w, http.StatusForbidden, "logout", p)
				return nil
			}
			if !errors.Is(err, account.ErrNotFound) {
				return err
			}
		}
		if err := s.opt.Store.DeleteSession(r.Context(), account.HashSession(tok)); err != nil {
			return err
		}
	}
	s.setCookie(w, r, sessionCookie, "", -1)
	s.setCookie(w, r, flashCookie, "", -1)
	http.Redirect(w, r, "/login", http.StatusSeeOther)
	return nil
}

// flashKey hands a new key to the next view of the Credentials page in a short-lived
// HttpOnly cookie: the server keeps only the key's hash, and the browser drops the cookie
// as soon as the page has shown it.
func (s *Server) flashKey(w http.ResponseWriter, r *http.Request, key string) {
	s.setCookie(w, r, flashCookie, key, 300)
}

func (s *Server) credentials(w http.ResponseWriter, r *http.Request, ss session) error {
	p := s.accountPage(ss, "Credentials", "credentials")
	if k := s.cookie(r, flashCookie); strings.HasPrefix(k, auth.KeyPrefix) && len(k) <= auth.MaxKeyLen {
		// Show it only if it is still this account's key (not one from before a later
		// regeneration or another account's).
		if a, err := s.opt.Store.AccountByKey(r.Context(), account.HashKey(k)); err == nil && a.ID == ss.acct.ID {
			p.Key = k
		}
		s.setCookie(w, r, flashCookie, "", -1)
	}
	p.Confirm = r.URL.Query().Get("confirm") == "regenerate"
	p.Base = "http://" + r.Host
	if s.secure(r) {
		p.Base = "https://" + r.Host
	}
	s.render(w, http.StatusOK, "credentials", p)
	return nil
}

func (s *Server) regenerate(w http.ResponseWriter, r *http.Request, ss session) error {
	key, err := auth.RegenerateKey(r.Context(), s.opt.Store, ss.acct.ID)
	if err != nil {
		return err
	}
	if s.opt.Keys != nil {
		if err := s.opt.Keys.Sync(r.Context()); err != nil {
			s.opt.Log.Warn("dashboard: applying the key change at once failed; it applies at the next poll", "err", err)
		}
	}
	s.opt.Log.Info("dashboard: key regenerated", "account", ss.acct.ID)
	s.flashKey(w, r, key)
	http.Redirect(w, r, accountHome, http.StatusSeeOther)
	return nil
}

func (s *Server) accountPage(ss session, title, nav string) page {
	a := ss.acct
	start := a.KeyHint
	if start == "" {
		start = auth.KeyPrefix
	}
	return page{Title: title, Nav: nav, Account: &a, CSRF: csrfFor(ss.token), Signup: s.opt.Signup, KeyStart: start}
}

func (s *Server) explorer(w http.ResponseWriter, r *http.Request, ss session) error {
	p := s.accountPage(ss, "API explorer", "explorer")
	p.EndpointGroups = explorerGroups
	s.render(w, http.StatusOK, "explorer", p)
	return nil
}
