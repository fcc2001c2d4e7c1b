package quota

import (
	"context"
	"sync"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

// fakeStore is a slow, obviously correct Store: one mutex around a map. Like the SQL stores
// it refuses to write for a cancelled context.
type fakeStore struct {
	mu       sync.Mutex
	used     map[string]int64 // period/pkg/id
	days     map[string]int64 // day/pkg/id, the day as "2006-01-02"
	reserves int
}

func newFakeStore() *fakeStore {
	return &fakeStore{used: map[string]int64{}, days: map[string]int64{}}
}

func fdaykey(id account.ID, pkg string, at time.Time) string {
	return fkey(id, pkg, account.Period(at.UTC().Format("2006-01-02")))
}

func fkey(id account.ID, pkg string, p account.Period) string {
	return string(p) + "/" + pkg + "/" + string(rune('0'+id))
}

func (f *fakeStore) Reserve(ctx context.Context, id account.ID, pkg string, at time.Time, n, limit int64) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reserves++
	k := fkey(id, pkg, account.PeriodOf(at))
	g := min(n, max(limit-f.used[k], 0))
	f.used[k] += g
	f.days[fdaykey(id, pkg, at)] += g
	return g, nil
}

func (f *fakeStore) Release(ctx context.Context, id account.ID, pkg string, at time.Time, n int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := fkey(id, pkg, account.PeriodOf(at))
	f.used[k] = max(f.used[k]-n, 0)
	d := fdaykey(id, pkg, at)
	f.days[d] = max(f.days[d]-n, 0)
	return nil
}

func (f *fakeStore) Usage(_ context.Context, id account.ID, p account.Period) (map[string]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int64{}
	for _, pkg := range Packages() {
		if v := f.used[fkey(id, pkg, p)]; v > 0 {
			out[pkg] = v
		}
	}
	return out, nil
}

func (f *fakeStore) get(id account.ID, pkg string, p account.Period) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.used[fkey(id, pkg, p)]
}

// getDay returns the usage stored for the day ("2006-01-02") of id and pkg.
func (f *fakeStore) getDay(id account.ID, pkg, day string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.days[fkey(id, pkg, account.Period(day))]
}
