// Package api is the REST surface of ipatlas: routes under /data/*, health and metrics
// endpoints, request parameter parsing, the wire shapes in the spec's field names, and the
// one table that maps domain errors to HTTP status codes. Engines answer; this package only
// translates.
package api

import (
	"context"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/useragent"
	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Authenticator resolves an API key to its account (auth.Authenticator).
type Authenticator interface {
	Authenticate(ctx context.Context, key string) (account.Account, error)
}

// Meter charges one request against an account's monthly volume (quota.Meter).
type Meter interface {
	Charge(ctx context.Context, a account.Account, pkg string) error
}

// Options wire a Server. Log, Auth, Meter and Data are required.
type Options struct {
	Log         *slog.Logger
	Auth        Authenticator
	Meter       Meter
	Data        *dataset.Live
	ClientAddrs web.ClientAddrs
	// Registry receives the HTTP metrics and is served on /metrics; nil disables both.
	// PrivateMetrics leaves /metrics to the admin listener: the route is not registered here,
	// since the metrics tell whoever asks the traffic by route and the process's state.
	Registry       *prometheus.Registry
	PrivateMetrics bool
	// MaxBody bounds request bodies (default 64 KiB); Timeout bounds handlers (default 10s).
	MaxBody int64
	Timeout time.Duration
	// LoadTestStatic adds the static baseline endpoint at LoadTestPath (for load tests).
	LoadTestStatic bool
}

// Server serves the REST API.
type Server struct {
	opt     Options
	mux     *http.ServeMux
	root    http.Handler // mux behind the clean-path check and the common headers (Handler)
	metrics *web.Metrics
	ids     *web.RequestIDs
	views   viewCache
	// keylessLim is the per-address rate limiter shared by every keyless lookup: the keyless
	// REST endpoints and GraphQL's free-api draw on the same buckets.
	keylessLim *keylessLimiter
	// uaParser builds the User-Agent parser on first use, so that servers, tests and the
	// lookup command that never parse one do not compile its regexes (about 50 ms).
	uaParser func() (*useragent.Parser, error)
	// uaBudget bounds the unseen User-Agent strings client-info parses, for all callers.
	uaBudget parseBudget
}

// New builds the server and its routes.
func New(opt Options) *Server {
	if opt.MaxBody <= 0 {
		opt.MaxBody = 64 << 10
	}
	if opt.Timeout <= 0 {
		opt.Timeout = 10 * time.Second
	}
	s := &Server{opt: opt, mux: http.NewServeMux(), ids: web.NewRequestIDs(),
		keylessLim: newKeylessLimiter(KeylessRate, KeylessBurst, KeylessMaxClients),
		uaParser:   sync.OnceValues(func() (*useragent.Parser, error) { return useragent.New(0) }),
		uaBudget:   newParseBudget()}
	if opt.Registry != nil {
		s.metrics = web.NewMetrics(opt.Registry)
	}
	s.routes()
	s.root = s.newRoot()
	return s
}

func (s *Server) routes() {
	// Keyed endpoints: package, then handler. Every plan reaches every endpoint; the package
	// only decides which monthly volume a call counts against.
	s.keyed("GET /data/country-info", quota.IPGeolocation, s.countryInfo)
	s.keyed("GET /data/countries", quota.IPGeolocation, s.countries)
	s.ipRoutes()
	s.timeZoneRoutes()
	s.compatRoutes()
	s.clientRoutes()
	s.asnListRoutes()
	s.placeRoutes()
	s.graphqlRoutes()
	if s.opt.LoadTestStatic {
		s.keyed("GET "+LoadTestPath, quota.IPGeolocation, s.loadTestStatic)
	}

	// Keyless.
	s.open("GET /data/sources", s.sources)
	s.open("GET /healthz", s.healthz)
	s.open("GET /readyz", s.readyz)
	s.openapiRoutes()
	if s.opt.Registry != nil && !s.opt.PrivateMetrics {
		s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.opt.Registry, promhttp.HandlerOpts{}))
	}
	// Everything else: the JSON error body instead of ServeMux's plain-text 404 and 405.
	s.mux.Handle("/", s.stack("unmatched", apiCORS(web.Unmatched(s.mux))))
}

// wrongMethod answers the methods of a path that its routes do not take, as web.Unmatched
// does, for paths that need a route of their own for it: those browsers call, whose 405
// carries CORS headers too (openCORS).
func wrongMethod(allow string) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		w.Header().Set("Allow", allow)
		return web.Errorf(http.StatusMethodNotAllowed, "Method %s is not allowed on %s; use %s.", r.Method, web.RedactPath(r.URL.EscapedPath()), allow)
	}
}

// Mux returns the router, for the other parts of the service that share the listener (the
// dashboard) to add their routes: requests reach them through Handler, which answers what no
// route takes with the JSON 404 or 405 and sets the headers every answer carries.
func (s *Server) Mux() *http.ServeMux { return s.mux }

// Observe returns the middleware that gives every answer of route a request id and counts
// and logs it as the API's are (web.Observe), for other handlers on Mux: the dashboard's.
func (s *Server) Observe(route string) web.Middleware {
	observe := web.Observe(s.opt.Log, s.metrics, route)
	return func(h http.Handler) http.Handler { return s.ids.Middleware(observe(h)) }
}

// Handler returns the root handler.
func (s *Server) Handler() http.Handler { return s.root }

// newRoot builds the root handler once: the router, with unclean paths answered before it.
func (s *Server) newRoot() http.Handler {
	unclean := s.stack("unmatched", apiCORS(http.HandlerFunc(s.unclean)))
	return web.NoSniff(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if cleanPath(r.URL.Path) != r.URL.Path {
			unclean.ServeHTTP(w, r)
			return
		}
		s.mux.ServeHTTP(w, r)
	}))
}

// cleanPath is p as ServeMux cleans it (path.Clean, keeping a trailing slash); "" stays ""
// (an absolute-form request without a path, which ServeMux answers as "/").
func cleanPath(p string) string {
	if p == "" {
		return ""
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// apiCORS adds the keyless CORS headers to h's answers under /data/ and /graphql/: a page
// that called a keyless endpoint by a wrong path (a typo, a trailing slash, an endpoint
// ipatlas does not serve) can then read the 404 that says so, where it would see only
// "Failed to fetch". The answers are public errors, and no credentials are involved.
func apiCORS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := strings.TrimLeft(r.URL.Path, "/"); strings.HasPrefix(p, "data/") || strings.HasPrefix(p, "graphql/") {
			keylessCORS(w.Header())
		}
		h.ServeHTTP(w, r)
	})
}

// unclean answers a path with // or dot segments with a JSON 404 naming the clean path,
// where ServeMux would answer an HTML redirect whose Location repeats the query, key and all.
func (s *Server) unclean(w http.ResponseWriter, r *http.Request) {
	web.WriteError(w, http.StatusNotFound, "There is no endpoint at "+web.RedactPath(r.URL.EscapedPath())+"; paths are not cleaned, use "+web.RedactText(cleanPath(r.URL.Path))+".")
}

func (s *Server) stack(route string, h http.Handler) http.Handler {
	return web.Stack(h,
		web.Recover(s.opt.Log),
		s.ids.Middleware,
		web.Observe(s.opt.Log, s.metrics, route),
		web.LimitRequests(s.opt.MaxBody, s.opt.Timeout),
	)
}

// open registers a handler that needs no key. A query string that does not decode is a 400
// before any handler reads it (web.CheckQuery says why).
func (s *Server) open(pattern string, fn web.HandlerFunc) { s.openCORS(pattern, nil, fn) }

// openCORS is open for endpoints that browsers call from other sites: every answer to a
// request forBrowsers picks (nil: none), the query string's 400 included, carries the
// keyless CORS headers, so that the page can read why it failed.
func (s *Server) openCORS(pattern string, forBrowsers func(*http.Request) bool, fn web.HandlerFunc) {
	lookup := strings.Contains(pattern, " /data/")
	s.mux.Handle(pattern, s.stack(pattern, web.Handle(s.opt.Log, statusOf, func(w http.ResponseWriter, r *http.Request) error {
		if forBrowsers != nil && forBrowsers(r) {
			keylessCORS(w.Header())
		}
		// A preflight is the browser asking whether it may send the request, not the
		// request: refused here for the query, it would hide the request's own 400 from
		// the page behind "Failed to fetch".
		if r.Method == http.MethodOptions {
			return fn(w, r)
		}
		if err := web.CheckQuery(r.URL.RawQuery); err != nil {
			return badRequest("The query string is not valid: %v.", err)
		}
		if lookup {
			if err := checkLocalityLanguage(r.URL.RawQuery); err != nil {
				return err
			}
		}
		return fn(w, r)
	})))
}

// keyed registers a handler that needs a valid key and counts against pkg's volume.
func (s *Server) keyed(pattern, pkg string, fn web.HandlerFunc) {
	s.open(pattern, func(w http.ResponseWriter, r *http.Request) error {
		if _, err := s.admit(r, pkg); err != nil {
			return err
		}
		return fn(w, r)
	})
}

// admit is the door of every keyed lookup, REST or GraphQL: it checks r's key and charges
// one unit of pkg's monthly volume to its account.
func (s *Server) admit(r *http.Request, pkg string) (account.Account, error) {
	key, _ := authKey(r)
	acct, err := s.opt.Auth.Authenticate(r.Context(), key)
	if err != nil {
		return account.Account{}, err
	}
	return acct, s.opt.Meter.Charge(r.Context(), acct, pkg)
}

// Offline lets every request through with no key and no metering. It is for the lookup
// command, which answers on the operator's own machine; never serve it on a listener.
type Offline struct{}

// Authenticate accepts any key, or none.
func (Offline) Authenticate(context.Context, string) (account.Account, error) {
	return account.Account{}, nil
}

// Charge counts nothing.
func (Offline) Charge(context.Context, account.Account, string) error { return nil }
