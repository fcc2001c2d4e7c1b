// Command loadtest measures a real ipatlas server under load on the loopback interface:
// it starts `ipatlas serve` with the static baseline endpoint on a free 127.0.0.1 port, with
// a fresh store and a demo key, loads every endpoint in turn (bounded in requests and time)
// and prints requests/s, p50/p99 latency and server CPU µs per request, with each endpoint's
// CPU per request as a ratio to the static baseline's. `make bench` runs it.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/api"
	"github.com/ipatlas/ipatlas/internal/loadtest"
)

func main() {
	bin := flag.String("bin", "./bin/ipatlas", "the ipatlas binary")
	data := flag.String("data", "./var/data", "snapshot directory the server loads")
	duration := flag.Duration("duration", 5*time.Second, "time per endpoint")
	maxRequests := flag.Int("max-requests", 200000, "request bound per endpoint")
	concurrency := flag.Int("concurrency", 16, "concurrent connections")
	rounds := flag.Int("rounds", 3, "rounds: every endpoint, baseline included, is loaded once per round for duration/rounds")
	warmup := flag.Duration("warmup", 500*time.Millisecond, "unmeasured load per endpoint before the first round")
	only := flag.String("only", "", "comma-separated endpoint names to load (the baseline always runs)")
	store := flag.String("store", "", "account store URL for the server (default: a new SQLite file)")
	rate := flag.Float64("rate", 0, "requests per second per endpoint, paced over the connections (0: as fast as the server answers); one rate every endpoint sustains compares their own work, without the saturated server's batching")
	serveArgs := flag.String("serve-args", "", "more space-separated arguments for ipatlas serve, e.g. \"--admin-addr 127.0.0.1:6061\" to profile the server under load through /debug/pprof")
	flag.Parse()
	opt := loadtest.Options{Concurrency: *concurrency, Duration: *duration, MaxRequests: *maxRequests, Rounds: *rounds, Warmup: *warmup, Rate: *rate}
	if err := run(*bin, *data, *store, *only, strings.Fields(*serveArgs), opt); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

var listenRE = regexp.MustCompile(`msg=listening addr=(\S+) role=api `)

func run(bin, data, store, only string, serveArgs []string, opt loadtest.Options) error {
	dir, err := os.MkdirTemp("", "ipatlas-loadtest")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if store == "" {
		store = "sqlite:" + filepath.Join(dir, "ipatlas.db")
	}
	// An account of its own per run: a --store that outlives the run (PostgreSQL) already
	// holds the accounts of earlier runs, and an existing account's key is not ours to change.
	email := fmt.Sprintf("load-%d@ipatlas.local", time.Now().UnixNano())
	out, err := exec.Command(bin, "keys", "create", "--email", email, "--plan", "unlimited", "--store", store).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("keys create: %w: %s", err, bytes.TrimSpace(ee.Stderr))
		}
		return fmt.Errorf("keys create: %w", err)
	}
	key := strings.TrimSpace(string(out))

	args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data, "--store", store,
		"--load-test-endpoint", "--reload-interval", "0"}, serveArgs...)
	srv := exec.Command(bin, args...)
	stderr, err := srv.StderrPipe()
	if err != nil {
		return err
	}
	if err := srv.Start(); err != nil {
		return err
	}
	defer func() { srv.Process.Kill(); srv.Wait() }()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(60 * time.Second):
		return fmt.Errorf("the server did not listen within 60 s")
	}

	targets := loadtest.Targets(api.LoadTestPath)
	if only != "" {
		keep := targets[:1]
		for _, t := range targets[1:] {
			if strings.Contains(","+only+",", ","+t.Name+",") {
				keep = append(keep, t)
			}
		}
		targets = keep
	}
	pace := "as fast as answered"
	if opt.Rate > 0 {
		pace = fmt.Sprintf("paced at %g requests/s", opt.Rate)
	}
	fmt.Printf("ipatlas load test: %s, %d connections, %s, ≤ %s or ≤ %d requests per endpoint in %d rounds after a %s warm-up, snapshot %s\n",
		base, opt.Concurrency, pace, opt.Duration, opt.MaxRequests, max(1, opt.Rounds), opt.Warmup, data)
	opt.Key, opt.ServerPID = key, srv.Process.Pid
	res, err := loadtest.Run(context.Background(), base, targets, opt)
	loadtest.Report(os.Stdout, res, loadtest.Baseline)
	return err
}
