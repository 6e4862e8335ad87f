package app

import (
	"context"
	"slices"

	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// settled are the claim answers after which a ticket is never claimed
// again by this kiosk: accepted before (by this kiosk before a restart),
// not this kiosk's, or no longer in line (served, cancelled).
func settled(err error) bool {
	return model.IsCode(err, model.EConflict) || model.IsCode(err, model.ENotFound) ||
		model.IsCode(err, model.EForbidden) || model.IsCode(err, model.EInvalidTransition)
}

// claim asks for the print of t and prints it when this kiosk won. It
// sends one claim: an unanswered one goes to the retry set, and a ticket
// already there is the retry set's.
func (k *kioskPrinter) claim(ctx context.Context, t model.Ticket) {
	if k.printed[t.ID] || k.retry[t.ID] != nil {
		return
	}
	mark := newClaim()
	won, err := k.kp.ClaimPrint(ctx, t.ID, k.id, mark)
	switch {
	case err == nil:
		k.print(ctx, won)
	case settled(err):
		k.logf("kiosk prints: %s not printed here: %s", t.Number, model.ErrorMessage(err))
	default:
		// The claim may have committed with its answer lost: the ticket
		// is read later, rather than printed twice or not at all.
		k.logf("kiosk prints: claim of %s unanswered, asked again shortly: %s", t.Number, model.ErrorMessage(err))
		k.retry[t.ID] = &unsettled{t: t, claims: []string{mark}, due: k.now().Add(retryPause(0))}
	}
}

// resolve reads a ticket whose claim went unanswered: claimed with one of
// this kiosk's marks means it won and prints; claimed with another mark
// (this kiosk before a restart) is left alone rather than printed twice;
// no longer in line or no longer this kiosk's is dropped; unclaimed is
// claimed again, once, its answer handled here. Whatever cannot be told
// now is asked again after a longer pause. It never calls claim.
func (k *kioskPrinter) resolve(ctx context.Context, u *unsettled) {
	t, err := k.st.Ticket(ctx, u.t.ID)
	switch {
	case model.IsCode(err, model.ENotFound):
		delete(k.retry, u.t.ID)
		return
	case err != nil:
		k.later(u)
		return
	case t.PrintKiosk != k.id:
		delete(k.retry, u.t.ID)
		return
	case t.PrintedAt != nil && slices.Contains(u.claims, t.PrintClaim):
		delete(k.retry, u.t.ID)
		k.print(ctx, t)
		return
	case t.PrintedAt != nil:
		delete(k.retry, u.t.ID)
		k.logf("kiosk prints: %s was accepted by an earlier claim: not printed again", t.Number)
		return
	case !t.Status.Printable():
		delete(k.retry, u.t.ID)
		return
	}
	mark := newClaim()
	u.claims = append(u.claims, mark)
	won, err := k.kp.ClaimPrint(ctx, t.ID, k.id, mark)
	switch {
	case err == nil:
		delete(k.retry, u.t.ID)
		k.print(ctx, won)
	case model.IsCode(err, model.EConflict):
		// An earlier claim of this kiosk may have committed after the
		// read: the next read tells.
		k.later(u)
	case settled(err):
		delete(k.retry, u.t.ID)
	default:
		k.later(u)
	}
}

// later asks u again after a longer pause than the last.
func (k *kioskPrinter) later(u *unsettled) {
	u.tries++
	u.due = k.now().Add(retryPause(u.tries))
}

// print hands a won claim to the print queue, once per process.
func (k *kioskPrinter) print(ctx context.Context, t model.Ticket) {
	if k.printed[t.ID] {
		return
	}
	k.printed[t.ID] = true
	pos, _ := k.st.Position(ctx, t.ID) // decorates the slip; the number stands without it
	k.q.Submit(t, pos)
	k.logf("kiosk prints: %s (taken on a %s) goes to this kiosk's printer", t.Number, t.Source)
}

// whoami is the peer client's question to the host: which terminal this
// PC's token is.
type whoami interface {
	Whoami(ctx context.Context) (peer.Whoami, error)
}

// startKioskPrints prints at this kiosk the numbers the handhelds send
// it. The tickets name a kiosk by its terminal id, which only a kiosk that
// reaches the host with its token has; a kiosk on the database directly
// is not offered on the handheld.
func startKioskPrints(ctx context.Context, st model.Store, q screens.PrintQueue, logf func(string, ...any)) {
	kp, ok := st.(model.KioskPrints)
	who, isPeer := st.(whoami)
	if !ok || !isPeer {
		return
	}
	said := ""
	for {
		w, err := who.Whoami(ctx)
		if err == nil {
			followKioskPrints(ctx, st, kp, w, q, logf)
			return
		}
		if msg := model.ErrorMessage(err); msg != said && ctx.Err() == nil {
			logf("kiosk prints: waiting for the host: %s", msg)
			said = msg
		}
		if !sleepCtx(ctx, unreachableRetry) {
			return
		}
	}
}
