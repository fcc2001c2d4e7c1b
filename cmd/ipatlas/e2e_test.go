package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/quota"
)

// binPath is the ipatlas binary built once for the end-to-end tests.
var binPath string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ipatlas-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "ipatlas")
	out, err := exec.Command("go", "build", "-race", "-o", binPath, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "build ipatlas: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// env is one installation: a data dir with the fixture snapshot and a SQLite store.
type env struct {
	t     *testing.T
	dir   string
	store string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, snapshotFile), datasettest.Bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, dir: dir, store: "sqlite:" + filepath.Join(dir, "ipatlas.db")}
}

// ipatlas runs a command to completion and returns its stdout.
func (e *env) ipatlas(args ...string) string {
	e.t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "IPATLAS_STORE="+e.store, "IPATLAS_DATA="+filepath.Join(e.dir, "data"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		e.t.Fatalf("ipatlas %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

type server struct {
	cmd   *exec.Cmd
	base  string
	admin string // the admin listener's base URL, when --admin-addr was given
	done  chan struct{}
}

var listenRE = regexp.MustCompile(`msg=listening addr=(\S+) role=(api|admin) `)

// listenWithin bounds how long serve waits for the server to load its snapshot and listen.
// The fixture snapshot loads in well under a second, but the real one (TestRealData*) takes
// about 4 s in a plain build and 21-25 s under -race on an idle two-core machine, and more
// when `go test ./...` runs another package's tests beside it: 30 s was exceeded in CI. A
// server that exits instead ends the wait at once, so a generous bound costs nothing.
const listenWithin = 3 * time.Minute

// serve starts `ipatlas serve` on a free loopback port and waits until it listens.
func (e *env) serve(extra ...string) *server {
	e.t.Helper()
	args := append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "IPATLAS_STORE="+e.store, "IPATLAS_DATA="+filepath.Join(e.dir, "data"), "IPATLAS_LOG_LEVEL=info")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	s := &server{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	admin := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				if m[2] == "admin" {
					admin <- m[1]
				} else {
					addr <- m[1]
				}
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	go func() { cmd.Wait(); close(s.done) }()
	e.t.Cleanup(func() { s.cmd.Process.Kill(); <-s.done })
	select {
	case a := <-addr:
		s.base = "http://" + a
		if slices.Contains(extra, "--admin-addr") {
			// serve logs every listener before it serves on any.
			select {
			case a := <-admin:
				s.admin = "http://" + a
			case <-time.After(10 * time.Second):
				e.t.Fatal("ipatlas serve did not log its admin listener")
			}
		}
	case <-s.done:
		e.t.Fatal("ipatlas serve exited before listening")
	case <-time.After(listenWithin):
		e.t.Fatalf("ipatlas serve did not listen within %v", listenWithin)
	}
	return s
}

func (s *server) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop on SIGTERM")
	}
}

var client = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 128}}

func get(t *testing.T, url string, headers map[string]string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	checkOpenAPI(t, req.Method, req.URL.Path, resp.StatusCode, resp.Header, b)
	return resp.StatusCode, b
}

func storedUsage(t *testing.T, e *env, email string) int64 {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, "test", e.store, "--store")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	a, err := st.AccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	u, err := st.Usage(ctx, a.ID, account.PeriodOf(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	return u[quota.IPGeolocation]
}

func TestKeySourcesAndErrorBodies(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "a@example.org")
	s := e.serve()
	u := s.base + "/data/country-info?code=IE"
	tests := []struct {
		name    string
		url     string
		headers map[string]string
		code    int
	}{
		{"no key", u, nil, 401},
		{"wrong key", u + "&key=ipa_WRONGWRONGWRONGWRONGWRONGW", nil, 401},
		{"key=", u + "&key=" + key, nil, 200},
		{"x-service-key", u, map[string]string{"x-service-key": key}, 200},
		{"x-bdc-key", u, map[string]string{"x-bdc-key": key}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, tt.url, tt.headers)
			if code != tt.code {
				t.Fatalf("status %d, want %d: %s", code, tt.code, body)
			}
			if code != 200 {
				var eb struct {
					Status      int    `json:"status"`
					Description string `json:"description"`
				}
				if err := json.Unmarshal(body, &eb); err != nil || eb.Status != code || eb.Description == "" {
					t.Errorf("error body %s", body)
				}
			}
		})
	}
}

func TestRegenerateInvalidatesOldKey(t *testing.T) {
	e := newEnv(t)
	old := e.ipatlas("keys", "create", "--email", "b@example.org")
	s := e.serve()
	u := s.base + "/data/country-info?code=DE&key="
	if code, body := get(t, u+old, nil); code != 200 {
		t.Fatalf("old key before regenerate: %d %s", code, body)
	}
	fresh := e.ipatlas("keys", "regenerate", "--email", "b@example.org")
	if fresh == old || !strings.HasPrefix(fresh, "ipa_") {
		t.Fatalf("regenerate printed %q", fresh)
	}
	if code, _ := get(t, u+old, nil); code != 401 {
		t.Errorf("old key right after regenerate: %d, want 401", code)
	}
	if code, body := get(t, u+fresh, nil); code != 200 {
		t.Errorf("new key: %d %s", code, body)
	}
}

// TestKeysPlan changes a served account with `keys plan`, which returns once running
// servers apply the change: disabled, its key gets 403; enabled again with a monthly limit
// of 2, below what its server's lease already holds, it gets one more 200 (one request was
// served before; refused ones do not count) and then 402. The dashboard's pages, served
// beside, carry request ids as the API's answers do.
func TestKeysPlan(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "p@example.org")
	s := e.serve()
	u := s.base + "/data/country-info?code=DE&key=" + key
	if code, body := get(t, u, nil); code != 200 {
		t.Fatalf("before keys plan: %d %s", code, body)
	}
	if out := e.ipatlas("keys", "plan", "--email", "p@example.org", "--disable"); out != "p@example.org: plan free, the plan's volumes, disabled" {
		t.Errorf("keys plan printed %q", out)
	}
	if code, body := get(t, u, nil); code != 403 {
		t.Errorf("disabled: %d %s, want 403", code, body)
	}
	e.ipatlas("keys", "plan", "--email", "p@example.org", "--disable=false", "--monthly-limit", "2")
	for i, want := range []int{200, 402} {
		if code, body := get(t, u, nil); code != want {
			t.Errorf("request %d under a monthly limit of 2: %d %s, want %d", i+2, code, body, want)
		}
	}
	resp, err := client.Get(s.base + "/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("/login: %d with X-Request-Id %q, want 200 with one", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
}

// TestQuotaExactUnderConcurrency: 64 clients, 1500 requests, limit 1000: exactly 1000 get
// 200, 500 get 402, and the store says 1000.
func TestQuotaExactUnderConcurrency(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "c@example.org", "--monthly-limit", "1000")
	s := e.serve()
	var next atomic.Int64
	var ok, over, other atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for next.Add(1) <= 1500 {
				code, _ := get(t, s.base+"/data/country-info?code=US&key="+key, nil)
				switch code {
				case 200:
					ok.Add(1)
				case 402:
					over.Add(1)
				default:
					other.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1000 || over.Load() != 500 || other.Load() != 0 {
		t.Errorf("200: %d, 402: %d, other: %d; want 1000, 500, 0", ok.Load(), over.Load(), other.Load())
	}
	s.stop(t)
	if got := storedUsage(t, e, "c@example.org"); got != 1000 {
		t.Errorf("stored usage %d, want 1000", got)
	}
}

// TestUsageSurvivesSIGKILL: the stored usage is never below the 200s answered before a kill.
func TestUsageSurvivesSIGKILL(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "d@example.org", "--monthly-limit", "100000")
	var served int64
	for round := range 2 {
		s := e.serve()
		var ok atomic.Int64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					resp, err := client.Get(s.base + "/data/country-info?code=JP&key=" + key)
					if err != nil {
						return // the server is gone
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode == 200 {
						ok.Add(1)
					}
				}
			})
		}
		time.Sleep(700 * time.Millisecond)
		s.cmd.Process.Signal(syscall.SIGKILL)
		<-s.done
		close(stop)
		wg.Wait()
		served += ok.Load()
		got := storedUsage(t, e, "d@example.org")
		t.Logf("round %d: %d answered with 200 so far, stored usage %d", round, served, got)
		if ok.Load() == 0 {
			t.Fatal("no request succeeded before the kill; the test proves nothing")
		}
		if got < served {
			t.Fatalf("stored usage %d is below the %d requests answered with 200", got, served)
		}
	}
}

// TestSIGHUPReloadsSnapshot: a new snapshot file is served after SIGHUP; a corrupt one is
// refused and the old data keeps answering.
func TestSIGHUPReloadsSnapshot(t *testing.T) {
	e := newEnv(t)
	s := e.serve("--reload-interval", "0")
	loadedAt := func() string {
		_, body := get(t, s.base+"/readyz", nil)
		var r struct {
			LoadedAt string `json:"loadedAt"`
		}
		json.Unmarshal(body, &r)
		return r.LoadedAt
	}
	first := loadedAt()
	path := filepath.Join(e.dir, "data", snapshotFile)
	if err := os.WriteFile(path+".tmp", datasettest.Bytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Rename(path+".tmp", path)
	s.cmd.Process.Signal(syscall.SIGHUP)
	deadline := time.Now().Add(10 * time.Second)
	for loadedAt() == first {
		if time.Now().After(deadline) {
			t.Fatal("SIGHUP did not reload the snapshot")
		}
		time.Sleep(20 * time.Millisecond)
	}
	second := loadedAt()
	if err := os.WriteFile(path, []byte("not a snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.cmd.Process.Signal(syscall.SIGHUP)
	// The metrics count the refusal, so it can be alerted on.
	for deadline := time.Now().Add(10 * time.Second); metric(t, s, `ipatlas_snapshot_reloads_total{result="refused"}`) != "1"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no refused reload in the metrics 10 s after SIGHUP with a corrupt snapshot")
		}
	}
	if got := metric(t, s, `ipatlas_snapshot_reloads_total{result="ok"}`); got != "1" {
		t.Errorf("reloads ok %q, want 1", got)
	}
	if got := loadedAt(); got != second {
		t.Errorf("a corrupt snapshot replaced the serving one (loadedAt %s -> %s)", second, got)
	}
}

// metric returns the value of one series of the server's /metrics, "" when absent.
func metric(t *testing.T, s *server, series string) string {
	t.Helper()
	resp, err := client.Get(s.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), series+" "); ok {
			return v
		}
	}
	return ""
}

// TestListenerEdges: the dashboard and the API share one router behind the API's handler:
// a wrong method on a dashboard page is the dashboard's HTML 405 naming the methods, a path
// with // is a JSON 404 (not an HTML redirect repeating the key), and the pages carry
// nosniff too.
func TestListenerEdges(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "edges@example.org")
	s := e.serve()
	for _, tc := range []struct {
		method, path string
		code         int
		allow        string
		html         bool
	}{
		{"DELETE", "/signup", 405, "GET, HEAD, POST", true},
		{"GET", "/data//countries?key=" + key, 404, "", false},
		{"GET", "/login", 200, "", true},
	} {
		req, err := http.NewRequest(tc.method, s.base+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d, Allow %q; want %d, %q: %s", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Allow"), tc.code, tc.allow, body)
		}
		if ct := resp.Header.Get("Content-Type"); tc.html != strings.HasPrefix(ct, "text/html") || !tc.html && !json.Valid(body) {
			t.Errorf("%s %s: %s body, want HTML %v: %.200s", tc.method, tc.path, ct, tc.html, body)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s: no nosniff", tc.method, tc.path)
		}
		if strings.Contains(string(body), key) || strings.Contains(resp.Header.Get("Location"), key) {
			t.Errorf("%s %s: the answer repeats the key", tc.method, tc.path)
		}
	}
}

// TestMetricsListeners: /metrics is on the API listener (DESIGN.md's interface) and on the
// admin listener; --private-metrics keeps it to the admin listener.
func TestMetricsListeners(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "metrics@example.org")
	for _, private := range []bool{false, true} {
		args := []string{"--admin-addr", "127.0.0.1:0"}
		if private {
			args = append(args, "--private-metrics")
		}
		s := e.serve(args...)
		if code, body := get(t, s.base+"/data/countries?key="+key, nil); code != 200 {
			t.Fatalf("countries: %d %s", code, body)
		}
		want := `ipatlas_http_requests_total{code="200",route="GET /data/countries"} 1`
		for _, base := range []string{s.admin, s.base} {
			resp, err := client.Get(base + "/metrics")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			switch {
			case private && base == s.base:
				if resp.StatusCode != 404 || !json.Valid(body) {
					t.Errorf("--private-metrics, API listener: %d %.200s; want the JSON 404", resp.StatusCode, body)
				}
			case resp.StatusCode != 200 || !strings.Contains(string(body), want):
				t.Errorf("private %v, %s/metrics: %d; want 200 with %s in:\n%.2000s", private, base, resp.StatusCode, want, body)
			}
			if strings.Contains(string(body), key) {
				t.Error("the metrics repeat the key")
			}
		}
		// The admin listener's own errors are JSON too.
		for path, code := range map[string]int{"GET /admin/reload": 405, "GET /nope": 404, "POST /metrics": 405} {
			method, p, _ := strings.Cut(path, " ")
			req, _ := http.NewRequest(method, s.admin+p, nil)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != code || !json.Valid(body) {
				t.Errorf("admin %s: %d %s; want a JSON %d", path, resp.StatusCode, body, code)
			}
		}
		s.stop(t)
	}
}

// TestShutdownTimeout: when a request outlasts --shutdown-timeout, every listener stops
// taking requests at SIGTERM, not only once the first has drained, and the unused quota
// lease is still given back although the drain used up the timeout.
func TestShutdownTimeout(t *testing.T) {
	e := newEnv(t)
	key := e.ipatlas("keys", "create", "--email", "s@example.org", "--monthly-limit", "100000")
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	v4 := ln.Addr().String()
	ln.Close()
	s := e.serve("--ipv4-addr", v4, "--shutdown-timeout", "2s")
	if code, _ := get(t, "http://"+v4+"/data/country-info?code=JP&key="+key, nil); code != 200 {
		t.Fatalf("the IPv4 listener answered %d", code)
	}
	if code, _ := get(t, s.base+"/data/country-info?code=JP&key="+key, nil); code != 200 {
		t.Fatalf("status %d", code)
	}
	// It keeps the first listener draining past the timeout.
	s.startUnendingRequest(t)
	s.cmd.Process.Signal(syscall.SIGTERM)
	refused := false
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp4", v4)
		if err != nil {
			refused = true
			break
		}
		c.Close()
	}
	if !refused {
		t.Error("the IPv4 listener still took connections a second after SIGTERM")
	}
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		t.Fatal("server did not stop")
	}
	if got := storedUsage(t, e, "s@example.org"); got != 2 {
		t.Errorf("stored usage %d, want the 2 requests answered (the lease not given back?)", got)
	}
}

// TestSecondSIGTERM: a second SIGTERM ends a server that is still draining, at once.
func TestSecondSIGTERM(t *testing.T) {
	e := newEnv(t)
	s := e.serve("--shutdown-timeout", "60s")
	s.startUnendingRequest(t)
	s.cmd.Process.Signal(syscall.SIGTERM)
	time.Sleep(300 * time.Millisecond)
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(3 * time.Second):
		t.Fatal("a second SIGTERM did not end the draining server")
	}
}

// startUnendingRequest sends the server a request whose headers never end, which keeps a
// graceful shutdown draining until the server's header timeout (5 s); the connection is
// closed when the test ends.
func (s *server) startUnendingRequest(t *testing.T) {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(s.base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // until the server has read it: the connection is active
}
