package dashboard

import (
	"sync"
	"time"
)

// throttle counts events per key in fixed windows: failed log-ins (per email and client
// address, per address, per email), accounts created per client address.
// It is bounded: when full, expired entries are dropped, and if none has expired the new key
// is refused (failClosed: a flood of addresses cannot create accounts) or an entry below
// its limit is forgotten to make room (evictWhenFull: a flood cannot lock everyone out; it
// only gains the forgotten entry's key a fresh count).
type throttle struct {
	max    int           // failures allowed per window
	window time.Duration // how long failures are remembered
	limit  int           // most keys tracked
	full   fullPolicy

	mu   sync.Mutex
	hits map[string]*window
}

// fullPolicy is what a full throttle does with a new key.
type fullPolicy bool

const (
	failClosed    fullPolicy = false
	evictWhenFull fullPolicy = true
)

type window struct {
	start time.Time
	n     int
}

func newThrottle(max int, w time.Duration, limit int, full fullPolicy) *throttle {
	return &throttle{max: max, window: w, limit: limit, full: full, hits: map[string]*window{}}
}

// take counts an event for key if key is still allowed one at now, in one step, and reports
// whether it did: concurrent callers cannot all pass, as they could between a check and a
// count made apart.
func (t *throttle) take(key string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	w := t.currentLocked(key, now)
	if w == nil || w.n >= t.max {
		return false
	}
	w.n++
	return true
}

// refusedFor says how long key stays refused after take refused it at now, for
// Retry-After: the rest of its window, or, when it was refused because the table is full
// (failClosed), a whole window, by when every window in the table has ended.
func (t *throttle) refusedFor(key string, now time.Time) time.Duration {
	if d := t.left(key, now); d > 0 {
		return d
	}
	return t.window
}

// left returns what is left at now of key's window if key has reached its limit in it,
// else 0.
func (t *throttle) left(key string, now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.hits[key]
	if !ok || w.n < t.max {
		return 0
	}
	return max(w.start.Add(t.window).Sub(now), 0)
}

// currentLocked returns key's window at now, a new one if its last has expired; nil when a
// new key would not fit (see throttle).
func (t *throttle) currentLocked(key string, now time.Time) *window {
	w, ok := t.hits[key]
	if ok && now.Sub(w.start) < t.window {
		return w
	}
	if !ok && len(t.hits) >= t.limit && !t.sweepLocked(now) {
		if t.full == failClosed {
			return nil
		}
		// Forget a key that has not reached its limit if there is one: forgetting a key
		// at its limit would lift a lock that filling the table is then enough to lift.
		victim := ""
		for k, w := range t.hits {
			if victim = k; w.n < t.max {
				break
			}
		}
		delete(t.hits, victim)
	}
	w = &window{start: now}
	t.hits[key] = w
	return w
}

// giveBack uncounts an event taken at now that did not happen after all, if its window
// is still the current one. A key left with no events is forgotten, so that refused
// attempts take no room.
func (t *throttle) giveBack(key string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if w, ok := t.hits[key]; ok && !w.start.After(now) && now.Sub(w.start) < t.window && w.n > 0 {
		if w.n--; w.n == 0 {
			delete(t.hits, key)
		}
	}
}

// reset forgets key's events (a pair's failures after a successful log-in).
func (t *throttle) reset(key string) {
	t.mu.Lock()
	delete(t.hits, key)
	t.mu.Unlock()
}

// sweepLocked drops expired windows and reports whether there is room for a new key.
func (t *throttle) sweepLocked(now time.Time) bool {
	for k, w := range t.hits {
		if now.Sub(w.start) >= t.window {
			delete(t.hits, k)
		}
	}
	return len(t.hits) < t.limit
}
