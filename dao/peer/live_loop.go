package peer

import (
	"context"
	"encoding/json"
	"time"

	"jiaohao/model"
)

// run is the one loop behind every page: it follows the hub and, after
// each burst of events, works out what changed for the tickets on screen.
func (l *livePages) run() {
	for attempt := 0; l.s.ctx.Err() == nil; attempt++ {
		sub, cur, err := l.s.hub.subscribe(l.s.ctx)
		if err == nil {
			attempt = 0
			l.mu.Lock()
			l.done = cur
			for _, lt := range l.byPID {
				l.markStale(lt, true) // this subscription has not seen what came before cur
			}
			l.mu.Unlock()
			l.follow(sub)
			l.s.hub.unsubscribe(sub)
		}
		select {
		case <-l.s.ctx.Done():
		case <-time.After(backoff(attempt)):
		}
	}
}

// follow applies events until the hub drops the loop or the server stops.
// A refresh that failed (the database was away) is tried again on the next
// event or tick.
func (l *livePages) follow(sub *subscriber) {
	tick := time.NewTicker(5 * time.Second)
	defer tick.Stop()
	var settle <-chan time.Time // moved entries wait for their turn
	for {
		var batch []model.Event
		select {
		case <-settle:
		case ev := <-sub.ch:
			batch = append(batch, ev.Event)
			for more := true; more && len(batch) < 500; {
				select {
				case ev := <-sub.ch:
					batch = append(batch, ev.Event)
				default:
					more = false
				}
			}
		case <-l.wake:
		case <-tick.C:
		case <-sub.dropped:
			return
		case <-l.s.ctx.Done():
			return
		}
		l.apply(batch)
		settle = nil
		if wait := l.refresh(); wait > 0 {
			settle = time.After(wait)
		}
	}
}

// apply marks what a burst of events changes. The events carry each
// ticket's state after the change, so a page's own ticket needs no query;
// only where it stands in line is worked out again, and only when an event
// can have moved it: a ticket entering or leaving any line (a window
// serving its line may serve that one too, and the estimate counts what
// those windows call first; but not a number taken behind it in serving
// order), a window taking or letting go of a customer (when it is free),
// a window or the settings changing (the windows serving it, the default
// service time, the service's name).
func (l *livePages) apply(batch []model.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ev := range batch {
		l.done = ev.Version
		switch {
		case ev.Kind == model.EvConfig:
			l.names = nil
			for _, lt := range l.byPID {
				lt.moved = true
			}
		case ev.Kind == model.EvWindow || ev.Kind == model.EvWindowSaved:
			for _, lt := range l.byPID {
				if lt.t.Status == model.Waiting {
					lt.moved = true
				}
			}
		case ev.Ticket != nil:
			x := *ev.Ticket
			// Only starting to serve and re-announcing change neither a line
			// nor whether a window is free.
			moves := ev.Kind != model.EvStart && ev.Kind != model.EvRecall
			for _, lt := range l.byPID {
				switch {
				case lt.t.ID == x.ID:
					if ev.Version > lt.asOf {
						lt.t = x
						l.markStale(lt, false)
					}
				case !moves || lt.t.Status != model.Waiting:
				case ev.Kind == model.EvTake && model.ServedBefore(lt.t, x):
				default:
					lt.moved = true
				}
			}
		}
	}
}

// refresh works out the views of the entries that are due, with every
// position in one batch, and sends each page its view if it changed. It
// returns how long moved entries still wait (0: none). Only the loop calls
// it, so no event is applied meanwhile.
func (l *livePages) refresh() time.Duration {
	now := time.Now()
	l.mu.Lock()
	var work []*liveTicket
	due, tookMoved, waiting := !now.Before(l.due), false, false
	for _, lt := range l.byPID {
		switch {
		case lt.stale || (lt.moved && due):
			tookMoved = tookMoved || lt.moved
			lt.stale, lt.moved = false, false
			work = append(work, lt)
		case lt.moved:
			waiting = true
		}
	}
	if tookMoved {
		l.due = now.Add(moveEvery)
	}
	wait := time.Duration(0)
	if waiting {
		wait = max(l.due.Sub(now), time.Millisecond)
	}
	needNames := l.names == nil
	l.mu.Unlock()
	if len(work) == 0 {
		return wait
	}
	l.update(work, needNames)
	return wait
}

// update reads what the entries need and sends the views that changed.
func (l *livePages) update(work []*liveTicket, needNames bool) {
	ctx, cancel := context.WithTimeout(l.s.ctx, 10*time.Second)
	defer cancel()
	failed := func(lts ...*liveTicket) {
		l.mu.Lock()
		for _, lt := range lts {
			lt.stale = true // no wake: the next event or tick retries
		}
		l.mu.Unlock()
	}
	var names map[string]pageService
	if needNames {
		var err error
		if names, err = l.s.pageNames(ctx); err != nil {
			failed(work...)
			return
		}
	}
	var ready, gone []*liveTicket
	var waiting []int64
	for _, lt := range work {
		if lt.reread {
			asOf := l.s.hub.head()
			t, err := l.s.store.Ticket(ctx, lt.t.ID)
			if model.IsCode(err, model.ENotFound) {
				gone = append(gone, lt) // archived
				continue
			}
			if err != nil {
				failed(lt)
				continue
			}
			l.mu.Lock()
			lt.t, lt.asOf, lt.reread = t, asOf, false
			l.mu.Unlock()
		}
		ready = append(ready, lt)
		if lt.t.Status == model.Waiting {
			waiting = append(waiting, lt.t.ID)
		}
	}
	pos, err := l.s.positions(ctx, waiting)
	if err != nil {
		failed(ready...)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if names != nil {
		l.names = names
	}
	for _, lt := range gone {
		if l.byPID[lt.pid] == lt {
			delete(l.byPID, lt.pid)
		}
		for pg := range lt.pages {
			close(pg.gone)
		}
		lt.pages = map[*livePage]struct{}{}
	}
	for _, lt := range ready {
		b, _ := json.Marshal(makeView(lt.t, l.names, pos[lt.t.ID]))
		if string(b) == string(lt.wire) {
			continue
		}
		lt.wire = b
		for pg := range lt.pages {
			pg.offer(b)
		}
	}
}

// makeView is what the customer sees of t.
func makeView(t model.Ticket, names map[string]pageService, pos model.Position) customerView {
	v := customerView{Number: t.Number, Service: t.Service, Status: t.Status.String(), Window: t.Window}
	if n, ok := names[t.Service]; ok {
		v.Service, v.Area = n.name, n.area
	}
	if t.Status == model.Waiting {
		v.Ahead, v.ETAMin, v.NoWindow = pos.Ahead, (pos.ETASeconds+59)/60, pos.NoWindow
	}
	return v
}

// positions reads many positions at once where the store can (a database
// store can); otherwise one by one.
func (s *Server) positions(ctx context.Context, ids []int64) (map[int64]model.Position, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	if b, ok := s.store.(interface {
		Positions(context.Context, []int64) (map[int64]model.Position, error)
	}); ok {
		return b.Positions(ctx, ids)
	}
	out := make(map[int64]model.Position, len(ids))
	for _, id := range ids {
		p, err := s.store.Position(ctx, id)
		if err != nil && !model.IsCode(err, model.ENotFound) {
			return nil, err
		}
		out[id] = p
	}
	return out, nil
}
