package peer

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// cutProxy forwards TCP to a server and can sever every connection at once,
// like a pulled cable that comes back.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
	return p
}

func (p *cutProxy) pipe(c net.Conn) {
	d, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, c, d)
	p.mu.Unlock()
	go func() { io.Copy(d, c); d.Close() }()
	io.Copy(c, d)
	c.Close()
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// A client watching over WebSocket sees every event in version order; a
// connection cut mid-stream is repaired by reconnecting (with a resync
// notice), and the state it built ends equal to the server's.
func TestWatchSurvivesCutConnection(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	proxy := newCutProxy(t, e.ts.Listener.Addr().String())
	c, err := NewClient("http://"+proxy.ln.Addr().String(), e.tokens[model.RoleScreen], nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	v0 := e.version(t)
	evs, err := c.Watch(ctx, v0)
	if err != nil {
		t.Fatal(err)
	}

	const total = 60 // store operations, one event each
	halfway := make(chan struct{})
	produced := make(chan int64, 1)
	go func() {
		// Takes, then calls and finishes, straight on the server's store.
		cut := false
		for i := 0; i < total; i++ {
			if i >= total/2 && !cut {
				<-halfway
				proxy.cut()
				cut = true
			}
			var err error
			switch {
			case i%3 != 2:
				_, err = e.store.TakeTicket(ctx, "A", 0, "test")
			default:
				var tk model.Ticket
				if tk, err = e.store.CallNext(ctx, 1+i%4, ""); err == nil {
					_, err = e.store.Pass(ctx, tk.ID, tk.Window) // frees the window for its next call
					i++
				}
			}
			if err != nil {
				t.Errorf("op %d: %v", i, err)
			}
		}
		produced <- e.version(t)
	}()

	tickets := map[int64]model.Ticket{}
	last, resyncs, final := v0, 0, int64(-1)
	for final < 0 || last < final {
		select {
		case final = <-produced:
			continue
		case ev, ok := <-evs:
			if !ok {
				t.Fatal("watch closed early")
			}
			if ev.Kind == model.EvResync {
				resyncs++
				snap, err := c.Snapshot(ctx) // what a screen does: reload, then go on
				if err != nil {
					t.Fatal(err)
				}
				if snap.Version < last {
					t.Fatalf("snapshot %d older than applied %d", snap.Version, last)
				}
				continue
			}
			if ev.Version != last+1 {
				t.Fatalf("event %d after %d: not every event in order", ev.Version, last)
			}
			last = ev.Version
			if ev.Ticket != nil {
				tickets[ev.Ticket.ID] = *ev.Ticket
			}
			if last-v0 == total/3 {
				close(halfway)
			}
		case <-ctx.Done():
			t.Fatalf("stuck at version %d of %d", last, final)
		}
	}
	if resyncs == 0 {
		t.Fatal("the cut connection was never reconnected")
	}
	snap, err := e.store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != last {
		t.Fatalf("client at %d, server at %d", last, snap.Version)
	}
	waiting := map[string]int{}
	for id, tk := range tickets {
		db, err := e.store.Ticket(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if db.Status != tk.Status || db.Window != tk.Window || db.CallCount != tk.CallCount {
			t.Fatalf("ticket %s: client has %v@%d, server %v@%d", tk.Number, tk.Status, tk.Window, db.Status, db.Window)
		}
		if tk.Status == model.Waiting {
			waiting[tk.Service]++
		}
	}
	for _, s := range snap.Services {
		if s.Waiting != waiting[s.Code] {
			t.Fatalf("service %s: client counts %d waiting, server %d", s.Code, waiting[s.Code], s.Waiting)
		}
	}
	for _, w := range snap.Windows {
		if w.CurrentID != 0 && tickets[w.CurrentID].Window != w.Number {
			t.Fatalf("window %d holds %d, client thinks it is at window %d", w.Number, w.CurrentID, tickets[w.CurrentID].Window)
		}
	}
}

// A since the server has never reached gets a resync first; a since in the
// past is caught up from the log, in order.
func TestEventsResyncAndCatchUp(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := 0; i < 5; i++ {
		if _, err := e.store.TakeTicket(ctx, "B", 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	v := e.version(t)
	read := func(since string, n int) []message {
		url := "ws" + strings.TrimPrefix(e.ts.URL, "http") + "/api/v1/events?since=" + since
		conn, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + e.tokens[model.RoleScreen]}}})
		if err != nil {
			t.Fatal(err)
		}
		defer conn.CloseNow()
		var out []message
		for len(out) < n {
			_, b, err := conn.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var m message
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
		}
		return out
	}
	ahead := read("999999", 1)
	if ahead[0].Type != msgResync || ahead[0].Version != v {
		t.Fatalf("since ahead: %+v, want resync at %d", ahead[0], v)
	}
	back := read("0", int(v))
	for i, m := range back {
		if m.Type != msgEvent || m.Version != int64(i+1) {
			t.Fatalf("catch-up message %d: %+v", i, m)
		}
	}
}

// A subscriber that stops reading is dropped; the others get every event
// without waiting for it.
func TestSlowSubscriberIsDropped(t *testing.T) {
	e := newEnv(t, Options{SubscriberBuffer: 2})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	slow, _, err := e.srv.hub.subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fast, v, err := e.srv.hub.subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		if _, err := e.store.TakeTicket(ctx, "A", 0, "test"); err != nil {
			t.Fatal(err)
		}
		select {
		case ev := <-fast.ch:
			if ev.Version != v+int64(i)+1 {
				t.Fatalf("fast subscriber got %d, want %d", ev.Version, v+int64(i)+1)
			}
		case <-ctx.Done():
			t.Fatal("fast subscriber starved")
		}
	}
	select {
	case <-slow.dropped:
	default:
		t.Fatal("slow subscriber was not dropped")
	}
	select {
	case <-fast.dropped:
		t.Fatal("fast subscriber was dropped")
	default:
	}
}
