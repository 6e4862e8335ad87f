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
