package dashboard

import (
	"net/http"
	"net/url"
	"regexp"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a settable Options.Now, safe for the server's goroutines.
type fakeClock struct{ t atomic.Pointer[time.Time] }

func newFakeClock(t time.Time) *fakeClock {
	c := &fakeClock{}
	c.set(t)
	return c
}

func (c *fakeClock) set(t time.Time)                  { c.t.Store(&t) }
func (c *fakeClock) now() time.Time                   { return *c.t.Load() }
func (c *fakeClock) add(d time.Duration)              { c.set(c.now().Add(d)) }
func (c *fakeClock) at(t0 time.Time, d time.Duration) { c.set(t0.Add(d)) }

var tryAgainRE = regexp.MustCompile(`Try again in [^.<]*\.`)

// wantRetry checks a 429 that says to wait retry (Retry-After) and, in words, wait.
func wantRetry(t *testing.T, r resp, retry, wait string) {
	t.Helper()
	said := tryAgainRE.FindString(r.body)
	if r.code != http.StatusTooManyRequests || r.header.Get("Retry-After") != retry || said != "Try again in "+wait+"." {
		t.Errorf("got %d, Retry-After %q, %q; want 429, %q, %q", r.code, r.header.Get("Retry-After"), said, retry, "Try again in "+wait+".")
	}
}

// TestLoginRetryAfter: a throttled log-in is told what is left of the window, not the
// whole window, and is let in once it has passed.
func TestLoginRetryAfter(t *testing.T) {
	t0 := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		after        time.Duration // since the 5 failures
		retry, words string
	}{
		{time.Second, "899", "15 minutes"},
		{14*time.Minute + 50*time.Second, "10", "10 seconds"},
		{15*time.Minute - 300*time.Millisecond, "1", "1 second"},
	}
	for _, tt := range tests {
		t.Run(tt.after.String(), func(t *testing.T) {
			clock := newFakeClock(t0)
			h := newHarness(t, true, false, func(o *Options) { o.Now = clock.now })
			h.signup("ada@example.org", pw)
			c := h.browser()
			try := func(password string) resp {
				return h.post(c, "/login", url.Values{"csrf": {h.csrf(c, "/login")}, "email": {"ada@example.org"}, "password": {password}})
			}
			for range 5 {
				want(t, try("wrong password"), http.StatusUnauthorized, "Wrong")
			}
			clock.at(t0, tt.after)
			wantRetry(t, try(pw), tt.retry, tt.words)
			clock.at(t0, 15*time.Minute)
			want(t, try(pw), http.StatusOK, "Your API key")
		})
	}
}

// TestSignupRetryAfter: sign-up throttling says what is left of its window too, for
// accounts made and for tries with emails that have one.
func TestSignupRetryAfter(t *testing.T) {
	t0 := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	clock := newFakeClock(t0)
	h := newHarness(t, true, false, func(o *Options) { o.Now, o.MaxSignupsPerAddr = clock.now, 1 })
	c := h.browser()
	signup := func(email string) resp {
		return h.post(c, "/signup", url.Values{"csrf": {h.csrf(c, "/signup")}, "email": {email}, "password": {pw}})
	}
	want(t, signup("ada@example.org"), http.StatusOK, "Your API key")
	h.post(c, "/logout", url.Values{"csrf": {h.csrf(c, "/account/credentials")}})
	clock.at(t0, 59*time.Minute+30*time.Second)
	wantRetry(t, signup("bob@example.org"), "30", "30 seconds")
	want(t, signup("ada@example.org"), http.StatusConflict, "already exists") // the probes' own window starts now
	clock.add(20 * time.Minute)
	wantRetry(t, signup("ada@example.org"), "2400", "40 minutes")
	clock.at(t0, time.Hour)
	want(t, signup("bob@example.org"), http.StatusOK, "Your API key")
}

// TestRefusedFor: the wait a refusal reports is the rest of the window that refused it,
// the later one where several limits refuse, and a whole window where a full table
// refused a new key.
func TestRefusedFor(t *testing.T) {
	t0 := time.Date(2026, 3, 9, 12, 0, 0, 0, time.UTC)
	full := newThrottle(1, time.Hour, 1, failClosed)
	full.take("a", t0)
	if ok := full.take("b", t0.Add(time.Minute)); ok {
		t.Fatal("a full table took a new key")
	}
	if got := full.refusedFor("b", t0.Add(time.Minute)); got != time.Hour {
		t.Errorf("full table: refusedFor = %v, want the whole window", got)
	}
	if got := full.refusedFor("a", t0.Add(time.Minute)); got != 59*time.Minute {
		t.Errorf("key at its limit: refusedFor = %v, want 59m", got)
	}

	l := newLoginLimits(Options{MaxLoginFailures: 2, MaxAddrLoginFailures: 3, MaxEmailLoginFailures: 100, LoginWindow: 15 * time.Minute})
	// A failure as bob at t0 starts the address's window; two as ada at t0+5m fill the
	// pair's and then the address's. The address refuses first, but lets in again at
	// t0+15m, when the pair would still refuse for 5 minutes.
	l.begin("1.2.3.4", "bob@example.org", t0)
	l.begin("1.2.3.4", "ada@example.org", t0.Add(5*time.Minute))
	l.begin("1.2.3.4", "ada@example.org", t0.Add(5*time.Minute))
	now := t0.Add(10 * time.Minute)
	if _, ok := l.begin("1.2.3.4", "ada@example.org", now); ok {
		t.Fatal("begin passed over both limits")
	}
	if got := l.refusedFor("1.2.3.4", "ada@example.org", now); got != 10*time.Minute {
		t.Errorf("refusedFor = %v, want 10m, when the pair's window ends", got)
	}
	if got := l.refusedFor("1.2.3.4", "cy@example.org", now); got != 5*time.Minute {
		t.Errorf("refusedFor another email = %v, want 5m, when the address's window ends", got)
	}
}
