package screens

import (
	"context"
	"time"

	"jiaohao/model"
)

// catchUpPages bounds the event pages a reload reads back: a pad whose
// link was down longer than that many events has no customer waiting at
// it any more.
const (
	catchUpPage  = 500
	catchUpPages = 20
)

// catchUp reads the events after version from that a reload skipped (a
// lost link, a resync, a configuration change): the follower hands on
// the fresh state only, so a finish at this window meanwhile would leave
// its customer facing the card. The last such finish, unrated, is asked
// about for what is left of the time to rate, counted from the finish by
// the store's clock (now is the reloaded state's); a rating meanwhile of
// the ticket it asks about ends the question, as it does live.
func (e *Evaluator) catchUp(from int64, now time.Time) {
	if e.rs == nil {
		return
	}
	turn := e.turn
	var last *model.Event
	rated := map[int64]bool{}
	e.async(func(ctx context.Context) error {
		since := from
		for range catchUpPages {
			evs, err := e.st.EventsSince(ctx, since, catchUpPage)
			if err != nil {
				return err
			}
			for i, ev := range evs {
				switch {
				case ev.Kind == model.EvFinish && ev.Ticket != nil && ev.Ticket.Window == e.window:
					last = &evs[i]
				case ev.Kind == model.EvRate:
					rated[ev.TicketID] = true
				}
				since = ev.Version
			}
			if len(evs) < catchUpPage {
				return nil
			}
		}
		return nil
	}, func(err error) {
		// A finish seen live since the reload is newer than any read back.
		if err != nil || e.turn != turn {
			return
		}
		if last != nil && !rated[last.Ticket.ID] {
			if left := e.timeout - now.Sub(last.At); left > 0 {
				e.askFor(*last.Ticket, left)
				return
			}
		}
		// The customer asked about rated meanwhile, on the phone.
		if e.asking != nil && rated[e.asking.ID] {
			e.startThanks()
		}
	})
}
