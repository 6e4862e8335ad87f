package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/model"
)

// hostFake is the host as one kiosk sees it, one ticket deep, with the
// failures a test sets: writes refused, reads refused, or a claim that
// commits and loses its answer.
type hostFake struct {
	model.Store
	mu         sync.Mutex
	t          model.Ticket
	claims     int
	reads      int
	pendings   int
	failWrite  bool // a claim changes nothing and errs
	loseAnswer int  // the next n claims commit, then err
	failRead   int  // the next n ticket reads err
	failList   int  // the next n pending lists err
	stealFirst bool // a claim of another process commits before the first read
}

var errHost = model.Errorf(model.EUnavailable, "数据库暂时无法写入 (the database cannot write now)")

func (h *hostFake) ClaimPrint(_ context.Context, id, kiosk int64, claim string) (model.Ticket, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.claims++
	if h.failWrite {
		return model.Ticket{}, errHost
	}
	if id != h.t.ID || kiosk != h.t.PrintKiosk {
		return model.Ticket{}, model.Errorf(model.ENotFound, "not this kiosk's")
	}
	if h.t.PrintedAt != nil {
		return model.Ticket{}, model.Errorf(model.EConflict, "accepted already")
	}
	at := time.Unix(1, 0)
	h.t.PrintedAt, h.t.PrintClaim = &at, claim
	if h.loseAnswer > 0 {
		h.loseAnswer--
		return model.Ticket{}, errHost
	}
	return h.t, nil
}

func (h *hostFake) Ticket(_ context.Context, id int64) (model.Ticket, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reads++
	if h.failRead > 0 {
		h.failRead--
		return model.Ticket{}, errHost
	}
	if h.stealFirst {
		h.stealFirst = false
		at := time.Unix(2, 0)
		h.t.PrintedAt, h.t.PrintClaim = &at, "another process"
	}
	return h.t, nil
}

func (h *hostFake) PendingPrints(context.Context, int64) ([]model.Ticket, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pendings++
	if h.failList > 0 {
		h.failList--
		return nil, errHost
	}
	if h.t.PrintedAt != nil {
		return nil, nil
	}
	return []model.Ticket{h.t}, nil
}

func (h *hostFake) Position(context.Context, int64) (model.Position, error) {
	return model.Position{}, nil
}

func (h *hostFake) counts() (claims, reads int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.claims, h.reads
}

type countQueue struct{ n int }

func (q *countQueue) Submit(model.Ticket, model.Position) { q.n++ }
func (q *countQueue) Fault() string                       { return "" }

// testKiosk is kiosk 7 over h, on a clock the test moves.
func testKiosk(h *hostFake) (*kioskPrinter, *countQueue, *time.Time) {
	q := &countQueue{}
	clock := time.Unix(1000, 0)
	k := newKioskPrinter(h, h, peer.Whoami{ID: 7, Name: "K7"}, q, func(string, ...any) {})
	k.now = func() time.Time { return clock }
	return k, q, &clock
}

func requested() model.Ticket {
	return model.Ticket{ID: 42, Number: "A042", Status: model.Waiting, PrintAt: "K7", PrintKiosk: 7}
}

// While the host reads but cannot write, one take sends one claim, and
// each retry one more, each after a longer pause than the last: no claim
// calls another, however long the writes fail.
func TestKioskClaimFailingWritesRetriedWithBackoff(t *testing.T) {
	h := &hostFake{t: requested(), failWrite: true}
	k, q, clock := testKiosk(h)
	ctx := context.Background()
	k.handle(ctx, model.Change{Events: []model.Event{{Kind: model.EvTake, Ticket: &h.t}}})
	if claims, reads := h.counts(); claims != 1 || reads != 0 || k.retry[42] == nil {
		t.Fatalf("one take sent %d claims and %d reads, retry set %v: want one claim, kept for later", claims, reads, k.retry)
	}
	var pauses []time.Duration
	for want := 2; want <= 8; want++ {
		due, ok := k.nextDue()
		if !ok {
			t.Fatal("nothing due: the unsettled claim was dropped")
		}
		pauses = append(pauses, due.Sub(*clock))
		*clock = due.Add(-time.Millisecond)
		k.retryDue(ctx)
		if claims, _ := h.counts(); claims != want-1 {
			t.Fatalf("a retry before its time sent a claim (%d claims)", claims)
		}
		*clock = due
		k.retryDue(ctx)
		if claims, _ := h.counts(); claims != want {
			t.Fatalf("retry %d: %d claims sent, want %d", want-1, claims, want)
		}
	}
	for i := 1; i < len(pauses); i++ {
		if pauses[i] < pauses[i-1] || pauses[i] > retryMost {
			t.Fatalf("pauses %v: want them growing, none over %v", pauses, retryMost)
		}
	}
	if pauses[len(pauses)-1] <= pauses[0] || q.n != 0 {
		t.Fatalf("pauses %v, %d printed: want a longer pause at the end, nothing printed", pauses, q.n)
	}
	// The writes work again: the next retry wins and prints once.
	h.mu.Lock()
	h.failWrite = false
	h.mu.Unlock()
	due, _ := k.nextDue()
	*clock = due
	k.retryDue(ctx)
	k.handle(ctx, model.Change{Reloaded: true})
	if q.n != 1 || len(k.retry) != 0 {
		t.Fatalf("after the writes came back: %d printed, retry set %v; want one print, nothing left", q.n, k.retry)
	}
}

// A claim that committed with its answer lost is found by its mark when
// the ticket is read again: printed once, from the timer alone (no change
// of the queue comes), after a read that failed too; reconnects and
// re-reads after it print nothing more.
func TestKioskLostClaimAnswerPrintsOnce(t *testing.T) {
	h := &hostFake{t: requested(), loseAnswer: 1, failRead: 2}
	k, q, clock := testKiosk(h)
	ctx := context.Background()
	k.claim(ctx, h.t)
	if q.n != 0 || k.retry[42] == nil {
		t.Fatalf("lost answer: %d printed, retry set %v; want none printed, the claim kept", q.n, k.retry)
	}
	for i := 0; i < 3; i++ {
		due, ok := k.nextDue()
		if !ok {
			t.Fatalf("read %d: nothing due", i)
		}
		*clock = due
		k.retryDue(ctx)
	}
	claims, reads := h.counts()
	if q.n != 1 || claims != 1 || reads != 3 || len(k.retry) != 0 {
		t.Fatalf("%d printed after %d claims and %d reads, retry set %v: want one print, one claim, three reads", q.n, claims, reads, k.retry)
	}
	k.handle(ctx, model.Change{Reloaded: true})
	k.claim(ctx, h.t)
	if q.n != 1 {
		t.Fatalf("%d slips after a reconnect, want still one", q.n)
	}
}

// A ticket found accepted under another mark (this kiosk before a
// restart) is not printed again; one found unclaimed is claimed again,
// and when that second claim is told "accepted already" because the first
// committed late, the next read finds the first's mark and prints once.
func TestKioskLostClaimOtherMarksAndLateCommit(t *testing.T) {
	h := &hostFake{t: requested(), failWrite: true, stealFirst: true}
	k, q, clock := testKiosk(h)
	ctx := context.Background()
	k.claim(ctx, h.t)
	due, _ := k.nextDue()
	*clock = due
	k.retryDue(ctx)
	if q.n != 0 || len(k.retry) != 0 {
		t.Fatalf("accepted under another mark: %d printed, retry set %v; want neither", q.n, k.retry)
	}

	h = &hostFake{t: requested(), failWrite: true}
	k, q, clock = testKiosk(h)
	k.claim(ctx, h.t) // lost, and did not commit
	first := k.retry[42].claims[0]
	h.mu.Lock()
	h.failWrite = false
	h.mu.Unlock()
	// The first claim commits after the read found the ticket unclaimed.
	k.st = lateCommit{hostFake: h, mark: first}
	due, _ = k.nextDue()
	*clock = due
	k.retryDue(ctx)
	if q.n != 0 || k.retry[42] == nil {
		t.Fatalf("second claim told accepted already: %d printed, retry set %v; want it read again", q.n, k.retry)
	}
	k.st = h
	due, _ = k.nextDue()
	*clock = due
	k.retryDue(ctx)
	if q.n != 1 || len(k.retry) != 0 {
		t.Fatalf("after the late commit: %d printed, retry set %v; want one print", q.n, k.retry)
	}
}

// lateCommit reads the ticket unclaimed, then lets the claim of mark
// commit, as a claim still in flight when its answer was lost does.
type lateCommit struct {
	*hostFake
	mark string
}

func (l lateCommit) Ticket(ctx context.Context, id int64) (model.Ticket, error) {
	t, err := l.hostFake.Ticket(ctx, id)
	l.mu.Lock()
	at := time.Unix(3, 0)
	l.t.PrintedAt, l.t.PrintClaim = &at, l.mark
	l.mu.Unlock()
	return t, err
}

// A failed read of the requests made while away is read again from the
// timer: a quiet hall sends no change to wake the kiosk.
func TestKioskPendingReadRetriedInQuietHall(t *testing.T) {
	h := &hostFake{t: requested(), failList: 2}
	k, q, clock := testKiosk(h)
	ctx := context.Background()
	k.handle(ctx, model.Change{Reloaded: true})
	for i := 0; i < 2; i++ {
		due, ok := k.nextDue()
		if !ok {
			t.Fatalf("the failed read %d is not asked again", i)
		}
		*clock = due
		k.retryDue(ctx)
	}
	if q.n != 1 || h.pendings != 3 || k.recheck {
		t.Fatalf("%d printed after %d reads of the requests (still to read: %v), want one print after three", q.n, h.pendings, k.recheck)
	}
	if _, ok := k.nextDue(); ok {
		t.Fatal("something is still due after all was printed")
	}
}

// A kiosk without a terminal identity follows no prints: an ordinary
// take (no kiosk asked) is never claimed as its own.
func TestKioskWithoutIdentityClaimsNothing(t *testing.T) {
	h := &hostFake{t: model.Ticket{ID: 9, Number: "A009", Status: model.Waiting}}
	q := &countQueue{}
	k := newKioskPrinter(h, h, peer.Whoami{}, q, func(string, ...any) {})
	ordinary := h.t
	k.handle(context.Background(), model.Change{Events: []model.Event{{Kind: model.EvTake, Ticket: &ordinary}}})
	if claims, _ := h.counts(); claims != 0 || q.n != 0 {
		t.Fatalf("a kiosk without an id sent %d claims for an ordinary take", claims)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		followKioskPrints(context.Background(), h, h, peer.Whoami{Name: ""}, q, func(string, ...any) {})
	}()
	<-done // returns at once: it follows nothing
}
