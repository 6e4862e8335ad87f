package sqlstore_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A window at lunch is never counted by the idle sweeper: an open window
// idle as long is paused, the one at lunch stays at lunch (not paused, not
// reopened), takes no call and no transfer, and opens again when its clerk
// ends lunch.
func TestLunchIsNotIdle(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		w, err := s.SetWindowStatus(bg, 3, model.WindowLunch)
		if err != nil || w.Status != model.WindowLunch {
			t.Fatalf("lunch: %+v %v", w, err)
		}
		okAny(t, s.SetSetting(bg, "call_timeout_s", "3600"))
		s.ShiftClock(2 * time.Hour)
		defer s.ShiftClock(-2 * time.Hour)
		r, err := s.Sweep(bg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Paused != 3 {
			t.Fatalf("paused %d windows, want the 3 open ones", r.Paused)
		}
		for range 2 { // and a second sweep leaves it as it is too
			ws, err := s.Windows(bg)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range ws {
				want := model.WindowPaused
				if w.Number == 3 {
					want = model.WindowLunch
				}
				if w.Status != want {
					t.Fatalf("window %d is %v after the sweep, want %v", w.Number, w.Status, want)
				}
			}
			if _, err := s.Sweep(bg); err != nil {
				t.Fatal(err)
			}
		}
		take(t, s, "A", 0)
		if _, err := s.CallNext(bg, 3, ""); !model.IsCode(err, model.EWindowNotOpen) {
			t.Fatalf("a window at lunch called: %v", err)
		}
		okAny(t, second(s.SetWindowStatus(bg, 1, model.WindowOpen)))
		tk := ok(t)(s.CallNext(bg, 1, ""))
		if _, err := s.Transfer(bg, tk.ID, 1, model.TransferTarget{Window: 3}); !model.IsCode(err, model.EWindowNotOpen) {
			t.Fatalf("transferred to a window at lunch: %v", err)
		}
		okAny(t, second(s.SetWindowStatus(bg, 3, model.WindowOpen)))
		if _, err := s.Transfer(bg, tk.ID, 1, model.TransferTarget{Window: 3}); err != nil {
			t.Fatalf("transfer after lunch: %v", err)
		}
	})
}

func second[T any](_ T, err error) error { return err }

// The clerk switches among the services the manager allowed the window
// (seed 003 §3.2); a service outside them is refused and changes nothing.
// By default a window allows what it serves; the manager widens it in the
// window's setup, and his own SetWindowServices allows what it gives.
func TestClerkSwitchesAllowedServices(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		w := ok1(t)(s.SaveWindow(bg, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{}}))
		if !slices.Equal(w.Allowed, []string{"A"}) {
			t.Fatalf("allowed %v after the manager narrowed it to what it serves", w.Allowed)
		}
		v := version(t, s)
		if _, err := s.SwitchServices(bg, 2, []string{"B"}); !model.IsCode(err, model.EForbidden) {
			t.Fatalf("switch to a service not allowed: %v, want forbidden", err)
		}
		if version(t, s) != v {
			t.Fatal("a refused switch wrote an event")
		}
		// The manager allows A and B; the clerk goes from A to B (the
		// afternoon's corporate business) and back.
		w = ok1(t)(s.SaveWindow(bg, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{"A", "B"}}))
		if !slices.Equal(w.Allowed, []string{"A", "B"}) || !slices.Equal(w.Services, []string{"A"}) {
			t.Fatalf("window after setup: %+v", w)
		}
		w = ok1(t)(s.SwitchServices(bg, 2, []string{"B"}))
		if !slices.Equal(w.Services, []string{"B"}) || !slices.Equal(w.Allowed, []string{"A", "B"}) {
			t.Fatalf("after the switch: serves %v, allows %v", w.Services, w.Allowed)
		}
		evs, err := s.EventsSince(bg, version(t, s)-1, 10)
		if err != nil || len(evs) != 1 || evs[0].Kind != model.EvWindow || evs[0].WindowInfo == nil ||
			!slices.Equal(evs[0].WindowInfo.Services, []string{"B"}) {
			t.Fatalf("the switch's event: %+v %v", evs, err)
		}
		take(t, s, "A", 0)
		b := take(t, s, "B", 0)
		if got := ok(t)(s.CallNext(bg, 2, "")); got.ID != b.ID {
			t.Fatalf("window 2 serving B called %s", got.Number)
		}
		if _, err := s.SwitchServices(bg, 2, []string{"A", "V"}); !model.IsCode(err, model.EForbidden) {
			t.Fatalf("switch to V: %v, want forbidden", err)
		}
		ok1(t)(s.SwitchServices(bg, 2, []string{"A", "B"}))
		// A name-only save (no allowed list, as an older client sends)
		// keeps what is allowed.
		w = ok1(t)(s.SaveWindow(bg, model.Window{Number: 2, Name: "二号", Services: []string{"A"}}))
		if !slices.Equal(w.Allowed, []string{"A", "B"}) {
			t.Fatalf("allowed %v after a save without a list", w.Allowed)
		}
		// The manager's own change may give anything, and allows it.
		w = ok1(t)(s.SetWindowServices(bg, 2, []string{"V"}))
		if !slices.Equal(w.Allowed, []string{"A", "B", "V"}) {
			t.Fatalf("allowed %v after the manager gave V", w.Allowed)
		}
		// A window the manager never set up allows what it serves (a
		// database from before the allowed list behaves as it did).
		ws, _ := s.Windows(bg)
		if !slices.Equal(ws[0].Allowed, ws[0].Services) {
			t.Fatalf("window 1 allows %v, serves %v", ws[0].Allowed, ws[0].Services)
		}
		ok1(t)(s.SwitchServices(bg, 1, []string{"V"}))
		ws, _ = s.Windows(bg)
		if !slices.Equal(ws[0].Allowed, []string{"A", "B", "V"}) || !slices.Equal(ws[0].Services, []string{"V"}) {
			t.Fatalf("window 1 after narrowing to V: %+v", ws[0])
		}
	})
}

func ok1(t *testing.T) func(model.Window, error) model.Window {
	return func(w model.Window, err error) model.Window {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
}

func version(t *testing.T, s *sqlstore.GormStore) int64 {
	t.Helper()
	snap, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	return snap.Version
}

// A requeued ticket keeps its mark (重叫) for its life: stored, read back,
// carried by its events and through the next call, and archived with it.
func TestRequeueMarkStays(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		tk := take(t, s, "A", 0)
		tk = ok(t)(s.CallNext(bg, 1, ""))
		ok(t)(s.Pass(bg, tk.ID, 1))
		got := ok(t)(s.Requeue(bg, tk.ID, 1))
		if got.Requeued != 1 {
			t.Fatalf("requeued %d, want 1", got.Requeued)
		}
		got = ok(t)(s.CallNext(bg, 1, ""))
		if got.ID != tk.ID || got.Requeued != 1 {
			t.Fatalf("called %s with mark %d", got.Number, got.Requeued)
		}
		ok(t)(s.StartServing(bg, tk.ID, 1))
		if read := ok(t)(s.Ticket(bg, tk.ID)); read.Requeued != 1 || read.Status != model.Serving {
			t.Fatalf("read back %+v", read)
		}
		snap, err := s.Snapshot(bg)
		if err != nil {
			t.Fatal(err)
		}
		if len(snap.RecentCalls) == 0 || snap.RecentCalls[0].Requeued != 1 {
			t.Fatalf("snapshot's call %+v", snap.RecentCalls)
		}
		var stored int
		if err := s.DB().Raw("SELECT requeued FROM ticket WHERE id = ?", tk.ID).Scan(&stored).Error; err != nil || stored != 1 {
			t.Fatalf("column requeued %d, %v", stored, err)
		}
	})
}

// A database made before the requeue mark and the allowed lists existed
// (no ticket.requeued, no window_allowed) opens and works: the migration
// adds both, old tickets read unmarked and each window allows what it
// serves, on every engine.
func TestMigrateAddsMarkAndAllowed(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		old := take(t, s, "A", 0)
		for _, q := range []string{"ALTER TABLE ticket DROP COLUMN requeued", "ALTER TABLE ticket_history DROP COLUMN requeued",
			"DROP TABLE window_allowed"} {
			if err := s.DB().Exec(q).Error; err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		s.Close()
		s, err = sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatalf("open the old database: %v", err)
		}
		defer s.Close()
		if got := ok(t)(s.Ticket(bg, old.ID)); got.Requeued != 0 || got.Number != old.Number {
			t.Fatalf("old ticket %+v", got)
		}
		ok(t)(s.CallNext(bg, 1, ""))
		ok(t)(s.Pass(bg, old.ID, 1))
		if got := ok(t)(s.Requeue(bg, old.ID, 1)); got.Requeued != 1 {
			t.Fatalf("requeued %d", got.Requeued)
		}
		ws, err := s.Windows(bg)
		if err != nil || len(ws) == 0 || !slices.Equal(ws[0].Allowed, ws[0].Services) {
			t.Fatalf("windows %+v %v", ws, err)
		}
	})
}

// A clerk switching services while the manager saves the same window: each
// change waits for the other, none fails on the link rows, and the window
// ends allowed what the manager gave it.
func TestSwitchWhileManagerSavesWindow(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		ok1(t)(s.SaveWindow(bg, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{"A", "B"}}))
		const rounds = 25
		errs := make(chan error, 2*rounds)
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 0; i < rounds; i++ {
				_, err := s.SwitchServices(bg, 2, [][]string{{"A"}, {"B"}, {"A", "B"}}[i%3])
				errs <- err
			}
		})
		wg.Go(func() {
			for i := 0; i < rounds; i++ {
				_, err := s.SaveWindow(bg, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}, Allowed: []string{"A", "B"}})
				errs <- err
			}
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("concurrent service change: %v", err)
			}
		}
		w := ok1(t)(s.SaveWindow(bg, model.Window{Number: 2, Name: "2号窗口", Services: []string{"A"}}))
		if got := strings.Join(w.Allowed, ","); got != "A,B" {
			t.Fatalf("window 2 is allowed %q after the race, want A,B", got)
		}
	})
}
