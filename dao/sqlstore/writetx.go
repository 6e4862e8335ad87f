package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"gorm.io/gorm"
)

// writeTx is one write transaction and how its engine ends it: the last
// event and the commit may travel together (PostgreSQL, pgTx) or one
// round trip each (sqlTx).
type writeTx interface {
	db() *gorm.DB
	// commit makes the tail writes, appends last (nil: the transaction
	// logs no event), commits, and returns last's version.
	commit(last *eventRow, tail []tailWrite) (int64, error)
	// rollback ends a transaction that did not commit.
	rollback()
	// read runs q, handing each row to row with its scan function. A
	// transaction's first statement may travel with its BEGIN (pgTx):
	// q's arguments are single values, not lists.
	read(q string, args []any, row func(scan func(...any) error) error) error
}

// pendingRead is one read of a batch: q, its arguments, and what takes
// each row of its answer.
type pendingRead struct {
	q    string
	args []any
	row  func(scan func(...any) error) error
}

// batchReader is a writeTx that sends several reads in one round trip,
// with the transaction's BEGIN when they are its first statements (pgTx).
type batchReader interface {
	readAll(reads ...pendingRead) error
}

// errLate: a write whose commit travels with its last statement got what
// that statement waited for past its caller's time, and rolled back
// rather than commit when the caller might not hear of it.
var errLate = errors.New("the write got its locks past its deadline")

// sqlTx is a writeTx on database/sql's transaction.
type sqlTx struct {
	g *gorm.DB
	d dialect
}

func beginSQL(ctx context.Context, db *gorm.DB, d dialect) (writeTx, error) {
	g := db.WithContext(ctx).Begin()
	return sqlTx{g: g, d: d}, g.Error
}

func (x sqlTx) db() *gorm.DB { return x.g }

func (x sqlTx) commit(last *eventRow, tail []tailWrite) (int64, error) {
	var v int64
	var err error
	if last != nil {
		v, err = x.d.appendEvent(x.g, *last, tail)
	} else {
		err = execTail(x.g, tail)
	}
	if err != nil {
		return 0, err
	}
	return v, x.g.Commit().Error
}

func (x sqlTx) rollback() { x.g.Rollback() }

func (x sqlTx) read(q string, args []any, row func(scan func(...any) error) error) error {
	return readRows(x.g, q, args, row)
}

// readRows is read through GORM.
func readRows(g *gorm.DB, q string, args []any, row func(scan func(...any) error) error) error {
	rows, err := g.Raw(q, args...).Rows()
	return eachRow(rows, err, row)
}

// eachRow hands each of rows to row, unless the query failed (err).
func eachRow(rows *sql.Rows, err error, row func(scan func(...any) error) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// endConn rolls back the transaction begun on conn, if it was, and hands
// the connection back; nil: the transaction already ended.
func endConn(conn *sql.Conn, begun bool) {
	if conn == nil {
		return
	}
	if begun {
		// The request's context may be what ended the transaction.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn.ExecContext(ctx, "ROLLBACK")
	}
	conn.Close()
}

// lazyBegin is a write transaction on a connection of its own whose
// BEGIN goes out with its first statement (pgTx, myTx).
type lazyBegin interface {
	// begin sends BEGIN on its own unless it went out already.
	begin(ctx context.Context) error
	sqlConn() *sql.Conn
}

// lazyPool is such a transaction's connection as GORM sees it: a statement
// that would be the transaction's first, and is not a read, sends BEGIN
// before it.
type lazyPool struct{ x lazyBegin }

func (p lazyPool) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	if err := p.x.begin(ctx); err != nil {
		return nil, err
	}
	return p.x.sqlConn().PrepareContext(ctx, q)
}

func (p lazyPool) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if err := p.x.begin(ctx); err != nil {
		return nil, err
	}
	return p.x.sqlConn().ExecContext(ctx, q, args...)
}

func (p lazyPool) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if err := p.x.begin(ctx); err != nil {
		return nil, err
	}
	return p.x.sqlConn().QueryContext(ctx, q, args...)
}

// QueryRowContext has no error of its own to return: after a failed
// BEGIN its row is the statement's, run under a context already ended,
// so the statement never runs outside the transaction.
func (p lazyPool) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	if err := p.x.begin(ctx); err != nil {
		ended, cancel := context.WithCancel(ctx)
		cancel()
		return p.x.sqlConn().QueryRowContext(ended, q, args...)
	}
	return p.x.sqlConn().QueryRowContext(ctx, q, args...)
}
