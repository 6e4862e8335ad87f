package screens

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// HQ overview follows two branches live: one process serves both branches
// of a real database as serve --branch all does, the hq screen watches it
// with head office's token, and numbers taken and called in each branch
// through its own PCs' tokens change that branch's line on screen, and
// only that one's; when the host goes away the screen says the link is
// lost.
func TestHQOverviewFollowsTwoBranchesLive(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
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
		var mu sync.Mutex
		var opened []*sqlstore.GormStore
		defer func() {
			mu.Lock()
			defer mu.Unlock()
			for _, b := range opened {
				b.Close()
			}
		}()
		opts := peer.Options{TakePerMinute: -1}
		srv := peer.NewBranches(peer.NewServer(st, st, opts), st.BranchID(), st, func(ctx context.Context, id int64) (*peer.Server, error) {
			b, err := st.BranchByID(ctx, id)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			opened = append(opened, b)
			mu.Unlock()
			return peer.NewServer(b, b, opts), nil
		})
		srv.ServeHQ(peer.HQOptions{Terminals: st.HeadOffice(), Branches: st.Branches, Debounce: 50 * time.Millisecond})
		ts := httptest.NewServer(srv.Handler())
		stopped := false
		stop := func() {
			if !stopped {
				stopped = true
				srv.Close()
				ts.Close()
			}
		}
		defer stop()
		token := func(terms model.Terminals, role model.Role) string {
			tok, hash, err := peer.NewToken()
			if err != nil {
				t.Fatal(err)
			}
			if _, err := terms.AddTerminal(ctx, model.Terminal{Name: string(role), Role: role, TokenHash: hash}); err != nil {
				t.Fatal(err)
			}
			return tok
		}
		pc := func(tok string) *peer.Client {
			c, err := peer.Dial(ctx, ts.URL, tok)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
		kioskA, managerA := pc(token(st, model.RoleKiosk)), pc(token(st, model.RoleManager))
		kioskB, managerB := pc(token(b2, model.RoleKiosk)), pc(token(b2, model.RoleManager))
		office, err := peer.DialHQ(ctx, ts.URL, token(st.HeadOffice(), model.RoleHQ), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer office.Close()

		w := newTestWindow(t, 1024, 600)
		h := build(t, func(ctx context.Context) *HQ { return NewHQ(ctx, w, office) })
		waitLoaded(t, h.Loaded())
		row := func(code string) [8]string { c, _, _ := hqRowOf(h, code); return c }
		// code, name, waiting, serving, open windows, longest wait, alerts, faults
		want := func(what string, a, b [5]string) {
			t.Helper()
			waitFor(t, what, func() bool {
				ra, rb := row("B001"), row("BJ001")
				return [5]string(ra[:5]) == a && [5]string(rb[:5]) == b
			})
		}
		want("both branches idle", [5]string{"B001", "营业网点", "0", "0", "4"}, [5]string{"BJ001", "北京分行", "0", "0", "4"})

		for range 3 {
			if _, err := kioskA.TakeTicket(ctx, "A", 0, "kiosk"); err != nil {
				t.Fatal(err)
			}
		}
		want("three waiting in B001 only", [5]string{"B001", "营业网点", "3", "0", "4"}, [5]string{"BJ001", "北京分行", "0", "0", "4"})
		if _, err := managerA.CallNext(ctx, 1, ""); err != nil {
			t.Fatal(err)
		}
		want("B001 serving one", [5]string{"B001", "营业网点", "2", "1", "4"}, [5]string{"BJ001", "北京分行", "0", "0", "4"})

		for range 2 {
			if _, err := kioskB.TakeTicket(ctx, "B", 0, "kiosk"); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := managerB.CallNext(ctx, 2, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := managerB.SetWindowStatus(ctx, 3, model.WindowPaused); err != nil {
			t.Fatal(err)
		}
		want("BJ001 serving one, one waiting, a window paused", [5]string{"B001", "营业网点", "2", "1", "4"}, [5]string{"BJ001", "北京分行", "1", "1", "3"})
		// A printer out of paper in BJ001: its alert and fault, on its line.
		if err := kioskB.ReportDevice(ctx, "printer", "缺纸"); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "BJ001's fault and alert", func() bool {
			ra, rb := row("B001"), row("BJ001")
			return rb[6] == "1" && rb[7] == "1" && ra[6] == "0" && ra[7] == "0" && hqCodes(h)[0] == "BJ001"
		})
		waitFor(t, "the totals", func() bool {
			tot := h.total.cells
			return tot[2].Text == "3" && tot[3].Text == "2" && tot[4].Text == "7" && tot[6].Text == "1" && tot[7].Text == "1"
		})

		stop()
		waitFor(t, "the lost link shown", func() bool { return h.link.Visible() && h.link.Text == tr("hq.down") })
	})
}
