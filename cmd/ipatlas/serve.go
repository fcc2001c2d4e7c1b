package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/auth"
	"github.com/ipatlas/ipatlas/internal/dashboard"
	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/phone"
	"github.com/ipatlas/ipatlas/internal/quota"
	"github.com/ipatlas/ipatlas/internal/web"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// snapshotFile is where `data update` writes the snapshot inside --data.
const snapshotFile = "ipatlas.snapshot"

type serveConfig struct {
	addr, ipv4Addr, adminAddr string
	dataDir, storeURL         string
	trustedProxies            string
	forwardedHeader           string
	tlsCert, tlsKey           string
	plansFile                 string
	logFormat, logLevel       string
	reloadInterval            time.Duration
	keyPollInterval           time.Duration
	shutdownTimeout           time.Duration
	loadTestEndpoint          bool
	privateMetrics            bool
	signup                    bool
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", stdout)
	var c serveConfig
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8080", "address of the dual-stack API listener")
	fs.StringVar(&c.ipv4Addr, "ipv4-addr", "", "address of a second, IPv4-only API listener (the spec's IPv4-only host); empty: none")
	fs.StringVar(&c.adminAddr, "admin-addr", "", "address of the admin listener (/metrics, /debug/pprof, POST /admin/reload); empty: none. Keep it private")
	fs.StringVar(&c.dataDir, "data", "./var/data", "directory holding the data snapshot")
	fs.StringVar(&c.storeURL, "store", defaultStore, "account store: sqlite:PATH or a postgres:// URL")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", "", "comma-separated addresses or CIDRs of reverse proxies whose --forwarded-header is believed")
	fs.StringVar(&c.forwardedHeader, "forwarded-header", web.HeaderXForwardedFor, "the header the trusted proxies write the client's address to: X-Forwarded-For or Forwarded (the other is ignored)")
	fs.StringVar(&c.tlsCert, "tls-cert", "", "TLS certificate file (PEM); with --tls-key, serve HTTPS with HTTP/2")
	fs.StringVar(&c.tlsKey, "tls-key", "", "TLS private key file (PEM)")
	fs.StringVar(&c.plansFile, "plans", "", "plans file (JSON); default: the built-in plans")
	fs.StringVar(&c.logFormat, "log-format", "text", "log format: text or json")
	fs.StringVar(&c.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.DurationVar(&c.reloadInterval, "reload-interval", 10*time.Second, "how often to check the snapshot file for changes (0: never, only on SIGHUP or POST /admin/reload)")
	fs.DurationVar(&c.keyPollInterval, "key-poll-interval", defaultKeyPollInterval, "how often to read account changes (positive); a regenerated key stops working within this")
	fs.DurationVar(&c.shutdownTimeout, "shutdown-timeout", 15*time.Second, "how long to let requests finish on SIGTERM before they are cut off; unused quota is given back after (positive)")
	fs.BoolVar(&c.loadTestEndpoint, "load-test-endpoint", false, "add the keyed static 1.5 KB baseline endpoint "+api.LoadTestPath+" that load tests compare with")
	fs.BoolVar(&c.privateMetrics, "private-metrics", false, "serve /metrics only on --admin-addr, not on the API listeners (where it is then a 404)")
	fs.BoolVar(&c.signup, "signup", true, "let anyone create an account at /signup (false: accounts come from 'ipatlas keys create'; log-in still works)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := c.checkDurations(fs); err != nil {
		return err
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return usageError{fmt.Sprintf("serve: %s and %s go together", fs.origin("tls-cert"), fs.origin("tls-key"))}
	}
	// A listen address that cannot parse is a usage error found now, not after the snapshot
	// has loaded (seconds, and most of the memory).
	for _, l := range []struct{ flag, addr string }{{"addr", c.addr}, {"ipv4-addr", c.ipv4Addr}, {"admin-addr", c.adminAddr}} {
		if l.addr != "" && !listenAddrSyntax(l.addr) {
			return usageError{fmt.Sprintf("serve: %s %q: want host:port, e.g. 127.0.0.1:8080 or :8080", fs.origin(l.flag), l.addr)}
		}
	}
	if c.privateMetrics && c.adminAddr == "" {
		return usageError{fmt.Sprintf("serve: %s serves the metrics on the admin listener only; give it with --admin-addr", fs.origin("private-metrics"))}
	}
	log, err := newLogger(stderr, fs, c.logFormat, c.logLevel)
	if err != nil {
		return err
	}
	// The certificate is read now, not after the snapshot has loaded (seconds, and most of
	// the memory), so that a wrong path or pair fails at once.
	var cert *tls.Certificate
	if c.tlsCert != "" {
		pair, err := tls.LoadX509KeyPair(c.tlsCert, c.tlsKey)
		if err != nil {
			return fmt.Errorf("serve: %s, %s: %w", fs.origin("tls-cert"), fs.origin("tls-key"), err)
		}
		cert = &pair
	}
	trusted, err := web.ParseTrustedProxies(c.trustedProxies)
	if err != nil {
		return usageError{fmt.Sprintf("serve: %s: %v", fs.origin("trusted-proxies"), err)}
	}
	fwdHeader, err := web.ParseForwardedHeader(c.forwardedHeader)
	if err != nil {
		return usageError{fmt.Sprintf("serve: %s: %v", fs.origin("forwarded-header"), err)}
	}
	clientAddrs := web.ClientAddrs{Trusted: trusted, Header: fwdHeader}
	plans, err := loadPlans(c.plansFile)
	if err != nil {
		return err
	}

	// SIGHUP is caught before the store opens and the snapshot loads: uncaught, it would end
	// the process (a reload that races a start); caught, it reloads once serving.
	hup, stopHUP := dataset.NotifyReload()
	defer stopHUP()

	// The store opens before the snapshot loads (seconds, and most of the memory), so that
	// a wrong URL or an unreachable database fails at once; but not before the snapshot's
	// header has been checked, so that a mistyped --data, or a file cut short or of another
	// version, leaves no new database behind.
	path := filepath.Join(c.dataDir, snapshotFile)
	noSnapshot := func(err error) error {
		return fmt.Errorf("serve: no usable data snapshot (run 'ipatlas data update --data %s' first): %w", c.dataDir, err)
	}
	if _, err := dbfile.Check(path); err != nil {
		return noSnapshot(err)
	}
	store, err := openStore(ctx, "serve", c.storeURL, fs.origin("store"))
	if err != nil {
		return stoppedOr(ctx, log, err)
	}
	defer store.Close()

	live, err := dataset.NewLive(path, log)
	if err != nil {
		return noSnapshot(err)
	}
	if ctx.Err() != nil {
		return stoppedOr(ctx, log, nil)
	}

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	reg.MustRegister(snapshotMetrics(live)...)
	authn := auth.New(auth.Options{Store: store, PollInterval: c.keyPollInterval, Log: log})
	if err := authn.Sync(ctx); err != nil {
		return stoppedOr(ctx, log, err)
	}
	meter := quota.NewMeter(quota.Options{Store: store, Plans: plans, Registerer: reg, Log: log})
	_ = phone.Warm() // libphonenumber's one-time costs before the first request; an error (a broken build) only loses locations
	srv := api.New(api.Options{Log: log, Auth: authn, Meter: meter, Data: live, ClientAddrs: clientAddrs, Registry: reg, PrivateMetrics: c.privateMetrics, LoadTestStatic: c.loadTestEndpoint})

	dash, err := dashboard.New(dashboard.Options{Store: store, Plans: plans, Keys: authn, Meter: meter, Signup: c.signup, Log: log, ClientAddrs: clientAddrs, Observe: srv.Observe})
	if err != nil {
		return err
	}
	// The dashboard's pages and the API share the listener and the API's router, so that
	// both get its JSON 404 and 405 answers and its headers.
	dash.Register(srv.Mux())
	root := srv.Handler()

	bg, stopBG := context.WithCancel(context.Background())
	defer stopBG()
	var wg sync.WaitGroup
	wg.Go(func() { authn.Run(bg) })
	wg.Go(func() { meter.Run(bg) })
	wg.Go(func() { live.Watch(bg, c.reloadInterval, hup) })

	servers, err := listen(c, root, adminHandler(reg, live), cert, log)
	if err != nil {
		return err
	}
	errc := make(chan error, len(servers))
	for _, s := range servers {
		log.Info("listening", "addr", s.ln.Addr().String(), "role", s.role, "tls", s.tls)
		go func() { errc <- s.serve() }()
	}
	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err = <-errc:
		log.Error("listener failed", "err", err)
	}
	shutdown(log, servers, c.shutdownTimeout)
	// Leases not used are given back so the stored usage equals what was served, with a
	// time of their own (the drain may have used all of the shutdown timeout), and before
	// waiting for the background work, which may be in the middle of a reload.
	mctx, cancel := context.WithTimeout(context.Background(), releaseTimeout)
	defer cancel()
	meter.Close(mctx)
	stopBG()
	wg.Wait()
	return err
}

// stoppedOr returns err, or nil when ctx was cancelled (a stop asked for while starting:
// the cancelled connection or query is no failure).
func stoppedOr(ctx context.Context, log *slog.Logger, err error) error {
	if ctx.Err() != nil {
		log.Info("stopped before serving")
		return nil
	}
	return err
}

// releaseTimeout bounds giving unused quota back at shutdown: one store write per account
// and package in use.
const releaseTimeout = 5 * time.Second

// shutdown stops every listener at once, so that none takes new requests while another
// drains, and lets requests in flight finish within timeout; those still running then are
// cut off, and the log says so.
func shutdown(log *slog.Logger, servers []listener, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() {
			if err := s.srv.Shutdown(ctx); err != nil {
				log.Warn("requests still running at the shutdown timeout are cut off", "addr", s.ln.Addr().String(), "role", s.role, "timeout", timeout, "err", err)
				s.srv.Close()
			}
		})
	}
	wg.Wait()
}

// defaultKeyPollInterval is serve's --key-poll-interval, which keys regenerate's --wait
// follows.
const defaultKeyPollInterval = 200 * time.Millisecond

// checkDurations refuses intervals that mean nothing: a poll interval must be positive (a
// ticker cannot run at zero); a negative reload interval is no interval (0 turns the
// checks off); and a shutdown timeout of zero or less would cut requests off and keep
// unused quota leases from being given back. An error names the flag or, when the value
// came from there, the environment variable.
func (c serveConfig) checkDurations(fs *cmdFlags) error {
	switch {
	case c.keyPollInterval <= 0:
		return usageError{fmt.Sprintf("serve: %s %v: must be positive", fs.origin("key-poll-interval"), c.keyPollInterval)}
	case c.reloadInterval < 0:
		return usageError{fmt.Sprintf("serve: %s %v: must not be negative (0: never check, only reload on SIGHUP or POST /admin/reload)", fs.origin("reload-interval"), c.reloadInterval)}
	case c.shutdownTimeout <= 0:
		return usageError{fmt.Sprintf("serve: %s %v: must be positive", fs.origin("shutdown-timeout"), c.shutdownTimeout)}
	}
	return nil
}

type listener struct {
	role string
	srv  *http.Server
	ln   net.Listener
	tls  bool // srv.TLSConfig holds the certificate
}

func (l listener) serve() error {
	var err error
	if l.tls {
		err = l.srv.ServeTLS(l.ln, "", "")
	} else {
		err = l.srv.Serve(l.ln)
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// newHTTPServer returns the server of one listener; cert, when not nil, is its TLS
// certificate. net/http's own messages go to log (httpErrorLog), so that they come out in
// the log's format, not as plain lines among JSON ones.
func newHTTPServer(h http.Handler, cert *tls.Certificate, log *slog.Logger) *http.Server {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          stdlog.New(httpErrorLog{log}, "", 0),
	}
	if cert != nil {
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{*cert}}
	}
	return srv
}

// listen opens the listeners c names; cert, when not nil, is the API listeners' TLS
// certificate (the admin listener is plain HTTP).
func listen(c serveConfig, api, admin http.Handler, cert *tls.Certificate, log *slog.Logger) ([]listener, error) {
	var out []listener
	add := func(role, network, addr string, h http.Handler, cert *tls.Certificate) error {
		ln, err := net.Listen(network, addr)
		if err != nil {
			for _, l := range out {
				l.ln.Close()
			}
			return fmt.Errorf("serve: listen %s (%s): %w", addr, role, err)
		}
		out = append(out, listener{role: role, srv: newHTTPServer(h, cert, log), ln: ln, tls: cert != nil})
		return nil
	}
	if err := add("api", "tcp", c.addr, api, cert); err != nil {
		return nil, err
	}
	if c.ipv4Addr != "" {
		if err := add("api-ipv4", "tcp4", c.ipv4Addr, api, cert); err != nil {
			return nil, err
		}
	}
	if c.adminAddr != "" {
		if err := add("admin", "tcp", c.adminAddr, admin, nil); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// adminHandler serves operator endpoints on a separate, private listener.
func adminHandler(reg *prometheus.Registry, live *dataset.Live) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("POST /admin/reload", func(w http.ResponseWriter, r *http.Request) {
		if err := live.Reload(); err != nil {
			web.WriteError(w, http.StatusUnprocessableEntity, "The snapshot was refused and the previous one keeps serving: "+err.Error())
			return
		}
		_ = web.WriteJSON(w, http.StatusOK, map[string]any{"status": "reloaded", "dataBuildTime": live.Current().Meta.BuildTime})
	})
	mux.Handle("/", web.Unmatched(mux)) // JSON 404 and 405, as on the API listener
	return mux
}

func newLogger(w io.Writer, fs *cmdFlags, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, usageError{fmt.Sprintf("serve: %s %q: want debug, info, warn or error", fs.origin("log-level"), level)}
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch strings.ToLower(format) {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, usageError{fmt.Sprintf("serve: %s %q: want text or json", fs.origin("log-format"), format)}
}

// snapshotMetrics reports the serving snapshot's data date, when it was loaded, and the
// reloads, so that a refused reload (a bad file: the previous snapshot keeps serving) can be
// alerted on.
func snapshotMetrics(live *dataset.Live) []prometheus.Collector {
	reloads := func(result string, n func() float64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "ipatlas_snapshot_reloads_total",
			Help:        "Snapshot reloads since start: result ok (the new snapshot serves) or refused (the previous one keeps serving).",
			ConstLabels: prometheus.Labels{"result": result},
		}, n)
	}
	return []prometheus.Collector{
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ipatlas_snapshot_data_timestamp_seconds",
			Help: "The serving data snapshot's data date, its newest source's (Unix seconds).",
		}, func() float64 { return float64(live.Current().Meta.BuildTime.Unix()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "ipatlas_snapshot_loaded_timestamp_seconds",
			Help: "When the serving data snapshot was loaded (Unix seconds).",
		}, func() float64 { return float64(live.Current().LoadedAt.Unix()) }),
		reloads("ok", func() float64 { ok, _ := live.Reloads(); return float64(ok) }),
		reloads("refused", func() float64 { _, bad := live.Reloads(); return float64(bad) }),
	}
}

// listenAddrSyntax reports whether addr reads as host:port with a port net.Listen could
// take: empty (any free port), a number up to 65535, or a service name (":http"), which
// only Listen can check.
func listenAddrSyntax(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	switch {
	case err != nil:
		return false
	case port == "" || strings.TrimLeft(port, "-0123456789") != "":
		return true
	}
	_, err = strconv.ParseUint(port, 10, 16)
	return err == nil
}

// httpErrorLog writes net/http's messages to the service's log: a client's failed TLS
// handshake (scanners, plain HTTP to the HTTPS port, TCP probes) at Info, anything else
// (accept errors when out of file descriptors, say) at Warn.
type httpErrorLog struct{ log *slog.Logger }

func (h httpErrorLog) Write(p []byte) (int, error) {
	msg := strings.TrimSuffix(string(p), "\n")
	level := slog.LevelWarn
	if strings.HasPrefix(msg, "http: TLS handshake error") {
		level = slog.LevelInfo
	}
	h.log.Log(context.Background(), level, msg)
	return len(p), nil
}
