package demodata

import (
	"fmt"
	"time"

	"jiaohao/model"
)

// Outcome odds and timings, in seconds unless said otherwise.
const (
	pShowUp      = 0.82 // the called customer comes to the window
	pShowOnCall2 = 0.5  // a no-show comes after the recall
	pUndoPass    = 0.15 // a passed customer turns up while the window waits
	pRequeue     = 0.3  // a passed customer asks the hall manager to requeue
	pTransfer    = 0.04 // served partly, then sent to another service's queue
	pAbandon     = 0.25 // a customer who would leave after a long wait
	pForgotten   = 0.08 // near closing, a clerk moves on without recording
	lateFrom     = 16*time.Hour + 30*time.Minute
)

// serviceSeconds is the typical service time per service code.
var serviceSeconds = map[string]float64{"A": 240, "B": 420, "V": 300}

// windowSeconds is the mean window time of one customer of the day's
// mix, unpaced: walking up (15–60 s), the service (0.4–1.8 of its typical
// time), closing the case (5–30 s) and the share of no-shows recalled
// and passed.
func windowSeconds(services []model.Service) float64 {
	var sum, wsum float64
	for _, v := range services {
		w, ok := serviceMix[v.Code]
		if !ok {
			w = 10
		}
		base, ok := serviceSeconds[v.Code]
		if !ok {
			base = serviceSeconds[services[0].Code]
			if base == 0 {
				base = 300
			}
		}
		sum += w * base * 1.1
		wsum += w
	}
	noShow := (1 - pShowUp) * (75 + (1-pShowOnCall2)*75)
	return 37.5 + sum/wsum + 17.5 + noShow
}

// lunchAt staggers the windows' lunch pauses so the hall never closes.
func (s *sim) lunchAt(window int) time.Time {
	start := 12 * time.Hour
	if window%2 == 1 {
		start += 45 * time.Minute
	}
	return atClock(s.day, start)
}

func (s *sim) do(p *step) error {
	ctx, st, c, w := s.ctx, s.st, p.t, p.window
	var err error
	switch p.kind {
	case stArrive:
		take := func() (model.Ticket, error) { return st.TakeTicket(ctx, p.arr.service, p.arr.priority, p.arr.source) }
		if p.arr.customer != 0 && s.patrons != nil {
			take = func() (model.Ticket, error) {
				return s.patrons.TakeTicketFor(ctx, p.arr.service, p.arr.customer, p.arr.source)
			}
		}
		if c, err = s.track(take()); err == nil {
			s.wake(p.at)
			if s.rng.Float64() < pAbandon {
				s.after(p.at, 900, 5400, stAbandon, 0, c)
			}
		}
	case stResume:
		if _, err = st.SetWindowStatus(ctx, w, model.WindowOpen); err == nil {
			s.changes++
			s.after(p.at, 1, 30, stWindowFree, w, nil)
		}
	case stWindowFree:
		err = s.windowFree(p)
	case stRecall:
		if c, err = s.track(st.Recall(ctx, c.id, w)); err == nil {
			if s.rng.Float64() < pShowOnCall2 {
				s.after(p.at, 10, 40, stStart, w, c)
			} else {
				s.after(p.at, 60, 90, stPass, w, c)
			}
		}
	case stPass:
		if c, err = s.track(st.Pass(ctx, c.id, w)); err == nil {
			s.afterPass(p, c)
		}
	case stUndoPass:
		if c, err = s.track(st.UndoPass(ctx, c.id, w)); err == nil {
			s.after(p.at, 10, 30, stStart, w, c)
		}
	case stStart:
		if c, err = s.track(st.StartServing(ctx, c.id, w)); err == nil {
			s.afterStart(p, c)
		}
	case stFinish:
		if _, err = s.track(st.Finish(ctx, c.id, w)); err == nil {
			s.after(p.at, 5, 30, stWindowFree, w, nil)
			s.afterFinish(p.at, w, c)
		}
	case stTransfer:
		if _, err = s.track(st.Transfer(ctx, c.id, w, model.TransferTarget{Service: s.otherService(c)})); err == nil {
			s.after(p.at, 5, 20, stWindowFree, w, nil)
			s.wake(p.at)
		}
	case stRequeue:
		if c.status == model.Passed {
			if _, err = s.track(st.Requeue(ctx, c.id, c.window)); err == nil {
				s.wake(p.at)
			}
		}
	case stSignIn:
		err = s.signIn(p)
	case stRate:
		err = s.rate(p)
	case stAbandon:
		if c.status == model.Waiting {
			_, err = s.track(st.Cancel(ctx, c.id, 0))
		}
	}
	if err != nil {
		return fmt.Errorf("simulated day at %s: %w", p.at.Format("15:04:05"), err)
	}
	return nil
}

// windowFree is a clerk ready for the next customer: lunch first if due,
// else call the next ticket, else look again shortly.
func (s *sim) windowFree(p *step) error {
	w := p.window
	if !p.at.Before(atClock(s.day, closeAt)) {
		return nil
	}
	if !s.lunch[w] && !p.at.Before(s.lunchAt(w)) {
		s.lunch[w] = true
		if _, err := s.st.SetWindowStatus(s.ctx, w, model.WindowPaused); err != nil {
			return err
		}
		s.changes++
		resume := p.at.Add(time.Duration(30+s.rng.IntN(16)) * time.Minute)
		if w == 1 {
			s.schedule(&step{at: resume, kind: stSignIn, window: w, clerk: reliefClerk})
		}
		s.schedule(&step{at: resume, kind: stResume, window: w})
		return nil
	}
	t, err := s.st.CallNext(s.ctx, w, "")
	switch model.ErrorCode(err) {
	case model.EQueueEmpty:
		s.idle[w] = true
		return nil
	case model.EWindowNotServing, model.EWindowNotOpen:
		return nil // a window set up to serve nothing sits the day out
	case model.EConflict:
		return nil // a customer forgotten in "serving" keeps the desk busy until close
	}
	c, err := s.track(t, err)
	if err != nil {
		return err
	}
	switch {
	case s.late(p.at) && s.rng.Float64() < pForgotten:
		s.after(p.at, 60, 120, stWindowFree, w, nil) // left "called" for the status check
	case s.rng.Float64() < pShowUp:
		s.after(p.at, 15, 60, stStart, w, c)
	default:
		s.after(p.at, 60, 90, stRecall, w, c)
	}
	return nil
}

func (s *sim) afterPass(p *step, c *customer) {
	if s.rng.Float64() < pUndoPass {
		s.after(p.at, 5, 20, stUndoPass, p.window, c) // the window waits for them
		return
	}
	s.after(p.at, 3, 10, stWindowFree, p.window, nil)
	if s.rng.Float64() < pRequeue {
		s.after(p.at, 180, 900, stRequeue, 0, c)
	}
}

func (s *sim) afterStart(p *step, c *customer) {
	base := serviceSeconds[s.services[0]]
	if v, ok := serviceSeconds[c.service]; ok {
		base = v
	}
	switch {
	case len(s.services) > 1 && s.rng.Float64() < pTransfer:
		s.after(p.at, 60, 180, stTransfer, p.window, c)
	case s.late(p.at) && s.rng.Float64() < pForgotten:
		s.after(p.at, base*0.4, base*1.8, stWindowFree, p.window, nil) // left "serving"
	default:
		s.after(p.at, base*0.4, base*1.8, stFinish, p.window, c)
	}
}

func (s *sim) late(at time.Time) bool { return !at.Before(atClock(s.day, lateFrom)) }

// otherService picks a service other than the ticket's current one.
func (s *sim) otherService(c *customer) string {
	cur := c.service
	for {
		if code := s.services[s.rng.IntN(len(s.services))]; code != cur {
			return code
		}
	}
}
