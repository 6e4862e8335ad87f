package reports

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"jiaohao/model"
)

// Options tune a report. The zero value is the normal case.
type Options struct {
	// Now replaces the database clock as the generation time; tests fix it
	// so the output is byte-for-byte reproducible.
	Now time.Time
}

// Generate reads the period's tickets and events and builds the report.
func Generate(ctx context.Context, src Source, p Period, opt Options) (Report, error) {
	db, branch := src.DB(), src.BranchID()
	now := opt.Now
	if now.IsZero() {
		var err error
		if now, err = src.Now(ctx); err != nil {
			return Report{}, fmt.Errorf("read the database clock: %w", err)
		}
	}
	name, err := loadBranchName(ctx, db, branch)
	if err != nil {
		return Report{}, err
	}
	services, err := src.Services(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("read services: %w", err)
	}
	windows, err := src.Windows(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("read windows: %w", err)
	}
	settings, err := src.Settings(ctx)
	if err != nil {
		return Report{}, fmt.Errorf("read settings: %w", err)
	}
	in := facts{branch: name, period: p, now: now, services: services, windows: windows,
		open: settings.BusinessOpen, close: settings.BusinessClose}
	if in.tickets, err = loadTickets(ctx, db, branch, p); err != nil {
		return Report{}, err
	}
	if in.firstCall, err = loadFirstCalls(ctx, db, branch, in.tickets); err != nil {
		return Report{}, err
	}
	numbers := make([]int, len(windows))
	for i, w := range windows {
		numbers[i] = w.Number
	}
	if in.initial, in.changes, err = loadWindowChanges(ctx, db, branch, numbers, p); err != nil {
		return Report{}, err
	}
	return build(in), nil
}

// facts is everything read from the database; build turns it into figures
// without touching the database again.
type facts struct {
	branch      string
	period      Period
	now         time.Time
	services    []model.Service
	windows     []model.Window
	open, close time.Duration // business hours since local midnight
	tickets     []ticketFact
	firstCall   map[int64]time.Time
	initial     map[int]model.WindowStatus
	changes     []windowChange
}

func build(in facts) Report {
	loc := in.period.From.Location()
	r := Report{Branch: in.branch, Period: in.period, GeneratedAt: in.now.In(loc)}
	svc := newServiceTable(in.services)
	win := newWindowTable(in.windows)
	waits := map[int64][]time.Duration{}
	serviceTimes := map[int64][]time.Duration{}
	windowTimes := map[int][]time.Duration{}
	r.WaitHistogram = make([]Bucket, len(waitBounds))
	for i, b := range waitBounds {
		r.WaitHistogram[i].From = b
		if i+1 < len(waitBounds) {
			r.WaitHistogram[i].To = waitBounds[i+1]
		}
	}
	for _, t := range in.tickets {
		countStatus(&r.Totals, model.Status(t.Status))
		r.ArrivalsByHour[t.IssuedAt.In(loc).Hour()]++
		svc.row(t.IssueServiceID).Count++
		if called, ok := firstCall(t, in.firstCall); ok {
			w := max(called.Sub(t.IssuedAt), 0)
			waits[t.IssueServiceID] = append(waits[t.IssueServiceID], w)
			r.WaitHistogram[bucketOf(w)].Count++
		}
		if model.Status(t.Status) == model.Done && t.ServeStartedAt != nil && t.FinishedAt != nil {
			d := max(t.FinishedAt.Sub(*t.ServeStartedAt), 0)
			serviceTimes[t.ServiceID] = append(serviceTimes[t.ServiceID], d)
			if t.WindowNo != nil {
				windowTimes[*t.WindowNo] = append(windowTimes[*t.WindowNo], d)
				win.row(*t.WindowNo)
			}
		}
		if s := model.Status(t.Status); s == model.Called || s == model.Serving {
			r.Stuck = append(r.Stuck, stuck(t, svc.code(t.ServiceID), loc))
		}
	}
	if r.Totals.Taken > 0 {
		r.PassedRatio = float64(r.Totals.Passed) / float64(r.Totals.Taken)
	}
	r.PassedWarning = r.PassedRatio > PassedWarnRatio
	for id, row := range svc.rows {
		ws := slices.Clone(waits[id])
		slices.Sort(ws)
		row.Called, row.AvgWait = len(ws), Average(ws)
		row.MedianWait, row.P90Wait = Percentile(ws, 0.5), Percentile(ws, 0.9)
		row.Served, row.AvgService = len(serviceTimes[id]), Average(serviceTimes[id])
	}
	paused := pausedTime(in)
	for n := range paused {
		win.row(n)
	}
	for n, row := range win.rows {
		row.Served, row.AvgService, row.Paused = len(windowTimes[n]), Average(windowTimes[n]), paused[n]
	}
	r.Services = svc.list()
	r.Windows = win.list()
	sort.SliceStable(r.Stuck, func(i, j int) bool { return r.Stuck[i].IssuedAt.Before(r.Stuck[j].IssuedAt) })
	return r
}

func countStatus(t *Totals, s model.Status) {
	t.Taken++
	switch s {
	case model.Done:
		t.Done++
	case model.Passed:
		t.Passed++
	case model.Cancelled:
		t.Cancelled++
	case model.Waiting:
		t.Waiting++
	case model.Called:
		t.Called++
	case model.Serving:
		t.Serving++
	}
}

// firstCall is when the ticket was first called, if ever. The event log
// wins; called_at is the fallback for tickets whose events are gone.
func firstCall(t ticketFact, fromEvents map[int64]time.Time) (time.Time, bool) {
	if at, ok := fromEvents[t.ID]; ok {
		return at, true
	}
	if t.CalledAt != nil {
		return *t.CalledAt, true
	}
	return time.Time{}, false
}

func bucketOf(w time.Duration) int {
	for i := len(waitBounds) - 1; i > 0; i-- {
		if w >= waitBounds[i] {
			return i
		}
	}
	return 0
}

func stuck(t ticketFact, service string, loc *time.Location) StuckTicket {
	s := StuckTicket{Number: t.Number, Service: service, BusinessDate: t.BusinessDate,
		Status: model.Status(t.Status), IssuedAt: t.IssuedAt.In(loc)}
	if t.WindowNo != nil {
		s.Window = *t.WindowNo
	}
	if t.CalledAt != nil {
		c := t.CalledAt.In(loc)
		s.CalledAt = &c
	}
	return s
}
