package sqlstore_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Call-next model agreement, on every engine: the dialect only picks and
// locks the head of the queue; the row it leaves behind must be exactly
// model.Call of the row before, and the row picked must be the head of the
// model's serving order. The tickets come in the states that make the
// order and the transition interesting: recall pool, priority, requeued,
// transferred in from another service.
func TestCallNextAgreesWithModel(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		clearOfDayEnd(t, 15*time.Minute, s)
		var ids []int64
		add := func(tk model.Ticket) { ids = append(ids, tk.ID) }
		for _, svc := range []string{"A", "A", "A", "A", "B", "B", "V"} {
			add(take(t, s, svc, 0))
		}
		add(take(t, s, "A", 1)) // a VIP taken at the A kiosk

		// B001 times out into the recall pool.
		b := ok(t)(s.CallNext(bg, 2, "B"))
		s.ShiftClock(121 * time.Second)
		if r, err := s.Sweep(bg); err != nil || r.Recalled != 1 {
			t.Fatalf("sweep: %+v, %v; want B001 in the recall pool", r, err)
		}
		if tk := ok(t)(s.Ticket(bg, b.ID)); tk.Lane != model.LaneRecall || tk.Status != model.Waiting {
			t.Fatalf("B001 is %v in lane %d, want waiting in the recall pool", tk.Status, tk.Lane)
		}
		// The VIP is passed and requeued behind the head of the line.
		vip := ok(t)(s.CallNext(bg, 2, "A"))
		ok(t)(s.Pass(bg, vip.ID, 2))
		ok(t)(s.Requeue(bg, vip.ID, 2))
		// A001 goes over to the V queue, keeping its number and calls.
		a := ok(t)(s.CallNext(bg, 2, "A"))
		ok(t)(s.Transfer(bg, a.ID, 2, model.TransferTarget{Service: "V"}))
		add(take(t, s, "V", 0))

		for calls := 0; ; calls++ {
			waiting := map[int64]model.Ticket{}
			for _, id := range ids {
				if tk := ok(t)(s.Ticket(bg, id)); tk.Status == model.Waiting {
					waiting[id] = tk
				}
			}
			from, _ := s.Now(bg)
			got, err := s.CallNext(bg, 1, "")
			if model.IsCode(err, model.EQueueEmpty) {
				if len(waiting) != 0 || calls != len(ids) {
					t.Fatalf("queue empty after %d calls with %d waiting", calls, len(waiting))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			to, _ := s.Now(bg)
			before, found := waiting[got.ID]
			if !found {
				t.Fatalf("call-next returned %s, which was not waiting", got.Number)
			}
			for _, w := range waiting {
				if model.ServedBefore(w, before) {
					t.Fatalf("call-next took %s while %s is served before it", before.Number, w.Number)
				}
			}
			stored := ok(t)(s.Ticket(bg, got.ID))
			if stored.CalledAt == nil || stored.CalledAt.Before(from.Truncate(time.Microsecond)) || stored.CalledAt.After(to) {
				t.Fatalf("%s called at %v, not between %v and %v", got.Number, stored.CalledAt, from, to)
			}
			want, err := model.Call(before, 1, *stored.CalledAt)
			if err != nil {
				t.Fatal(err)
			}
			if js(stored) != js(want) || js(got) != js(stored) {
				t.Fatalf("call-next of %s\nbefore   %s\nstored   %s\nreturned %s\nmodel    %s", got.Number, js(before), js(stored), js(got), js(want))
			}
		}
	})
}

func js(t model.Ticket) string {
	b, _ := json.Marshal(t)
	return string(b)
}

// The caller screen enables Call when model.Desk allows it; the store must
// accept and refuse exactly the same calls. The desk is built as the
// screen builds it, from the snapshot.
func TestCallNextDeskAgreesWithModel(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		const window = 3
		var cur model.Ticket
		for _, step := range []struct {
			name  string
			setup func()
		}{
			{"idle", func() {}},
			{"holding a called ticket", func() {}},
			{"serving", func() { ok(t)(s.StartServing(bg, cur.ID, window)) }},
			{"paused", func() {
				ok(t)(s.Finish(bg, cur.ID, window))
				_, err := s.SetWindowStatus(bg, window, model.WindowPaused)
				okAny(t, err)
			}},
		} {
			step.setup()
			take(t, s, "A", 0)
			snap, err := s.Snapshot(bg)
			okAny(t, err)
			var d model.Desk
			for _, w := range snap.Windows {
				if w.Number == window {
					d = model.Desk{Window: window, Status: w.Status, Current: w.Current, Today: snap.BusinessDate}
				}
			}
			allowed := d.CanCall(model.ActCall)
			got, err := s.CallNext(bg, window, "")
			if model.ErrorCode(err) != model.ErrorCode(allowed) {
				t.Fatalf("%s: the model says %q, the store %q (%v)", step.name, model.ErrorCode(allowed), model.ErrorCode(err), err)
			}
			if err == nil {
				cur = got
			}
		}
	})
}

// SQL Server picks in its procedure: its ORDER BY must be the model's
// serving order, and it must leave the writing to the model.
func TestProcedureFollowsModel(t *testing.T) {
	b, err := os.ReadFile("sql/mssql/usp_CallNext.sql")
	if err != nil {
		t.Fatal(err)
	}
	var code strings.Builder // the statements, without comments
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "--") {
			code.WriteString(strings.ToUpper(line) + "\n")
		}
	}
	var order []string
	for _, f := range model.ServingOrder() {
		order = append(order, "T."+strings.ToUpper(f)+" ASC")
	}
	if want := "ORDER BY " + strings.Join(order, ", ") + ";"; !strings.Contains(code.String(), want) {
		t.Fatalf("usp_CallNext does not order by the model's serving order %q", want)
	}
	for _, w := range []string{"UPDATE", "INSERT", "DELETE", "MERGE"} {
		if strings.Contains(code.String(), w+" ") {
			t.Fatalf("usp_CallNext writes (%s): the called state is model.Call's, written by the store", w)
		}
	}
}
