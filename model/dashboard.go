package model

import (
	"context"
	"fmt"
	"time"
)

// DayBoard is the manager's dashboard of one business day, folded from the
// day's events: the waiting tickets (for the longest wait now), the first
// calls (for the average wait), the tickets served, and each service's
// waiting count across the business hours, one point a minute. It is
// rebuilt from the event log after every reload (LoadDayBoard), so a
// manager PC started at noon or reconnected after a cut shows the whole
// day, and its memory is bounded by the day: a point per service per
// minute, an entry per ticket of the day.
type DayBoard struct {
	Date    string    // the business date folded
	Version int64     // the last event folded
	Open    time.Time // the chart's first minute: the business hours' start
	Minutes int       // the chart's length: the business hours in minutes

	series  map[string][]int // per service: most waiting in each minute
	last    int              // the last minute the series reach; -1 before any
	counts  map[string]int   // waiting per service now
	waiting map[int64]waitingTicket
	called  map[int64]bool // tickets whose first call is in waitSum
	waitSum time.Duration
	waitN   int
	served  int
}

type waitingTicket struct {
	service string
	issued  time.Time
}

// NewDayBoard is an empty board of the business date with the chart
// over [open, close).
func NewDayBoard(date string, open, closeAt time.Time) *DayBoard {
	return &DayBoard{Date: date, Open: open, Minutes: max(1, int(closeAt.Sub(open)/time.Minute)), last: -1,
		series: map[string][]int{}, counts: map[string]int{}, waiting: map[int64]waitingTicket{}, called: map[int64]bool{}}
}

// ChartHours are the chart's bounds on the business date: the business
// hours in the branch's zone. Hours that open before the business day
// starts (round the clock, with day_start 04:00) are partly the next
// calendar day's: the chart is then the whole business day, so a number
// taken at 02:00 is drawn at 02:00 and not held to the chart's end.
func ChartHours(date string, loc *time.Location, st Settings) (open, closeAt time.Time, err error) {
	d, err := time.ParseInLocation(time.DateOnly, date, loc)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("business date %q: %w", date, err)
	}
	if st.BusinessOpen < st.DayStart {
		return d.Add(st.DayStart), d.Add(st.DayStart + 24*time.Hour), nil
	}
	return d.Add(st.BusinessOpen), d.Add(st.BusinessClose), nil
}

// minute is the chart minute of at, held to the chart: a number taken
// before opening counts at the first minute, one after closing at the last.
func (b *DayBoard) minute(at time.Time) int {
	return min(max(0, int(at.Sub(b.Open)/time.Minute)), b.Minutes-1)
}

// Advance carries the waiting counts forward to the minute of now: a
// quiet minute has the waiting of the one before.
func (b *DayBoard) Advance(now time.Time) {
	m := b.minute(now)
	for ; b.last < m; b.last++ {
		for code, s := range b.series {
			s[b.last+1] = b.counts[code]
		}
	}
}

// Fold takes one event on top of the board; an event already folded, or
// one of another business date's ticket, changes no figure.
func (b *DayBoard) Fold(ev Event) {
	if ev.Version <= b.Version {
		return
	}
	b.Version = ev.Version
	t := ev.Ticket
	if t == nil || t.BusinessDate != b.Date {
		return
	}
	b.Advance(ev.At)
	if old, was := b.waiting[t.ID]; was {
		b.counts[old.service]--
		delete(b.waiting, t.ID)
	}
	if t.Status == Waiting {
		b.waiting[t.ID] = waitingTicket{service: t.Service, issued: t.IssuedAt}
		b.counts[t.Service]++
		b.mark(t.Service)
	}
	if ev.Kind == EvCall && t.CalledAt != nil && !b.called[t.ID] {
		b.called[t.ID] = true // the wait is to the first call, as the report counts it
		b.waitSum += t.CalledAt.Sub(t.IssuedAt)
		b.waitN++
	}
	if t.Status == Done && ev.FromStatus != Done {
		b.served++
	}
}

// mark raises the current minute of a service to its waiting count now.
func (b *DayBoard) mark(code string) {
	s, ok := b.series[code]
	if !ok {
		s = make([]int, b.Minutes)
		b.series[code] = s
	}
	if m := max(b.last, 0); b.counts[code] > s[m] {
		s[m] = b.counts[code]
	}
}

// Series is the waiting of a service at each minute from Open up to the
// last one reached (Advance); nil for a service with no number today. The
// slice is the board's own: read it, do not keep it past the next Fold.
func (b *DayBoard) Series(code string) []int {
	s := b.series[code]
	if s == nil || b.last < 0 {
		return nil
	}
	return s[:b.last+1]
}

// DayFigures are the dashboard's tiles.
type DayFigures struct {
	Taken, Served, Waiting, Passed int
	WindowsOpen, Windows           int
	LongestWait                    time.Duration // of the numbers waiting now; 0: none waits
	AvgWait                        time.Duration // issue to first call, over Called
	Called                         int
	// Rated counts the day's customer ratings by level (the snapshot's,
	// kept in step by the EvRate events).
	Rated Satisfaction
}

// PassedPct is the day's passed share of the numbers taken, in percent;
// false when none was taken.
func (f DayFigures) PassedPct() (float64, bool) {
	if f.Taken == 0 {
		return 0, false
	}
	return float64(f.Passed) * 100 / float64(f.Taken), true
}

// Figures are the tiles at now: the day's counts and the windows from
// the live snapshot (exact, kept by the store), the waits and the served
// from the folded events.
func (b *DayBoard) Figures(s Snapshot, now time.Time) DayFigures {
	var f DayFigures
	for _, c := range s.Services {
		f.Taken += c.Taken
		f.Passed += c.Passed
		f.Waiting += c.Waiting
	}
	for _, w := range s.Windows {
		f.Windows++
		if w.Status == WindowOpen {
			f.WindowsOpen++
		}
	}
	f.Rated = s.Rated
	for _, w := range b.waiting {
		f.LongestWait = max(f.LongestWait, now.Sub(w.issued))
	}
	f.Served, f.Called = b.served, b.waitN
	if b.waitN > 0 {
		f.AvgWait = b.waitSum / time.Duration(b.waitN)
	}
	return f
}

// dayEventsPage is how many events one read of the log brings.
const dayEventsPage = 1000

// LoadDayBoard rebuilds the board of s's business date from the event log
// up to s.Version: the first event of the day is found by bisecting the
// versions (the log is in commit order, so times rise with versions), and
// only the day's events are read. Events after s.Version are folded by
// the caller as they come.
func LoadDayBoard(ctx context.Context, live Live, s Snapshot, dayStart, open, closeAt time.Time) (*DayBoard, error) {
	b := NewDayBoard(s.BusinessDate, open, closeAt)
	from, err := firstVersionAt(ctx, live, s.Version, dayStart)
	if err != nil {
		return nil, err
	}
	for from < s.Version {
		evs, err := live.EventsSince(ctx, from, dayEventsPage)
		if err != nil {
			return nil, fmt.Errorf("read the day's events: %w", err)
		}
		if len(evs) == 0 {
			break
		}
		for _, ev := range evs {
			if ev.Version > s.Version {
				break
			}
			b.Fold(ev)
		}
		from = evs[len(evs)-1].Version
	}
	b.Version = max(b.Version, s.Version)
	b.Advance(s.Now)
	return b, nil
}

// firstVersionAt is the largest version v ≤ upTo whose events after it
// all happened at or after start: reading from v reads the day only.
func firstVersionAt(ctx context.Context, live Live, upTo int64, start time.Time) (int64, error) {
	lo, hi := int64(0), upTo
	for lo < hi {
		mid := lo + (hi-lo)/2
		evs, err := live.EventsSince(ctx, mid, 1)
		if err != nil {
			return 0, fmt.Errorf("find the day's first event: %w", err)
		}
		if len(evs) == 0 || !evs[0].At.Before(start) {
			hi = mid
		} else {
			lo = evs[0].Version
		}
	}
	return min(lo, upTo), nil
}

// ClockText is a duration as m:ss, or h:mm:ss from an hour: how the
// report and the dashboard show a wait.
func ClockText(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s%3600/60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
