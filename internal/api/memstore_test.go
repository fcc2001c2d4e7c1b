package api

import (
	"context"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

// memStore is the minimal in-memory store the benchmark needs.
type memStore struct {
	mu    sync.Mutex
	accts map[account.KeyHash]account.Account
	used  map[string]int64
}

func newMemStore() *memStore {
	return &memStore{accts: map[account.KeyHash]account.Account{}, used: map[string]int64{}}
}

func (m *memStore) AccountByKey(_ context.Context, h account.KeyHash) (account.Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accts[h]
	if !ok {
		return a, account.ErrNotFound
	}
	return a, nil
}
func (m *memStore) Changes(context.Context, int64) ([]account.Change, error) { return nil, nil }
func (m *memStore) LastChange(context.Context) (int64, error)                { return 0, nil }
func (m *memStore) Reserve(_ context.Context, id account.ID, pkg string, at time.Time, n, limit int64) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := pkg + string(account.PeriodOf(at))
	g := min(n, limit-m.used[k])
	m.used[k] += g
	return g, nil
}
func (m *memStore) Release(context.Context, account.ID, string, time.Time, int64) error { return nil }
func (m *memStore) Usage(context.Context, account.ID, account.Period) (map[string]int64, error) {
	return nil, nil
}
