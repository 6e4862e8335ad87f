package model_test

import (
	"context"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
)

// A state followed from a snapshot through the store's events ends as a
// fresh snapshot says: waiting, the day's taken and passed (the manager's
// health check reads these), the failing devices, the calls and passed
// lists and what each window holds, with no reload on the way. The LED
// bars, which read their text off the same follower, show what bars
// started on the fresh snapshot show. On every engine, and through the
// peer server as a PC without a database follows it.
func TestFollowedStateMatchesStore(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		checkFollowed(t, st, st)
	})
	t.Run("peer", func(t *testing.T) {
		st := daotest.SQLite(t)
		checkFollowed(t, st, peerClient(t, st))
	})
}

func checkFollowed(t *testing.T, st *sqlstore.GormStore, live model.Live) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	var mu sync.Mutex
	var last model.Snapshot
	f := model.NewFollower(live, func(c model.Change) { mu.Lock(); last = c.Snapshot; mu.Unlock() })
	wg.Go(func() { f.Run(ctx) })
	bars := ledBars()
	wg.Go(func() { printing.RunLEDBoards(ctx, live, bars.boards...) })
	<-f.Loaded()
	waitFor(t, "the LED bars' first text", bars.started)

	act(t, st)

	fresh, err := st.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the follower to catch up", func() bool { mu.Lock(); defer mu.Unlock(); return last.Version >= fresh.Version })
	mu.Lock()
	b := last
	mu.Unlock()
	if n := f.Reloads(); n != 1 {
		t.Fatalf("the follower loaded %d snapshots, want 1: an event was refused", n)
	}
	if !reflect.DeepEqual(b.Services, fresh.Services) {
		t.Fatalf("followed counts %+v\nstore counts %+v", b.Services, fresh.Services)
	}
	if len(b.Faults) != 1 || len(fresh.Faults) != 1 || b.Faults[0].Terminal != fresh.Faults[0].Terminal || fresh.Faults[0].Terminal != "kiosk@2" {
		t.Fatalf("followed faults %+v, store faults %+v", b.Faults, fresh.Faults)
	}
	// V001 (priority 1) was called first and passed; A001 was passed and
	// called back, so it does not count.
	if a, v := b.Services[0], b.Services[2]; a.Taken != 3 || a.Passed != 0 || v.Code != "V" || v.Passed != 1 {
		t.Fatalf("services %+v", b.Services)
	}
	for what, get := range map[string]func(model.Snapshot) []string{"recent calls": recent, "passed": passed, "held": held} {
		if got, want := get(b), get(fresh); !reflect.DeepEqual(got, want) {
			t.Errorf("followed %s %v, store %v", what, got, want)
		}
	}
	want := ledBars()
	for _, w := range want.boards {
		w.Update(model.Change{Snapshot: fresh, Reloaded: true})
	}
	waitFor(t, "the LED bars to show the fresh snapshot's text", func() bool { return reflect.DeepEqual(bars.texts(), want.texts()) })
}

// act runs a day's worth of every kind of change on st.
func act(t *testing.T, st *sqlstore.GormStore) {
	ctx := context.Background()
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
	for _, d := range []struct{ pc, fault string }{{"kiosk@1", "缺纸"}, {"kiosk@2", "卡纸"}, {"kiosk@1", ""}} {
		if err := st.ReportDevice(model.WithActor(ctx, d.pc), "printer", d.fault); err != nil {
			t.Fatal(err)
		}
	}
}

func recent(s model.Snapshot) []string {
	var out []string
	for _, tk := range s.RecentCalls {
		out = append(out, tk.Number+" "+tk.Status.String())
	}
	return out
}

func passed(s model.Snapshot) []string {
	var out []string
	for _, tk := range s.Passed {
		out = append(out, tk.Number)
	}
	return out
}

// held names the ticket each window holds (called or serving).
func held(s model.Snapshot) []string {
	var out []string
	for _, w := range s.Windows {
		if t := w.Current; t != nil && (t.Status == model.Called || t.Status == model.Serving) {
			out = append(out, t.Number)
		} else {
			out = append(out, "")
		}
	}
	return out
}

// bars are the hall's LED bars and those of windows 1 to 3, each keeping
// the last text it was given.
type bars struct {
	boards []*printing.LEDBoard
	shown  []*lastText
}

func ledBars() bars {
	var b bars
	for win := range 4 {
		d := &lastText{}
		b.shown = append(b.shown, d)
		b.boards = append(b.boards, &printing.LEDBoard{Display: d, Window: win, Lines: 3})
	}
	return b
}

func (b bars) started() bool {
	for _, d := range b.shown {
		if _, ok := d.get(); !ok {
			return false
		}
	}
	return true
}

func (b bars) texts() []string {
	var out []string
	for _, d := range b.shown {
		s, _ := d.get()
		out = append(out, s)
	}
	return out
}

type lastText struct {
	mu   sync.Mutex
	text string
	set  bool
}

func (l *lastText) Show(s string) { l.mu.Lock(); l.text, l.set = s, true; l.mu.Unlock() }

func (l *lastText) get() (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text, l.set
}

// peerClient is a screen PC's view of st through a peer server.
func peerClient(t *testing.T, st *sqlstore.GormStore) model.Live {
	t.Helper()
	srv := peer.NewServer(st, st, peer.Options{})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { srv.Close(); ts.Close() })
	tok, hash, err := peer.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddTerminal(context.Background(), model.Terminal{Name: "hall", Role: "screen", TokenHash: hash}); err != nil {
		t.Fatal(err)
	}
	c, err := peer.Dial(context.Background(), ts.URL, tok)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
