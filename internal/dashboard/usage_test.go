package dashboard

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/quota"
)

// TestUsageAcrossMidnight: with the real meter, the page shows each query on the UTC day it
// was served, and the 30-day total agrees with the month, whether the meter still holds
// yesterday's lease, holds today's, or has given it back.
func TestUsageAcrossMidnight(t *testing.T) {
	tests := []struct {
		name          string
		before, after time.Time // 10 queries at before, then 5 at after, the next day
		// what the page shows for the month of after: past midnight, then once the 5 are served
		monthAtMidnight, month string
	}{
		{"within a month", time.Date(2026, 3, 9, 23, 59, 50, 0, time.UTC), time.Date(2026, 3, 10, 0, 0, 3, 0, time.UTC), "10", "15"},
		{"across months", time.Date(2026, 3, 31, 23, 59, 50, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 3, 0, time.UTC), "0", "5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock(tt.before)
			var m *quota.Meter
			h := newHarness(t, true, false, func(o *Options) {
				m = quota.NewMeter(quota.Options{Store: o.Store, Plans: quota.DefaultPlans(), Now: clock.now})
				o.Meter, o.Now = m, clock.now
			})
			c, key := h.signup("ada@example.org", pw)
			a := h.accountOf(key)
			charge := func(n int) {
				t.Helper()
				for range n {
					if err := m.Charge(t.Context(), a, quota.IPGeolocation); err != nil {
						t.Fatal(err)
					}
				}
			}
			// check looks for the month's total, and the two days' (day2 < 0: before it starts).
			check := func(when, month string, day1, day2 int) {
				t.Helper()
				body := h.get(c, "/account/usage").body
				wants := []string{
					fmt.Sprintf(`data-package="ip-geolocation">%s<`, month),
					dayRow(tt.before, day1),
					fmt.Sprintf("%d queries in the last 30 days", day1+max(day2, 0)),
				}
				if day2 >= 0 {
					wants = append(wants, dayRow(tt.after, day2))
				}
				for _, s := range wants {
					if !strings.Contains(body, s) {
						t.Errorf("%s: the page lacks %s", when, s)
					}
				}
			}

			charge(10)
			check("before midnight", "10", 10, -1)
			clock.set(tt.after.Add(-2 * time.Second)) // no request yet: the lease is yesterday's
			check("just after midnight", tt.monthAtMidnight, 10, 0)
			clock.set(tt.after)
			charge(5)
			check("with today's lease held", tt.month, 10, 5)
			clock.set(tt.after.Add(time.Minute))
			m.ReleaseIdle(t.Context())
			check("after idle release", tt.month, 10, 5)
		})
	}
}

// dayRow is the row of the page's table of days that says n queries on day.
func dayRow(day time.Time, n int) string {
	return fmt.Sprintf(`<th scope="row">%s</th><td class="num">%d</td>`, day.Format("Mon 2 Jan"), n)
}
