package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// errConflict: another terminal changed the row between our read and our
// write; the whole operation is retried on fresh data.
var errConflict = errors.New("concurrent update")

// errSkip: nothing to do (a sweeper found the work already done); the
// transaction is rolled back and no event is written.
var errSkip = errors.New("nothing to do")

// errRedo: the attempt ended itself having chosen to do less (a take
// whose estimate failed); it is rolled back and run again at once.
var errRedo = errors.New("run the write again")

// txn is one write transaction: the database clock read once, the business
// date, lazily loaded reference data, and the events to log at the end.
type txn struct {
	*gorm.DB
	s      *GormStore
	ctx    context.Context
	now    time.Time
	date   string
	svc    map[int64]serviceRow
	events []pendingEvent
	// version is the branch version of the last event written.
	version int64
	st      *model.Settings // read once by the take and its estimate
	// acting is the window acting (0: manager, timer or no window):
	// its signed-in clerk is the staff of the transaction's events.
	acting int
	// clerks caches the clerk signed in at a window today (nil: none).
	clerks map[int]*int64
	// tail is the writes sent with the first event (see later).
	tail []tailWrite
	// wt is the write transaction (nil: a read outside one).
	wt writeTx
}

// read is writeTx.read, or a plain read outside a write.
func (t *txn) read(q string, args []any, row func(scan func(...any) error) error) error {
	if t.wt == nil {
		return readRows(t.DB, q, args, row)
	}
	return t.wt.read(q, args, row)
}

type pendingEvent struct {
	kind     string
	ticket   *model.Ticket
	window   *model.Window
	device   *model.Device
	alert    *model.Alert
	windowNo int
	from, to model.Status
	note     string
	// staffID names the clerk outright (a sign-out, whose window is
	// empty by the time the event is logged); nil: the acting window's,
	// unless ownStaff says nil is the answer (a rating of a finish
	// nobody was signed in for).
	staffID  *int64
	ownStaff bool
	// ticketID names the ticket of an event that carries none (a
	// rating, which changes no ticket).
	ticketID int64
}

const maxAttempts = 10

// write runs fn in a transaction and logs its events with the next branch
// versions as the last statements, retrying deadlocks, busy databases and
// lost optimistic races.
func (s *GormStore) write(ctx context.Context, fn func(*txn) error) error {
	redos := 0
	for attempt := 1; ; attempt++ {
		v, err := s.writeOnce(ctx, fn)
		if err == nil {
			s.notify(v)
			return nil
		}
		if errors.Is(err, errRedo) {
			// Not a lost race: the attempt does not count as one, but
			// an fn that keeps asking is a fault, not a loop.
			if redos++; redos > maxAttempts {
				return s.wrap(err)
			}
			if ctx.Err() != nil {
				return s.wrap(ctx.Err())
			}
			attempt--
			continue
		}
		retry := errors.Is(err, errConflict) || s.d.errorKind(err) == errRetry
		if !retry || attempt == maxAttempts || ctx.Err() != nil {
			if errors.Is(err, errConflict) {
				return model.Errorf(model.EConflict, "号码正被其他终端操作，请重试 (busy, try again)")
			}
			if errors.Is(err, errSkip) {
				return err
			}
			return s.wrap(err)
		}
		time.Sleep(time.Duration(rand.IntN(attempt*2000)+200) * time.Microsecond)
	}
}

// writeOnce is one attempt of write; v is the branch version of its last
// event (0: it logged none).
func (s *GormStore) writeOnce(ctx context.Context, fn func(*txn) error) (v int64, err error) {
	// The calendar may need a reload, which takes a connection of its own:
	// inside the transaction SQLite's only one would be held by it.
	cal := s.calendar(ctx)
	// The branch's bound first: a write waiting on its own branch holds
	// no turn at the pool another branch could use (BranchInFlight).
	if s.inFlight != nil {
		select {
		case s.inFlight <- struct{}{}:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		defer func() { <-s.inFlight }()
	}
	// Writers queue here in arrival order before asking the pool: the pool
	// hands a freed connection to a random waiter, so with more windows than
	// connections a few calls waited many turns (64 windows on PostgreSQL:
	// p99 five times p50).
	select {
	case s.writers <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-s.writers }()
	now, err := s.Now(ctx)
	if err != nil {
		return 0, err
	}
	now = now.Truncate(time.Microsecond)
	wt, err := s.d.beginWrite(ctx, s.db, commitBudget(ctx))
	if err != nil {
		return 0, err
	}
	committed := false
	defer func() {
		if !committed {
			wt.rollback()
		}
	}()
	t := &txn{DB: wt.db(), s: s, ctx: ctx, now: now, date: cal.Date(now), wt: wt}
	if err := fn(t); err != nil {
		return 0, err
	}
	last, err := t.logEvents()
	if err != nil {
		return 0, err
	}
	v, err = wt.commit(last, t.tail)
	if err != nil {
		return 0, err
	}
	committed = true
	if last != nil {
		t.version = v
	}
	return t.version, nil
}

// commitBudget is how long from now a write may take to have all it needs
// to commit, when ctx has a deadline: the time left less a fifth of it (at
// most a second), for the commit itself and its answer. Zero: no bound.
func commitBudget(ctx context.Context) time.Duration {
	dl, ok := ctx.Deadline()
	if !ok {
		return 0
	}
	left := time.Until(dl)
	return max(left-min(left/5, time.Second), time.Microsecond)
}

// logEvents takes one version per event by incrementing branch.version: the
// row lock orders commits, so versions become visible without gaps. It
// writes every event but the last, which it returns for the commit to
// write (nil: none); the tail writes go with the first event.
func (t *txn) logEvents() (*eventRow, error) {
	actor := actorOf(t.ctx)
	var last *eventRow
	for _, e := range t.events {
		if last != nil {
			v, err := t.s.d.appendEvent(t.DB, *last, t.tail)
			if err != nil {
				return nil, err
			}
			t.version, t.tail = v, nil
		}
		if e.device != nil {
			e.device.Terminal, e.device.At = actor, t.now
		}
		detail, _ := json.Marshal(eventDetail{Ticket: e.ticket, Window: e.window, Device: e.device, Alert: e.alert, Note: e.note})
		row := eventRow{BranchID: t.s.branchID, At: t.now, Kind: e.kind, FromStatus: int(e.from),
			ToStatus: int(e.to), Actor: actor, Detail: string(detail), WindowNo: intPtr(e.windowNo)}
		if e.ticket != nil {
			e.ticketID = e.ticket.ID
		}
		if e.ticketID != 0 {
			row.TicketID = &e.ticketID
		}
		if row.StaffID = e.staffID; row.StaffID == nil && !e.ownStaff {
			staff, err := t.eventStaff(e.windowNo)
			if err != nil {
				return nil, err
			}
			row.StaffID = staff
		}
		last = &row
	}
	return last, nil
}

func (t *txn) emit(e pendingEvent) { t.events = append(t.events, e) }

// services loads the branch's services once per transaction.
func (t *txn) services() (map[int64]serviceRow, error) {
	if t.svc != nil {
		return t.svc, nil
	}
	var rows []serviceRow
	if err := t.Where("branch_id = ?", t.s.branchID).Find(&rows).Error; err != nil {
		return nil, err
	}
	t.svc = make(map[int64]serviceRow, len(rows))
	for _, r := range rows {
		t.svc[r.ID] = r
	}
	return t.svc, nil
}

// codes maps service ids to codes; ids name the services a caller is about
// to look up, so a service created meanwhile is found.
func (t *txn) codes(ids ...int64) (codes, error) {
	if c, ok := t.s.codes.get(ids...); ok {
		return c, nil
	}
	t.svc = nil
	svc, err := t.services()
	if err != nil {
		return nil, err
	}
	c := make(codes, len(svc))
	for id, r := range svc {
		c[id] = r.Code
	}
	t.s.codes.set(c)
	return c, nil
}

// serviceByCode reads a service's current row; unknown codes are a typed
// error.
func (t *txn) serviceByCode(code string) (serviceRow, error) {
	if t.svc != nil {
		for _, r := range t.svc {
			if r.Code == code {
				return r, nil
			}
		}
	}
	var rows []serviceRow
	if err := t.Where("branch_id = ? AND code = ?", t.s.branchID, code).Limit(1).Find(&rows).Error; err != nil {
		return serviceRow{}, err
	}
	if len(rows) == 0 {
		return serviceRow{}, model.Errorf(model.ENotFound, "没有业务 %q (unknown service)", code)
	}
	return rows[0], nil
}

func (t *txn) settings() (model.Settings, error) {
	return loadSettings(t.DB, t.s.branchID)
}

// settingsOnce is settings read once per transaction, for writes that
// change no setting (the take and its estimate).
func (t *txn) settingsOnce() (model.Settings, error) {
	if t.st == nil {
		st, err := t.settings()
		if err != nil {
			return st, err
		}
		t.st = &st
	}
	return *t.st, nil
}

func loadSettings(db *gorm.DB, branchID int64) (model.Settings, error) {
	var rows []settingRow
	if err := db.Where("branch_id = ?", branchID).Find(&rows).Error; err != nil {
		return model.Settings{}, err
	}
	raw := make(map[string]string, len(rows))
	for _, r := range rows {
		raw[r.Key] = r.Value
	}
	return model.ParseSettings(raw), nil
}
