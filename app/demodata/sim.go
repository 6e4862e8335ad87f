package demodata

import (
	"container/heap"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"jiaohao/model"
)

// step kinds of the simulation.
type stepKind int

const (
	stArrive stepKind = iota
	stWindowFree
	stResume
	stRecall
	stPass
	stUndoPass
	stStart
	stFinish
	stTransfer
	stRequeue
	stAbandon
	stSignIn
	stRate
)

// step is one thing that happens at a moment of the day.
type step struct {
	at     time.Time
	seq    int // ties keep their scheduling order, so a seed replays exactly
	kind   stepKind
	window int
	t      *customer
	arr    arrival
	clerk  string // stSignIn: the staff number signing in
}

type agenda []*step

func (a agenda) Len() int { return len(a) }
func (a agenda) Less(i, j int) bool {
	if !a[i].at.Equal(a[j].at) {
		return a[i].at.Before(a[j].at)
	}
	return a[i].seq < a[j].seq
}
func (a agenda) Swap(i, j int) { a[i], a[j] = a[j], a[i] }
func (a *agenda) Push(x any)   { *a = append(*a, x.(*step)) }
func (a *agenda) Pop() any {
	old := *a
	s := old[len(old)-1]
	*a = old[:len(old)-1]
	return s
}

// customer is a ticket as the generator knows it.
type customer struct {
	id      int64
	service string
	status  model.Status
	window  int
	steps   int
}

// sim is one day being played.
type sim struct {
	ctx      context.Context
	st       DayStore
	rng      *rand.Rand
	day      time.Time
	agenda   agenda
	seq      int
	shifted  time.Duration
	started  bool
	pace     float64 // < 1 on busy days: everyone moves faster so the day fits
	services []string
	byID     map[int64]*customer
	lunch    map[int]bool
	idle     map[int]bool // windows that found the queue empty
	changes  int
	staff    staffStore  // nil: the store keeps no staff accounts
	patrons  patronStore // nil: no customer register in play
	rater    rater
}

func newSim(ctx context.Context, st DayStore, day time.Time, cfg DayConfig) (*sim, error) {
	all, err := st.Services(ctx)
	if err != nil {
		return nil, fmt.Errorf("read services: %w", err)
	}
	var services []model.Service
	for _, s := range all {
		if s.Enabled {
			services = append(services, s)
		}
	}
	windows, err := st.Windows(ctx)
	if err != nil {
		return nil, fmt.Errorf("read windows: %w", err)
	}
	if len(services) == 0 || len(windows) == 0 {
		return nil, model.Errorf(model.EInvalidInput, "seed-day 需要至少一个启用的业务和一个窗口 (no service or window)")
	}
	s := &sim{ctx: ctx, st: st, rng: rand.New(rand.NewPCG(cfg.Seed, cfg.Seed>>1|1)), day: day,
		byID: map[int64]*customer{}, lunch: map[int]bool{}, idle: map[int]bool{}, rater: newRater(st, cfg.Seed)}
	for _, v := range services {
		s.services = append(s.services, v.Code)
	}
	// On a day busier than the windows can take, everything is sped up
	// so the windows are busy 85 % of the day: the morning peak builds a
	// queue that the afternoon clears, as in a real hall. Sized on the
	// window time the day's customers really take here, not a round
	// figure: with too little, the queue grew all day and waits passed
	// an hour and a half.
	capacity := float64(len(windows)) * (closeAt - openAt).Seconds() * 0.85
	s.pace = min(1, capacity/(float64(cfg.Tickets)*windowSeconds(services)))
	ids, err := s.ensurePatrons(cfg.Customers)
	if err != nil {
		return nil, err
	}
	arrivals := planArrivals(s.rng, day, cfg.Tickets, services)
	identify(arrivals, ids, cfg.Seed)
	for _, a := range arrivals {
		s.schedule(&step{at: a.at, kind: stArrive, arr: a})
	}
	if s.staff, err = s.ensureClerks(windows); err != nil {
		return nil, err
	}
	open := atClock(day, openAt)
	for _, w := range windows {
		s.schedule(&step{at: open, kind: stSignIn, window: w.Number, clerk: clerkOf(w.Number)})
		s.schedule(&step{at: open, kind: stResume, window: w.Number})
	}
	return s, nil
}

func (s *sim) schedule(p *step) {
	s.seq++
	p.seq = s.seq
	heap.Push(&s.agenda, p)
}

// after schedules kind at base plus a paced random delay in [lo, hi) seconds.
func (s *sim) after(base time.Time, lo, hi float64, kind stepKind, window int, c *customer) {
	d := (lo + s.rng.Float64()*(hi-lo)) * s.pace
	s.schedule(&step{at: base.Add(time.Duration(max(d, 1) * float64(time.Second))), kind: kind, window: window, t: c})
}

func (s *sim) run() error {
	end := atClock(s.day, closeAt+drainFor)
	for s.agenda.Len() > 0 {
		p := heap.Pop(&s.agenda).(*step)
		if !p.at.Before(end) {
			break
		}
		if err := s.clockTo(p.at); err != nil {
			return err
		}
		if err := s.do(p); err != nil {
			return err
		}
	}
	return nil
}

// clockTo moves the database clock to at: a jump to the simulated day
// first, then forward only, so the event log's times stay in version order.
func (s *sim) clockTo(at time.Time) error {
	now, err := s.st.Now(s.ctx)
	if err != nil {
		return fmt.Errorf("read the database clock: %w", err)
	}
	if d := at.Sub(now); d > 0 || !s.started {
		s.started = true
		s.st.ShiftClock(d)
		s.shifted += d
	}
	return nil
}

// wake sends every idle window to the queue shortly after a ticket starts
// waiting; clerks do not poll an empty queue all day, and each window
// serves its own services, so all of them look.
func (s *sim) wake(at time.Time) {
	var ws []int
	for w := range s.idle {
		ws = append(ws, w)
	}
	slices.Sort(ws)
	for _, w := range ws {
		delete(s.idle, w)
		s.after(at, 3, 15, stWindowFree, w, nil)
	}
}

func (s *sim) restoreClock() { s.st.ShiftClock(-s.shifted) }

// track records a successful operation on a ticket.
func (s *sim) track(t model.Ticket, err error) (*customer, error) {
	if err != nil {
		return nil, err
	}
	c, ok := s.byID[t.ID]
	if !ok {
		c = &customer{id: t.ID}
		s.byID[t.ID] = c
	}
	c.service, c.status, c.window = t.Service, t.Status, t.Window
	c.steps++
	return c, nil
}

func (s *sim) summary() DaySummary {
	sum := DaySummary{Tickets: len(s.byID), ByStatus: map[model.Status]int{}, Transitions: map[int64]int{}, WindowChanges: s.changes,
		Ratings: s.rater.n}
	for id, c := range s.byID {
		sum.ByStatus[c.status]++
		sum.Transitions[id] = c.steps
	}
	return sum
}
