package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// clearOfDayEnd moves the stores' clocks past the start of the next
// business day when it is less than margin away. A test that shifts its
// clock by minutes (call timeouts) would otherwise, run in the minutes
// before the branch's midnight, see its tickets become yesterday's and
// leave today's queue. The windows are opened again after the jump, which
// restarts their idle timers: the jump must not make the sweeper pause
// them. The stores share one database. It returns the jump, for a store
// the test opens later to make too.
func clearOfDayEnd(t *testing.T, margin time.Duration, stores ...*sqlstore.GormStore) time.Duration {
	t.Helper()
	s := stores[0]
	now, err := s.Now(bg)
	if err != nil {
		t.Fatal(err)
	}
	cal := s.Calendar(bg)
	left := cal.Start(cal.Day(now).AddDate(0, 0, 1)).Sub(now)
	if left >= margin {
		return 0
	}
	for _, st := range stores {
		st.ShiftClock(left + time.Minute)
	}
	windows, err := s.Windows(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range windows {
		if w.Status == model.WindowOpen {
			if _, err := s.SetWindowStatus(bg, w.Number, model.WindowOpen); err != nil {
				t.Fatal(err)
			}
		}
	}
	return left + time.Minute
}

// The helper itself: from two minutes before the day ends, a test's
// clock lands in the next business day with its windows' idle timers
// restarted (without that, the jump plus one call timeout is past the
// 300 s idle timeout), and a ticket taken then keeps its date across a
// call timeout.
func TestClearOfDayEnd(t *testing.T) {
	s := daotest.SQLite(t)
	now, err := s.Now(bg)
	if err != nil {
		t.Fatal(err)
	}
	cal := s.Calendar(bg)
	s.ShiftClock(cal.Start(cal.Day(now).AddDate(0, 0, 1)).Sub(now) - 2*time.Minute)
	clearOfDayEnd(t, 15*time.Minute, s)
	tk := take(t, s, "A", 0)
	s.ShiftClock(121 * time.Second) // a call timeout, under the idle timeout
	res, err := s.Sweep(bg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Paused != 0 {
		t.Fatalf("the sweeper paused %d windows after the jump", res.Paused)
	}
	after, err := s.Now(bg)
	if err != nil {
		t.Fatal(err)
	}
	if got := cal.Date(after); got != tk.BusinessDate {
		t.Fatalf("ticket of %s, clock now in %s", tk.BusinessDate, got)
	}
}
