package app

import (
	"context"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// A kiosk prints the numbers floor staff took for customers on a handheld
// and named this kiosk for. It follows the queue's events; a take that
// names it is claimed on the host (one conditional update: one kiosk, one
// print), and only a claim that won is printed, after it committed. At
// start and after every reconnect it asks for the requests made while it
// was away. A printer fault is the print queue's, reported as any other:
// the job waits in the queue and the ticket stands.

// kioskPrinter is the state of one kiosk's remote prints, on the
// follower's goroutine only.
type kioskPrinter struct {
	st   model.Store
	kp   model.KioskPrints
	name string // this kiosk's terminal name, as the tickets name it
	q    screens.PrintQueue
	logf func(string, ...any)

	recheck bool                // the requests made while away are still to be read
	unsure  map[int64]time.Time // claims whose answer was lost, by when they were sent
	printed map[int64]bool      // submitted to the printer by this process
}

// unsureRetry bounds how long a lost claim answer is asked after at once;
// after that it is asked again at the next change of the queue.
const unsureRetry = 3

// followKioskPrints runs until ctx ends.
func followKioskPrints(ctx context.Context, st model.Store, kp model.KioskPrints, name string, q screens.PrintQueue, logf func(string, ...any)) {
	k := &kioskPrinter{st: st, kp: kp, name: name, q: q, logf: logf, unsure: map[int64]time.Time{}, printed: map[int64]bool{}}
	f := model.NewFollower(st, func(c model.Change) { k.handle(ctx, c) })
	f.Run(ctx)
}

func (k *kioskPrinter) handle(ctx context.Context, c model.Change) {
	if c.Reloaded {
		k.recheck = true // a start, a gap or a lost link: events may be missing
	}
	for _, ev := range c.Events {
		if ev.Kind == model.EvTake && ev.Ticket != nil && ev.Ticket.PrintAt == k.name {
			k.claim(ctx, *ev.Ticket)
		}
	}
	for id, sent := range k.unsure {
		k.resolve(ctx, id, sent, 1)
	}
	if k.recheck {
		pending, err := k.kp.PendingPrints(ctx, k.name)
		if err != nil {
			k.logf("kiosk prints: requests not read, again at the next change: %s", model.ErrorMessage(err))
			return
		}
		k.recheck = false
		for _, t := range pending {
			k.claim(ctx, t)
		}
	}
}

// claim asks for the print of t and prints it when this kiosk won.
func (k *kioskPrinter) claim(ctx context.Context, t model.Ticket) {
	if k.printed[t.ID] {
		return
	}
	sent, _ := k.st.Now(ctx) // the database's clock, as printed_at is
	won, err := k.kp.ClaimPrint(ctx, t.ID, k.name)
	switch {
	case err == nil:
		k.print(ctx, won)
	case model.IsCode(err, model.EConflict), model.IsCode(err, model.ENotFound), model.IsCode(err, model.EForbidden):
		// Printed already (by this kiosk before a restart), or not ours.
	default:
		// The claim may have committed with its answer lost: ask the
		// ticket, rather than print twice or not at all.
		k.logf("kiosk prints: claim of %s unanswered: %s", t.Number, model.ErrorMessage(err))
		k.unsure[t.ID] = sent
		k.resolve(ctx, t.ID, sent, unsureRetry)
	}
}

// resolve reads a ticket whose claim, sent at sent, went unanswered:
// claimed since then means this kiosk won (only the kiosk named may
// claim), claimed before (by this kiosk before a restart) or at a time
// unknown is left alone rather than printed twice, and unclaimed is
// claimed again.
func (k *kioskPrinter) resolve(ctx context.Context, id int64, sent time.Time, tries int) {
	for i := 0; i < tries; i++ {
		t, err := k.st.Ticket(ctx, id)
		if err == nil {
			delete(k.unsure, id)
			if t.PrintAt != k.name {
				return
			}
			switch {
			case t.PrintedAt == nil:
				k.claim(ctx, t)
			case !sent.IsZero() && !t.PrintedAt.Before(sent):
				k.print(ctx, t)
			default:
				k.logf("kiosk prints: %s was claimed, not surely by this claim: not printed again", t.Number)
			}
			return
		}
		if model.IsCode(err, model.ENotFound) {
			delete(k.unsure, id)
			return
		}
		if i+1 < tries && !sleepCtx(ctx, time.Second) {
			return
		}
	}
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
// it. The tickets name a kiosk by its terminal, which only a kiosk that
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
			followKioskPrints(ctx, st, kp, w.Name, q, logf)
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
