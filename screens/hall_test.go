package screens

import (
	"context"
	"slices"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

func openDSN(t *testing.T, dsn string) *sqlstore.GormStore {
	t.Helper()
	s, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The hall shows a call made by another Store client (another PC on the
// same database) by applying that one event, without reloading.
func TestHallShowsCallFromAnotherClient(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	mine, other := openDSN(t, dsn), openDSN(t, dsn)
	w := newTestWindow(t, 1280, 720)
	ann := &recorder{}
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, mine, ann) })
	waitLoaded(t, h.Loaded())

	take(t, other, "A", 1)
	waitFor(t, "the take", func() bool { return h.list.svc[0].Text != "" && h.Applied() == 1 })
	reloads, applied := h.Reloads(), h.Applied()

	if _, err := other.CallNext(context.Background(), 3, ""); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A001 → window 3", func() bool {
		return h.list.rows[0].box.Visible() && h.list.rows[0].num.Text == "A001" && h.list.rows[0].win.Text == "→ 3 号窗口"
	})
	if got := h.Applied() - applied; got != 1 {
		t.Fatalf("applied %d events for one call, want 1", got)
	}
	if h.Reloads() != reloads {
		t.Fatalf("the hall reloaded its snapshot (%d → %d) instead of applying the event", reloads, h.Reloads())
	}
	waitFor(t, "the announcement", func() bool { return slices.Equal(ann.numbers(), []string{"A001"}) })
}

// When the link drops the hall says it is reconnecting, and when it
// returns it reloads the snapshot and shows what happened meanwhile.
func TestHallReconnects(t *testing.T) {
	st := newStore(t)
	f := &flaky{Store: st}
	w := newTestWindow(t, 1280, 720)
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, f, nil) })
	waitLoaded(t, h.Loaded())
	reloads := h.Reloads()

	f.cut(true)
	waitFor(t, "reconnecting", func() bool { return h.linkT.Text == "正在重新连接…" })
	take(t, st, "B", 1)
	if _, err := st.CallNext(context.Background(), 2, "B"); err != nil {
		t.Fatal(err)
	}
	f.cut(false)
	waitFor(t, "reconnected with B001", func() bool {
		return h.linkT.Text == "" && h.list.rows[0].num.Text == "B001"
	})
	if h.Reloads() <= reloads {
		t.Fatal("the hall did not reload its snapshot after the link returned")
	}
}

// A voice fault (no speech engine) is shown on the hall screen, and goes
// away when the announcer recovers.
func TestHallShowsVoiceFault(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1280, 720)
	ann := &recorder{fault: "未找到语音引擎 (no speech engine)"}
	h := build(t, func(ctx context.Context) *Hall { return NewHall(ctx, w, st, ann) })
	waitLoaded(t, h.Loaded())
	waitFor(t, "the voice fault", func() bool { return h.linkT.Text == "未找到语音引擎 (no speech engine)" })
	ann.mu.Lock()
	ann.fault = ""
	ann.mu.Unlock()
	waitFor(t, "the fault cleared", func() bool { return h.linkT.Text == "" })
}
