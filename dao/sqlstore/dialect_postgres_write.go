package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/gorm"
)

// How a write ends on PostgreSQL. The branch's version row orders every
// write of the branch, so the time it is held bounds the branch's writes
// per second. Taken in the last statement and released by the commit, it
// used to be held for a round trip more: the statement's answer back to
// this PC, and the commit sent after it, both waiting for the two
// processes to be scheduled on a busy machine. A pgTx sends its last
// statement and COMMIT in one write (a pipeline), so the row is held for
// the statement and the commit's flush only.

// eventSQL is the tail writes, the version and the event as one statement:
// each write is a common table expression whose changed rows are counted,
// a guarded one through jiaohao_one_row, then the bump and the event. The
// counts come first in the UNION, so the ticket and window rows are
// written before the branch's version row is taken, as when they were
// sent one by one. The statement returns a row per part, the event's
// version last (k = len(tail)): filtering the others out in SQL would let
// the planner drop them, and a write no part reads runs unguarded after
// the rest. With a budget (not zero), a last part, run once the version
// row is held, fails the statement past it (see inTimeFunc).
func eventSQL(e eventRow, tail []tailWrite, budget time.Duration) (string, []any) {
	var with, parts []string
	var args []any
	for i, w := range tail {
		with = append(with, fmt.Sprintf("w%d AS (%s RETURNING 1)", i, w.sql))
		n := "COUNT(*)"
		if w.guard {
			n = "jiaohao_one_row(COUNT(*))"
		}
		parts = append(parts, fmt.Sprintf("SELECT %d AS k, %s AS n FROM w%d", i, n, i))
		args = append(args, w.args...)
	}
	with = append(with, "v AS (UPDATE branch SET version = version + 1 WHERE id = ? RETURNING version)",
		"e AS (INSERT INTO queue_event ("+eventColumns+") SELECT ?, v.version, ?, "+placeholders(len(e.rest()))+" FROM v RETURNING version)")
	args = append(append(args, e.BranchID, e.BranchID, e.At), e.rest()...)
	// The event is guarded too: with its row missing the commit would
	// keep the writes without their event.
	parts = append(parts, "SELECT -1 AS k, jiaohao_one_row(COUNT(*)) AS n FROM e", fmt.Sprintf("SELECT %d AS k, version AS n FROM e", len(tail)))
	if budget != 0 {
		parts = append(parts, "SELECT -2 AS k, jiaohao_in_time(?) AS n")
		args = append(args, budget.Seconds())
	}
	return "WITH " + strings.Join(with, ", ") + " " + strings.Join(parts, " UNION ALL "), args
}

// eventPart is one row eventSQL returns.
type eventPart struct{ K, N int64 }

// versionOf is the event's version among eventSQL's rows.
func versionOf(rows []eventPart, tail []tailWrite) (int64, error) {
	for _, r := range rows {
		if r.K == int64(len(tail)) {
			return r.N, nil
		}
	}
	return 0, errBranchMissing
}

// appendEvent writes an event that is not the transaction's last, with
// the tail writes, in one statement.
func (postgresDialect) appendEvent(db *gorm.DB, e eventRow, tail []tailWrite) (int64, error) {
	q, args := eventSQL(e, tail, 0)
	var rows []eventPart
	if err := db.Raw(q, args...).Scan(&rows).Error; err != nil {
		return 0, guardFailed(err)
	}
	return versionOf(rows, tail)
}

// guardFailed is errConflict for the guard's error, so the write is
// retried like any lost race.
func guardFailed(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == guardCode {
		return errConflict
	}
	return err
}

// pgTx is a write transaction on a connection of its own, begun and ended
// by statements instead of database/sql's transaction, which would send
// COMMIT on its own after the last answer, and BEGIN on its own before the
// first statement. A connection handed back with the transaction still
// open (a cancelled request, a lost server) is dropped by the driver
// before its next use.
type pgTx struct {
	ctx    context.Context
	budget time.Duration // see beginWrite
	conn   *sql.Conn
	g      *gorm.DB
	// begun: BEGIN went out. It goes with the first read (see read), or on
	// its own before any other first statement (see lazyPool).
	begun bool
}

// beginWrite: GORM sees a *sql.Conn as something that can begin a
// transaction, so a t.Transaction inside a write would send its own BEGIN
// and COMMIT and end this one early; writes never nest transactions
// (SkipDefaultTransaction keeps GORM from adding its own), and GORM is
// handed a lazyPool, which begins none.
func (postgresDialect) beginWrite(ctx context.Context, db *gorm.DB, budget time.Duration) (writeTx, error) {
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	x := &pgTx{ctx: ctx, budget: budget, conn: conn}
	x.g = db.Session(&gorm.Session{NewDB: true, Context: ctx})
	x.g.Statement.ConnPool = lazyPool{x}
	return x, nil
}

func (x *pgTx) db() *gorm.DB { return x.g }

func (x *pgTx) sqlConn() *sql.Conn { return x.conn }

// begin sends BEGIN on its own, for a first statement that is not a read.
func (x *pgTx) begin(ctx context.Context) error {
	if x.begun {
		return nil
	}
	x.begun = true
	_, err := x.conn.ExecContext(ctx, "BEGIN")
	return err
}

// read sends BEGIN and q in one batch when q is the first statement: a
// call's window check, so a call costs one round trip less.
func (x *pgTx) read(q string, args []any, row func(scan func(...any) error) error) error {
	if x.begun {
		return readRows(x.g, q, args, row)
	}
	return x.readAll(pendingRead{q, args, row})
}

// readAll sends reads in one batch, after BEGIN when nothing has begun.
func (x *pgTx) readAll(reads ...pendingRead) error {
	b := x.batch()
	for _, r := range reads {
		queueRows(b, r.q, r.args, r.row)
	}
	return x.send(b)
}

// batch is a batch that begins the transaction first if nothing has.
func (x *pgTx) batch() *pgx.Batch {
	b := &pgx.Batch{}
	if !x.begun {
		x.begun = true
		b.Queue("BEGIN")
	}
	return b
}

// queueRows queues q, written with ? placeholders, handing each row of its
// answer to row.
func queueRows(b *pgx.Batch, q string, args []any, row func(scan func(...any) error) error) {
	q = numbered(q)
	showDirect(q, args)
	b.Queue(q, args...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			if err := row(rows.Scan); err != nil {
				return err
			}
		}
		return rows.Err()
	})
}

func (x *pgTx) commit(last *eventRow, tail []tailWrite) (int64, error) {
	var parts []eventPart
	if last == nil {
		// A tail sent on its own begins the transaction through lazyPool.
		if err := execTail(x.g, tail); err != nil {
			return 0, err
		}
	}
	b := &pgx.Batch{}
	if last != nil {
		b = x.batch() // nothing begun yet: BEGIN goes with the event
		q, args := eventSQL(*last, tail, x.budget)
		queueRows(b, q, args, func(scan func(...any) error) error {
			var p eventPart
			if err := scan(&p.K, &p.N); err != nil {
				return err
			}
			parts = append(parts, p)
			return nil
		})
	}
	if x.begun {
		// A transaction an earlier statement aborted answers COMMIT with
		// ROLLBACK, and no error.
		b.Queue("COMMIT").Exec(func(ct pgconn.CommandTag) error {
			if ct.String() != "COMMIT" {
				return errRolledBack
			}
			return nil
		})
		if err := x.send(b); err != nil {
			return 0, guardFailed(err)
		}
	}
	x.conn.Close()
	x.conn = nil
	if last == nil {
		return 0, nil
	}
	return versionOf(parts, tail)
}

// send runs b on the transaction's connection (see sendCancellable).
func (x *pgTx) send(b *pgx.Batch) error {
	showBatch()
	var batchErr error
	err := x.conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("a PostgreSQL connection of type %T", dc)
		}
		var sent bool
		batchErr, sent = sendCancellable(x.ctx, c.Conn(), b)
		if sent {
			// The cancel may reach the backend after the batch ended and
			// stop whatever it runs next: nothing else runs on it.
			return driver.ErrBadConn
		}
		return nil
	})
	if err != nil && !errors.Is(err, driver.ErrBadConn) {
		return err
	}
	return batchErr
}

// sendCancellable runs the batch; if ctx ends meanwhile it also asks the
// server to cancel the statement running, as the driver on its own only
// closes the socket: the backend would go on, and once past a lock run
// the COMMIT it already has. sent reports that a cancel request went out.
func sendCancellable(ctx context.Context, c *pgx.Conn, b *pgx.Batch) (err error, sent bool) {
	done := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(done)
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = c.PgConn().CancelRequest(cctx)
	})
	err = c.SendBatch(ctx, b).Close()
	if !stop() {
		<-done
		return err, true
	}
	return err, false
}

// errRolledBack: COMMIT found the transaction aborted.
var errRolledBack = errors.New("the transaction was rolled back at commit")

func (x *pgTx) rollback() {
	endConn(x.conn, x.begun)
	x.conn = nil
}

// numbered turns the ? placeholders the statements are written with into
// PostgreSQL's $1, $2, …, which GORM does for the statements it sends; a
// batch goes to the driver directly. No statement here has a ? of its own.
func numbered(q string) string {
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteString("$" + strconv.Itoa(n))
	}
	return b.String()
}
