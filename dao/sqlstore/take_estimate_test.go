package sqlstore_test

import (
	"database/sql"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The estimate is decoration: when it fails (here on a statement the
// database refuses, inside the take's transaction) the customer still
// gets the next number, kept with no estimate, and its position is read
// afresh afterwards.
func TestTakeWithoutEstimate(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		first := take(t, s, "A", 0)
		sqlstore.FailTakeEstimate(t)
		tk, err := s.TakeTicket(bg, "A", 0, "kiosk")
		if err != nil {
			t.Fatalf("a failed estimate refused the number: %v", err)
		}
		if tk.SeqNo != first.SeqNo+1 {
			t.Fatalf("took %s after %s, want the next number", tk.Number, first.Number)
		}
		var kept sql.NullInt64
		if err := s.DB().Raw("SELECT estimate_s FROM ticket WHERE id = ?", tk.ID).Row().Scan(&kept); err != nil {
			t.Fatal(err)
		}
		if kept.Valid {
			t.Fatalf("kept estimate %d s, want NULL", kept.Int64)
		}
		pos := ok2(t)(s.Position(bg, tk.ID))
		if pos.Ahead != 1 {
			t.Fatalf("%s stands at %+v, want the one before it ahead", tk.Number, pos)
		}
	})
}

// A number taken while no window serves its service (all at lunch)
// promises no minutes, so none are kept for the report to measure; once a
// window is back, the next number keeps its estimate again.
func TestTakeAtLunchKeepsNoEstimate(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		for w := 1; w <= 4; w++ {
			if _, err := s.SetWindowStatus(bg, w, model.WindowLunch); err != nil {
				t.Fatal(err)
			}
		}
		kept := func(id int64) sql.NullInt64 {
			t.Helper()
			var v sql.NullInt64
			if err := s.DB().Raw("SELECT estimate_s FROM ticket WHERE id = ?", id).Row().Scan(&v); err != nil {
				t.Fatal(err)
			}
			return v
		}
		lunch := take(t, s, "A", 0)
		if pos := ok2(t)(s.Position(bg, lunch.ID)); !pos.NoWindow {
			t.Fatalf("taken at lunch, stands at %+v: want no window", pos)
		}
		if v := kept(lunch.ID); v.Valid {
			t.Fatalf("taken at lunch, kept %d s", v.Int64)
		}
		if _, err := s.SetWindowStatus(bg, 1, model.WindowOpen); err != nil {
			t.Fatal(err)
		}
		after := take(t, s, "A", 0)
		if v := kept(after.ID); !v.Valid {
			t.Fatal("taken with a window open, kept no estimate")
		}
	})
}

// A take that runs again without its estimate has not lost a race: after
// nine lost races its redo still gets its attempt, and the number is
// taken; lost races alone still end at the tenth.
func TestRedoIsNotALostRace(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		races := make([]string, 9)
		for i := range races {
			races[i] = "conflict"
		}
		n, err := sqlstore.WriteAttempts(bg, s, append(races, "redo")...)
		if err != nil || n != 11 {
			t.Fatalf("nine lost races and a redo: %d attempts, %v; want the eleventh to commit", n, err)
		}
		if _, err := sqlstore.WriteAttempts(bg, s, append(races, "conflict")...); !model.IsCode(err, model.EConflict) {
			t.Fatalf("ten lost races: %v, want the conflict error", err)
		}
		redos := make([]string, 20)
		for i := range redos {
			redos[i] = "redo"
		}
		if n, err := sqlstore.WriteAttempts(bg, s, redos...); err == nil || n > 11 {
			t.Fatalf("a write that always asks to run again ran %d times (%v), want it stopped", n, err)
		}
	})
}
