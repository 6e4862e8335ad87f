package sqlstore

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// The report query's pieces, for the plan test outside the package:
// SQLite reads the columns packed.
const IssuedIn = issuedIn

var SQLiteTicketColumns = sqliteDialect{}.packedTicketColumns()

// HeadQuery is the call-next claim's pick, for the plan test.
var HeadQuery = headQuery

// HeadClaim is MariaDB's and MySQL's claim, which walks queue_head.
var HeadClaim = headClaim

// FailTakeEstimate makes the take's estimate fail, until the test ends, on
// a statement the database refuses: the transaction has seen a failed
// statement when the take goes on.
func FailTakeEstimate(t interface{ Cleanup(func()) }) {
	prev := takePosition
	takePosition = func(tx *txn, row ticketRow, now time.Time) (model.Position, error) {
		var n []int
		err := tx.Raw("SELECT no_such_column FROM ticket").Scan(&n).Error
		if err == nil {
			err = errors.New("the estimate's statement was not refused")
		}
		return model.Position{}, err
	}
	t.Cleanup(func() { takePosition = prev })
}

// AheadQuery is the walk of service's tickets ahead of ticket id, as the
// engine receives it, for the plan test.
func (s *GormStore) AheadQuery(ctx context.Context, id, service int64) (string, []any, error) {
	r := s.read(ctx)
	var row ticketRow
	if err := r.First(&row, id).Error; err != nil {
		return "", nil, err
	}
	cond, args := servedBefore(row.toModel(nil), s.d.rowValues())
	var out []ticketRow
	stmt := r.aheadQuery(row, service, cond, args, callOrder, aheadRead).Session(&gorm.Session{DryRun: true}).Find(&out).Statement
	return stmt.SQL.String(), stmt.Vars, nil
}

// PollQuery and PollInterval are the pool's version poll, for the test
// that counts it.
const (
	PollQuery    = pollQuery
	PollInterval = pollInterval
)

// WatchSignal is the channel the Store's watchers wait on, closed when its
// branch's version moves; nil before the first Watch.
func (s *GormStore) WatchSignal() <-chan struct{} {
	if h := s.hub.Load(); h != nil {
		return h.signal()
	}
	return nil
}

// LoseRaceAtCommit is one write attempt that makes window hold ticket id,
// logs events events, and then finds the ticket changed since it was read
// (its guarded write expects a state the ticket is not in), as a lost race
// between two terminals does. It reports whether the attempt failed as a
// lost race; whatever it wrote must be gone.
func (s *GormStore) LoseRaceAtCommit(ctx context.Context, window int, id int64, events int) (bool, error) {
	_, err := s.writeOnce(ctx, func(t *txn) error {
		t.holdTicket(window, id)
		t.later("UPDATE ticket SET status = ? WHERE id = ? AND branch_id = ? AND status = ?", true,
			int(model.Done), id, t.s.branchID, -1)
		for range events {
			t.emit(pendingEvent{kind: model.EvRecall, ticketID: id, windowNo: window, ownStaff: true})
		}
		return nil
	})
	return errors.Is(err, errConflict), err
}

// CancelMidWrite is one write attempt that makes window hold ticket id and
// then has its request cancelled before it commits, as a clerk's program
// closing mid-call does.
func (s *GormStore) CancelMidWrite(window int, id int64) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := s.writeOnce(ctx, func(t *txn) error {
		if err := t.Exec("UPDATE service_window SET current_ticket_id = ? WHERE branch_id = ? AND number = ?", id, t.s.branchID, window).Error; err != nil {
			return err
		}
		cancel()
		return t.Exec("UPDATE ticket SET priority = priority WHERE id = ?", id).Error
	})
	return err
}

// ObserveDirect shows fn each statement a write sends to the driver past
// GORM's callbacks (PostgreSQL's last statement, sent with the commit),
// until the test ends.
func ObserveDirect(t interface{ Cleanup(func()) }, fn func(sql string, vars []any)) {
	sentDirect.Store(&fn)
	t.Cleanup(func() { sentDirect.Store(nil) })
}

// ObserveBatches calls fn for each batch a write sends past GORM (one
// round trip each), until the test ends.
func ObserveBatches(t interface{ Cleanup(func()) }, fn func()) {
	sentBatch.Store(&fn)
	t.Cleanup(func() { sentBatch.Store(nil) })
}

// EarlyHead is the head window's call would read with the window's row
// (call_head.go), in a transaction of its own: found is false where it
// would read none, or the engine reads none early.
func EarlyHead(ctx context.Context, s *GormStore, window int) (number string, found bool, err error) {
	err = s.write(ctx, func(t *txn) error {
		_, h, err := t.windowAndHead(window, true)
		number, found = h.row.Number, h.found
		return err
	})
	return number, found, err
}

// Estimated is what an estimate of a new number was made of and said.
type Estimated struct {
	Position model.Position
	// Arrivals are the ids of the recent numbers taken it counted the
	// better-priority ones of, newest first.
	Arrivals []int64
}

// KeptAndFreshEstimates is the estimate of a new number of service at
// priority (0: the service's own) at one moment, made from the store's kept
// reading brought up to date as a take would, and from a fresh reading.
func KeptAndFreshEstimates(ctx context.Context, s *GormStore, service string, priority int) (kept, fresh Estimated, err error) {
	now, err := s.Now(ctx)
	if err != nil {
		return kept, fresh, err
	}
	t := s.read(ctx)
	t.now, t.date = now, s.calendar(ctx).Date(now)
	svc, err := t.serviceByCode(service)
	if err != nil {
		return kept, fresh, err
	}
	if priority == 0 {
		priority = svc.Priority
	}
	row := s.takeProbe(svc.ID, t.date, priority, now)
	if kept.Position, err = t.takenPosition(row, now); err != nil {
		return kept, fresh, err
	}
	if r := s.readings.get(); r != nil {
		kept.Arrivals = arrivalIDs(r.base.arrivals)
	}
	if fresh.Position, err = t.position(row, now); err != nil {
		return kept, fresh, err
	}
	b, err := t.estimateBase(now)
	fresh.Arrivals = arrivalIDs(b.arrivals)
	return kept, fresh, err
}

func arrivalIDs(as []arrivalRow) []int64 {
	out := make([]int64, len(as))
	for i, a := range as {
		out[i] = a.ID
	}
	return out
}

// ReplayedEvents is how many events a kept reading was brought up to date
// with instead of read again.
func (s *GormStore) ReplayedEvents() int64 { return s.readings.replayed.Load() }

// KeepReadings keeps take readings for up to d until the test ends, so a
// test slower than the usual bound still brings one reading up to date.
func KeepReadings(t interface{ Cleanup(func()) }, d time.Duration) {
	prev := maxReadingAge
	maxReadingAge = d
	t.Cleanup(func() { maxReadingAge = prev })
}

// ForgetTakeReading drops the kept reading, for tickets written past the
// store (bulk loads with no events) and for a test that wants the take's
// full reading.
func (s *GormStore) ForgetTakeReading() {
	s.readings.mu.Lock()
	defer s.readings.mu.Unlock()
	s.readings.r = nil
}

// WriteAttempts runs a write whose attempts end in turn as outcomes says
// ("conflict": a lost race, "redo": run again by choice), then succeed
// with nothing written, and reports how many attempts ran.
func WriteAttempts(ctx context.Context, s *GormStore, outcomes ...string) (int, error) {
	n := 0
	err := s.write(ctx, func(t *txn) error {
		n++
		if n <= len(outcomes) {
			switch outcomes[n-1] {
			case "conflict":
				return errConflict
			case "redo":
				return errRedo
			}
		}
		return nil
	})
	return n, err
}

// FailAfterFirst is one write attempt whose first statement is of the
// kind first names (the window read, a GORM query, a GORM single-row
// query, or the write itself), that then makes window hold ticket id and
// fails, or with commit set commits (id 0: holds none). On PostgreSQL BEGIN goes out with
// the first statement or before it.
func (s *GormStore) FailAfterFirst(ctx context.Context, window int, id int64, first string, commit bool) error {
	_, err := s.writeOnce(ctx, func(t *txn) error {
		var n int64
		var err error
		switch first {
		case "read":
			_, err = t.window(window)
		case "query":
			err = t.Raw("SELECT COUNT(*) FROM service_window WHERE branch_id = ?", t.s.branchID).Scan(&n).Error
		case "row":
			err = t.Raw("SELECT COUNT(*) FROM service_window WHERE branch_id = ?", t.s.branchID).Row().Scan(&n)
		}
		if err != nil {
			return err
		}
		held := &id
		if id == 0 {
			held = nil
		}
		if err := t.Exec("UPDATE service_window SET current_ticket_id = ? WHERE branch_id = ? AND number = ?", held, t.s.branchID, window).Error; err != nil {
			return err
		}
		if commit {
			return nil
		}
		return errors.New("the write fails after its first statements")
	})
	return err
}

// WalkAfter is the walk of service's waiting tickets ahead of a new
// number, read as a take reads it when every commit up to version known
// must be seen: its count, its version, and whether each read missed one.
func WalkAfter(ctx context.Context, s *GormStore, service string, known int64) (count int, version int64, missed bool, err error) {
	now, err := s.Now(ctx)
	if err != nil {
		return 0, 0, false, err
	}
	t := s.read(ctx)
	t.now, t.date = now, s.calendar(ctx).Date(now)
	svc, err := t.serviceByCode(service)
	if err != nil {
		return 0, 0, false, err
	}
	w, err := t.walkAhead(s.takeProbe(svc.ID, t.date, svc.Priority, now), svc.ID, known)
	return w.count, w.version, w.missed, err
}

// KeepsReadings says the engine reads one committed state per statement,
// so a take's reading can be kept (see takeReading).
func KeepsReadings(s *GormStore) bool { return s.d.statementSnapshot() }

// HoldWrite is a write that has begun its transaction when it tells
// entered, and ends when release closes or ctx ends: a test holds a
// branch's writes in flight with it.
func (s *GormStore) HoldWrite(ctx context.Context, entered chan<- struct{}, release <-chan struct{}) error {
	return s.write(ctx, func(t *txn) error {
		if err := t.read("SELECT 1", nil, func(scan func(...any) error) error { var one int; return scan(&one) }); err != nil {
			return err
		}
		entered <- struct{}{}
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
}

// InFlightBound is the branch's bound on writes in flight, 0 for none.
func InFlightBound(s *GormStore) int { return cap(s.inFlight) }

// KeepsIssueKey says whether the engine keeps the last number's sort key
// on its sequence row (seqKeyer).
func KeepsIssueKey(s *GormStore) bool { _, ok := s.d.(seqKeyer); return ok }
