package sqlstore_test

import (
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A ticket keeps where it was taken: a window's (窗口代取) is numbered in
// the same sequence as the kiosk's, and no source means the kiosk.
func TestTicketKeepsItsSource(t *testing.T) {
	s := daotest.SQLite(t)
	k := ok(t)(s.TakeTicket(bg, "A", 0, ""))
	w := ok(t)(s.TakeTicket(bg, "A", 0, model.RoleCaller.TicketSource()))
	if k.Source != model.SourceKiosk || w.Source != model.SourceWindow || w.SeqNo != k.SeqNo+1 {
		t.Fatalf("kiosk %s from %q, window %s from %q", k.Number, k.Source, w.Number, w.Source)
	}
	got := ok(t)(s.Ticket(bg, w.ID))
	if got.Source != model.SourceWindow {
		t.Fatalf("stored source %q", got.Source)
	}
}
