package sqlstore

import (
	"sync/atomic"

	"gorm.io/gorm"
)

// tailWrite is a write a transition hands to the end of its transaction,
// to be sent with the transaction's first event: a ticket's state, a
// window's held ticket. Where the engine can, the writes, the version and
// the event go in one statement (PostgreSQL's appendEvent), so a call costs the
// database two round trips less.
type tailWrite struct {
	sql  string
	args []any
	// guard: exactly one row must change, or another terminal changed it
	// since it was read and the whole operation is retried.
	guard bool
}

// later queues w for the end of the transaction. Nothing in the
// transaction may read what w writes after this: applyRow, the one user,
// is every write transaction's last step.
func (t *txn) later(sql string, guard bool, args ...any) {
	t.tail = append(t.tail, tailWrite{sql: sql, args: args, guard: guard})
}

// execTail runs the writes one statement each, for engines that do not
// fold them into the event.
func execTail(db *gorm.DB, tail []tailWrite) error {
	for _, w := range tail {
		res := db.Exec(w.sql, w.args...)
		if res.Error != nil {
			return res.Error
		}
		if err := checkGuard(w, res.RowsAffected); err != nil {
			return err
		}
	}
	return nil
}

func checkGuard(w tailWrite, n int64) error {
	if w.guard && n != 1 {
		return errConflict
	}
	return nil
}

// sentDirect, when set, is shown each statement sent past GORM, whose
// callbacks the other statements run through: the plan test explains
// them all.
var sentDirect atomic.Pointer[func(sql string, vars []any)]

func showDirect(sql string, vars []any) {
	if f := sentDirect.Load(); f != nil {
		(*f)(sql, vars)
	}
}

// sentBatch, when set, is called for each batch sent past GORM, one
// round trip each: a test counts a call's.
var sentBatch atomic.Pointer[func()]

func showBatch() {
	if f := sentBatch.Load(); f != nil {
		(*f)()
	}
}
