package peer

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"jiaohao/model"
)

// livePages keeps every open customer page current at a cost that does
// not grow with the number of pages: one hub subscription for all of them,
// one entry per ticket however many pages show it, and after each burst of
// events only the tickets the events can change are looked at again, all
// their positions in one batch. A page's own ticket changing (called, to
// which window) is sent at once; a change of place in line at most once per
// moveEvery, so a busy hall costs at most one update per page per second
// however many numbers are taken. Pages are capped per ticket and per
// client address; past the cap a page polls slowly instead.
type livePages struct {
	s    *Server
	once sync.Once
	wake chan struct{} // a stale entry waits for the loop

	mu     sync.Mutex
	byPID  map[string]*liveTicket
	byAddr map[string]int
	done   int64                  // newest event version the loop has applied
	due    time.Time              // when moved entries may be worked out again
	names  map[string]pageService // by service code; nil: reload
}

// liveTicket is one ticket shown by one or more pages. After it is
// published in byPID only the loop writes t and asOf.
type liveTicket struct {
	pid    string
	t      model.Ticket // as of asOf
	asOf   int64        // events up to this version are in t already
	wire   []byte       // the view now, as sent
	stale  bool         // the view needs working out again now
	moved  bool         // its place in line may have changed: within moveEvery
	reread bool         // and t must be read from the store first
	pages  map[*livePage]struct{}
}

// livePage is one open socket: the newest view waits in ch, older ones are
// overwritten, so a slow phone never holds up the loop.
type livePage struct {
	ch   chan []byte
	gone chan struct{} // closed when the ticket no longer exists
}

// moveEvery spaces the updates of "people ahead" and the wait.
const moveEvery = time.Second

func newLivePages(s *Server) *livePages {
	return &livePages{s: s, wake: make(chan struct{}, 1), byPID: map[string]*liveTicket{}, byAddr: map[string]int{}}
}

func (p *livePage) offer(b []byte) {
	select {
	case <-p.ch:
	default:
	}
	p.ch <- b // the loop is the only writer and just emptied it
}

// errTooManyPages tells the page to poll: this ticket or this address has
// all the live pages it may have.
func errTooManyPages(ticket bool) error {
	if ticket {
		return model.Errorf(model.ERateLimited, "这个号码打开的实时页面过多，页面将定时刷新 (too many live pages for this ticket; the page refreshes on a timer)")
	}
	return model.Errorf(model.ERateLimited, "来自同一地址的实时页面过多，页面将定时刷新 (too many live pages from this address; the page refreshes on a timer)")
}

// join registers a page for pid from addr and returns it with the view to
// send first and the function that unregisters it. It refuses past the
// caps, and answers not_found for an unknown ticket, before the socket is
// upgraded.
func (l *livePages) join(ctx context.Context, pid, addr string) (*livePage, []byte, func(), error) {
	l.once.Do(func() { go l.run() })
	l.mu.Lock()
	if l.byAddr[addr] >= l.s.opts.LivePerAddress {
		l.mu.Unlock()
		return nil, nil, nil, errTooManyPages(false)
	}
	l.byAddr[addr]++ // counted while the first view is read, so a flood cannot pass the cap meanwhile
	l.mu.Unlock()
	leave := func() {
		l.mu.Lock()
		l.leaveLocked(addr)
		l.mu.Unlock()
	}
	for {
		l.mu.Lock()
		lt := l.byPID[pid]
		if lt != nil {
			if len(lt.pages) >= l.s.opts.LivePerTicket {
				l.mu.Unlock()
				leave()
				return nil, nil, nil, errTooManyPages(true)
			}
			pg := &livePage{ch: make(chan []byte, 1), gone: make(chan struct{})}
			lt.pages[pg] = struct{}{}
			first := lt.wire
			l.mu.Unlock()
			return pg, first, func() { l.part(lt, pg, addr) }, nil
		}
		l.mu.Unlock()
		// A ticket no page shows yet: read it with the version it includes,
		// so the loop neither misses an event in between nor applies an
		// older one over it.
		asOf := l.s.hub.head()
		v, t, err := l.s.view(ctx, pid)
		if err != nil {
			leave()
			return nil, nil, nil, err
		}
		fresh := &liveTicket{pid: pid, t: t, asOf: asOf, pages: map[*livePage]struct{}{}}
		fresh.wire, _ = json.Marshal(v)
		l.mu.Lock()
		if l.byPID[pid] == nil {
			l.byPID[pid] = fresh
			if l.done > asOf {
				l.markStale(fresh, true) // the loop went past asOf before the entry existed
			}
		}
		l.mu.Unlock()
		// Join the entry now published, this one or a page's that came first.
	}
}

// part unregisters a page; the last page of a ticket drops its entry.
func (l *livePages) part(lt *liveTicket, pg *livePage, addr string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(lt.pages, pg)
	if len(lt.pages) == 0 && l.byPID[lt.pid] == lt {
		delete(l.byPID, lt.pid)
	}
	l.leaveLocked(addr)
}

func (l *livePages) leaveLocked(addr string) {
	if l.byAddr[addr]--; l.byAddr[addr] <= 0 {
		delete(l.byAddr, addr)
	}
}

// markStale queues an entry for the loop at once; reread also reads its
// ticket again. Caller holds mu.
func (l *livePages) markStale(lt *liveTicket, reread bool) {
	lt.stale = true
	lt.reread = lt.reread || reread
	select {
	case l.wake <- struct{}{}:
	default:
	}
}
