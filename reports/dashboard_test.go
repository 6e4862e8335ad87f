package reports_test

import (
	"context"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// The manager's dashboard and the day's report count the same day the
// same way: the numbers served are the report's done, and the average wait
// (taking to first call, over the numbers called) is the report's, on a
// played day with recalls, passes, undone passes, requeues and transfers.
func TestDashboardFiguresEqualTheDailyReport(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	seed(t, st, seededDay, 300)
	r := generate(t, st, seededDay, seededDay)

	live, err := st.Snapshot(ctx) // today's, for the version the log reached
	if err != nil {
		t.Fatal(err)
	}
	set, err := st.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	loc := st.Location()
	from, _, err := set.Calendar(loc).Bounds(seededDay)
	if err != nil {
		t.Fatal(err)
	}
	open, closeAt, err := model.ChartHours(seededDay, loc, set)
	if err != nil {
		t.Fatal(err)
	}
	snap := model.Snapshot{Version: live.Version, BusinessDate: seededDay, Now: closedAt(st, seededDay)}
	b, err := model.LoadDayBoard(ctx, st, snap, from, open, closeAt)
	if err != nil {
		t.Fatal(err)
	}
	f := b.Figures(snap, snap.Now)

	called, waitSum := 0, time.Duration(0)
	for _, s := range r.Services {
		called += s.Called
		waitSum += s.AvgWait * time.Duration(s.Called)
	}
	if f.Served != r.Totals.Done || f.Called != called || called == 0 {
		t.Fatalf("dashboard served %d, called %d; the report done %d, called %d", f.Served, f.Called, r.Totals.Done, called)
	}
	// The report's per-service averages are cut to the millisecond
	// (Average): their weighted mean is within a millisecond of the whole.
	want := waitSum / time.Duration(called)
	if d := f.AvgWait - want; d < 0 || d >= time.Millisecond {
		t.Fatalf("dashboard average wait %v, the report's %v", f.AvgWait, want)
	}
	t.Logf("day: %d taken, %d done, %d called, average wait %v", r.Totals.Taken, r.Totals.Done, called, want)
}
