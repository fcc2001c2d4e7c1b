package dashboard

import (
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/ipatlas/ipatlas/internal/account"
	"github.com/ipatlas/ipatlas/internal/quota"
)

// pkgUsage is one row of the Usage page.
type pkgUsage struct {
	Package   string
	Used      int64
	Volume    string  // "10,000", "unlimited" or "not in plan"
	Percent   float64 // of the volume, 0..100
	Available bool
}

// UsedText is Used with thousands separators.
func (u pkgUsage) UsedText() string { return thousands(u.Used) }

// PercentText rounds Percent for display, never showing some use as 0%.
func (u pkgUsage) PercentText() string {
	switch {
	case u.Used > 0 && u.Percent < 1:
		return "<1%"
	case u.Percent >= 99.5 && u.Percent < 100:
		return ">99%"
	}
	return fmt.Sprintf("%.0f%%", u.Percent)
}

// chart is the 30-day bar chart, laid out here so the template only prints numbers.
type chart struct {
	Width, Height int
	Baseline      float64 // y of the x axis
	Bars          []bar
	Max           int64
	From, To      string
	Total         int64
}

// TotalText says how many queries the chart holds, in words.
func (c chart) TotalText() string {
	if c.Total == 1 {
		return "1 query"
	}
	return thousands(c.Total) + " queries"
}

type bar struct {
	X, Y, W, H float64
	Day        string
	Used       int64
}

const chartDays = 30

func (s *Server) usage(w http.ResponseWriter, r *http.Request, ss session) error {
	now := s.opt.Now().UTC()
	month := account.PeriodOf(now)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	from := today.AddDate(0, 0, -(chartDays - 1))
	var used map[string]int64
	var days []account.DayUsage
	read := func() (err error) {
		if used, err = s.opt.Store.Usage(r.Context(), ss.acct.ID, month); err != nil {
			return err
		}
		days, err = s.opt.Store.DailyUsage(r.Context(), ss.acct.ID, from, today.AddDate(0, 0, 1))
		return err
	}
	// The store counts units reserved ahead of use, on the day they were reserved; subtract
	// what this server holds unused from that day (and from the month if it is this one),
	// so the page shows queries answered. The meter reads both between two of its own
	// reservations, so that the two agree.
	var unused []account.DayUsage
	var err error
	if s.opt.Meter != nil {
		unused, err = s.opt.Meter.UnusedAround(ss.acct.ID, read)
	} else {
		err = read()
	}
	if err != nil {
		return err
	}
	perDay := make([]int64, chartDays)
	for _, d := range days {
		if i := dayIndex(d.Day, from); i >= 0 {
			perDay[i] += d.Used
		}
	}
	unusedMonth := map[string]int64{}
	for _, u := range unused {
		if i := dayIndex(u.Day, from); i >= 0 {
			perDay[i] = max(perDay[i]-u.Used, 0)
		}
		if account.PeriodOf(u.Day) == month {
			unusedMonth[u.Package] += u.Used
		}
	}
	p := s.accountPage(ss, "Usage", "usage")
	p.Month = now.Format("January 2006")
	for _, pkg := range quota.Packages() {
		u := pkgUsage{Package: pkg, Used: max(used[pkg]-unusedMonth[pkg], 0)}
		limit, err := s.opt.Plans.Limit(ss.acct, pkg)
		switch {
		case err != nil:
			u.Volume = "not in plan"
		case limit == math.MaxInt64:
			u.Volume, u.Available = "unlimited", true
		default:
			u.Volume, u.Available = thousands(limit), true
			u.Percent = min(100, 100*float64(u.Used)/float64(max(limit, 1)))
		}
		p.Usage = append(p.Usage, u)
	}
	p.Chart = layoutChart(perDay, from)
	s.render(w, http.StatusOK, "usage", p)
	return nil
}

// dayIndex returns day's place in the chart that starts at from, or -1 outside it.
func dayIndex(day, from time.Time) int {
	i := int(day.Sub(from) / (24 * time.Hour))
	if day.Before(from) || i >= chartDays {
		return -1
	}
	return i
}

func layoutChart(perDay []int64, from time.Time) chart {
	c := chart{Width: 600, Height: 160, From: from.Format("2 Jan"), To: from.AddDate(0, 0, len(perDay)-1).Format("2 Jan")}
	for _, n := range perDay {
		c.Max = max(c.Max, n)
		c.Total += n
	}
	const top, bottom = 4.0, 1.0
	plot := float64(c.Height) - top - bottom
	c.Baseline = top + plot
	slot := float64(c.Width) / float64(len(perDay))
	for i, n := range perDay {
		h := 0.0
		if c.Max > 0 {
			h = plot * float64(n) / float64(c.Max)
		}
		if n > 0 && h < 2 {
			h = 2 // a day with any use stays visible
		}
		c.Bars = append(c.Bars, bar{
			X: float64(i)*slot + 2, W: slot - 4, Y: top + plot - h, H: h,
			Day: from.AddDate(0, 0, i).Format("Mon 2 Jan"), Used: n,
		})
	}
	return c
}

// thousands formats n with comma separators: 10000 → "10,000".
func thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
