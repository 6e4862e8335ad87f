package sqlstore

import (
	"cmp"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"jiaohao/model"
)

// A rush of takes (the kiosks at opening time, a coach party) changes
// nothing the wait estimate reads but the queue itself, one new ticket at
// a time. So a take keeps what its estimate read, and the next take reads
// only the events since: when they are all takes, their tickets are added
// to what was kept, where a new reading would find them; any other event
// that moves the queue or the windows (a call, a window paused, a service
// or setting changed), a new business day, or a reading older than
// maxReadingAge makes the take read everything again.
//
// This is exact because versions are gap-free and commit-ordered: a
// reading made at version v and the events after v are the state now.
// Each walk of a service reads the branch version in the same statement
// as its tickets, so a ticket committed while the reading was made is
// counted once, by the walk or by the events after it, never by both.
// A statement on MariaDB may still miss a commit that one it sees came
// after (see EventsSince): the events after a reading must follow it with
// no version missing, and a walk counts, in its statement, the events
// since a version every later statement sees all of, so a walk that
// missed one is read again. An engine whose statement does not read one
// committed state (SQL Server under locking read committed) reads
// everything on every take.

// maxReadingAge bounds how long a reading is kept at all, for what
// changes without an event of its own; a variable for the tests.
var maxReadingAge = 2 * time.Second

// maxReplay is how many events after a reading are added to it; more and
// it is read again, which is then as cheap.
const maxReplay = 32

// takeReading is what the estimate of a new number read at version.
type takeReading struct {
	date     string
	version  int64     // the base was read at this version or later
	built    time.Time // this process's clock, for maxReadingAge
	base     estimateBase
	settings model.Settings
	walks    map[walkKey]aheadWalk
}

// walkKey names the walk of one service ahead of a new number of the
// given priority (a new number is always in the normal lane, last among
// its equals: takeProbe).
type walkKey struct {
	service  int64
	priority int
}

// readings keeps a store's last reading; takes copy it, bring the copy up
// to date and keep it back when it is newer.
type readings struct {
	mu sync.Mutex
	r  *takeReading
	// replayed counts the events a kept reading was brought up to date
	// with instead of read again: what it saved, for the tests.
	replayed atomic.Int64
}

func (k *readings) get() *takeReading {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.r
}

func (k *readings) keep(r *takeReading) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.r == nil || r.version >= k.r.version {
		k.r = r
	}
}

// replayRow is one event after a reading with the ticket it names.
type replayRow struct {
	Version      int64
	Kind         string
	ID           *int64
	ServiceID    *int64
	Lane         *int
	Priority     *int
	SortKey      *int64
	Status       *int
	BusinessDate *string
	IssuedAt     *time.Time
}

// quietKinds are the events that change nothing the estimate reads.
var quietKinds = map[string]bool{
	model.EvPrinted: true, model.EvDevice: true, model.EvAlert: true, model.EvAlertClear: true,
	model.EvAlertAck: true, model.EvHealth: true, model.EvRate: true,
}

// takenPosition is the estimate of row, a number about to be taken
// (takeProbe), at now: from the kept reading brought up to date, or from
// a new one.
func (t *txn) takenPosition(row ticketRow, now time.Time) (model.Position, error) {
	if !t.s.d.statementSnapshot() {
		return t.position(row, now)
	}
	r, err := t.currentReading(row.BusinessDate)
	if err != nil {
		return model.Position{}, err
	}
	b := r.base.at(now)
	services := b.services(row.ServiceID)
	walks := make([]aheadWalk, len(services))
	keep := true
	for i, id := range services {
		k := walkKey{id, row.Priority}
		w, ok := r.walks[k]
		if !ok {
			// Every commit up to r.version was seen by an earlier
			// statement (a version read, or events with none missing).
			if w, err = t.walkAhead(row, id, r.version); err != nil {
				return model.Position{}, err
			}
			if w.version == 0 {
				w.version = r.version
			}
			if w.missed {
				keep = false
			} else {
				r.walks[k] = w
			}
		}
		walks[i] = w
	}
	if keep {
		t.s.readings.keep(r)
	}
	ahead, total := mergeWalks(walks)
	return b.estimate(row, ahead, total), nil
}

// currentReading is a private copy of the kept reading brought up to the
// state t sees, or a new reading when that cannot be done.
func (t *txn) currentReading(date string) (*takeReading, error) {
	if old := t.s.readings.get(); old != nil && old.date == date && time.Since(old.built) < maxReadingAge {
		var evs []replayRow
		err := t.Table("queue_event AS e").
			Select("e.version, e.kind, k.id, k.service_id, k.lane, k.priority, k.sort_key, k.status, k.business_date, k.issued_at").
			Joins("LEFT JOIN ticket k ON k.id = e.ticket_id AND k.branch_id = e.branch_id").
			Where("e.branch_id = ? AND e.version > ?", t.s.branchID, old.version).
			Order("e.version").Limit(maxReplay + 1).Scan(&evs).Error
		if err != nil {
			return nil, err
		}
		if r, ok := old.replay(evs); ok {
			t.s.readings.replayed.Add(int64(r.version - old.version))
			t.st = &r.settings
			return r, nil
		}
	}
	return t.newReading(date)
}

// newReading reads the estimate's base at a version read first; the
// walks are read as takes need them.
func (t *txn) newReading(date string) (*takeReading, error) {
	r := &takeReading{date: date, built: time.Now(), walks: map[walkKey]aheadWalk{}}
	v, err := t.s.version(t.DB)
	if err != nil {
		return nil, err
	}
	r.version = v
	b, err := t.estimateBase(t.now)
	if err != nil {
		return nil, err
	}
	st, err := t.settingsOnce()
	if err != nil {
		return nil, err
	}
	r.base, r.settings = b, st
	return r, nil
}

// replay is r with evs, the events after it in version order, added: false
// when one of them is not a take of today's queue or there are too many.
func (r *takeReading) replay(evs []replayRow) (*takeReading, bool) {
	if len(evs) > maxReplay {
		return nil, false
	}
	out := *r
	out.walks = make(map[walkKey]aheadWalk, len(r.walks))
	for k, w := range r.walks {
		out.walks[k] = w
	}
	added := false
	for _, e := range evs {
		if e.Version != out.version+1 {
			return nil, false // a commit this read missed: read again
		}
		if quietKinds[e.Kind] {
			out.version = e.Version
			continue
		}
		if e.Kind != model.EvTake || e.ID == nil || *e.Status != int(model.Waiting) || *e.BusinessDate != r.date {
			return nil, false
		}
		if !added { // the arrivals are copied once, when they first change
			out.base.arrivals = slices.Clone(out.base.arrivals)
			added = true
		}
		out.base.arrivals = addArrival(out.base.arrivals, arrivalRow{ID: *e.ID, ServiceID: *e.ServiceID,
			Priority: *e.Priority, Lane: *e.Lane, IssuedAt: *e.IssuedAt})
		key := model.ServingKey(ticketRow{ID: *e.ID, Lane: *e.Lane, Priority: *e.Priority, SortKey: *e.SortKey}.toModel(nil))
		for k, w := range out.walks {
			if k.service == *e.ServiceID && w.version < e.Version && slices.Compare(key, probeKey(k.priority)) < 0 {
				out.walks[k] = w.with(aheadRow{service: k.service, key: key}, e.Version)
			}
		}
		out.version = e.Version
	}
	return &out, true
}

// probeKey is the serving key of a new number of priority p (takeProbe).
func probeKey(p int) []int64 {
	return model.ServingKey(probeRow(p).toModel(nil))
}

// with is w after ticket row was taken at version: in the head where it
// sorts, if it sorts among the first aheadRead, and counted.
func (w aheadWalk) with(row aheadRow, version int64) aheadWalk {
	at, _ := slices.BinarySearchFunc(w.head, row.key, func(a aheadRow, k []int64) int { return slices.Compare(a.key, k) })
	if at < aheadRead {
		head := make([]aheadRow, 0, min(len(w.head)+1, aheadRead))
		head = append(append(append(head, w.head[:at]...), row), w.head[at:min(len(w.head), aheadRead-1)]...)
		w.head = head
	}
	w.count = min(w.count+1, model.MaxAhead)
	w.version = version
	return w
}

// newerFirst orders arrivals as estimateBase reads them: the latest
// first and, taken in the same microsecond (two PCs, or two kiosks of
// one), the larger id first, so a kept reading and a new one keep the
// same last numbers in the same order.
func newerFirst(x, a arrivalRow) int {
	if c := a.IssuedAt.Compare(x.IssuedAt); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, x.ID)
}

// addArrival keeps the recentArrivals latest numbers taken, newest first,
// each once: a ticket the reading already saw is not added again.
func addArrival(as []arrivalRow, a arrivalRow) []arrivalRow {
	for _, x := range as {
		if x.ID == a.ID {
			return as
		}
	}
	at, _ := slices.BinarySearchFunc(as, a, newerFirst)
	as = slices.Insert(as, at, a)
	if len(as) > recentArrivals {
		as = as[:recentArrivals]
	}
	return as
}
