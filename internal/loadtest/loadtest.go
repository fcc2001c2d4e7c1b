// Package loadtest drives a running ipatlas server on the loopback interface with bounded
// traffic and measures, per endpoint, requests per second, latency percentiles and the
// server's CPU time per request (user+sys of the server process ÷ requests), the number
// DESIGN.md section 6 sets targets for as a ratio to a static baseline endpoint measured in
// the same run.
package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Target is one endpoint to load: Query returns the query string of a request (without the
// key), drawn from rng.
type Target struct {
	Name  string
	Path  string
	Query func(rng *rand.Rand) string
}

// Options bound a run. Each target runs for Duration or until MaxRequests, whichever comes
// first, split evenly over Rounds rounds; a round loads every target in turn, so the
// baseline is measured next to each endpoint throughout the run and a slow phase of this
// shared machine weighs on both. Before the first round every target is loaded for Warmup,
// unmeasured (first touches of the snapshot's memory, connection set-up, GC sizing).
type Options struct {
	Concurrency int
	Duration    time.Duration
	MaxRequests int
	Rounds      int           // default 1
	Warmup      time.Duration // per target; 0: none
	// Rate, when positive, paces each target's requests to that many a second over all
	// connections (open loop: a request is sent at its time whether or not earlier ones have
	// been answered, as far as the connections allow); 0 sends each request as soon as a
	// connection is free. At the saturation that 0 gives, the server handles more requests
	// per wake-up for a fast endpoint than for a slow one, which lowers the fast one's CPU
	// per request by itself; at one rate that every target sustains, the networking costs
	// alike and the ratios compare the endpoints' own work.
	Rate      float64
	Key       string
	ServerPID int // the server process, whose CPU time is read from /proc
}

// Result is one target's measurement, summed over the rounds.
type Result struct {
	Name      string
	Requests  int
	Status    map[int]int
	Elapsed   time.Duration
	P50, P99  time.Duration
	BodyBytes int64           // response body bytes, all requests together
	CPUPerReq time.Duration   // server user+sys time per request
	RoundCPU  []time.Duration // CPUPerReq of each round
}

// RPS is requests per second.
func (r Result) RPS() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// BodyPerReq is the mean response body size in bytes: what the server wrote besides its
// headers, which costs CPU by itself (the static baseline at a second size shows how much).
func (r Result) BodyPerReq() float64 { return float64(r.BodyBytes) / float64(r.Requests) }

// Run loads the targets against base, which must be a loopback URL, in opt.Rounds rounds.
func Run(ctx context.Context, base string, targets []Target, opt Options) ([]Result, error) {
	if err := checkLoopback(base); err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: opt.Concurrency, MaxConnsPerHost: opt.Concurrency, DisableCompression: true,
	}}
	if opt.Warmup > 0 {
		warm := opt
		warm.Duration = opt.Warmup
		for _, t := range targets {
			if _, err := runOne(ctx, client, base, t, warm); err != nil {
				return nil, fmt.Errorf("%s: warm-up: %w", t.Name, err)
			}
		}
	}
	rounds := max(1, opt.Rounds)
	each := opt
	each.Duration, each.MaxRequests = opt.Duration/time.Duration(rounds), max(1, opt.MaxRequests/rounds)
	sums := make([]round, len(targets))
	perRound := make([][]time.Duration, len(targets))
	for range rounds {
		for i, t := range targets {
			r, err := runOne(ctx, client, base, t, each)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", t.Name, err)
			}
			perRound[i] = append(perRound[i], r.cpu/time.Duration(len(r.lat)))
			sums[i].add(r)
		}
	}
	out := make([]Result, len(targets))
	for i, t := range targets {
		out[i] = sums[i].result(t.Name)
		out[i].RoundCPU = perRound[i]
	}
	return out, nil
}

// round is what one target's load measured: per-request latencies, status counts, wall time
// and the server's CPU time.
type round struct {
	lat     []time.Duration
	status  map[int]int
	body    int64
	elapsed time.Duration
	cpu     time.Duration
}

func (s *round) add(r round) {
	s.lat = append(s.lat, r.lat...)
	if s.status == nil {
		s.status = map[int]int{}
	}
	for code, n := range r.status {
		s.status[code] += n
	}
	s.body += r.body
	s.elapsed += r.elapsed
	s.cpu += r.cpu
}

func (s *round) result(name string) Result {
	r := Result{Name: name, Requests: len(s.lat), Status: s.status, BodyBytes: s.body, Elapsed: s.elapsed}
	slices.Sort(s.lat)
	r.P50, r.P99 = s.lat[len(s.lat)/2], s.lat[len(s.lat)*99/100]
	r.CPUPerReq = s.cpu / time.Duration(r.Requests)
	return r
}

// runOne loads t for opt.Duration or opt.MaxRequests requests; at least one must complete.
func runOne(ctx context.Context, client *http.Client, base string, t Target, opt Options) (round, error) {
	ctx, cancel := context.WithTimeout(ctx, opt.Duration)
	defer cancel()
	var issued atomic.Int64
	lat := make([][]time.Duration, opt.Concurrency)
	status := make([]map[int]int, opt.Concurrency)
	body := make([]int64, opt.Concurrency)
	var firstErr error
	var errOnce sync.Once
	cpu0, err := processCPU(opt.ServerPID)
	if err != nil {
		return round{}, err
	}
	start := time.Now()
	var wg sync.WaitGroup
	for w := range opt.Concurrency {
		status[w] = map[int]int{}
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(w), uint64(start.UnixNano())))
			for ctx.Err() == nil {
				n := issued.Add(1)
				if n > int64(opt.MaxRequests) {
					break
				}
				if opt.Rate > 0 && !waitUntil(ctx, start.Add(time.Duration(float64(n-1)/opt.Rate*float64(time.Second)))) {
					break
				}
				u := base + t.Path + "?" + t.Query(rng)
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
				req.Header.Set("x-service-key", opt.Key)
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					if ctx.Err() == nil {
						errOnce.Do(func() { firstErr = err })
					}
					return
				}
				size, _ := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				body[w] += size
				lat[w] = append(lat[w], time.Since(t0))
				status[w][resp.StatusCode]++
			}
		})
	}
	wg.Wait()
	r := round{elapsed: time.Since(start), status: map[int]int{}}
	cpu1, err := processCPU(opt.ServerPID)
	if err != nil {
		return round{}, err
	}
	if firstErr != nil {
		return round{}, firstErr
	}
	r.cpu = cpu1 - cpu0
	for w := range opt.Concurrency {
		r.lat = append(r.lat, lat[w]...)
		r.body += body[w]
		for code, n := range status[w] {
			r.status[code] += n
		}
	}
	if len(r.lat) == 0 {
		return r, errors.New("no request completed")
	}
	return r, nil
}

// waitUntil sleeps until t, and reports false if ctx ended first.
func waitUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// checkLoopback refuses any base URL whose host is not a loopback address: load goes to
// this machine only.
func checkLoopback(base string) error {
	rest, ok := strings.CutPrefix(base, "http://")
	if !ok {
		return fmt.Errorf("loadtest: base %q is not an http:// URL", base)
	}
	host := rest
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		host = rest[:i]
	}
	host = strings.Trim(host, "[]")
	if host == "localhost" {
		return nil
	}
	a, err := netip.ParseAddr(host)
	if err != nil || !a.IsLoopback() {
		return fmt.Errorf("loadtest: %q is not a loopback address; load tests only target this machine", host)
	}
	return nil
}

// clockTick is the unit of /proc/PID/stat times: USER_HZ, 100 on every Linux that Go runs
// on.
const clockTick = 10 * time.Millisecond

// processCPU returns the user+sys CPU time of process pid so far.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, fmt.Errorf("loadtest: server CPU time: %w", err)
	}
	// The command name, field 2, is in parentheses and may hold spaces: fields after it
	// are counted from the last ')'.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("loadtest: malformed /proc/%d/stat", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("loadtest: malformed /proc/%d/stat", pid)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("loadtest: malformed /proc/%d/stat", pid)
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// Report writes a table of results, each with its CPU per request as a ratio to the
// baseline result named baseline, over the whole run and, with several rounds, the lowest and
// highest ratio of a single round (the spread this machine's noise gives).
func Report(w io.Writer, results []Result, baseline string) {
	var base Result
	for _, r := range results {
		if r.Name == baseline {
			base = r
		}
	}
	fmt.Fprintf(w, "%-34s %9s %9s %9s %9s %7s %12s %7s %11s  %s\n", "endpoint", "requests", "req/s", "p50", "p99", "body B", "CPU µs/req", "ratio", "per round", "status")
	for _, r := range results {
		ratio, spread := "-", "-"
		if base.CPUPerReq > 0 {
			ratio = fmt.Sprintf("%.2f", float64(r.CPUPerReq)/float64(base.CPUPerReq))
		}
		if len(r.RoundCPU) > 1 && len(r.RoundCPU) == len(base.RoundCPU) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for i, c := range r.RoundCPU {
				if b := base.RoundCPU[i]; b > 0 {
					lo, hi = min(lo, float64(c)/float64(b)), max(hi, float64(c)/float64(b))
				}
			}
			if lo <= hi {
				spread = fmt.Sprintf("%.2f–%.2f", lo, hi)
			}
		}
		var codes []string
		for _, c := range slices.Sorted(maps.Keys(r.Status)) {
			codes = append(codes, fmt.Sprintf("%d×%d", c, r.Status[c]))
		}
		fmt.Fprintf(w, "%-34s %9d %9.0f %9s %9s %7.0f %12.1f %7s %11s  %s\n", r.Name, r.Requests, r.RPS(),
			r.P50.Round(time.Microsecond), r.P99.Round(time.Microsecond), r.BodyPerReq(),
			float64(r.CPUPerReq)/float64(time.Microsecond), ratio, spread, strings.Join(codes, " "))
	}
}
