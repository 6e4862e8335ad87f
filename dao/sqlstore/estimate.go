package sqlstore

import (
	"slices"
	"sync"
	"time"

	"jiaohao/model"
)

// The wait estimate's inputs, each read by a bounded query so that taking a
// number costs the same in a full hall: the windows and their services,
// the last calls (the windows' recent time per customer and how long the
// customer at each window has been there), the last numbers taken (how
// fast better-priority customers arrive), and at most MaxAhead tickets
// ahead, walked per service on ix_ticket_wait in serving order (ahead.go).
// model.Estimate plays them forward.

// recentCalls is how many of the branch's last calls give the time per
// customer: at 16 windows about 7 each, enough for a mean, recent enough
// to follow the day.
const recentCalls = 120

// recentArrivals is how many of the last numbers taken give the arrival
// rate of customers served first; minArrivalSpan keeps a burst of a few
// numbers from reading as a flood.
const (
	recentArrivals = 60
	minArrivalSpan = 10 * time.Minute
)

// estimateBase is what every ticket's estimate shares at one moment.
type estimateBase struct {
	now        time.Time
	codes      map[int64]string
	ids        map[string]int64
	windows    []model.EstimateWindow
	perTicket  map[model.WindowService]time.Duration
	perService map[string]time.Duration
	def        time.Duration
	arrivals   []arrivalRow
	// since is when the customer at each window (by index in windows)
	// was called: Busy is now less it, made again by at.
	since []time.Time
}

type arrivalRow struct {
	ID        int64
	ServiceID int64
	Priority  int
	Lane      int
	IssuedAt  time.Time
}

type callRow struct {
	WindowNo  int
	At        time.Time
	ServiceID int64
}

// estimateBase reads the shared inputs through t at now.
func (t *txn) estimateBase(now time.Time) (estimateBase, error) {
	b := estimateBase{now: now, codes: map[int64]string{}, ids: map[string]int64{}}
	svc, err := t.services()
	if err != nil {
		return b, err
	}
	for id, r := range svc {
		b.codes[id], b.ids[r.Code] = r.Code, id
	}
	st, err := t.settingsOnce()
	if err != nil {
		return b, err
	}
	b.def = st.DefaultServiceTime
	// The windows with what they serve, in one query.
	var rows []struct {
		Number          int
		Status          int
		CurrentTicketID *int64
		LastActionAt    *time.Time
		ServiceID       *int64
	}
	err = t.Raw(`SELECT w.number, w.status, w.current_ticket_id, w.last_action_at, ws.service_id FROM service_window w
		LEFT JOIN window_service ws ON ws.branch_id = w.branch_id AND ws.window_no = w.number
		WHERE w.branch_id = ? ORDER BY w.number`, t.s.branchID).Scan(&rows).Error
	if err != nil {
		return b, err
	}
	var calls []callRow
	// The builder writes each engine's LIMIT (TOP on SQL Server).
	err = t.Table("queue_event AS e").Select("e.window_no, e.at, k.service_id").Joins("JOIN ticket k ON k.id = e.ticket_id").
		Where("e.branch_id = ? AND e.kind = ?", t.s.branchID, model.EvCall).Order("e.version DESC").Limit(recentCalls).Scan(&calls).Error
	if err != nil {
		return b, err
	}
	err = t.Table("ticket").Select("id, service_id, priority, lane, issued_at").Where("branch_id = ?", t.s.branchID).
		Order("issued_at DESC, id DESC").Limit(recentArrivals).Scan(&b.arrivals).Error
	if err != nil {
		return b, err
	}
	b.perTicket, b.perService = callRates(calls, b.codes)
	lastCall := map[int]callRow{}
	for _, c := range calls {
		if _, ok := lastCall[c.WindowNo]; !ok {
			lastCall[c.WindowNo] = c
		}
	}
	for _, r := range rows { // one row per window and service, by window
		if n := len(b.windows); n == 0 || b.windows[n-1].Number != r.Number {
			w := model.EstimateWindow{Number: r.Number, Open: model.WindowStatus(r.Status) == model.WindowOpen, Idle: r.CurrentTicketID == nil}
			var since time.Time // zero: busy for no known time, as good as just called
			if !w.Idle {
				if c, ok := lastCall[r.Number]; ok {
					since, w.Current = c.At, b.codes[c.ServiceID]
				} else if r.LastActionAt != nil {
					since = *r.LastActionAt
				}
			}
			b.windows = append(b.windows, w)
			b.since = append(b.since, since)
		}
		if r.ServiceID != nil && svc[*r.ServiceID].Enabled {
			w := &b.windows[len(b.windows)-1]
			w.Services = append(w.Services, b.codes[*r.ServiceID])
		}
	}
	return b.at(now), nil
}

// at is b as seen at now: how long each busy window's customer has been
// there, and the span the arrivals' rate is taken over. The windows are
// copied: a kept base is shared by takes.
func (b estimateBase) at(now time.Time) estimateBase {
	b.now = now
	b.windows = slices.Clone(b.windows)
	for i := range b.windows {
		if w := &b.windows[i]; !w.Idle && !b.since[i].IsZero() {
			w.Busy = max(now.Sub(b.since[i]), 0)
		}
	}
	return b
}

// callRates are the mean times from one call at a window to its next, by
// window and service (the service of the customer called first) and by
// service: serving, walking up, a no-show's recall all count, as they
// keep the window from the next customer. Gaps over three times the
// window's median are a lunch or an empty hall, not a customer: left out.
func callRates(calls []callRow, codes map[int64]string) (map[model.WindowService]time.Duration, map[string]time.Duration) {
	byWindow := map[int][]callRow{}
	for i := len(calls) - 1; i >= 0; i-- { // oldest first
		c := calls[i]
		byWindow[c.WindowNo] = append(byWindow[c.WindowNo], c)
	}
	type acc struct {
		sum time.Duration
		n   int
	}
	perWS, perS := map[model.WindowService]*acc{}, map[string]*acc{}
	for w, cs := range byWindow {
		gaps := make([]time.Duration, 0, len(cs))
		for i := 1; i < len(cs); i++ {
			gaps = append(gaps, cs[i].At.Sub(cs[i-1].At))
		}
		if len(gaps) == 0 {
			continue
		}
		sorted := slices.Clone(gaps)
		slices.Sort(sorted)
		limit := 3 * sorted[len(sorted)/2]
		for i, g := range gaps {
			if g <= 0 || g > limit {
				continue
			}
			s := codes[cs[i].ServiceID]
			k := model.WindowService{Window: w, Service: s}
			if perWS[k] == nil {
				perWS[k] = &acc{}
			}
			if perS[s] == nil {
				perS[s] = &acc{}
			}
			perWS[k].sum += g
			perWS[k].n++
			perS[s].sum += g
			perS[s].n++
		}
	}
	outWS, outS := map[model.WindowService]time.Duration{}, map[string]time.Duration{}
	for k, a := range perWS {
		if a.n >= 3 { // fewer says more about one customer than about the window
			outWS[k] = a.sum / time.Duration(a.n)
		}
	}
	for k, a := range perS {
		outS[k] = a.sum / time.Duration(a.n)
	}
	return outWS, outS
}

// services are the service ids whose tickets ahead the estimate of a
// ticket of serviceID reads.
func (b estimateBase) services(serviceID int64) []int64 {
	var out []int64
	for _, c := range model.EstimateServices(b.windows, b.codes[serviceID]) {
		if id, ok := b.ids[c]; ok {
			out = append(out, id)
		}
	}
	return out
}

// estimate is the ticket's position given the services of the first
// tickets ahead of it, in serving order, and how many there are in all.
func (b estimateBase) estimate(t ticketRow, ahead []int64, total int) model.Position {
	in := model.EstimateInput{Service: b.codes[t.ServiceID], Windows: b.windows, PerTicket: b.perTicket,
		PerService: b.perService, Default: b.def, Jumpers: b.jumpers(t)}
	codes := make([]string, len(ahead))
	for i, id := range ahead {
		codes[i] = b.codes[id]
	}
	in.Ahead = model.FillAhead(codes, total)
	return model.Estimate(in)
}

// jumpers is the rate per service of the recent arrivals that are served
// before t: a new number of a better priority while t waits in the normal
// lane.
func (b estimateBase) jumpers(t ticketRow) map[string]float64 {
	if len(b.arrivals) == 0 || model.Lane(t.Lane) != model.LaneNormal {
		return nil
	}
	oldest := b.now
	n := map[string]int{}
	for _, a := range b.arrivals {
		oldest = minTime(oldest, a.IssuedAt)
		if model.Lane(a.Lane) == model.LaneNormal && a.Priority < t.Priority {
			n[b.codes[a.ServiceID]]++
		}
	}
	span := max(b.now.Sub(oldest), minArrivalSpan).Seconds()
	out := make(map[string]float64, len(n))
	for s, k := range n {
		out[s] = float64(k) / span
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// position is the estimate of one waiting ticket at now.
func (t *txn) position(row ticketRow, now time.Time) (model.Position, error) {
	b, err := t.estimateBase(now)
	if err != nil {
		return model.Position{}, err
	}
	ahead, total, err := t.aheadOf(row, b.services(row.ServiceID))
	if err != nil {
		return model.Position{}, err
	}
	return b.estimate(row, ahead, total), nil
}

// lastTake keeps the estimates made in the last takes, for the Position
// every take path asks for at once (the kiosk's slip, the peer API's
// answer, the caller's 窗口代取): while the branch version is still the
// take's, nothing changed and the take's estimate is the answer, so a take
// walks the tickets ahead once, not twice. Several are kept because kiosks
// take at once: the estimate of one must not be lost to another's take
// before its answer is written.
type lastTake struct {
	mu     sync.Mutex
	recent [recentTakes]takenPos
	next   int
}

// recentTakes is how many takes' estimates are kept: more than the
// kiosks and windows of a hall taking at the same instant.
const recentTakes = 32

type takenPos struct {
	id, version int64
	pos         model.Position
}

func (l *lastTake) remember(id, version int64, pos model.Position) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recent[l.next] = takenPos{id: id, version: version, pos: pos}
	l.next = (l.next + 1) % recentTakes
}

func (l *lastTake) find(id int64) (takenPos, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, t := range l.recent {
		if t.id == id && id != 0 {
			return t, true
		}
	}
	return takenPos{}, false
}

// recall is the take's estimate of ticket id if it is one of the last
// takes and the version read since is still its own.
func (l *lastTake) recall(id int64, version func() (int64, error)) (model.Position, bool) {
	t, ok := l.find(id)
	if !ok {
		return model.Position{}, false
	}
	now, err := version()
	return t.pos, err == nil && now == t.version
}
