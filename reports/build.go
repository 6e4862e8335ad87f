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

// Source is what a report reads; the SQL store gives it.
type Source = model.ReportFacts

// Generate reads the period's tickets and events and builds the report.
func Generate(ctx context.Context, src Source, p Period, opt Options) (Report, error) {
	t, err := tallyPeriod(ctx, src, p, opt)
	if err != nil {
		return Report{}, err
	}
	return t.report(), nil
}

// tallyPeriod reads the period and streams its tickets through a tally; the
// report over several branches also reads the tally's samples.
func tallyPeriod(ctx context.Context, src Source, p Period, opt Options) (*tally, error) {
	now := opt.Now
	if now.IsZero() {
		var err error
		if now, err = src.Now(ctx); err != nil {
			return nil, fmt.Errorf("read the database clock: %w", err)
		}
	}
	name, err := src.BranchName(ctx)
	if err != nil {
		return nil, err
	}
	services, err := src.Services(ctx)
	if err != nil {
		return nil, fmt.Errorf("read services: %w", err)
	}
	windows, err := src.Windows(ctx)
	if err != nil {
		return nil, fmt.Errorf("read windows: %w", err)
	}
	settings, err := src.Settings(ctx)
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	p.DayStart = settings.DayStart
	in := facts{branch: name, period: p, now: now, services: services, windows: windows,
		open: settings.BusinessOpen, close: settings.BusinessClose, rules: settings.Alerts, rulesSet: true}
	if in.staff, err = readStaffFacts(ctx, src, p); err != nil {
		return nil, err
	}
	if in.ratings, err = readRatings(ctx, src, p); err != nil {
		return nil, err
	}
	if in.firstCall, err = src.FirstCalls(ctx, p.Start(), p.End()); err != nil {
		return nil, err
	}
	numbers := make([]int, len(windows))
	for i, w := range windows {
		numbers[i] = w.Number
	}
	if in.initial, in.changes, err = src.WindowChanges(ctx, numbers, p.Start(), p.End()); err != nil {
		return nil, err
	}
	// The tickets stream through the tally: a month of a million costs the
	// few durations each keeps, not a million rows held at once.
	t := newTally(in)
	if err := src.EachTicket(ctx, p.Start(), p.End(), t.add); err != nil {
		return nil, err
	}
	return t, nil
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
	firstCall   map[int64]time.Time
	initial     map[int]model.WindowStatus
	changes     []model.WindowChange
	// rules are the branch's alert thresholds: the report's passed
	// warning is the alerts' own rule (model.AlertRules.PassedHigh). Facts
	// built without settings (rulesSet false) use PassedWarnRatio.
	rules    model.AlertRules
	rulesSet bool
	staff    staffFacts
	// ratings are the period's by ticket id; nil: the store keeps none.
	ratings map[int64]model.Rating
}

// tally turns tickets, one at a time, into the report's figures. What it
// keeps per ticket is only what a median or percentile needs: durations.
type tally struct {
	in           facts
	loc          *time.Location
	r            Report
	svc          *serviceTable
	win          *windowTable
	waits        map[int64][]time.Duration
	serviceTimes map[int64][]time.Duration
	windowTimes  map[int][]time.Duration
	sources      map[string]int
	estErrors    []time.Duration
	st           staffTally
	lv           levelTally
	sat          satTally
}

func newTally(in facts) *tally {
	loc := in.period.From.Location()
	t := &tally{in: in, loc: loc, r: Report{Branch: in.branch, Period: in.period, GeneratedAt: in.now.In(loc)},
		svc: newServiceTable(in.services), win: newWindowTable(in.windows),
		waits: map[int64][]time.Duration{}, serviceTimes: map[int64][]time.Duration{}, windowTimes: map[int][]time.Duration{}, sources: map[string]int{},
		st: staffTally{times: map[int64][]time.Duration{}, passed: map[int64]int{}}, lv: levelTally{}, sat: newSatTally()}
	t.r.WaitHistogram = make([]Bucket, len(waitBounds))
	for i, b := range waitBounds {
		t.r.WaitHistogram[i].From = b
		if i+1 < len(waitBounds) {
			t.r.WaitHistogram[i].To = waitBounds[i+1]
		}
	}
	return t
}

// add counts one ticket; tk is not kept.
func (t *tally) add(tk *model.TicketFact) {
	r := &t.r
	countStatus(&r.Totals, model.Status(tk.Status))
	r.ArrivalsByHour[tk.IssuedAt.In(t.loc).Hour()]++
	t.sources[tk.Source]++
	row := t.svc.row(tk.IssueServiceID)
	row.Count++
	countStatus(&row.Statuses, model.Status(tk.Status))
	if tk.Requeued > 0 {
		row.Requeued++ // by the queue it was issued in, like the waits
	}
	lv := t.lv.row(tk.Level)
	countStatus(&lv.Statuses, model.Status(tk.Status))
	if called, ok := firstCall(tk, t.in.firstCall); ok {
		w := max(called.Sub(tk.IssuedAt), 0)
		lv.waits = append(lv.waits, w)
		t.waits[tk.IssueServiceID] = append(t.waits[tk.IssueServiceID], w)
		r.WaitHistogram[bucketOf(w)].Count++
		if tk.EstimateS != nil {
			t.estErrors = append(t.estErrors, (w - time.Duration(*tk.EstimateS)*time.Second).Abs())
		}
	}
	done := model.Status(tk.Status) == model.Done && tk.ServeStartedAt != nil && tk.FinishedAt != nil
	var d time.Duration
	if done {
		d = max(tk.FinishedAt.Sub(*tk.ServeStartedAt), 0)
	}
	t.addStaff(tk, d, done)
	if done {
		t.addRating(tk)
		t.serviceTimes[tk.ServiceID] = append(t.serviceTimes[tk.ServiceID], d)
		if tk.WindowNo != nil {
			t.windowTimes[*tk.WindowNo] = append(t.windowTimes[*tk.WindowNo], d)
			t.win.row(*tk.WindowNo)
		}
	}
	if s := model.Status(tk.Status); s == model.Called || s == model.Serving {
		r.Stuck = append(r.Stuck, stuck(tk, t.svc.code(tk.ServiceID), t.loc))
	}
}

// report finishes the figures once every ticket was added.
func (t *tally) report() Report {
	r := t.r
	if r.Totals.Taken > 0 {
		r.PassedRatio = float64(r.Totals.Passed) / float64(r.Totals.Taken)
	}
	r.PassedRules = t.in.rules
	if !t.in.rulesSet {
		r.PassedRules = model.AlertRules{PassedPct: int(PassedWarnRatio * 100), PassedMin: 1}
	}
	r.PassedThreshold = float64(r.PassedRules.PassedPct) / 100
	if r.PassedRules.PassedPct == 0 {
		r.PassedThreshold = 1 // the warning is off: no share is over 100 %
	}
	r.PassedWarning = r.PassedRules.PassedHigh(r.Totals.Taken, r.Totals.Passed)
	r.Estimate = accuracy(t.estErrors)
	for id, row := range t.svc.rows {
		ws := t.waits[id]
		slices.Sort(ws)
		row.Called, row.AvgWait = len(ws), Average(ws)
		row.MedianWait, row.P90Wait = Percentile(ws, 0.5), Percentile(ws, 0.9)
		row.Served, row.AvgService = len(t.serviceTimes[id]), Average(t.serviceTimes[id])
	}
	paused, lunch := pausedTime(t.in), lunchTime(t.in)
	for _, m := range []map[int]time.Duration{paused, lunch} {
		for n := range m {
			t.win.row(n)
		}
	}
	for n, row := range t.win.rows {
		row.Served, row.AvgService, row.Paused, row.Lunch = len(t.windowTimes[n]), Average(t.windowTimes[n]), paused[n], lunch[n]
	}
	r.Sources = sourceList(t.sources)
	r.Services = t.svc.list()
	r.Windows = t.win.list()
	r.Staff = t.staffList()
	r.Levels = t.lv.list()
	r.Satisfaction = t.satisfaction(r)
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
func firstCall(t *model.TicketFact, fromEvents map[int64]time.Time) (time.Time, bool) {
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

func stuck(t *model.TicketFact, service string, loc *time.Location) StuckTicket {
	s := StuckTicket{Number: t.Number, Service: service, BusinessDate: t.BusinessDate,
		Status: model.Status(t.Status), IssuedAt: t.IssuedAt.In(loc)}
	if t.WindowNo != nil {
		s.Window = *t.WindowNo
	}
	if t.CalledAt != nil {
		c := t.CalledAt.In(loc)
		s.CalledAt = &c
	}
	if t.ServeStartedAt != nil {
		c := t.ServeStartedAt.In(loc)
		s.ServeStarted = &c
	}
	return s
}

// accuracy sums up the estimates' errors.
func accuracy(errs []time.Duration) EstimateAccuracy {
	slices.Sort(errs)
	a := EstimateAccuracy{Compared: len(errs), MedianError: Percentile(errs, 0.5)}
	for _, e := range errs {
		if e <= EstimateTolerance {
			a.Within++
		}
	}
	if a.Compared > 0 {
		a.WithinShare = float64(a.Within) / float64(a.Compared)
	}
	return a
}
