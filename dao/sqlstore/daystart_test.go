package sqlstore_test

import (
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A branch open past midnight starts its business day at 03:00 (seed 003
// §6, DailyResetTime): a number at 02:59 belongs to the previous business
// date and continues its numbering; one at 03:00 starts at start_no.
func TestDayStartRenumbersAtThree(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		if _, err := s.SaveService(bg, model.Service{Code: "A", Name: "个人业务", Priority: 5, StartNo: 101, Enabled: true, SortOrder: 1}); err != nil {
			t.Fatal(err)
		}
		okAny(t, s.SetSetting(bg, "day_start", "03:00"))
		now, err := s.Now(bg)
		if err != nil {
			t.Fatal(err)
		}
		loc := s.Location()
		local := now.In(loc)
		evening := time.Date(local.Year(), local.Month(), local.Day()+1, 22, 0, 0, 0, loc)
		s.ShiftClock(evening.Sub(now))
		a := take(t, s, "A", 0) // 22:00, the evening's business date
		s.ShiftClock(time.Hour * 2)
		b := take(t, s, "A", 0) // 00:00: still the evening's day, no restart at midnight
		s.ShiftClock(2*time.Hour + 59*time.Minute)
		c := take(t, s, "A", 0) // 02:59
		s.ShiftClock(time.Minute)
		d := take(t, s, "A", 0) // 03:00: a new business day
		want := evening.Format(time.DateOnly)
		for i, tk := range []model.Ticket{a, b, c} {
			if tk.BusinessDate != want || tk.Number != model.FormatNumber("A", 101+i, 3) {
				t.Fatalf("before 03:00 ticket %d is %s on %s, want A%d on %s", i, tk.Number, tk.BusinessDate, 101+i, want)
			}
		}
		next := evening.AddDate(0, 0, 1).Format(time.DateOnly)
		if d.Number != "A101" || d.BusinessDate != next {
			t.Fatalf("at 03:00 got %s on %s, want A101 on %s", d.Number, d.BusinessDate, next)
		}
		snap, err := s.Snapshot(bg)
		if err != nil {
			t.Fatal(err)
		}
		if snap.BusinessDate != next || snap.Services[0].Taken != 1 {
			t.Fatalf("snapshot at 03:00 says %s with %d taken, want %s with 1", snap.BusinessDate, snap.Services[0].Taken, next)
		}
		// The 02:59 ticket's day is finished at 03:00: it may be archived.
		if n, err := s.Archive(bg, next, 0); err != nil || n != 3 {
			t.Fatalf("archive before %s moved %d (%v), want the 3 of the previous business day", next, n, err)
		}
	})
}

// A write straight after the day start changes uses the new start: the
// calendar is read before the transaction takes the connection (SQLite
// has one), not inside it, where the read waited out its timeout and fell
// back to the old calendar.
func TestWriteAfterDayStartChangeUsesIt(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		loc := s.Location()
		now, err := s.Now(bg)
		if err != nil {
			t.Fatal(err)
		}
		local := now.In(loc)
		night := time.Date(local.Year(), local.Month(), local.Day()+1, 2, 0, 0, 0, loc)
		s.ShiftClock(night.Sub(now))
		okAny(t, s.SetSetting(bg, "day_start", "03:00"))
		tk := take(t, s, "A", 0) // 02:00: still the evening's business day
		if want := night.AddDate(0, 0, -1).Format(time.DateOnly); tk.BusinessDate != want {
			t.Fatalf("a number at 02:00 right after day_start became 03:00 is on %s, want %s", tk.BusinessDate, want)
		}
	})
}
