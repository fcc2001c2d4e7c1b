package api

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/graphql"
	"github.com/ipatlas/ipatlas/internal/web"
)

// GraphQL: POST /graphql/{package} answers a GraphQL query with the package's schema (see
// package graphql); GET /graphql/{package}/schema.graphql serves that schema as SDL, without
// a key. The keyed packages take the key as REST does (x-service-key, x-bdc-key or key=).
// Every lookup counts against the package's monthly volume as the REST call would: a query
// with three root fields counts three (so GraphQL is no way around the volume). The first
// unit is charged when the request arrives, so a key or quota failure there is the REST
// status (401, 402, 403) with the JSON error body; each further root field is charged when
// it runs, and a refused charge becomes that field's error (extensions.status 402) while the
// fields before it keep their data. A request that looks nothing up (introspection alone, a
// body that is not GraphQL) counts once, like a REST call that fails. free-api needs no
// key: it has the keyless endpoints' CORS headers and per-address rate limit (keyless.go),
// on which each root field draws one request as a keyed root draws one unit (the first when
// the request arrives, a 429 there; each further one when it runs, a refusal becoming that
// field's error, extensions.status 429). Every answer to a GraphQL request is HTTP 200 with
// errors[]; a body that is not a GraphQL request is 400, one over graphql.MaxBodyBytes 413.
func (s *Server) graphqlRoutes() {
	gql, err := graphql.New(graphqlAnswerer{s})
	if err != nil {
		// Cannot happen with the compiled-in schemas (their tests load them); answer 503
		// rather than take the REST API down with it.
		s.opt.Log.Error("GraphQL is disabled: its schemas do not load", "err", err)
		down := func(http.ResponseWriter, *http.Request) error {
			return web.Errorf(http.StatusServiceUnavailable, "The GraphQL interface is unavailable on this server.")
		}
		s.open("POST /graphql/{package}", down)
		s.open("GET /graphql/{package}/schema.graphql", down)
		return
	}
	// free-api is for browsers: its answers carry CORS headers, errors and 405 included; so
	// does the 404 of a package that does not exist, which a page may have mistyped.
	freeAPI := func(r *http.Request) bool {
		name := r.PathValue("package")
		_, known := gql.Package(name)
		return name == graphql.FreeAPI || !known
	}
	s.openCORS("POST /graphql/{package}", freeAPI, s.graphqlPost(gql, s.keylessLim))
	s.openCORS("OPTIONS /graphql/{package}", freeAPI, s.graphqlPreflight(gql))
	s.openCORS("/graphql/{package}", freeAPI, wrongMethod("POST"))
	s.open("GET /graphql/{package}/schema.graphql", s.graphqlSchema(gql))
}

// graphqlPackage resolves the {package} path value; an unknown one is a 404.
func graphqlPackage(gql *graphql.Service, r *http.Request) (*graphql.Package, error) {
	name := r.PathValue("package")
	p, ok := gql.Package(name)
	if !ok {
		return nil, web.Errorf(http.StatusNotFound, "There is no GraphQL package %s. The packages are ip-geolocation, reverse-geocoding, phone-email, network-engineering and free-api.", quoteInput(name))
	}
	return p, nil
}

// bodyPool holds request body buffers; a body is at most graphql.MaxBodyBytes.
var bodyPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (s *Server) graphqlPost(gql *graphql.Service, lim *keylessLimiter) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := graphqlPackage(gql, r)
		if err != nil {
			return err
		}
		var bill *graphqlBill
		if p.Keyed() {
			acct, err := s.admit(r, p.Name())
			if err != nil {
				return err
			}
			bill = &graphqlBill{acct: acct, pkg: p.Name(), prepaid: true}
		} else {
			if err := s.admitKeyless(lim, w, r); err != nil {
				return err
			}
			bill = &graphqlBill{keyless: lim, addr: s.keylessAddr(r), prepaid: true}
		}
		r = r.WithContext(context.WithValue(r.Context(), graphqlBillKey{}, bill))
		buf := bodyPool.Get().(*bytes.Buffer)
		defer bodyPool.Put(buf)
		buf.Reset()
		if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, graphql.MaxBodyBytes)); err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return web.Errorf(http.StatusRequestEntityTooLarge, "The GraphQL request body is larger than the limit of %d bytes.", tooBig.Limit)
			}
			if web.BodyTimedOut(err) {
				return web.Errorf(http.StatusRequestTimeout, "The GraphQL request body did not arrive within %v.", s.opt.Timeout)
			}
			return badRequest("The request body could not be read.")
		}
		if err := gql.Serve(noStoreWriter{w, bill}, r, p, buf.Bytes()); err != nil {
			var re *graphql.RequestError
			if errors.As(err, &re) {
				return badRequest("%s", re.Msg)
			}
			return err
		}
		return nil
	}
}

// graphqlPreflight answers CORS preflight requests: free-api is for browsers; the keyed
// packages are not (their key must stay on a server), so they get no CORS headers.
func (s *Server) graphqlPreflight(gql *graphql.Service) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := graphqlPackage(gql, r)
		if err != nil {
			return err
		}
		if p.Keyed() {
			w.Header().Set("Allow", "POST")
			return web.Errorf(http.StatusMethodNotAllowed, "Method OPTIONS is not allowed on %s; use POST. Only /graphql/free-api answers browsers' preflight requests.", r.URL.Path)
		}
		return corsPreflight(w, r, "POST, OPTIONS")
	}
}

func (s *Server) graphqlSchema(gql *graphql.Service) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := graphqlPackage(gql, r)
		if err != nil {
			return err
		}
		sdl := p.SDL()
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(sdl)))
		h.Set("Access-Control-Allow-Origin", "*") // public, and tools fetch it from browsers
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(sdl)
		return nil
	}
}

// graphqlAnswerer runs REST handlers in-process for the GraphQL executor: no key and no
// metering (the GraphQL request was checked and charged once), the GraphQL request's
// context, headers and remote address (so an omitted ip is the caller, behind trusted
// proxies too), and the REST error table for failures.
type graphqlAnswerer struct{ s *Server }

// serve runs the REST handler of path; ok is false when there is none. A switch rather
// than a map of method values: those would allocate a closure per call.
func (a graphqlAnswerer) serve(path string, w http.ResponseWriter, r *http.Request) (ok bool, err error) {
	s := a.s
	switch path {
	case "/data/ip-geolocation-with-confidence":
		return true, s.geolocation(w, r)
	case graphql.PathIPData:
		return true, s.ipData(w, r)
	case graphql.PathLocationData:
		return true, s.locationData(w, r)
	case graphql.PathIPv4Space:
		return true, s.addressSpace(w, true)
	case graphql.PathIPv6Space:
		return true, s.addressSpace(w, false)
	case "/data/timezone-info":
		return true, s.timeZoneInfo(w, r)
	case "/data/timezone-by-ip":
		return true, s.timeZoneByIP(w, r)
	case "/data/country-info":
		return true, s.countryInfo(w, r)
	case "/data/countries":
		return true, s.countries(w, r)
	case "/data/user-risk":
		return true, s.userRisk(w, r)
	case "/data/hazard-report":
		return true, s.hazardReport(w, r)
	case "/data/network-by-ip":
		return true, s.networkByIP(w, r)
	case "/data/network-by-cidr":
		return true, s.networkByCIDR(w, r)
	case "/data/asn-info-transit-to":
		return true, s.asnInfoTransitTo(w, r)
	case "/data/asn-info":
		return true, s.asnInfo(w, r)
	case "/data/asn-info-full":
		return true, s.asnInfoFull(w, r)
	case "/data/asn-info-receiving-from":
		return true, s.asnInfoReceivingFrom(w, r)
	case "/data/asn-rank-list":
		return true, s.asnRankList(w, r)
	case "/data/prefixes-list":
		return true, s.prefixesList(w, r)
	case "/data/tor-exit-nodes-list":
		return true, s.torExitNodesList(w, r)
	case "/data/phone-number-validate-by-ip":
		return true, s.phoneValidateByIP(w, r)
	case "/data/phone-number-validate":
		return true, s.phoneValidate(w, r)
	case "/data/reverse-geocode":
		return true, s.reverseGeocode(w, r)
	case "/data/reverse-geocode-client":
		return true, s.reverseGeocodeClient(w, r)
	case "/data/am-i-roaming":
		return true, s.amIRoaming(w, r)
	case "/data/user-agent-info":
		return true, s.userAgentInfo(w, r)
	case "/data/client-ip":
		return true, s.clientIP(w, r)
	case "/data/client-info":
		return true, s.clientInfo(w, r)
	}
	return false, nil
}

// graphqlBill is what a GraphQL request owes: every root lookup is one unit of pkg's
// volume for a keyed package, and one request of the caller's keyless rate limit for
// free-api (keyless set), so that aliases are no way around either. The first is prepaid
// when the request was let in. Root fields run one after another, so it needs no lock.
type graphqlBill struct {
	acct    account.Account
	pkg     string
	keyless *keylessLimiter
	addr    netip.Addr // the keyless caller's bucket
	prepaid bool
	// noStore: a lookup's answer was marked no-store (markNoStore), and so is the response
	// that carries it (noStoreWriter).
	noStore bool
}

// noStoreWriter marks the GraphQL response no-store when one of its lookups was, as the
// REST answer would be: the executor writes the response after every lookup has run.
type noStoreWriter struct {
	http.ResponseWriter
	bill *graphqlBill
}

func (w noStoreWriter) WriteHeader(code int) {
	if w.bill.noStore {
		markNoStore(w.ResponseWriter)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w noStoreWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

type graphqlBillKey struct{}

// charge takes one unit for a lookup of r's request. A keyless refusal sets Retry-After on
// w, as the REST door does.
func (a graphqlAnswerer) charge(w http.ResponseWriter, r *http.Request) error {
	b, ok := r.Context().Value(graphqlBillKey{}).(*graphqlBill)
	if !ok {
		return nil // not a GraphQL request: its REST door charged it
	}
	if b.prepaid {
		b.prepaid = false
		return nil
	}
	if b.keyless != nil {
		return keylessTake(b.keyless, b.addr, w)
	}
	return a.s.opt.Meter.Charge(r.Context(), b.acct, b.pkg)
}

// Answer implements graphql.Answerer.
func (a graphqlAnswerer) Answer(r *http.Request, path, rawQuery string) graphql.Reply {
	// Refused before the charge, as REST refuses it before the key.
	if err := checkLocalityLanguage(rawQuery); err != nil {
		return a.errorReply(err, nil)
	}
	rec := recorderPool.Get().(*answerRecorder)
	defer rec.put()
	if err := a.charge(rec, r); err != nil {
		return a.errorReply(err, rec.header)
	}
	// A shallow copy: the handlers only read the request, and must see the new URL only.
	sub := r.WithContext(r.Context())
	sub.Method = http.MethodGet
	sub.URL = &url.URL{Path: path, RawQuery: rawQuery}
	sub.RequestURI = ""
	sub.Body = http.NoBody
	sub.ContentLength = 0

	ok, err := a.serve(path, rec, sub)
	if !ok {
		a.s.opt.Log.ErrorContext(r.Context(), "GraphQL root field has no REST handler", "path", path)
		return a.errorReply(errors.New("no REST handler"), nil)
	}
	// A refusal about the caller (an omitted ip the data does not know) is no-store too, as
	// its REST answer is.
	if b, ok := r.Context().Value(graphqlBillKey{}).(*graphqlBill); ok && rec.header["Cache-Control"] != nil {
		b.noStore = true
	}
	if err != nil {
		if code, _ := statusOf(err); code >= 500 {
			a.s.opt.Log.ErrorContext(r.Context(), "GraphQL lookup failed", "path", path, "status", code, "err", err)
		}
		return a.errorReply(err, rec.header)
	}
	if rec.code == 0 {
		rec.code = http.StatusOK
	}
	// The body outlives the recorder: the executor reads it after this returns.
	return graphql.Reply{Status: rec.code, Body: bytes.Clone(rec.body)}
}

// errorReply is err's REST error body, with the wait h's Retry-After asks for (h may be
// nil).
func (a graphqlAnswerer) errorReply(err error, h http.Header) graphql.Reply {
	code, desc := statusOf(err)
	b, merr := web.Marshal(web.ErrorBody{Status: code, Description: desc})
	if merr != nil {
		b = []byte(`{"status":` + strconv.Itoa(code) + `}`)
	}
	secs, _ := strconv.Atoi(h.Get("Retry-After"))
	return graphql.Reply{Status: code, Body: b, RetryAfter: max(secs, 0)}
}

// answerRecorder is the ResponseWriter of an in-process REST call. It copies the body, since
// the handlers write from pooled buffers they reuse.
type answerRecorder struct {
	header http.Header
	code   int
	body   []byte
}

var recorderPool = sync.Pool{New: func() any { return &answerRecorder{header: make(http.Header, 4)} }}

func (w *answerRecorder) put() {
	if cap(w.body) > 1<<20 {
		return
	}
	clear(w.header)
	w.code, w.body = 0, w.body[:0]
	recorderPool.Put(w)
}

func (w *answerRecorder) Header() http.Header { return w.header }

func (w *answerRecorder) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *answerRecorder) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	w.body = append(w.body, b...)
	return len(b), nil
}
