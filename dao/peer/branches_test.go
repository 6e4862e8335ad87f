package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// One server answers two branches of one database, each PC's token
// naming its branch. A branch-1 token asking for branch 2's tickets,
// windows, alerts, terminals or events is answered 404 by its own branch,
// never 403, so another branch's ids cannot be probed; each branch numbers
// from its own start and its event stream carries only its own events.
func TestBranchesServeIsolated(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		st, err := sqlstore.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
		b2, err := st.Branch(ctx, "BJ001")
		if err != nil {
			t.Fatal(err)
		}
		defer b2.Close()
		if _, err := b2.SaveWindow(ctx, model.Window{Number: 9, Name: "9号窗口", Services: []string{"A"}}); err != nil {
			t.Fatal(err)
		}
		var mu sync.Mutex
		var opened []*sqlstore.GormStore
		defer func() {
			for _, s := range opened {
				s.Close()
			}
		}()
		home := NewServer(st, st, Options{TakePerMinute: -1})
		srv := NewBranches(home, st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
			b, err := st.BranchByID(ctx, id)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			opened = append(opened, b)
			mu.Unlock()
			return NewServer(b, b, Options{TakePerMinute: -1}), nil
		})
		ts := httptest.NewServer(srv.Handler())
		defer func() { srv.Close(); ts.Close() }()
		e := &env{store: st, srv: home, ts: ts}

		man1, kiosk1 := addToken(t, st, model.RoleManager, 0), addToken(t, st, model.RoleKiosk, 0)
		man2, kiosk2 := addToken(t, b2, model.RoleManager, 0), addToken(t, b2, model.RoleKiosk, 0)
		caller2 := addToken(t, b2, model.RoleCaller, 9)

		watch1, err := Dial(ctx, ts.URL, man1)
		if err != nil {
			t.Fatal(err)
		}
		defer watch1.Close()
		events1, err := watch1.Watch(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}

		// Branch 2 has an alert, an area and a kiosk of its own, with real
		// ids for branch 1 to try.
		if err := b2.ReportDevice(model.WithActor(ctx, "kiosk2"), "printer", "缺纸"); err != nil {
			t.Fatal(err)
		}
		alerts, err := b2.Snapshot(ctx)
		if err != nil || len(alerts.Alerts) == 0 {
			t.Fatalf("branch 2's device alert: %v %+v", err, alerts.Alerts)
		}
		area2, err := b2.SaveArea(ctx, model.Area{Name: "二楼", Where: "二楼"})
		if err != nil {
			t.Fatal(err)
		}
		t2 := must[model.Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk2, `{"service":"A"}`)
		t1 := must[model.Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk1, `{"service":"A"}`)
		if t1.Number != "A001" || t2.Number != "A001" || t1.ID == t2.ID {
			t.Fatalf("first tickets %s (%d) and %s (%d), want A001 in each branch", t1.Number, t1.ID, t2.Number, t2.ID)
		}
		// Branch 2's own token reaches its ticket and window 9.
		if got := must[model.Ticket](t, e, http.StatusOK, "GET", fmt.Sprintf("/api/v1/tickets/%d", t2.ID), man2, ""); got.ID != t2.ID {
			t.Fatalf("branch 2 read %+v", got)
		}
		called := must[model.Ticket](t, e, http.StatusOK, "POST", "/api/v1/windows/9/call", caller2, `{}`)
		if called.ID != t2.ID {
			t.Fatalf("branch 2's window called %s (%d), want its own %d", called.Number, called.ID, t2.ID)
		}

		for _, q := range []struct{ method, path, body string }{
			{"GET", fmt.Sprintf("/api/v1/tickets/%d", t2.ID), ""},
			{"GET", fmt.Sprintf("/api/v1/tickets/%d/position", t2.ID), ""},
			{"POST", fmt.Sprintf("/api/v1/tickets/%d/finish", t2.ID), `{"window":9}`},
			{"POST", fmt.Sprintf("/api/v1/tickets/%d/cancel", t2.ID), `{"window":9}`},
			{"GET", "/api/v1/public/" + t2.PublicID, ""},
			{"POST", "/api/v1/windows/9/call", `{}`},
			{"PUT", "/api/v1/windows/9/status", `{"status":"paused"}`},
			{"PUT", "/api/v1/windows/9/services", `{"services":["A"]}`},
			{"POST", "/api/v1/alerts/999999/ack", ""},
			{"POST", fmt.Sprintf("/api/v1/alerts/%d/ack", alerts.Alerts[0].ID), ""},
			{"PUT", fmt.Sprintf("/api/v1/areas/%d", area2.ID), `{"name":"改名"}`},
			{"DELETE", fmt.Sprintf("/api/v1/areas/%d", area2.ID), ""},
			{"DELETE", "/api/v1/terminals/" + terminalID(t, b2, caller2), ""},
		} {
			status, b := e.call(t, q.method, q.path, man1, q.body)
			if status != http.StatusNotFound || errCode(t, b) != model.ENotFound {
				t.Fatalf("branch 1's manager %s %s: %d %s, want 404", q.method, q.path, status, b)
			}
		}
		// A kiosk of branch 1 claiming the print of branch 2's ticket.
		claim := fmt.Sprintf(`{"kiosk":%s,"claim":"x"}`, terminalID(t, st, kiosk1))
		if status, b := e.call(t, "POST", fmt.Sprintf("/api/v1/prints/%d/claim", t2.ID), kiosk1, claim); status != http.StatusNotFound {
			t.Fatalf("branch 1's kiosk claiming branch 2's print: %d %s, want 404", status, b)
		}
		if snap, _ := b2.Snapshot(ctx); len(snap.Alerts) == 0 || snap.Alerts[0].AckAt != nil {
			t.Fatalf("branch 2's alert after branch 1's tries: %+v", snap.Alerts)
		}
		if areas, _ := b2.Areas(ctx); len(areas) != 2 || areas[1].Name != "二楼" {
			t.Fatalf("branch 2's areas after branch 1's tries: %+v", areas)
		}
		if tk, err := b2.Ticket(ctx, t2.ID); err != nil || tk.Status != model.Called {
			t.Fatalf("branch 2's ticket after branch 1's tries: %+v %v", tk, err)
		}
		if ws, _ := b2.Windows(ctx); ws[len(ws)-1].Number != 9 || ws[len(ws)-1].Status != model.WindowOpen {
			t.Fatalf("branch 2's window 9 after branch 1's tries: %+v", ws[len(ws)-1])
		}

		log1 := must[[]model.Event](t, e, http.StatusOK, "GET", "/api/v1/eventlog?since=0", man1, "")
		for _, ev := range log1 {
			if ev.TicketID == t2.ID || ev.Window == 9 {
				t.Fatalf("branch 1's event log holds branch 2's %s", ev.Kind)
			}
		}
		snap := must[model.Snapshot](t, e, http.StatusOK, "GET", "/api/v1/snapshot", man1, "")
		if snap.Branch != "营业网点" || len(snap.RecentCalls) != 0 || len(snap.Windows) != 4 {
			t.Fatalf("branch 1's snapshot: %s, %d calls, %d windows", snap.Branch, len(snap.RecentCalls), len(snap.Windows))
		}
		// The live stream: branch 1's take arrives; branch 2's take and
		// call never do, though they were committed first.
		for {
			select {
			case ev := <-events1:
				if ev.TicketID == t2.ID || ev.Window == 9 {
					t.Fatalf("branch 1's stream delivered branch 2's %s", ev.Kind)
				}
				if ev.TicketID != t1.ID {
					continue
				}
				// A customer page finds its ticket whichever branch it is in.
				status, body := e.call(t, "GET", "/t/"+t2.PublicID+"/view", "", "")
				if status != http.StatusOK || !strings.Contains(string(body), "A001") {
					t.Fatalf("branch 2's customer page: %d %s", status, body)
				}
				status, _ = e.call(t, "GET", "/api/v1/tickets/1", "jh_"+strings.Repeat("x", 43), "")
				if status != http.StatusUnauthorized {
					t.Fatalf("an unknown token: %d, want 401", status)
				}
				return
			case <-ctx.Done():
				t.Fatal("branch 1's own take never arrived on its stream")
			}
		}
	})
}

// terminalID is the id of the terminal holding token, as a path element.
func terminalID(t *testing.T, st *sqlstore.GormStore, token string) string {
	t.Helper()
	term, err := st.TerminalByTokenHash(context.Background(), HashToken(token))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(term.ID)
}

// A staff handheld of branch 2 signs in through the server of every
// branch with its token and then works by its session cookie alone: the
// page's snapshot is its own branch's, and branch 1's handheld sees its own.
func TestBranchesStaffSessions(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	if _, err := st.AddBranch(ctx, model.BranchInfo{Code: "BJ001", Name: "北京分行", TimeZone: "Asia/Shanghai"}, ""); err != nil {
		t.Fatal(err)
	}
	b2, err := st.Branch(ctx, "BJ001")
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	srv := NewBranches(NewServer(st, st, Options{}), st.BranchID(), st, func(ctx context.Context, id int64) (*Server, error) {
		if id != b2.BranchID() {
			return nil, fmt.Errorf("unexpected branch %d", id)
		}
		return NewServer(b2, b2, Options{}), nil
	})
	ts := httptest.NewServer(srv.Handler())
	defer func() { srv.Close(); ts.Close() }()
	for _, c := range []struct {
		st   *sqlstore.GormStore
		name string
	}{{b2, "北京分行"}, {st, "营业网点"}} {
		hc := newStaffClient(t, ts.URL, nil)
		hc.signIn(t, addToken(t, c.st, model.RoleHandheld, 0))
		resp, b := hc.do(t, "GET", "/staff/api/snapshot", "")
		var snap model.Snapshot
		if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &snap) != nil || snap.Branch != c.name {
			t.Fatalf("a handheld of %s sees %d %q", c.name, resp.StatusCode, snap.Branch)
		}
	}
}
