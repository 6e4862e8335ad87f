package peer

import (
	"context"
	"slices"
	"testing"
	"time"

	"jiaohao/model"
)

// A manager on a peer link rebuilds the day from the host's event log as
// one on the database does: the same figures and the same curve.
func TestDayBoardThroughThePeerMatchesTheDatabase(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	for _, svc := range []string{"A", "A", "B", "A", "B"} {
		if _, err := e.store.TakeTicket(ctx, svc, 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	tk, err := e.store.CallNext(ctx, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, step := range []func(context.Context, int64, int) (model.Ticket, error){e.store.StartServing, e.store.Finish} {
		if _, err := step(ctx, tk.ID, 1); err != nil {
			t.Fatal(err)
		}
	}
	if tk, err = e.store.CallNext(ctx, 2, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Pass(ctx, tk.ID, 2); err != nil {
		t.Fatal(err)
	}

	load := func(live model.Live, s model.Snapshot) *model.DayBoard {
		t.Helper()
		st, err := e.store.Settings(ctx)
		if err != nil {
			t.Fatal(err)
		}
		loc := e.store.Location()
		from, _, err := st.Calendar(loc).Bounds(s.BusinessDate)
		if err != nil {
			t.Fatal(err)
		}
		open, closeAt, err := model.ChartHours(s.BusinessDate, loc, st)
		if err != nil {
			t.Fatal(err)
		}
		b, err := model.LoadDayBoard(ctx, live, s, from, open, closeAt)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	snap, err := e.store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	now := snap.Now.Add(time.Minute)
	direct := load(e.store, snap)
	remote := load(e.client(t, model.RoleManager), snap)
	if d, r := direct.Figures(snap, now), remote.Figures(snap, now); d != r || d.Served != 1 || d.Called != 2 || d.Passed != 1 {
		t.Fatalf("through the peer %+v, on the database %+v; want equal, 1 served, 2 called, 1 passed", r, d)
	}
	for _, code := range []string{"A", "B"} {
		if d, r := direct.Series(code), remote.Series(code); !slices.Equal(d, r) || len(d) == 0 {
			t.Fatalf("service %s: through the peer %v, on the database %v", code, r, d)
		}
	}
}
