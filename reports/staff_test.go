package reports_test

import (
	"context"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// The per-staff table adds up to the report's totals: what windows with
// nobody signed in served and passed is a row of its own (no number), so
// the manager can tell the clerks' share from the rest.
func TestStaffTableAddsUpToTheTotals(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	if _, err := st.AddStaff(ctx, model.Staff{Number: "1001", Name: "李娜"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SignIn(ctx, 1, "1001", "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{1, 2, 2} { // window 2: nobody signed in
		if _, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
			t.Fatal(err)
		}
		tk, err := st.CallNext(ctx, w, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.StartServing(ctx, tk.ID, w); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Finish(ctx, tk.ID, w); err != nil {
			t.Fatal(err)
		}
	}
	now, err := st.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	day := now.In(st.Location()).Format("2006-01-02")
	r := generate(t, st, day, day)
	served := map[string]int{}
	total := 0
	for _, s := range r.Staff {
		served[s.Number] = s.Served
		total += s.Served
	}
	if total != r.Totals.Done || served["1001"] != 1 || served[""] != 2 {
		t.Fatalf("per staff %+v: want 1001 serving 1 and nobody 2 of the %d done", r.Staff, r.Totals.Done)
	}
}
