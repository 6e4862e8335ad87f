package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// A kiosk prints the numbers floor staff took for customers on a handheld
// and sent to this kiosk (by its terminal id: names may repeat). It
// follows the queue's events; a take for it is claimed on the host (one
// conditional update: one kiosk, one print), and only a claim that won is
// printed, after it committed. At start and after every reconnect it asks
// for the requests made while it was away. A claim whose answer was lost
// goes into a retry set, asked again from a timer with a growing pause,
// never at once in a loop: the host may read well and write badly for a
// while, and a quiet hall sends no change to wake the kiosk. A printer
// fault is the print queue's, reported as any other: the job waits in the
// queue and the ticket stands. Delivery is at most once: the claim is the
// kiosk's acceptance, and a slip still in the queue when the kiosk dies
// is lost (the customer keeps the QR code).

// kioskPrinter is the state of one kiosk's remote prints, on one
// goroutine only (loop).
type kioskPrinter struct {
	st   model.Store
	kp   model.KioskPrints
	id   int64  // this kiosk's terminal id, as the tickets name it
	name string // its name, for the log
	q    screens.PrintQueue
	logf func(string, ...any)
	now  func() time.Time // paces the retries only: this PC's clock will do

	recheck      bool      // the requests made while away are still to be read
	recheckTries int       // failed reads of them in a row
	recheckDue   time.Time // when to read them again after a failure
	retry        map[int64]*unsettled
	printed      map[int64]bool // submitted to the printer by this process
}

// unsettled is a print whose claim went unanswered: claims are the marks
// this kiosk sent for it (any of them may have committed), and it is asked
// again at due.
type unsettled struct {
	t      model.Ticket
	claims []string
	tries  int
	due    time.Time
}

// The pause before asking again after a lost answer or a failed read
// doubles from retryFirst up to retryMost.
const (
	retryFirst = time.Second
	retryMost  = 30 * time.Second
)

func retryPause(tries int) time.Duration {
	d := retryFirst
	for i := 0; i < tries && d < retryMost; i++ {
		d *= 2
	}
	return min(d, retryMost)
}

func newKioskPrinter(st model.Store, kp model.KioskPrints, me peer.Whoami, q screens.PrintQueue, logf func(string, ...any)) *kioskPrinter {
	return &kioskPrinter{st: st, kp: kp, id: me.ID, name: me.Name, q: q, logf: logf, now: time.Now,
		retry: map[int64]*unsettled{}, printed: map[int64]bool{}}
}

// followKioskPrints runs until ctx ends. A kiosk without a terminal
// identity follows no prints: every ordinary take would look like its own.
func followKioskPrints(ctx context.Context, st model.Store, kp model.KioskPrints, me peer.Whoami, q screens.PrintQueue, logf func(string, ...any)) {
	if me.ID <= 0 {
		logf("kiosk prints: this kiosk has no terminal id on the host: it prints no numbers taken on a handheld")
		return
	}
	k := newKioskPrinter(st, kp, me, q, logf)
	changes := make(chan model.Change)
	go model.NewFollower(st, func(c model.Change) {
		select {
		case changes <- c:
		case <-ctx.Done():
		}
	}).Run(ctx)
	k.loop(ctx, changes)
}

// loop handles the queue's changes and, between them, the retries as
// they fall due.
func (k *kioskPrinter) loop(ctx context.Context, changes <-chan model.Change) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		if due, ok := k.nextDue(); ok {
			timer.Reset(max(0, due.Sub(k.now())))
		}
		select {
		case <-ctx.Done():
			return
		case c := <-changes:
			timer.Stop()
			k.handle(ctx, c)
		case <-timer.C:
			k.retryDue(ctx)
		}
	}
}

// nextDue is when the earliest retry falls due, if any is waiting.
func (k *kioskPrinter) nextDue() (time.Time, bool) {
	var due time.Time
	ok := false
	if k.recheck {
		due, ok = k.recheckDue, true
	}
	for _, u := range k.retry {
		if !ok || u.due.Before(due) {
			due, ok = u.due, true
		}
	}
	return due, ok
}

func (k *kioskPrinter) handle(ctx context.Context, c model.Change) {
	if c.Reloaded {
		// A start, a gap or a lost link: events may be missing, and
		// what failed against the host may work again now.
		k.recheck, k.recheckDue = true, time.Time{}
		for _, u := range k.retry {
			u.due = time.Time{}
		}
	}
	for _, ev := range c.Events {
		if ev.Kind == model.EvTake && ev.Ticket != nil && k.id > 0 && ev.Ticket.PrintKiosk == k.id {
			k.claim(ctx, *ev.Ticket)
		}
	}
	k.retryDue(ctx)
}

// retryDue asks again what has fallen due: the requests made while away,
// and each unsettled claim.
func (k *kioskPrinter) retryDue(ctx context.Context) {
	now := k.now()
	for _, u := range k.retry {
		if !now.Before(u.due) {
			k.resolve(ctx, u)
		}
	}
	if k.recheck && !now.Before(k.recheckDue) {
		k.reread(ctx)
	}
}

// reread reads the requests made while this kiosk was away and claims
// them; a failure is read again after a pause.
func (k *kioskPrinter) reread(ctx context.Context) {
	pending, err := k.kp.PendingPrints(ctx, k.id)
	if err != nil {
		k.recheckDue = k.now().Add(retryPause(k.recheckTries))
		k.recheckTries++
		k.logf("kiosk prints: requests not read, again shortly: %s", model.ErrorMessage(err))
		return
	}
	k.recheck, k.recheckTries = false, 0
	for _, t := range pending {
		k.claim(ctx, t)
	}
}

// newClaim is a mark no other claim has: the ticket keeps the winner's.
func newClaim() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
