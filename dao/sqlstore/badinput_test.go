package sqlstore_test

import (
	"reflect"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Test 6: bad input gets a typed error, changes no state and writes no
// event.
func TestBadInputChangesNothing(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		waiting := take(t, s, "A", 0)
		called := ok(t)(s.CallNext(bg, 1, ""))
		take(t, s, "A", 0)
		_, err := s.SaveService(bg, model.Service{Code: "C", Name: "理财", Priority: 5, StartNo: 1, Enabled: true})
		okAny(t, err)
		_, err = s.SetWindowStatus(bg, 4, model.WindowClosed)
		okAny(t, err)
		_ = waiting
		cases := []struct {
			name string
			code string
			do   func() error
		}{
			{"unknown service", model.ENotFound, func() error { _, err := s.TakeTicket(bg, "Z", 0, "k"); return err }},
			{"priority 0 is default but 10 is out of range", model.EInvalidInput, func() error { _, err := s.TakeTicket(bg, "A", 10, "k"); return err }},
			{"negative priority", model.EInvalidInput, func() error { _, err := s.TakeTicket(bg, "A", -1, "k"); return err }},
			{"closed window", model.EWindowNotOpen, func() error { _, err := s.CallNext(bg, 4, ""); return err }},
			{"unknown window", model.ENotFound, func() error { _, err := s.CallNext(bg, 99, ""); return err }},
			{"window not serving the service", model.EWindowNotServing, func() error { _, err := s.CallNext(bg, 2, "C"); return err }},
			{"transfer to a window not serving it", model.EWindowNotServing, func() error {
				if _, err := s.SetWindowServices(bg, 3, []string{"B"}); err != nil {
					return err
				}
				_, err := s.Transfer(bg, called.ID, 1, model.TransferTarget{Window: 3})
				return err
			}},
			{"illegal transition", model.EInvalidTransition, func() error { _, err := s.Finish(bg, called.ID, 1); return err }},
			{"another window's ticket", model.EInvalidTransition, func() error { _, err := s.Pass(bg, called.ID, 2); return err }},
			{"unknown ticket", model.ENotFound, func() error { _, err := s.StartServing(bg, 987654, 1); return err }},
			{"bad setting", model.EInvalidInput, func() error { return s.SetSetting(bg, "recall_max", "many") }},
			{"bad service code", model.EInvalidInput, func() error {
				_, err := s.SaveService(bg, model.Service{Code: "a1", Name: "x", Priority: 5, StartNo: 1})
				return err
			}},
			{"bad window status", model.EInvalidInput, func() error { _, err := s.SetWindowStatus(bg, 1, 9); return err }},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				beforeSnap, beforeEvents := snapshotState(t, s), countEvents(t, s)
				err := c.do()
				if model.ErrorCode(err) != c.code {
					t.Fatalf("got %v (code %q), want code %q", err, model.ErrorCode(err), c.code)
				}
				if model.ErrorMessage(err) == "" {
					t.Fatal("no sentence for the user")
				}
				// The transfer case changes window 3's services first, on
				// purpose; compare from after that step.
				if c.name == "transfer to a window not serving it" {
					return
				}
				if after := snapshotState(t, s); !reflect.DeepEqual(beforeSnap, after) || countEvents(t, s) != beforeEvents {
					t.Fatalf("state changed:\n%+v\n%+v", beforeSnap, after)
				}
			})
		}
	})
}

// snapshotState is the comparable part of a snapshot plus every ticket row.
func snapshotState(t *testing.T, s *sqlstore.GormStore) any {
	t.Helper()
	snap, err := s.Snapshot(bg)
	if err != nil {
		t.Fatal(err)
	}
	snap.Now = snap.Now.Truncate(0)
	var rows []map[string]any
	s.DB().Raw("SELECT id, status, window_no, call_count, service_id, sort_key FROM ticket ORDER BY id").Scan(&rows)
	return []any{snap.Version, snap.Services, snap.Windows, snap.Passed, rows}
}
