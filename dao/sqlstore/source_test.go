package sqlstore_test

import (
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
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

// The floor looks a ticket up by the number on it, typed as staff type it;
// a number taken again the next day finds the newest ticket, and a number
// never issued or of no service is not found.
func TestTicketByNumber(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		first := ok(t)(s.TakeTicket(bg, "A", 0, ""))
		b := ok(t)(s.TakeTicket(bg, "B", 0, ""))
		if got := ok(t)(s.TicketByNumber(bg, strings.ToLower(first.Number))); got.ID != first.ID {
			t.Fatalf("%s found %+v", first.Number, got)
		}
		if got := ok(t)(s.TicketByNumber(bg, b.Number)); got.ID != b.ID || got.Service != "B" {
			t.Fatalf("%s found %+v", b.Number, got)
		}
		s.ShiftClock(25 * time.Hour)
		next := ok(t)(s.TakeTicket(bg, "A", 0, ""))
		if next.Number != first.Number || next.BusinessDate == first.BusinessDate {
			t.Fatalf("next day numbered %s on %s (first %s on %s)", next.Number, next.BusinessDate, first.Number, first.BusinessDate)
		}
		if got := ok(t)(s.TicketByNumber(bg, first.Number)); got.ID != next.ID {
			t.Fatalf("%s found the ticket of %s, want today's", first.Number, got.BusinessDate)
		}
		for _, n := range []string{"A999", "Q001", "12", ""} {
			if _, err := s.TicketByNumber(bg, n); model.ErrorCode(err) != model.ENotFound {
				t.Errorf("%q: %v, want not_found", n, err)
			}
		}
	})
}
