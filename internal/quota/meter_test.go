package quota

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

func TestPlansLimit(t *testing.T) {
	plans := DefaultPlans()
	tests := []struct {
		name    string
		acct    account.Account
		pkg     string
		want    int64
		wantErr error
	}{
		{"free geolocation", account.Account{Plan: "free"}, IPGeolocation, 10_000, nil},
		{"free reverse geocoding", account.Account{Plan: "free"}, ReverseGeocoding, 50_000, nil},
		{"override", account.Account{Plan: "free", MonthlyLimit: 7}, PhoneEmail, 7, nil},
		{"unlimited", account.Account{Plan: "unlimited"}, NetworkEngineering, 1<<63 - 1, nil},
		{"disabled", account.Account{Plan: "free", Disabled: true}, IPGeolocation, 0, ErrForbidden},
		{"unknown plan", account.Account{Plan: "gold"}, IPGeolocation, 0, ErrForbidden},
		{"unknown package", account.Account{Plan: "free"}, "free-api", 0, ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := plans.Limit(tt.acct, tt.pkg)
			if !errors.Is(err, tt.wantErr) || got != tt.want {
				t.Errorf("Limit = %d, %v; want %d, %v", got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestParsePlans(t *testing.T) {
	good := `{"plans":[{"name":"pro","volumes":{"ip-geolocation":100,"phone-email":-1}}]}`
	p, err := ParsePlans([]byte(good))
	if err != nil || p["pro"].Volumes[PhoneEmail] != Unlimited {
		t.Fatalf("ParsePlans(good) = %v, %v", p, err)
	}
	for _, bad := range []string{
		`{}`, `nope`,
		`{"plans":[{"volumes":{}}]}`,
		`{"plans":[{"name":"a"},{"name":"a"}]}`,
		`{"plans":[{"name":"a","volumes":{"dns":1}}]}`,
		`{"plans":[{"name":"a","volumes":{"phone-email":-2}}]}`,
	} {
		if _, err := ParsePlans([]byte(bad)); err == nil {
			t.Errorf("ParsePlans(%s) accepted", bad)
		}
	}
}

// TestChargeExactUnderConcurrency: with many goroutines, exactly `limit` charges succeed and
// the store holds exactly `limit` afterwards.
func TestChargeExactUnderConcurrency(t *testing.T) {
	for _, limit := range []int64{1, 17, 1000, 5000} {
		store := newFakeStore()
		m := NewMeter(Options{Store: store, Plans: DefaultPlans()})
		acct := account.Account{ID: 1, Plan: "free", MonthlyLimit: limit}
		var ok, exceeded atomic.Int64
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for range int(limit+limit/2)/64 + 2 {
					switch err := m.Charge(context.Background(), acct, IPGeolocation); {
					case err == nil:
						ok.Add(1)
					case errors.Is(err, ErrExceeded):
						exceeded.Add(1)
					default:
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if ok.Load() != limit {
			t.Errorf("limit %d: %d charges succeeded", limit, ok.Load())
		}
		if got := store.get(1, IPGeolocation, account.PeriodOf(time.Now())); got != limit {
			t.Errorf("limit %d: stored usage %d", limit, got)
		}
	}
}

// TestStoredUsageCoversServed: at every moment the stored usage is at least what was let
// through, which is what makes a crash harmless.
func TestStoredUsageCoversServed(t *testing.T) {
	store := newFakeStore()
	m := NewMeter(Options{Store: store, Plans: DefaultPlans()})
	acct := account.Account{ID: 2, Plan: "unlimited"}
	period := account.PeriodOf(time.Now())
	for i := 1; i <= 2500; i++ {
		if err := m.Charge(context.Background(), acct, PhoneEmail); err != nil {
			t.Fatal(err)
		}
		if got := store.get(2, PhoneEmail, period); got < int64(i) {
			t.Fatalf("after %d charges the store holds %d", i, got)
		}
	}
	if store.reserves > 3 {
		t.Errorf("%d store round trips for 2500 unlimited charges; leases are not working", store.reserves)
	}
	m.Close(context.Background())
	if got := store.get(2, PhoneEmail, period); got != 2500 {
		t.Errorf("after Close the store holds %d, want the 2500 served", got)
	}
	// A request that outlived the shutdown's drain is still counted, and leaves nothing
	// unused behind: no one would give it back.
	for range 3 {
		if err := m.Charge(context.Background(), acct, PhoneEmail); err != nil {
			t.Fatal(err)
		}
	}
	if got, unused := store.get(2, PhoneEmail, period), m.Unused(2); got != 2503 || len(unused) != 0 {
		t.Errorf("three charges after Close: the store holds %d (want 2503), %v unused", got, unused)
	}
}

func TestLeasesShrinkNearLimitAndIdleRelease(t *testing.T) {
	store := newFakeStore()
	now := time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	m := NewMeter(Options{Store: store, Plans: DefaultPlans(), IdleRelease: time.Minute, Now: func() time.Time { return *clock.Load() }})
	acct := account.Account{ID: 3, Plan: "free", MonthlyLimit: 160}
	if err := m.Charge(context.Background(), acct, IPGeolocation); err != nil {
		t.Fatal(err)
	}
	if got := store.get(3, IPGeolocation, "2026-03"); got != 10 {
		t.Errorf("first lease reserved %d, want 160/16 = 10", got)
	}
	later := now.Add(2 * time.Minute)
	clock.Store(&later)
	m.ReleaseIdle(context.Background())
	if got := store.get(3, IPGeolocation, "2026-03"); got != 1 {
		t.Errorf("after idle release the store holds %d, want the 1 used", got)
	}
	// A new month starts from zero and gives back nothing to the old one beyond leftovers.
	april := time.Date(2026, 4, 1, 0, 0, 1, 0, time.UTC)
	clock.Store(&april)
	if err := m.Charge(context.Background(), acct, IPGeolocation); err != nil {
		t.Fatal(err)
	}
	if got := store.get(3, IPGeolocation, "2026-04"); got != 10 {
		t.Errorf("April lease %d, want 10", got)
	}
	if got := store.get(3, IPGeolocation, "2026-03"); got != 1 {
		t.Errorf("March after rollover %d, want 1", got)
	}
}

func TestChargeForbidden(t *testing.T) {
	m := NewMeter(Options{Store: newFakeStore(), Plans: DefaultPlans()})
	err := m.Charge(context.Background(), account.Account{ID: 4, Plan: "free", Disabled: true}, IPGeolocation)
	if !errors.Is(err, ErrForbidden) {
		t.Errorf("disabled account: %v", err)
	}
}

func BenchmarkCharge(b *testing.B) {
	m := NewMeter(Options{Store: newFakeStore(), Plans: DefaultPlans()})
	acct := account.Account{ID: 5, Plan: "unlimited"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Charge(ctx, acct, IPGeolocation); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRefusedFromMemory: past the volume, the store is asked once a second, not once per
// request; a raised volume is asked for at once; a new month starts afresh.
func TestRefusedFromMemory(t *testing.T) {
	store := newFakeStore()
	now := time.Date(2026, 3, 31, 23, 59, 58, 500e6, time.UTC)
	m := NewMeter(Options{Store: store, Plans: DefaultPlans(), Now: func() time.Time { return now }})
	acct := account.Account{ID: 4, Plan: "free", MonthlyLimit: 3}
	charge := func() error { return m.Charge(context.Background(), acct, IPGeolocation) }
	for range 3 {
		if err := charge(); err != nil {
			t.Fatal(err)
		}
	}
	before := store.reserves
	for range 100 {
		if err := charge(); !errors.Is(err, ErrExceeded) {
			t.Fatalf("over the volume: %v", err)
		}
	}
	if n := store.reserves - before; n != 1 {
		t.Errorf("100 refused requests asked the store %d times within a second, want 1", n)
	}
	now = now.Add(refuseFor)
	if err := charge(); !errors.Is(err, ErrExceeded) || store.reserves-before != 2 {
		t.Errorf("a second later: %v after %d store calls, want refused after 2", err, store.reserves-before)
	}
	acct.MonthlyLimit = 4
	if err := charge(); err != nil {
		t.Errorf("a raised volume was not asked for at once: %v", err)
	}
	if err := charge(); !errors.Is(err, ErrExceeded) {
		t.Errorf("over the raised volume: %v", err)
	}
	now = time.Date(2026, 4, 1, 0, 0, 0, 100e6, time.UTC) // within refuseFor, in a new month
	if err := charge(); err != nil {
		t.Errorf("a new month: %v", err)
	}
}

// TestLoweredLimitAppliesAtOnce checks that a volume lowered while a lease holds units
// reserved under the old one (`ipatlas keys plan --monthly-limit`) refuses the next request
// over it, rather than serving the lease out first, and that the units go back to the store.
func TestLoweredLimitAppliesAtOnce(t *testing.T) {
	store := newFakeStore()
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	m := NewMeter(Options{Store: store, Plans: DefaultPlans(), Now: func() time.Time { return now }})
	acct := account.Account{ID: 5, Plan: "free"}
	charge := func() error { return m.Charge(context.Background(), acct, IPGeolocation) }
	for range 2 {
		if err := charge(); err != nil {
			t.Fatal(err)
		}
	}
	if held := m.Unused(acct.ID); len(held) != 1 {
		t.Fatalf("no lease held after two requests: %v", held)
	}
	acct.MonthlyLimit = 3
	if err := charge(); err != nil {
		t.Fatalf("the third request, within the lowered volume: %v", err)
	}
	if err := charge(); !errors.Is(err, ErrExceeded) {
		t.Fatalf("the fourth request, over the lowered volume of 3: %v", err)
	}
	usage, err := store.Usage(context.Background(), acct.ID, account.PeriodOf(now))
	if err != nil {
		t.Fatal(err)
	}
	if got := usage[IPGeolocation]; got != 3 {
		t.Errorf("stored usage %d after three requests served, want 3", got)
	}
}
