package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// livePage dials /t/{pid}/live, from a given loopback address when from is
// not "".
func dialLive(ctx context.Context, e *env, pid, from string) (*websocket.Conn, *http.Response, error) {
	url := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/t/" + pid + "/live"
	opts := &websocket.DialOptions{}
	if from != "" {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
		opts.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	}
	return websocket.Dial(ctx, url, opts)
}

// A ticket may have 4 live pages and an address 64; the next one is
// answered 429 with Retry-After before any upgrade, and the page's poll
// answers instead. A page that closes frees its place.
func TestLivePageCaps(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var pids []string
	for i := 0; i < 17; i++ {
		tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
		if err != nil {
			t.Fatal(err)
		}
		pids = append(pids, tk.PublicID)
	}
	open := func(pid string) *websocket.Conn {
		t.Helper()
		c, _, err := dialLive(ctx, e, pid, "")
		if err != nil {
			t.Fatalf("live page refused: %v", err)
		}
		if _, _, err := c.Read(ctx); err != nil {
			t.Fatalf("no first view: %v", err)
		}
		t.Cleanup(func() { c.CloseNow() })
		return c
	}
	refused := func(pid, what string) {
		t.Helper()
		c, resp, err := dialLive(ctx, e, pid, "")
		if err == nil {
			c.CloseNow()
			t.Fatalf("%s: accepted", what)
		}
		if resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "30" {
			t.Fatalf("%s: %v %+v, want 429 with Retry-After: 30", what, err, resp)
		}
	}
	var first []*websocket.Conn
	for i := 0; i < 4; i++ {
		first = append(first, open(pids[0]))
	}
	refused(pids[0], "5th page on one ticket")
	first[0].Close(websocket.StatusNormalClosure, "")
	for deadline := time.Now().Add(10 * time.Second); ; {
		c, _, err := dialLive(ctx, e, pids[0], "")
		if err == nil {
			t.Cleanup(func() { c.CloseNow() }) // the 4th page again
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a closed page never freed its place")
		}
		time.Sleep(20 * time.Millisecond) // the server notices the close on its own time
	}
	// The polling fallback works past the cap.
	status, body := e.call(t, "GET", "/t/"+pids[0]+"/view", "", "")
	if status != http.StatusOK || !strings.Contains(string(body), `"status":"waiting"`) {
		t.Fatalf("poll: %d %s", status, body)
	}
	// 64 per address: 4 on the first ticket and 4 on each of 15 others;
	// the 65th is refused even on a ticket with none.
	for _, pid := range pids[1:16] {
		for i := 0; i < 4; i++ {
			open(pid)
		}
	}
	refused(pids[16], "65th page from one address")
	// Another address still has its own 64.
	c, _, err := dialLive(ctx, e, pids[16], "127.0.0.2")
	if err != nil {
		t.Fatalf("a page from another address: %v", err)
	}
	c.CloseNow()
}

// countingStore counts the reads the customer pages make.
type countingStore struct {
	*sqlstore.GormStore
	byPID, ticket, position, positions, services atomic.Int64
}

func (c *countingStore) TicketByPublicID(ctx context.Context, pid string) (model.Ticket, error) {
	c.byPID.Add(1)
	return c.GormStore.TicketByPublicID(ctx, pid)
}

func (c *countingStore) Ticket(ctx context.Context, id int64) (model.Ticket, error) {
	c.ticket.Add(1)
	return c.GormStore.Ticket(ctx, id)
}

func (c *countingStore) Position(ctx context.Context, id int64) (model.Position, error) {
	c.position.Add(1)
	return c.GormStore.Position(ctx, id)
}

func (c *countingStore) Positions(ctx context.Context, ids []int64) (map[int64]model.Position, error) {
	c.positions.Add(1)
	return c.GormStore.Positions(ctx, ids)
}

func (c *countingStore) Services(ctx context.Context) ([]model.Service, error) {
	c.services.Add(1)
	return c.GormStore.Services(ctx)
}

func (c *countingStore) reset() {
	for _, n := range []*atomic.Int64{&c.byPID, &c.ticket, &c.position, &c.positions, &c.services} {
		n.Store(0)
	}
}

// pages is a set of open customer pages with the newest view each got.
type pages struct {
	mu   sync.Mutex
	last map[*websocket.Conn]customerView
	pid  map[*websocket.Conn]string
}

func openPages(t *testing.T, ctx context.Context, e *env, pids []string, each int) *pages {
	t.Helper()
	p := &pages{last: map[*websocket.Conn]customerView{}, pid: map[*websocket.Conn]string{}}
	for _, pid := range pids {
		for i := 0; i < each; i++ {
			c, _, err := dialLive(ctx, e, pid, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.CloseNow() })
			p.pid[c] = pid
			go func() {
				for {
					_, b, err := c.Read(ctx)
					if err != nil {
						return
					}
					var v customerView
					json.Unmarshal(b, &v)
					p.mu.Lock()
					p.last[c] = v
					p.mu.Unlock()
				}
			}()
		}
	}
	return p
}

// loopCaughtUp waits until the pages' loop has applied every event in the
// log and has no ticket left to read or place again.
func loopCaughtUp(t *testing.T, srv *Server, st *sqlstore.GormStore) {
	t.Helper()
	var head int64
	if err := st.DB().Raw("SELECT version FROM branch WHERE id = ?", st.BranchID()).Scan(&head).Error; err != nil {
		t.Fatal(err)
	}
	l := srv.live
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		l.mu.Lock()
		pending := l.done < head
		for _, lt := range l.byPID {
			pending = pending || lt.stale || lt.reread || lt.moved
		}
		l.mu.Unlock()
		if !pending {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pages' loop is still behind version %d", head)
		}
	}
}

// settle waits until every page shows what a fresh read of its ticket
// shows (the deadline only guards a hang).
func (p *pages) settle(t *testing.T, ctx context.Context, s *Server, what string) {
	t.Helper()
	want := map[string]customerView{}
	for _, pid := range p.pid {
		if _, ok := want[pid]; ok {
			continue
		}
		v, _, err := s.view(ctx, pid)
		if err != nil {
			t.Fatal(err)
		}
		want[pid] = v
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		p.mu.Lock()
		var wrong []string
		for c, pid := range p.pid {
			if got, ok := p.last[c]; !ok || got != want[pid] {
				wrong = append(wrong, fmt.Sprintf("%+v, want %+v", got, want[pid]))
			}
		}
		p.mu.Unlock()
		if len(wrong) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, %d pages are wrong, e.g. %s", what, len(wrong), wrong[0])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Forty pages on ten tickets follow everything that moves them: a VIP
// taking a number ahead, calls, a cancel, a requeue, a transfer in, a
// paused window, a renamed service. After each, every page shows exactly
// what a fresh read shows, and the work done for all forty is a few reads
// in all, not a few per page.
func TestLivePagesFollowTheQueue(t *testing.T) {
	daotest.Each(t, func(t *testing.T, gs *sqlstore.GormStore) {
		cs := &countingStore{GormStore: gs}
		e := newEnvServing(t, cs, gs, Options{})
		srv := e.srv
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		var tickets []model.Ticket
		var pids []string
		for i := 0; i < 10; i++ {
			svc := "A"
			if i%3 == 2 {
				svc = "B"
			}
			tk, err := gs.TakeTicket(ctx, svc, 0, "test")
			if err != nil {
				t.Fatal(err)
			}
			tickets = append(tickets, tk)
			pids = append(pids, tk.PublicID)
		}
		p := openPages(t, ctx, e, pids, 4)
		p.settle(t, ctx, srv, "opening")
		// The pages show the right views before the loop behind them has
		// caught up: what it still reads for the opening must not land
		// in the first step's count.
		loopCaughtUp(t, srv, gs)
		step := func(what string, fn func() error) {
			t.Helper()
			cs.reset()
			if err := fn(); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			p.settle(t, ctx, srv, what)
			// settle's own reads are 10 of each; the pages' are on top.
			if n := cs.byPID.Load() - 10; n != 0 {
				t.Errorf("%s: the pages read their tickets by public id %d times", what, n)
			}
			if n := cs.position.Load() - 10; n > 0 {
				t.Errorf("%s: the pages read %d single positions", what, n)
			}
			if n := cs.positions.Load(); n > 3 {
				t.Errorf("%s: %d batches of positions for one change", what, n)
			}
			if n := cs.ticket.Load(); n > 0 {
				t.Errorf("%s: the pages read %d tickets", what, n)
			}
		}
		step("a VIP number", func() error { _, err := gs.TakeTicket(ctx, "A", 1, "test"); return err })
		step("a number behind", func() error { _, err := gs.TakeTicket(ctx, "A", 0, "test"); return err })
		var called model.Ticket
		step("a call", func() (err error) { called, err = gs.CallNext(ctx, 1, "A"); return err })
		step("another call", func() error { _, err := gs.CallNext(ctx, 2, "A"); return err })
		step("a cancel", func() error { _, err := gs.Cancel(ctx, tickets[5].ID, 0); return err })
		step("a pass", func() error { _, err := gs.Pass(ctx, called.ID, 1); return err })
		step("a requeue", func() error { _, err := gs.Requeue(ctx, called.ID, 1); return err })
		step("a paused window", func() error { _, err := gs.SetWindowStatus(ctx, 3, model.WindowPaused); return err })
		step("a renamed service", func() error {
			_, err := gs.SaveService(ctx, model.Service{Code: "B", Name: "企业业务", Priority: 5, StartNo: 1, Enabled: true, SortOrder: 2})
			return err
		})
		step("a transfer in", func() error {
			b, err := gs.CallNext(ctx, 4, "B")
			if err != nil {
				return err
			}
			_, err = gs.Transfer(ctx, b.ID, 4, model.TransferTarget{Service: "A"})
			return err
		})
		step("a service finished", func() error {
			c, err := gs.CallNext(ctx, 1, "A")
			if err == nil {
				_, err = gs.StartServing(ctx, c.ID, 1)
			}
			if err == nil {
				_, err = gs.Finish(ctx, c.ID, 1)
			}
			return err
		})
	})
}
