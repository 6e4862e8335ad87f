package model

import (
	"context"
	"slices"
	"testing"
	"time"
)

// eventLog is a Live that only lists events, as the event log does.
type eventLog struct {
	Live
	evs  []Event
	read int // events handed out in pages (reads of more than one)
}

func (l *eventLog) EventsSince(_ context.Context, since int64, limit int) ([]Event, error) {
	var out []Event
	for _, e := range l.evs {
		if e.Version > since && len(out) < limit {
			out = append(out, e)
		}
	}
	if limit > 1 {
		l.read += len(out)
	}
	return out, nil
}

func TestDayBoardRebuildsTheDayFromItsEventsOnly(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, loc)
	open, closeAt := day.Add(9*time.Hour), day.Add(17*time.Hour)
	at := func(h, m int) time.Time { return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute) }
	var log eventLog
	add := func(kind string, from Status, tk Ticket, when time.Time) {
		tk.BusinessDate = when.Format(time.DateOnly)
		log.evs = append(log.evs, Event{Version: int64(len(log.evs) + 1), At: when, Kind: kind, FromStatus: from, Ticket: &tk})
	}
	// Yesterday's number must not count.
	add(EvTake, 0, Ticket{ID: 1, Service: "A", Status: Waiting, IssuedAt: at(-10, 0)}, at(-10, 0))
	issued := func(id int64, svc string, h, m int) Ticket {
		return Ticket{ID: id, Service: svc, Status: Waiting, IssuedAt: at(h, m)}
	}
	a2, a3, b4 := issued(2, "A", 9, 0), issued(3, "A", 9, 1), issued(4, "B", 9, 2)
	add(EvTake, 0, a2, a2.IssuedAt)
	add(EvTake, 0, a3, a3.IssuedAt)
	add(EvTake, 0, b4, b4.IssuedAt)
	call := func(tk Ticket, h, m int) Ticket {
		c := at(h, m)
		tk.Status, tk.CalledAt, tk.Window = Called, &c, 1
		add(EvCall, Waiting, tk, c)
		return tk
	}
	a2 = call(a2, 9, 5) // waited 5 minutes
	done := a2
	done.Status = Done
	add(EvFinish, Serving, done, at(9, 10))
	a3 = call(a3, 9, 13) // waited 12 minutes
	passed := a3
	passed.Status = Passed
	add(EvPass, Called, passed, at(9, 14))

	snap := Snapshot{Version: int64(len(log.evs)), BusinessDate: "2026-03-02", Now: at(9, 20),
		Services: []ServiceCount{{Code: "A", Taken: 2, Passed: 1}, {Code: "B", Taken: 1, Waiting: 1}},
		Windows:  []WindowState{{Window: Window{Number: 1, Status: WindowOpen}}, {Window: Window{Number: 2, Status: WindowPaused}}}}
	b, err := LoadDayBoard(context.Background(), &log, snap, day, open, closeAt)
	if err != nil {
		t.Fatal(err)
	}
	f := b.Figures(snap, at(9, 20))
	want := DayFigures{Taken: 3, Served: 1, Waiting: 1, Passed: 1, WindowsOpen: 1, Windows: 2,
		LongestWait: 18 * time.Minute, AvgWait: 17 * time.Minute / 2, Called: 2}
	if f != want {
		t.Fatalf("figures = %+v, want %+v", f, want)
	}
	if pct, ok := f.PassedPct(); !ok || pct < 33.3 || pct > 33.4 {
		t.Fatalf("passed share = %v %v, want 33.3%%", pct, ok)
	}
	// A: 1 at 09:00, 2 at 09:01 until the call at 09:05, 1 until 09:13, then 0.
	wantA := make([]int, 21)
	for m := range wantA {
		switch {
		case m == 0:
			wantA[m] = 1
		case m < 5:
			wantA[m] = 2
		case m <= 13:
			wantA[m] = 1
		}
	}
	wantA[5] = 2 // the minute's most: the call came within it
	wantA[13] = 1
	if got := b.Series("A"); !slices.Equal(got, wantA) {
		t.Fatalf("series A = %v, want %v", got, wantA)
	}
	if got := b.Series("B"); len(got) != 21 || got[1] != 0 || got[2] != 1 || got[20] != 1 {
		t.Fatalf("series B = %v", got)
	}
	// Live: a take at 09:21 raises A's current point.
	b.Fold(Event{Version: snap.Version + 1, At: at(9, 21), Kind: EvTake, Ticket: &Ticket{ID: 9, Service: "A", Status: Waiting, BusinessDate: "2026-03-02", IssuedAt: at(9, 21)}})
	if s := b.Series("A"); len(s) != 22 || s[21] != 1 {
		t.Fatalf("after a take, series A ends %v", s[len(s)-3:])
	}
	b.Fold(log.evs[1]) // folded already: nothing moves
	if f := b.Figures(snap, at(9, 21)); f.LongestWait != 19*time.Minute {
		t.Fatalf("longest wait after a repeat = %v", f.LongestWait)
	}
}

// A rebuild reads the day's events, not the log's: a manager PC started
// at noon of a branch with months of events reads only today's pages.
func TestDayBoardReadsOnlyTheDaysPages(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, loc)
	var log eventLog
	for i := range 5000 { // the days before, a minute apart
		at := day.Add(-time.Duration(5000-i) * time.Minute)
		tk := Ticket{ID: int64(i + 1), Service: "A", Status: Waiting, IssuedAt: at, BusinessDate: at.Format(time.DateOnly)}
		log.evs = append(log.evs, Event{Version: int64(i + 1), At: at, Kind: EvTake, Ticket: &tk})
	}
	for i := range 30 { // today
		at := day.Add(9*time.Hour + time.Duration(i)*time.Minute)
		tk := Ticket{ID: int64(6000 + i), Service: "A", Status: Waiting, IssuedAt: at, BusinessDate: "2026-03-02"}
		log.evs = append(log.evs, Event{Version: int64(len(log.evs) + 1), At: at, Kind: EvTake, Ticket: &tk})
	}
	snap := Snapshot{Version: int64(len(log.evs)), BusinessDate: "2026-03-02", Now: day.Add(10 * time.Hour),
		Services: []ServiceCount{{Code: "A", Taken: 30, Waiting: 30}}}
	b, err := LoadDayBoard(context.Background(), &log, snap, day, day.Add(9*time.Hour), day.Add(17*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if log.read != 30 {
		t.Fatalf("the rebuild read %d events in pages, want today's 30", log.read)
	}
	if s := b.Series("A"); len(s) != 61 || s[29] != 30 || s[60] != 30 {
		t.Fatalf("series A = %v", s)
	}
}

// A branch open round the clock whose business day starts at 04:00 draws
// its day from 04:00 to 04:00: a number taken at 02:00 belongs to the day
// before on the clock's date, and must not pile up in the chart's last
// minute while its first four hours stay empty.
func TestChartHoursFollowTheBusinessDay(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, loc)
	for _, c := range []struct {
		hours, start string
		open, close  time.Duration
	}{
		{"00:00-24:00", "04:00", 4 * time.Hour, 28 * time.Hour},
		{"08:00-17:00", "04:00", 8 * time.Hour, 17 * time.Hour},
		{"08:00-17:00", "00:00", 8 * time.Hour, 17 * time.Hour},
	} {
		st := ParseSettings(map[string]string{"business_hours": c.hours, "day_start": c.start})
		open, closeAt, err := ChartHours("2026-03-02", loc, st)
		if err != nil || !open.Equal(day.Add(c.open)) || !closeAt.Equal(day.Add(c.close)) {
			t.Errorf("hours %s, day start %s: chart %v to %v (%v), want %v to %v", c.hours, c.start, open, closeAt, err, day.Add(c.open), day.Add(c.close))
		}
	}
}
