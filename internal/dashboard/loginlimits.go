package dashboard

import (
	"sync"
	"time"
)

// loginLimits holds the limits on failed log-ins (see Options): per address and email,
// per address, and per email from all addresses, whose ceiling does not apply to a pair
// that logged in lately, so that guesses from many addresses cannot lock the owner out
// where they usually log in.
type loginLimits struct {
	byPair, byAddr, byEmail *throttle
	known                   *recall // pairs that logged in within knownFor
}

// knownFor is how long a successful log-in exempts its address and email from the
// per-email ceiling.
const knownFor = 30 * 24 * time.Hour

func newLoginLimits(opt Options) *loginLimits {
	// Full tables evict rather than refuse: refusing would let anyone who fills one (with
	// made-up emails, from many addresses) lock everyone out of logging in.
	return &loginLimits{
		byPair:  newThrottle(opt.MaxLoginFailures, opt.LoginWindow, 100_000, evictWhenFull),
		byAddr:  newThrottle(opt.MaxAddrLoginFailures, opt.LoginWindow, 100_000, evictWhenFull),
		byEmail: newThrottle(opt.MaxEmailLoginFailures, opt.LoginWindow, 100_000, evictWhenFull),
		known:   newRecall(knownFor, 100_000),
	}
}

// attempt is one log-in attempt, counted as a failure against every limit that applies
// from its start: the password check takes long enough that parallel attempts would all
// pass a check made before it and counted after it.
type attempt struct {
	l                 *loginLimits
	pair, addr, email string
	now               time.Time
	countsForEmail    bool
}

// begin starts an attempt by addr (a client key, see clientAddr) as email, and reports
// false, counting nothing, when a limit is reached. The address is counted first: an
// address out of attempts does not touch the pair table for the pairs it goes on trying,
// so it can neither fill it nor, when it is full, make it forget another pair's failures
// to make room (TestLoginLimitsAddressFirst).
func (l *loginLimits) begin(addr, email string, now time.Time) (attempt, bool) {
	pair := pairKey(addr, email)
	a := attempt{l: l, pair: pair, addr: addr, email: email, now: now, countsForEmail: !l.known.has(pair, now)}
	if !l.byAddr.take(addr, now) {
		return attempt{}, false
	}
	if !l.byPair.take(pair, now) {
		l.byAddr.giveBack(addr, now)
		return attempt{}, false
	}
	if a.countsForEmail && !l.byEmail.take(email, now) {
		l.byPair.giveBack(pair, now)
		l.byAddr.giveBack(addr, now)
		return attempt{}, false
	}
	return a, true
}

// refusedFor says how long begin will go on refusing addr as email after it refused them
// at now, for Retry-After: until the last of the limits they have reached lets them try
// again (a fixed window each, so the rest of it).
func (l *loginLimits) refusedFor(addr, email string, now time.Time) time.Duration {
	pair := pairKey(addr, email)
	d := max(l.byAddr.left(addr, now), l.byPair.left(pair, now))
	if !l.known.has(pair, now) {
		d = max(d, l.byEmail.left(email, now))
	}
	return d
}

// pairKey is the key of addr and email in the per-pair table and in known.
func pairKey(addr, email string) string {
	return addr + "\x00" + email // an address holds no NUL, so the first one splits the key
}

// succeeded ends an attempt with the right password: it uncounts it, forgets the pair's
// earlier failures and remembers the pair as known. The per-email count of earlier
// failures stays: a log-in from one address says nothing of guesses from others.
func (a attempt) succeeded() {
	a.cancel()
	a.l.byPair.reset(a.pair)
	a.l.known.add(a.pair, a.now)
}

// cancel ends an attempt that was not a failed guess (the store failed, or the account is
// disabled): it uncounts it. An attempt ended by neither stays counted as a failure.
func (a attempt) cancel() {
	a.l.byPair.giveBack(a.pair, a.now)
	a.l.byAddr.giveBack(a.addr, a.now)
	if a.countsForEmail {
		a.l.byEmail.giveBack(a.email, a.now)
	}
}

// recall remembers keys for a time. It is bounded: when full, expired keys are dropped,
// and if none has expired an arbitrary one is (forgetting only costs an exemption).
type recall struct {
	ttl   time.Duration
	limit int

	mu sync.Mutex
	at map[string]time.Time
}

func newRecall(ttl time.Duration, limit int) *recall {
	return &recall{ttl: ttl, limit: limit, at: map[string]time.Time{}}
}

func (r *recall) add(key string, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.at[key]; !ok && len(r.at) >= r.limit {
		for k, t := range r.at {
			if now.Sub(t) >= r.ttl {
				delete(r.at, k)
			}
		}
		for k := range r.at {
			if len(r.at) < r.limit {
				break
			}
			delete(r.at, k)
		}
	}
	r.at[key] = now
}

func (r *recall) has(key string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.at[key]
	return ok && now.Sub(t) < r.ttl
}
