package loadtest

import (
	"context"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestCheckLoopback(t *testing.T) {
	for base, ok := range map[string]bool{
		"http://127.0.0.1:8080": true, "http://[::1]:80": true, "http://localhost:1": true,
		"http://10.0.0.1:80": false, "http://8.8.8.8": false, "https://127.0.0.1": false, "http://example.org:80": false,
	} {
		if err := checkLoopback(base); (err == nil) != ok {
			t.Errorf("%s: %v", base, err)
		}
	}
}

// TestRun loads a test server (this process, so its own CPU is measured) and checks the
// counts add up over two rounds (the warm-up not counted) and every request carried the key.
func TestRun(t *testing.T) {
	var noKey atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("x-service-key") != "k" {
			noKey.Add(1)
		}
		w.Write(loadTestBodyForTest)
	}))
	defer srv.Close()
	// Enough requests that the process's CPU time moves by several 10 ms ticks.
	const requests = 20000
	res, err := Run(context.Background(), srv.URL, Targets("/static")[:2], Options{
		Concurrency: 4, Duration: 30 * time.Second, MaxRequests: requests, Rounds: 2, Warmup: 50 * time.Millisecond,
		Key: "k", ServerPID: os.Getpid(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if r.Requests != requests || r.Status[200] != requests || r.P50 > r.P99 || len(r.RoundCPU) != 2 {
			t.Errorf("%+v", r)
		}
	}
	if n := noKey.Load(); n != 0 {
		t.Errorf("%d requests without the key", n)
	}
	var b strings.Builder
	Report(&b, res, Baseline)
	if !strings.Contains(b.String(), "1.00") {
		t.Errorf("the baseline's ratio to itself is not 1.00:\n%s", b.String())
	}
}

var loadTestBodyForTest = []byte(`{"ok":true}`)

func TestRandomAddr(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	v6 := 0
	for range 1000 {
		a := RandomAddr(rng)
		if a.Is6() {
			v6++
			if a.As16()[0]>>5 != 1 {
				t.Fatalf("%v is not in 2000::/3", a)
			}
		}
	}
	if v6 < 100 || v6 > 300 {
		t.Errorf("%d of 1000 addresses are IPv6, want about 200", v6)
	}
}

// TestRunRate: a paced run sends its last request no sooner than its place in the schedule
// allows, and still sends them all.
func TestRunRate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(loadTestBodyForTest) }))
	defer srv.Close()
	const requests, rate = 400, 2000.0
	res, err := Run(context.Background(), srv.URL, Targets("/static")[:1], Options{
		Concurrency: 4, Duration: time.Minute, MaxRequests: requests, Rate: rate, ServerPID: os.Getpid(),
	})
	if err != nil {
		t.Fatal(err)
	}
	earliest := time.Duration((requests - 1) / rate * float64(time.Second))
	if r := res[0]; r.Requests != requests || r.Elapsed < earliest {
		t.Errorf("%d requests in %v; want %d, in no less than %v", r.Requests, r.Elapsed, requests, earliest)
	}
}
