package screens

import (
	"context"
	"reflect"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A board that starts from a snapshot and applies the store's events ends
// with the same counts as a fresh snapshot: waiting, the day's taken and
// passed (the manager's health check reads these).
func TestBoardCountsMatchStore(t *testing.T) {
	ctx := context.Background()
	st := daotest.SQLite(t)
	first, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := &board{Snapshot: first}
	var ids []int64
	for _, code := range []string{"A", "A", "B", "V", "A", "B"} {
		tk, err := st.TakeTicket(ctx, code, 0, "test")
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tk.ID)
	}
	step := func(_ model.Ticket, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	c1, err := st.CallNext(ctx, 1, "")
	step(c1, err)
	step(st.Pass(ctx, c1.ID, 1))
	c2, err := st.CallNext(ctx, 2, "")
	step(c2, err)
	step(st.Pass(ctx, c2.ID, 2))
	step(st.UndoPass(ctx, c2.ID, 2))
	c3, err := st.CallNext(ctx, 3, "")
	step(c3, err)
	step(st.Transfer(ctx, c3.ID, 3, model.TransferTarget{Service: "B"}))
	step(st.Cancel(ctx, ids[5], 0))
	if err := st.ReportDevice(model.WithActor(ctx, "kiosk@1"), "printer", "缺纸"); err != nil {
		t.Fatal(err)
	}
	if err := st.ReportDevice(model.WithActor(ctx, "kiosk@2"), "printer", "卡纸"); err != nil {
		t.Fatal(err)
	}
	if err := st.ReportDevice(model.WithActor(ctx, "kiosk@1"), "printer", ""); err != nil {
		t.Fatal(err)
	}
	evs, err := st.EventsSince(ctx, first.Version, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if !b.apply(e) {
			t.Fatalf("event %d (%s) refused", e.Version, e.Kind)
		}
	}
	fresh, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(b.Services, fresh.Services) {
		t.Fatalf("board counts %+v\nstore counts %+v", b.Services, fresh.Services)
	}
	if len(b.Faults) != 1 || len(fresh.Faults) != 1 || b.Faults[0].Terminal != fresh.Faults[0].Terminal || fresh.Faults[0].Terminal != "kiosk@2" {
		t.Fatalf("board faults %+v, store faults %+v", b.Faults, fresh.Faults)
	}
	// V001 (priority 1) was called first and passed; A001 was passed and
	// called back, so it does not count.
	if a, v := b.Services[0], b.Services[2]; a.Taken != 3 || a.Passed != 0 || v.Code != "V" || v.Passed != 1 {
		t.Fatalf("services %+v", b.Services)
	}
}
