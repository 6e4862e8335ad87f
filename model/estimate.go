package model

import (
	"math"
	"slices"
	"time"
)

// The wait estimate (约 N 分钟 / 您前面还有 N 人) plays the open windows
// forward: each window, when it frees up, calls the first waiting ticket
// of its services in serving order, as CallNext does, and is busy for its
// recent time per customer of that service. The ticket's estimate is the
// moment a window reaches it. So a 综合 window that serves A and B spends
// time on the B tickets ahead of an A ticket, the recall pool and VIPs go
// first, a B-only window takes B tickets off the 综合 window's hands, and
// customers who will arrive later but be served first (a VIP taking a
// number in ten minutes) are added at the rate they have been arriving.
// It is a pure function of what the store reads cheaply and bounded: at
// most MaxAhead tickets ahead, so it costs the same in a full hall.

// EstimateWindow is one window as the estimate sees it.
type EstimateWindow struct {
	Number   int
	Services []string
	Open     bool // paused, at lunch or closed: it calls no one
	// Busy is how long the customer at the window now has been there
	// (since the call); 0 with Idle: free now.
	Busy    time.Duration
	Idle    bool
	Current string // the service of the customer at the window now
}

// EstimateInput is what the estimate of one waiting ticket is made from.
type EstimateInput struct {
	Service string // the ticket's service
	// Ahead are the services of the waiting tickets served before this
	// one, in serving order, among the services of the windows that may
	// call before it; at most MaxAhead (then the count stopped).
	Ahead   []string
	Windows []EstimateWindow
	// PerTicket is the recent time a window spends per customer (call to
	// next call) by window and service; PerService by service over all
	// windows; Default when neither is known.
	PerTicket  map[WindowService]time.Duration
	PerService map[string]time.Duration
	Default    time.Duration
	// Jumpers is the rate (per second) at which customers arrive who will
	// be served before this ticket (a better priority), by service.
	Jumpers map[string]float64
}

// WindowService keys a per-window, per-service rate.
type WindowService struct {
	Window  int
	Service string
}

// estimateHorizon bounds the played future: later than a business day
// the estimate says nothing useful.
const estimateHorizon = 12 * time.Hour

// Estimate is where the ticket stands: Ahead counts the tickets waiting
// now that the windows will call before it, of the services that the
// windows serving its service serve (a B ticket that a B-only window takes
// first is ahead of an A ticket only when a window serving A also serves
// B); ETASeconds is when a window reaches it.
func Estimate(in EstimateInput) Position {
	serving, none := servingWindows(in)
	pos := estimate(in, related(serving, EstimateServices(in.Windows, in.Service)))
	// Paused, at lunch or closed, the windows call no one: the figure is
	// when they would reach it once back, not a wait to promise.
	pos.NoWindow = none
	return pos
}

// estimate plays ws forward for the ticket.
func estimate(in EstimateInput, ws []EstimateWindow) Position {
	if len(ws) == 0 {
		// No window serves it at all: one at a time, as a window set up
		// for it would.
		n := min(len(in.Ahead), MaxAhead)
		return Position{Ahead: n, ETASeconds: n * int(in.perTicket(0, in.Service).Seconds())}
	}
	mine := map[string]bool{}
	for _, w := range ws {
		if slices.Contains(w.Services, in.Service) {
			for _, s := range w.Services {
				mine[s] = true
			}
		}
	}
	// Per service, the places (in serving order) of the tickets waiting;
	// this ticket is the last place of its service.
	queues := map[string][]int{}
	for i, s := range in.Ahead {
		queues[s] = append(queues[s], i)
	}
	me := len(in.Ahead)
	queues[in.Service] = append(queues[in.Service], me)
	heads := map[string]int{}
	jumped := map[string]int{}
	free := make([]time.Duration, len(ws))
	for i, w := range ws {
		if !w.Idle {
			per := in.perTicket(w.Number, w.Current)
			// A customer who has been there long is expected to finish
			// soon, never already.
			free[i] = max(per-w.Busy, per/5)
		}
	}
	// A window with nothing it could take sleeps until an arrival it
	// would take that no other sleeping window waits for: many idle VIP
	// windows then cost a step per VIP, not one each per VIP.
	claim := make([]string, len(ws))
	claimed := map[string]int{}
	ahead := 0
	for steps := 0; steps < 4*(len(in.Ahead)+1)+10000; steps++ {
		i := earliest(free)
		if free[i] > estimateHorizon {
			break
		}
		at, w := free[i], ws[i]
		if s := claim[i]; s != "" {
			claimed[s]--
			claim[i] = ""
		}
		// A customer who arrived since and is served first.
		if s := in.pendingJumper(w, at, jumped); s != "" {
			jumped[s]++
			free[i] = at + in.perTicket(w.Number, s)
			continue
		}
		best, place := "", me+1
		for _, s := range w.Services {
			if q := queues[s]; heads[s] < len(q) && q[heads[s]] < place {
				best, place = s, q[heads[s]]
			}
		}
		if best == "" {
			// Nothing it serves is waiting: it looks again when the next
			// customer it would serve first arrives.
			free[i], claim[i] = in.nextJumper(w, jumped, claimed)
			if claim[i] != "" {
				claimed[claim[i]]++
			}
			continue
		}
		if place == me {
			if len(in.Ahead) >= MaxAhead {
				ahead = MaxAhead
			}
			return Position{Ahead: ahead, ETASeconds: int(at.Seconds())}
		}
		heads[best]++
		if mine[best] {
			ahead++
		}
		free[i] = at + in.perTicket(w.Number, best)
	}
	// Past the horizon: everyone of its windows' services ahead is ahead.
	ahead = 0
	for _, s := range in.Ahead {
		if mine[s] {
			ahead++
		}
	}
	return Position{Ahead: min(ahead, MaxAhead), ETASeconds: int(estimateHorizon.Seconds())}
}

// servingWindows are the open windows; when none of them serves the
// ticket's service (none true), the windows that serve it as if they
// opened now (a lunch ends, a paused clerk comes back), so Ahead still
// counts what they will do first.
func servingWindows(in EstimateInput) (ws []EstimateWindow, none bool) {
	var open []EstimateWindow
	served := false
	for _, w := range in.Windows {
		if w.Open && len(w.Services) > 0 {
			open = append(open, w)
			served = served || slices.Contains(w.Services, in.Service)
		}
	}
	if served {
		return open, false
	}
	var back []EstimateWindow
	for _, w := range in.Windows {
		if slices.Contains(w.Services, in.Service) {
			w.Open, w.Idle, w.Busy = true, true, 0
			back = append(back, w)
		}
	}
	return back, true
}

// related are the windows that serve one of services.
func related(ws []EstimateWindow, services []string) []EstimateWindow {
	var out []EstimateWindow
	for _, w := range ws {
		if slices.ContainsFunc(w.Services, func(s string) bool { return slices.Contains(services, s) }) {
			out = append(out, w)
		}
	}
	return out
}

func earliest(free []time.Duration) int {
	best := 0
	for i, f := range free {
		if f < free[best] {
			best = i
		}
	}
	return best
}

// perTicket is the window's recent time per customer of the service, else
// the service's over all windows, else the default.
func (in EstimateInput) perTicket(window int, service string) time.Duration {
	if d := in.PerTicket[WindowService{window, service}]; d > 0 {
		return d
	}
	if d := in.PerService[service]; d > 0 {
		return d
	}
	if in.Default > 0 {
		return in.Default
	}
	return 5 * time.Minute
}

// pendingJumper is a service of w with a customer who has arrived by at
// and will be served before this ticket, not yet called: the one most
// behind its rate.
func (in EstimateInput) pendingJumper(w EstimateWindow, at time.Duration, jumped map[string]int) string {
	best, most := "", 1-1e-9 // as nextJumper rounds, so the window it woke finds the customer
	for _, s := range w.Services {
		if r := in.Jumpers[s]; r > 0 {
			if due := r*at.Seconds() - float64(jumped[s]); due >= most {
				best, most = s, due
			}
		}
	}
	return best
}

// nextJumper is when the next customer w would serve first arrives that
// no other sleeping window waits for, and of which service; past the
// horizon and "" when none will.
func (in EstimateInput) nextJumper(w EstimateWindow, jumped, claimed map[string]int) (time.Duration, string) {
	next, of := estimateHorizon+time.Second, ""
	for _, s := range w.Services {
		if r := in.Jumpers[s]; r > 0 {
			at := time.Duration(math.Ceil(float64(jumped[s]+claimed[s]+1) / r * float64(time.Second)))
			if at < next {
				next, of = at, s
			}
		}
	}
	return next, of
}

// EstimateServices are the services whose waiting tickets may be called
// before a ticket of service: those of the windows that serve it, and
// of the windows that share a service with those, and so on (a B-only
// window's work decides when the 综合 window gets to A). The store reads
// the tickets ahead of these services only.
func EstimateServices(windows []EstimateWindow, service string) []string {
	ws, _ := servingWindows(EstimateInput{Service: service, Windows: windows})
	in := map[string]bool{service: true}
	out := []string{service}
	for grew := true; grew; {
		grew = false
		for _, w := range ws {
			if !slices.ContainsFunc(w.Services, func(s string) bool { return in[s] }) {
				continue
			}
			for _, s := range w.Services {
				if !in[s] {
					in[s], grew = true, true
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// FillAhead is the services of total tickets ahead when only the first of
// them were read one by one: the rest follow the same mix in the same
// turn (in a hall that long, how the far end interleaves moves the
// estimate little; what it costs to read each of them would not).
func FillAhead(first []string, total int) []string {
	if total <= len(first) || len(first) == 0 {
		return first
	}
	out := make([]string, total)
	for i := range out {
		out[i] = first[i%len(first)]
	}
	return out
}
