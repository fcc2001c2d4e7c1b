package quota

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/prometheus/client_golang/prometheus"
)

// Store is the part of account.Store the meter writes to.
type Store interface {
	Reserve(ctx context.Context, id account.ID, pkg string, at time.Time, n, limit int64) (int64, error)
	Release(ctx context.Context, id account.ID, pkg string, at time.Time, n int64) error
	Usage(ctx context.Context, id account.ID, p account.Period) (map[string]int64, error)
}

// Options configure a Meter. Zero values select the documented defaults.
type Options struct {
	Store Store
	Plans Plans
	// MaxLease is the most units reserved in one store round trip (default 1000). It bounds
	// what a killed process over-counts for one account and package.
	MaxLease int64
	// LeaseShare sets lease size to the remaining volume divided by this (default 16), so
	// leases shrink to one unit as the limit approaches and the boundary stays exact even
	// with several servers sharing a store.
	LeaseShare int64
	// IdleRelease returns unused lease units that were not touched for this long (default 10s),
	// so other servers sharing the store can use them.
	IdleRelease time.Duration
	Registerer  prometheus.Registerer
	Log         *slog.Logger
	Now         func() time.Time
}

// Meter charges requests against monthly volumes. It is safe for concurrent use.
//
// Each (account, package) has a lease: units already reserved in the store and not yet
// used. A request takes one unit from the lease; an empty lease is refilled by one Reserve
// call while other requests for the same lease wait. Because units are reserved before they
// are used, the stored usage is never below the number of requests let through; a crash
// over-counts by at most the unused part of a lease.
type Meter struct {
	opt       Options
	rejected  *prometheus.CounterVec
	storeErrs prometheus.Counter

	mu     sync.RWMutex
	leases map[leaseKey]*lease
	// closed is set by Close: a request still running after it (one the shutdown cut off)
	// reserves its own unit alone, so that no unused units are left behind to over-count.
	closed atomic.Bool
	// changes counts the changes of the store's usage that this meter makes along with its
	// leases (a reservation, a give-back), each when it starts and when both sides are
	// done, in stripes by account: UnusedAround reads an account's usage between two
	// changes of its stripe, so that other accounts' refills seldom make it read again.
	changes [changeStripes]struct{ started, done atomic.Uint64 }
}

// changeStripes is the number of Meter.changes stripes.
const changeStripes = 64

type leaseKey struct {
	id  account.ID
	pkg string
}

type lease struct {
	mu        sync.Mutex
	periodEnd time.Time // start of the next month; used and loaded are void from then on
	at        time.Time // when the current units were reserved (their month and day)
	dayEnd    time.Time // the midnight after at; remaining units are given back from then on
	remaining int64     // reserved and unused
	limit     int64     // the volume remaining was reserved under
	used      int64     // known usage of the month in the store, including remaining
	loaded    bool      // used has been read from the store
	lastUse   time.Time
	// The store refused the lease at refusedLimit; until refusedUntil it is refused from
	// memory, unless the limit has changed.
	refusedUntil time.Time
	refusedLimit int64
}

// refuseFor is how long a lease the store refused at the limit is refused without asking the
// store again: a client over its volume would otherwise cost a store transaction per
// request. Units given back by other servers, or a raised volume, count within this long.
const refuseFor = time.Second

// releaseTimeout bounds a give-back at midnight or after a lowered volume, which runs under
// the lease's lock: a store that hangs holds up that account's requests for this long at
// most, then the units stay counted.
const releaseTimeout = 5 * time.Second

// NewMeter returns a Meter; Run must be running for idle leases to be given back.
func NewMeter(opt Options) *Meter {
	if opt.MaxLease <= 0 {
		opt.MaxLease = 1000
	}
	if opt.LeaseShare <= 0 {
		opt.LeaseShare = 16
	}
	if opt.IdleRelease <= 0 {
		opt.IdleRelease = 10 * time.Second
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	m := &Meter{opt: opt, leases: map[leaseKey]*lease{}}
	m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "ipatlas_quota_rejections_total",
		Help: "Requests refused by the quota: reason exceeded (402) or forbidden (403).",
	}, []string{"package", "reason"})
	m.storeErrs = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "ipatlas_quota_store_errors_total",
		Help: "Failed reservations in the account store (the request got a 500).",
	})
	if opt.Registerer != nil {
		opt.Registerer.MustRegister(m.rejected, m.storeErrs)
	}
	return m
}

// Charge counts one request of account a against package pkg. It returns a *ForbiddenError
// (403), an *ExceededError (402), or a store error (500).
func (m *Meter) Charge(ctx context.Context, a account.Account, pkg string) error {
	limit, err := m.opt.Plans.Limit(a, pkg)
	if err != nil {
		m.rejected.WithLabelValues(pkg, "forbidden").Inc()
		return err
	}
	k := leaseKey{a.ID, pkg}
	m.mu.RLock()
	l := m.leases[k]
	m.mu.RUnlock()
	if l == nil {
		m.mu.Lock()
		if l = m.leases[k]; l == nil {
			l = &lease{}
			m.leases[k] = l
		}
		m.mu.Unlock()
	}
	now := m.opt.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastUse = now
	switch {
	case l.remaining > 0 && !now.Before(l.dayEnd):
		// Units count on the day they were reserved: the leftovers of yesterday's lease go
		// back to yesterday, and this request reserves a lease on its own day.
		m.returnLocked(ctx, k, l)
	case l.remaining > 0 && limit < l.limit:
		// The account's volume was lowered (`ipatlas keys plan`) since these units were
		// reserved under the old one: they go back, and this request reserves under the
		// new volume, which so applies at once rather than when the lease runs out.
		m.returnLocked(ctx, k, l)
	}
	if !now.Before(l.periodEnd) {
		startMonthLocked(l, now)
	}
	if l.remaining > 0 {
		l.remaining--
		return nil
	}
	if refused := now.Before(l.refusedUntil) && limit == l.refusedLimit; !refused {
		if err := m.refillLocked(ctx, k, l, now, limit); err != nil {
			m.storeErrs.Inc()
			return err
		}
		if l.remaining == 0 {
			l.refusedUntil, l.refusedLimit = now.Add(refuseFor), limit
		}
	}
	if l.remaining == 0 {
		m.rejected.WithLabelValues(pkg, "exceeded").Inc()
		return &ExceededError{Package: pkg, Limit: limit}
	}
	l.remaining--
	return nil
}

// returnLocked gives back the unused units of a lease, to the day they were reserved on: its
// day has ended, or its account's volume was lowered. If the store fails, they stay counted
// there (an over-count, never an under-count). The request that finds the lease may be one
// its client has left; the give-back is not its work, so that request's end does not
// cancel it.
func (m *Meter) returnLocked(ctx context.Context, k leaseKey, l *lease) {
	n := l.remaining
	defer m.startChange(k.id)()
	l.remaining = 0
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	if err := m.opt.Store.Release(ctx, k.id, k.pkg, l.at, n); err != nil {
		m.opt.Log.Warn("quota: release of a lease failed; its day stays over-counted", "account", k.id, "package", k.pkg, "units", n, "err", err)
		return
	}
	l.used -= n
}

// startMonthLocked forgets what the lease knew of the old month's usage.
func startMonthLocked(l *lease, now time.Time) {
	y, mo, _ := now.UTC().Date()
	l.periodEnd = time.Date(y, mo+1, 1, 0, 0, 0, 0, time.UTC)
	l.used, l.loaded, l.refusedUntil = 0, false, time.Time{}
}

func (m *Meter) refillLocked(ctx context.Context, k leaseKey, l *lease, now time.Time, limit int64) error {
	if !l.loaded {
		usage, err := m.opt.Store.Usage(ctx, k.id, account.PeriodOf(now))
		if err != nil {
			return fmt.Errorf("quota: read usage: %w", err)
		}
		l.used, l.loaded = usage[k.pkg], true
	}
	n := int64(1)
	switch {
	case m.closed.Load():
	case limit == math.MaxInt64:
		n = m.opt.MaxLease
	case limit > l.used:
		n = min(max((limit-l.used)/m.opt.LeaseShare, 1), m.opt.MaxLease)
	}
	defer m.startChange(k.id)()
	granted, err := m.opt.Store.Reserve(ctx, k.id, k.pkg, now, n, limit)
	if err != nil {
		return fmt.Errorf("quota: reserve: %w", err)
	}
	if granted < n {
		// The store is at the limit (other servers may have used what we thought was left):
		// trust it rather than our estimate from now on.
		l.used = limit
	} else {
		l.used += granted
	}
	l.remaining, l.limit, l.at, l.dayEnd = granted, limit, now, dayOf(now).AddDate(0, 0, 1)
	return nil
}

// dayOf returns the midnight (UTC) that starts t's day, the day the store counts t on.
func dayOf(t time.Time) time.Time {
	y, mo, d := t.UTC().Date()
	return time.Date(y, mo, d, 0, 0, 0, 0, time.UTC)
}

// giveBack releases a lease's unused units if keep says so.
func (m *Meter) giveBack(ctx context.Context, k leaseKey, l *lease, cond func(*lease) bool) {
	l.mu.Lock()
	n, at := l.remaining, l.at
	if n == 0 || !cond(l) {
		l.mu.Unlock()
		return
	}
	done := m.startChange(k.id)
	defer done()
	l.remaining = 0
	l.used -= n
	l.mu.Unlock()
	if err := m.opt.Store.Release(ctx, k.id, k.pkg, at, n); err != nil {
		m.opt.Log.Warn("quota: release failed; usage stays over-counted by the lease", "account", k.id, "package", k.pkg, "units", n, "err", err)
	}
}

func (m *Meter) snapshot() map[leaseKey]*lease {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make(map[leaseKey]*lease, len(m.leases))
	for k, l := range m.leases {
		out[k] = l
	}
	return out
}

// Unused returns the units this meter holds reserved for account id but has not used yet,
// one entry per package that holds any, under the day (midnight UTC) they were reserved
// on and are counted on in the store: that day's stored usage minus these is what was
// actually served (the dashboard shows that). Just after midnight, until the lease's next
// request or idle release, that day is yesterday.
func (m *Meter) Unused(id account.ID) []account.DayUsage {
	var out []account.DayUsage
	for k, l := range m.snapshot() {
		if k.id != id {
			continue
		}
		l.mu.Lock()
		if l.remaining > 0 {
			out = append(out, account.DayUsage{Day: dayOf(l.at), Package: k.pkg, Used: l.remaining})
		}
		l.mu.Unlock()
	}
	return out
}

// startChange counts a change of account id's usage in the store and of its lease's units
// as started; the function it returns counts it as done.
func (m *Meter) startChange(id account.ID) (done func()) {
	c := m.changeStripe(id)
	c.started.Add(1)
	return func() { c.done.Add(1) }
}

// changeStripe is the stripe of Meter.changes that counts account id's changes.
func (m *Meter) changeStripe(id account.ID) *struct{ started, done atomic.Uint64 } {
	return &m.changes[uint64(id)%changeStripes]
}

// UnusedAround calls read, which reads account id's usage from the store, and returns what
// Unused reports, with no reservation or give-back of this meter before read and Unused are
// both done: the stored usage read minus these units is what was served. Otherwise a lease
// refilled in between would have its new units subtracted from a usage read without them,
// and a give-back would leave its units in the usage read but not in Unused, for as long as
// the page that shows them. It tries again (calling read again) until no change interleaves,
// at most a few times over a few milliseconds, after which the answer is as close as a
// busy meter allows. An error of read is returned as it is.
func (m *Meter) UnusedAround(id account.ID, read func() error) ([]account.DayUsage, error) {
	const tries = 5
	c := m.changeStripe(id)
	for try := 1; ; try++ {
		done := c.done.Load() // before started: see below
		started := c.started.Load()
		// started ≥ every count of done read before it, so equal means that nothing was
		// under way when done was read and nothing started until started was read.
		if started != done && try < tries {
			time.Sleep(time.Millisecond)
			continue
		}
		if err := read(); err != nil {
			return nil, err
		}
		unused := m.Unused(id)
		if c.started.Load() == started || try >= tries {
			return unused, nil
		}
	}
}

// ReleaseIdle gives back the unused units of leases idle for longer than IdleRelease.
func (m *Meter) ReleaseIdle(ctx context.Context) {
	cutoff := m.opt.Now().Add(-m.opt.IdleRelease)
	for k, l := range m.snapshot() {
		m.giveBack(ctx, k, l, func(l *lease) bool { return l.lastUse.Before(cutoff) })
	}
}

// Close gives back every unused unit; call it on graceful shutdown after the server stopped
// taking requests. A request charged after it reserves only its own unit.
func (m *Meter) Close(ctx context.Context) {
	// Set before the leases are read: a refill that saw it unset holds its lease's lock, so
	// giving that lease back waits for the refill and returns what it reserved.
	m.closed.Store(true)
	for k, l := range m.snapshot() {
		m.giveBack(ctx, k, l, func(*lease) bool { return true })
	}
}

// Run gives back idle leases every second until ctx is done.
func (m *Meter) Run(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.ReleaseIdle(ctx)
		}
	}
}
