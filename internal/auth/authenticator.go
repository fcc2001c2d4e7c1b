package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"golang.org/x/sync/singleflight"
)

// Accounts is the part of account.Store the authenticator reads.
type Accounts interface {
	AccountByKey(ctx context.Context, h account.KeyHash) (account.Account, error)
	Changes(ctx context.Context, after int64) ([]account.Change, error)
	LastChange(ctx context.Context) (int64, error)
}

// Options configure an Authenticator. Zero values select the documented defaults.
type Options struct {
	Store Accounts
	// PollInterval is how often the store's change log is read; a regenerated or disabled
	// key stops working on this server within about this long. Default 200ms.
	PollInterval time.Duration
	// TTL bounds how long a resolved key is trusted without a change being seen, a backstop
	// should the change log ever be missed. Default 5 minutes.
	TTL time.Duration
	// NegativeTTL is how long an unknown key is remembered as unknown, so floods of bad keys
	// do not each reach the store. Default 10s; at most MaxNegative are remembered (default 100 000).
	NegativeTTL time.Duration
	MaxNegative int
	Log         *slog.Logger
	Now         func() time.Time
}

// Authenticator resolves keys to accounts. It is safe for concurrent use. Run must be running
// for changes to be noticed.
type Authenticator struct {
	opt   Options
	group singleflight.Group

	mu       sync.RWMutex
	entries  map[account.KeyHash]entry
	negative int
	seq      int64 // highest change applied; guards against caching a lookup that raced a change
	synced   bool  // seq has been read from the store once
}

type entry struct {
	acct    account.Account
	hash    account.KeyHash
	known   bool
	expires time.Time
}

// New returns an Authenticator. Call Sync (or Run) before serving so changes made before
// start-up are not replayed.
func New(opt Options) *Authenticator {
	if opt.PollInterval <= 0 {
		opt.PollInterval = 200 * time.Millisecond
	}
	if opt.TTL <= 0 {
		opt.TTL = 5 * time.Minute
	}
	if opt.NegativeTTL <= 0 {
		opt.NegativeTTL = 10 * time.Second
	}
	if opt.MaxNegative <= 0 {
		opt.MaxNegative = 100_000
	}
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Authenticator{opt: opt, entries: map[account.KeyHash]entry{}}
}

// PollInterval is the configured change-log polling interval.
func (a *Authenticator) PollInterval() time.Duration { return a.opt.PollInterval }

// Authenticate returns the account holding key. It returns ErrMissingKey for an empty key,
// ErrInvalidKey for a key no account holds, and a wrapped store error if the store failed.
func (a *Authenticator) Authenticate(ctx context.Context, key string) (account.Account, error) {
	if key == "" {
		return account.Account{}, ErrMissingKey
	}
	if len(key) > MaxKeyLen {
		return account.Account{}, ErrInvalidKey
	}
	h := account.HashKey(key)
	now := a.opt.Now()
	a.mu.RLock()
	e, ok := a.entries[h]
	a.mu.RUnlock()
	if !ok || now.After(e.expires) {
		var err error
		if e, err = a.fill(ctx, h); err != nil {
			return account.Account{}, err
		}
	}
	// The map is keyed by the hash already; this comparison is the explicit constant-time
	// check that the entry found is for this key's hash.
	if !e.known || subtle.ConstantTimeCompare(e.hash[:], h[:]) != 1 {
		return account.Account{}, ErrInvalidKey
	}
	return e.acct, nil
}

// fill looks the key up in the store, one lookup per key at a time.
func (a *Authenticator) fill(ctx context.Context, h account.KeyHash) (entry, error) {
	v, err, _ := a.group.Do(string(h[:]), func() (any, error) {
		a.mu.RLock()
		seq := a.seq
		a.mu.RUnlock()
		acct, err := a.opt.Store.AccountByKey(ctx, h)
		e := entry{hash: h}
		now := a.opt.Now()
		switch {
		case err == nil:
			e.acct, e.known, e.expires = acct, true, now.Add(a.opt.TTL)
		case errors.Is(err, account.ErrNotFound):
			e.expires = now.Add(a.opt.NegativeTTL)
		default:
			return entry{}, fmt.Errorf("auth: look up key: %w", err)
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		// A change applied while we were reading may concern this very key; the answer we
		// hold could be stale, so use it for this request but do not cache it.
		if a.seq != seq {
			return e, nil
		}
		if !e.known {
			if a.negative >= a.opt.MaxNegative {
				a.dropNegativeLocked()
			}
			a.negative++
		}
		if old, ok := a.entries[h]; ok && !old.known {
			a.negative--
		}
		a.entries[h] = e
		return e, nil
	})
	if err != nil {
		return entry{}, err
	}
	return v.(entry), nil
}

func (a *Authenticator) dropNegativeLocked() {
	for h, e := range a.entries {
		if !e.known {
			delete(a.entries, h)
		}
	}
	a.negative = 0
}

// Sync applies every change recorded in the store since the last call, dropping cached keys
// of changed accounts. The first call only records where the log stands.
func (a *Authenticator) Sync(ctx context.Context) error {
	a.mu.RLock()
	seq, synced := a.seq, a.synced
	a.mu.RUnlock()
	if !synced {
		last, err := a.opt.Store.LastChange(ctx)
		if err != nil {
			return fmt.Errorf("auth: read change log: %w", err)
		}
		a.mu.Lock()
		if !a.synced {
			a.seq, a.synced = last, true
		}
		a.mu.Unlock()
		return nil
	}
	changes, err := a.opt.Store.Changes(ctx, seq)
	if err != nil {
		return fmt.Errorf("auth: read change log: %w", err)
	}
	if len(changes) == 0 {
		return nil
	}
	changed := make(map[account.ID]bool, len(changes))
	for _, c := range changes {
		changed[c.AccountID] = true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for h, e := range a.entries {
		if e.known && changed[e.acct.ID] {
			delete(a.entries, h)
		}
	}
	// Unknown keys may have just been created by the change; forget them all (rare event).
	a.dropNegativeLocked()
	a.seq = changes[len(changes)-1].Seq
	return nil
}

// Run polls the change log until ctx is done.
func (a *Authenticator) Run(ctx context.Context) {
	t := time.NewTicker(a.opt.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.Sync(ctx); err != nil && ctx.Err() == nil {
				a.opt.Log.Warn("auth: change log poll failed; cached keys stay valid until their TTL", "err", err)
			}
		}
	}
}
