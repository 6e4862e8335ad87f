package sqlstore_test

import (
	"database/sql"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
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
