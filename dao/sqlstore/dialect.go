package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"jiaohao/model"
)

// dialects are the engines a DSN may name, in the order the message for an
// unknown one lists them.
var dialects = []dialect{sqliteDialect{}, postgresDialect{}, mysqlDialect{}, mssqlDialect{}}

// dialect is the one seam where the engines differ: the DSN and the pool,
// what the migration adds beyond the tables, reading the clock, "increment
// and return", "insert unless present", and claiming the next ticket with
// row locks that skip what other windows hold. Everything else is portable
// SQL in the shared code; adding an engine is one dialect file and one
// entry in dialects.
type dialect interface {
	name() string
	// schemes are the DSN schemes that name this engine, in lower case.
	schemes() []string
	// form is how its DSN is written, for the message that lists them.
	form() string
	// target turns a DSN of one of its schemes into the driver's DSN,
	// checking every parameter; isolation is the session variable MySQL
	// sets the isolation level with.
	target(dsn, isolation string) (target, error)
	// connect opens the pool on the driver's DSN (no connection is made
	// yet) and the GORM dialector over it.
	connect(dsn string) (*sql.DB, gorm.Dialector, error)
	// sizePool sizes the pool; n is the DSN's pool=N, 0 when not given.
	sizePool(db *sql.DB, n int)
	// migrate creates what the tables alone do not hold (SQL Server's
	// procedure, PostgreSQL's write guard); it runs after AutoMigrate on
	// every open.
	migrate(db *gorm.DB) error
	// refreshStats brings the planner's statistics of the queue tables up
	// to date, as the engine's own background analysis would shortly.
	refreshStats(db *gorm.DB) error
	// rowValues says the engine walks an index range bounded by a row
	// comparison "(a, b) < (?, ?)"; where it does not (or has no row
	// values), servedBefore spells the comparison out.
	rowValues() bool
	// serviceInBound says the walk of one service's tickets ahead names
	// service_id in its row comparison too (see aheadQuery).
	serviceInBound() bool
	// statementSnapshot says one statement reads one committed state, so
	// the branch version it reads beside its rows is theirs (takeReading).
	statementSnapshot() bool
	// scratch says how to create and drop the database name on the server
	// u reaches, for tests and tools that need an empty one.
	scratch(u *url.URL, name string) (scratchDB, error)
	// lockRead makes q, a read inside a write transaction, lock the rows
	// it returns until the transaction ends, where another writer could
	// change them in between.
	lockRead(q *gorm.DB) *gorm.DB
	// now reads the database clock (UTC).
	now(ctx context.Context, db *gorm.DB) (time.Time, error)
	// increment adds 1 to column in the rows matched by where and returns
	// the new value; ok is false when no row matched.
	increment(db *gorm.DB, table, column, where string, args ...any) (n int64, ok bool, err error)
	// insertIgnore inserts one row unless its key already exists.
	insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error
	// givenID runs insert, which writes a row of table with its id given
	// where the engine numbers the ids itself (a branch's id is its number
	// everywhere). tx must be a transaction: what the engine needs to be
	// told holds for its one connection.
	givenID(tx *gorm.DB, table string, insert func() error) error
	// claimNext locks the head of the serving order among the waiting
	// tickets of c's services, skipping rows other windows hold, and
	// returns it as read; found is false when there is none. It writes
	// nothing: the caller stores what model.Call makes of the row.
	claimNext(db *gorm.DB, c claim) (row ticketRow, found bool, err error)
	// lockBranch takes one lock for the whole branch until the transaction
	// ends: the shape the calls are measured against, never their path;
	// the manager's rare area changes take it (lockAreas).
	lockBranch(db *gorm.DB, branchID int64) error
	// beginWrite opens a write transaction (see writeTx). budget is how
	// long after it begins it may still commit (zero: no bound); an engine
	// whose commit is its own statement needs no such bound, as a caller
	// that has given up does not send it.
	beginWrite(ctx context.Context, db *gorm.DB, budget time.Duration) (writeTx, error)
	// appendEvent makes the tail writes, then takes the next branch
	// version and writes the event with it; it must be the transaction's
	// last write.
	appendEvent(db *gorm.DB, e eventRow, tail []tailWrite) (int64, error)
	// errorKind classifies driver errors for retry and messages.
	errorKind(err error) errKind
	// fault says why this driver's err means the database cannot work
	// right now (down, full, read-only, overloaded), or "" when it does
	// not; faultOf adds what all drivers share.
	fault(err error) string
}

type errKind int

const (
	errOther  errKind = iota
	errRetry          // deadlock, serialization failure, busy
	errUnique         // unique constraint
)

// claim is one call-next request.
type claim struct {
	branchID   int64
	date       string
	serviceIDs []int64
	serial     bool // under lockBranch: pick with a plain row lock, nothing to skip
}

// rowLock is the pick's locking clause: skip what other windows hold, or,
// when the branch lock already serialises callers, a plain lock.
func (c claim) rowLock() string {
	if c.serial {
		return " FOR UPDATE"
	}
	return " FOR UPDATE SKIP LOCKED"
}

// callOrder is the model's serving order as an ORDER BY list. The index
// ix_ticket_call (branch_id, status, business_date, lane, priority,
// sort_key, id, service_id) walks in exactly this order, so the head is found
// without a sort; a sort would make a locking read lock every candidate.
var callOrder = strings.Join(model.ServingOrder(), ", ")

// claimDay is what every claim asks of a ticket but its service: the
// branch's, waiting, today's.
const claimDay = "branch_id = ? AND status = 1 AND business_date = ?"

const claimWhere = claimDay + " AND service_id IN ?"

// headQuery selects the head of the serving order with the engine's index
// hint and locking clause; the PostgreSQL and MariaDB claim, and SQLite's
// (whose one writer needs no lock).
func headQuery(hint, lock string) string {
	return "SELECT * FROM ticket" + hint + " WHERE " + claimWhere + " ORDER BY " + callOrder + " LIMIT 1" + lock
}

// claimHead runs headQuery for c: the pick and the lock in one statement.
func claimHead(db *gorm.DB, c claim, query string) (ticketRow, bool, error) {
	return firstRow(db.Raw(query, c.branchID, c.date, c.serviceIDs))
}

// firstRow scans the one row a claim returns, if any.
func firstRow(q *gorm.DB) (ticketRow, bool, error) {
	var rows []ticketRow
	if err := q.Scan(&rows).Error; err != nil || len(rows) == 0 {
		return ticketRow{}, false, err
	}
	return rows[0], true, nil
}

// lockBranchRow is lockBranch as a row lock on the branch row, for
// engines without advisory locks.
func lockBranchRow(db *gorm.DB, branchID int64, hint, suffix string) error {
	var ids []int64
	return db.Raw("SELECT id FROM branch"+hint+" WHERE id = ?"+suffix, branchID).Scan(&ids).Error
}

// errBranchMissing: the version bump found no branch row.
var errBranchMissing = errors.New("branch row missing")

// incrementThenInsert is appendEvent one statement each, for engines that
// cannot update inside a CTE.
func incrementThenInsert(d dialect, db *gorm.DB, e eventRow, tail []tailWrite) (int64, error) {
	if err := execTail(db, tail); err != nil {
		return 0, err
	}
	v, ok, err := d.increment(db, "branch", "version", "id = ?", e.BranchID)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errBranchMissing
	}
	e.Version = v
	return v, db.Create(&e).Error
}

func classify(err error, retry, unique []string) errKind {
	if err == nil {
		return errOther
	}
	msg := err.Error()
	for _, s := range retry {
		if strings.Contains(msg, s) {
			return errRetry
		}
	}
	for _, s := range unique {
		if strings.Contains(msg, s) {
			return errUnique
		}
	}
	return errOther
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func insertSQL(verb, table string, cols []string, suffix string) string {
	return fmt.Sprintf("%s %s (%s) VALUES (%s)%s", verb, table, strings.Join(cols, ", "), placeholders(len(cols)), suffix)
}

// incrementReturning is increment for engines with UPDATE … RETURNING.
func incrementReturning(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	var out []int64
	err := db.Raw("UPDATE "+table+" SET "+column+" = "+column+" + 1 WHERE "+where+" RETURNING "+column, args...).Scan(&out).Error
	if err != nil || len(out) == 0 {
		return 0, false, err
	}
	return out[0], true, nil
}

// insertOnConflict is insertIgnore for engines with ON CONFLICT DO NOTHING.
func insertOnConflict(db *gorm.DB, table string, cols []string, vals []any) error {
	return db.Exec(insertSQL("INSERT INTO", table, cols, " ON CONFLICT DO NOTHING"), vals...).Error
}

// forUpdate is lockRead for engines with SELECT … FOR UPDATE.
func forUpdate(q *gorm.DB) *gorm.DB { return q.Clauses(clause.Locking{Strength: "UPDATE"}) }
