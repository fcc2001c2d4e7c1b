package quota

import (
	"context"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
)

// unusedOn sums what m.Unused reports for id and pkg on day ("2006-01-02"; "" for any day).
func unusedOn(m *Meter, id account.ID, pkg, day string) int64 {
	var n int64
	for _, u := range m.Unused(id) {
		if u.Package == pkg && (day == "" || u.Day.Format("2006-01-02") == day) {
			n += u.Used
		}
	}
	return n
}

// Stored usage minus Unused is what was served: the dashboard relies on it.
func TestUnused(t *testing.T) {
	store := newFakeStore()
	m := NewMeter(Options{Store: store, Plans: DefaultPlans()})
	a := account.Account{ID: 1, Plan: "free"}
	b := account.Account{ID: 2, Plan: "free"}
	for range 3 {
		if err := m.Charge(t.Context(), a, IPGeolocation); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Charge(t.Context(), b, PhoneEmail); err != nil {
		t.Fatal(err)
	}
	p := account.PeriodOf(m.opt.Now())
	if served := store.get(a.ID, IPGeolocation, p) - unusedOn(m, a.ID, IPGeolocation, ""); served != 3 {
		t.Errorf("stored - unused = %d for a, want 3", served)
	}
	if u := m.Unused(a.ID); len(u) != 1 || u[0].Package != IPGeolocation || !u[0].Day.Equal(dayOf(time.Now())) {
		t.Errorf("Unused(a) = %v, want only %s today", u, IPGeolocation)
	}
	if served := store.get(b.ID, PhoneEmail, p) - unusedOn(m, b.ID, PhoneEmail, ""); served != 1 {
		t.Errorf("stored - unused = %d for b, want 1", served)
	}
	m.Close(t.Context())
	if u := m.Unused(a.ID); len(u) != 0 {
		t.Errorf("Unused after Close = %v, want none", u)
	}
}

// TestLeaseEndsAtMidnight: each query is counted on the UTC day it was served, also when
// the lease it was taken from was reserved the day before, and stored usage of a day minus
// what Unused reports on that day is what was served that day, at every step.
func TestLeaseEndsAtMidnight(t *testing.T) {
	tests := []struct {
		name       string
		before     time.Time // 10 queries at this time
		after      time.Time // then 5 at this one, the next day
		day1, day2 string
	}{
		{"within a month", time.Date(2026, 3, 9, 23, 59, 50, 0, time.UTC), time.Date(2026, 3, 10, 0, 0, 3, 0, time.UTC), "2026-03-09", "2026-03-10"},
		{"across months", time.Date(2026, 3, 31, 23, 59, 50, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 3, 0, time.UTC), "2026-03-31", "2026-04-01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newFakeStore()
			now := tt.before
			m := NewMeter(Options{Store: store, Plans: DefaultPlans(), Now: func() time.Time { return now }})
			acct := account.Account{ID: 1, Plan: "free"}
			charge := func(n int) {
				t.Helper()
				for range n {
					if err := m.Charge(t.Context(), acct, IPGeolocation); err != nil {
						t.Fatal(err)
					}
				}
			}
			served := func(day string) int64 {
				return store.getDay(acct.ID, IPGeolocation, day) - unusedOn(m, acct.ID, IPGeolocation, day)
			}
			check := func(when string, want1, want2 int64) {
				t.Helper()
				if got1, got2 := served(tt.day1), served(tt.day2); got1 != want1 || got2 != want2 {
					t.Errorf("%s: served %d on %s and %d on %s, want %d and %d (unused %v)", when, got1, tt.day1, got2, tt.day2, want1, want2, m.Unused(acct.ID))
				}
			}
			month := func(t time.Time) int64 {
				return store.get(acct.ID, IPGeolocation, account.PeriodOf(t)) - unusedOn(m, acct.ID, IPGeolocation, "")
			}

			charge(10)
			check("before midnight", 10, 0)
			now = tt.after.Add(-2 * time.Second) // past midnight, no request yet: the lease is yesterday's
			check("just after midnight", 10, 0)
			now = tt.after
			charge(5)
			check("with today's lease held", 10, 5)
			if got := store.getDay(acct.ID, IPGeolocation, tt.day1); got != 10 {
				t.Errorf("%s holds %d in the store, want the 10 served: yesterday's lease was not given back", tt.day1, got)
			}
			if u := m.Unused(acct.ID); len(u) != 1 || u[0].Day.Format("2006-01-02") != tt.day2 {
				t.Errorf("Unused = %v, want one lease on %s", u, tt.day2)
			}
			if account.PeriodOf(tt.before) == account.PeriodOf(tt.after) {
				if got := month(tt.after); got != 15 {
					t.Errorf("month served %d, want 15", got)
				}
			} else if got1, got2 := store.get(acct.ID, IPGeolocation, account.PeriodOf(tt.before)), month(tt.after); got1 != 10 || got2 != 5 {
				t.Errorf("months served %d and %d, want 10 and 5", got1, got2)
			}
			now = now.Add(m.opt.IdleRelease + time.Second)
			m.ReleaseIdle(t.Context())
			if got1, got2 := store.getDay(acct.ID, IPGeolocation, tt.day1), store.getDay(acct.ID, IPGeolocation, tt.day2); got1 != 10 || got2 != 5 {
				t.Errorf("after idle release the store holds %d on %s and %d on %s, want 10 and 5", got1, tt.day1, got2, tt.day2)
			}
		})
	}
}

// The request that finds yesterday's lease may be one its client has given up on: the
// leftovers still go back to yesterday, or they would count against the month.
func TestLeaseEndsAtMidnightForCancelledRequest(t *testing.T) {
	store := newFakeStore()
	now := time.Date(2026, 3, 9, 23, 59, 50, 0, time.UTC)
	m := NewMeter(Options{Store: store, Plans: DefaultPlans(), Now: func() time.Time { return now }})
	acct := account.Account{ID: 1, Plan: "free"}
	for range 10 {
		if err := m.Charge(t.Context(), acct, IPGeolocation); err != nil {
			t.Fatal(err)
		}
	}
	now = now.Add(time.Minute)
	gone, cancel := context.WithCancel(t.Context())
	cancel()
	_ = m.Charge(gone, acct, IPGeolocation) // refused or not, it must give yesterday back
	if got := store.getDay(acct.ID, IPGeolocation, "2026-03-09"); got != 10 {
		t.Errorf("2026-03-09 holds %d in the store, want the 10 served", got)
	}
}

// TestUnusedAroundInterleaved: a lease refilled, or given back, while the dashboard reads
// the store does not skew stored minus unused. read makes the change itself (as another
// request or the idle release would, between the read and Unused): the first read's usage
// lacks the refill's units (or still holds the given-back ones) that the Unused after it
// reports otherwise, so UnusedAround must read again. Reading once and then calling Unused,
// as the dashboard did, is off by the lease.
func TestUnusedAroundInterleaved(t *testing.T) {
	for _, change := range []string{"refill", "give back", "midnight", "every read", "another account"} {
		t.Run(change, func(t *testing.T) {
			store := newFakeStore()
			now := time.Date(2026, 3, 9, 23, 59, 0, 0, time.UTC)
			m := NewMeter(Options{Store: store, Plans: DefaultPlans(), MaxLease: 10, Now: func() time.Time { return now }})
			a := account.Account{ID: 1, Plan: "free"}
			b := account.Account{ID: 2, Plan: "free"} // in another of the meter's stripes
			served := int64(0)
			charge := func(acct account.Account, n int) {
				t.Helper()
				for range n {
					if err := m.Charge(t.Context(), acct, IPGeolocation); err != nil {
						t.Fatal(err)
					}
					if acct == a {
						served++
					}
				}
			}
			charge(a, 3) // a lease of 10, 7 unused
			period := account.PeriodOf(now)
			var stored, firstStored int64
			reads := 0
			read := func() error {
				reads++
				stored = store.get(a.ID, IPGeolocation, period)
				switch {
				case reads > 1 && change != "every read":
				case change == "give back":
					m.Close(t.Context())
				case change == "midnight":
					// The next day's first query gives the 7 back to today, then reserves.
					now = now.Add(2 * time.Minute)
					charge(a, 1)
				case change == "another account":
					charge(b, 11) // two reservations of b's
				default:
					charge(a, 10) // 7 from the lease, then a refill of 10
				}
				if reads == 1 {
					firstStored = stored
				}
				return nil
			}
			unused, err := m.UnusedAround(a.ID, read)
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			for _, u := range unused {
				n += u.Used
			}
			switch change {
			case "every read":
				// A meter that never stops changing: UnusedAround gives up after a few reads.
				if reads != 5 {
					t.Errorf("%d reads, want 5", reads)
				}
				return
			case "another account":
				if got := stored - n; got != served || reads != 1 {
					t.Errorf("stored %d - unused %d = %d after %d reads, want %d served after 1 read", stored, n, got, reads, served)
				}
				return
			}
			if got := stored - n; got != served || reads != 2 {
				t.Errorf("stored %d - unused %d = %d after %d reads, want %d served after 2 reads", stored, n, got, reads, served)
			}
			if naive := firstStored - n; naive == served {
				t.Errorf("the first read minus the unused units after it is %d, the right answer: the change did not interleave", naive)
			}
		})
	}
}
