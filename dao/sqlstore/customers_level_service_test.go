package sqlstore_test

import (
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A level's own service that the branch has stopped for the day does not
// send its customers away with no number: they are served in the service
// they chose at the kiosk, still at the level's priority. With it open
// again they go to it, as before.
func TestCustomerLevelServiceStoppedFallsBack(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		p := addCustomer(t, s, model.CustomerInput{Customer: model.Customer{Number: "C009", Name: "钱七", Level: "私行"}})
		svcs, err := s.Services(bg)
		okAny(t, err)
		var v model.Service
		for _, x := range svcs {
			if x.Code == "V" {
				v = x
			}
		}
		if v.Code == "" {
			t.Fatalf("no service V in %+v", svcs)
		}
		v.Enabled = false
		_, err = s.SaveService(bg, v)
		okAny(t, err)
		tk := ok(t)(s.TakeTicketFor(bg, "A", p.ID, model.SourceKiosk))
		if tk.Service != "A" || tk.Priority != 1 || tk.Level != "私行" || tk.CustomerID != p.ID {
			t.Fatalf("with V stopped: %+v, want an A ticket at priority 1 for the 私行 customer", tk)
		}
		v.Enabled = true
		_, err = s.SaveService(bg, v)
		okAny(t, err)
		if tk := ok(t)(s.TakeTicketFor(bg, "A", p.ID, model.SourceKiosk)); tk.Service != "V" {
			t.Fatalf("with V open again: %+v, want V", tk)
		}
		// A take run again (here its estimate failed; a lost race is
		// the same) starts from the service tapped, not from the one
		// the attempt before settled on.
		v.Enabled = false
		_, err = s.SaveService(bg, v)
		okAny(t, err)
		sqlstore.FailTakeEstimate(t)
		if tk := ok(t)(s.TakeTicketFor(bg, "A", p.ID, model.SourceKiosk)); tk.Service != "A" || tk.Priority != 1 {
			t.Fatalf("with V stopped and the estimate failing: %+v, want an A ticket at priority 1", tk)
		}
	})
}
