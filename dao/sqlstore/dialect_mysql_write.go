package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"gorm.io/gorm"
)

// How a write ends on MariaDB and MySQL. As on PostgreSQL (pgTx), the
// branch's version row orders every write of the branch, and the time it
// is held bounds the branch's writes per second. Sent one statement at a
// time, the bump, the event and COMMIT held it for three round trips, each
// waiting for this process and the server to be scheduled on busy cores.
// A myTx sends the three in one packet (the connection allows several
// statements in one), with the ticket and window writes before them, so
// the row is held while the server runs them. The transaction's BEGIN
// goes with its first read, so a call costs three round trips instead of
// six: the BEGIN and the window check, the claim, the packet.
//
// The server may then commit without hearing from this process again, so
// the packet itself must fail when the write should not commit: the
// event's own values make its INSERT fail (see lastEventSQL), and a
// statement that fails ends the packet before its COMMIT. A request
// cancelled while the packet waits for the row (a kiosk's connection
// dropped) has the server kill the statement from a connection of its
// own, as closing the socket does not stop a statement waiting for a lock.

// myTx is a write transaction on a connection of its own, begun and ended
// by statements, as database/sql's transaction would send BEGIN on its own
// before the first statement and COMMIT on its own after the last answer.
type myTx struct {
	ctx     context.Context
	conn    *sql.Conn
	g       *gorm.DB
	id      uint64 // the server's id of the connection, for KILL QUERY
	killer  mysqlKiller
	budget  time.Duration // see beginWrite
	started time.Time
	// begun: START TRANSACTION went out, with the first read (see read),
	// the packet, or on its own before any other first statement.
	begun bool
}

// deadlineVar holds, for the connection's current write, the server time
// after which its packet must not commit. Every write sets it, so one left
// by an earlier write on the pooled connection is never read.
const deadlineVar = "@jiaohao_deadline"

// beginWrite: budget bounds, from now, when the packet may still commit
// (see commitBudget); the bound goes to the server with the transaction's
// BEGIN, to be checked on its own clock.
func (mysqlDialect) beginWrite(ctx context.Context, db *gorm.DB, budget time.Duration) (writeTx, error) {
	sqlDB, err := db.DB()
	if err != nil {
		return nil, err
	}
	killer, ok := sqlDB.Driver().(mysqlKiller)
	if !ok {
		return nil, fmt.Errorf("a MySQL pool opened without its connector (%T)", sqlDB.Driver())
	}
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return nil, err
	}
	x := &myTx{ctx: ctx, conn: conn, killer: killer, budget: budget, started: time.Now()}
	if x.id, err = connectionID(ctx, conn); err != nil {
		conn.Close()
		return nil, err
	}
	x.g = db.Session(&gorm.Session{NewDB: true, Context: ctx})
	x.g.Statement.ConnPool = lazyPool{x}
	return x, nil
}

// beginStatements begin the transaction and set its deadline, as statements to
// go before the first one of the write; it marks the transaction begun.
// The bound is never later than the driver's read timeout allows: a
// driver that stops waiting for the answer closes the connection, and a
// KILL sent then may not reach the server (one at its connection limit).
func (x *myTx) beginStatements() (string, []any) {
	x.begun = true
	budget := x.killer.maxBudget
	if x.budget != 0 {
		budget = min(budget, x.budget)
	}
	left := max(budget-time.Since(x.started), time.Microsecond)
	return "START TRANSACTION; SET " + deadlineVar + " = UTC_TIMESTAMP(6) + INTERVAL ? MICROSECOND", []any{left.Microseconds()}
}

// begin sends the BEGIN on its own, for a first statement that is not a
// read.
func (x *myTx) begin(ctx context.Context) error {
	if x.begun {
		return nil
	}
	q, args := x.beginStatements()
	_, err := x.conn.ExecContext(ctx, q, args...)
	return err
}

func (x *myTx) sqlConn() *sql.Conn { return x.conn }

func (x *myTx) db() *gorm.DB { return x.g }

// read sends the BEGIN and q in one packet when q is the first statement:
// a call's window check, so a call costs one round trip less. The driver
// hands back the rows of the packet's one result.
func (x *myTx) read(q string, args []any, row func(scan func(...any) error) error) error {
	if x.begun {
		return readRows(x.g, q, args, row)
	}
	begin, bargs := x.beginStatements()
	showDirect(q, args)
	rows, err := x.conn.QueryContext(x.ctx, begin+"; "+q, append(bargs, args...)...)
	return eachRow(rows, err, row)
}

// commit sends the tail writes, the bump, the event and COMMIT in one
// packet; a write with no event sends its tail and COMMIT as statements.
func (x *myTx) commit(last *eventRow, tail []tailWrite) (int64, error) {
	if last == nil {
		// A tail sent on its own begins the transaction through lazyPool.
		if err := execTail(x.g, tail); err != nil {
			return 0, err
		}
		if x.begun {
			if _, err := x.conn.ExecContext(x.ctx, "COMMIT"); err != nil {
				return 0, err
			}
		}
		x.conn.Close()
		x.conn = nil
		return 0, nil
	}
	p := lastEventSQL(*last, tail)
	if !x.begun { // nothing sent yet: the BEGIN goes with the packet
		begin, args := x.beginStatements()
		p.sql, p.args, p.bump = begin+"; "+p.sql, append(args, p.args...), p.bump+2
	}
	var ids []int64
	var sendErr error
	err := x.conn.Raw(func(dc any) error {
		var killed bool
		ids, killed, sendErr = x.sendCancellable(dc, p.sql, p.args)
		if killed {
			// The driver closed the connection, or a KILL may still
			// reach whatever it runs next: nothing else runs on it.
			return driver.ErrBadConn
		}
		return nil
	})
	if sendErr != nil {
		return 0, lastEventFailed(sendErr)
	}
	if err != nil && !errors.Is(err, driver.ErrBadConn) {
		return 0, err
	}
	// Committed, even if the request ended just after.
	x.conn.Close()
	x.conn = nil
	if len(ids) <= p.bump || ids[p.bump] <= 0 {
		// Not reached: a COMMIT run means the bump changed its row, and
		// its reply carries the version.
		return 0, errors.New("the server's reply to a committed write has no version")
	}
	return ids[p.bump], nil
}

// packet is the statements a write ends with, and which of them is the
// bump, whose insert id is the new version.
type packet struct {
	sql  string
	args []any
	bump int
}

// okVar is true while every guarded tail write so far changed its row.
const okVar = "@jiaohao_ok"

// lastEventSQL is the packet: the tail writes, each guarded one followed
// by a note of whether it changed its one row; the bump, which returns the
// new version in its reply (LAST_INSERT_ID(expr)); the event, which reads
// it back on the server; COMMIT. The event's values fail its INSERT, and
// so the packet before its COMMIT, where the write must not commit: the
// version is NULL when the bump found no branch row (ROW_COUNT() is the
// bump's, and LAST_INSERT_ID() would be an earlier statement's), the kind
// when a guarded write lost its race, the time when the bump got the row
// past the deadline.
func lastEventSQL(e eventRow, tail []tailWrite) packet {
	var parts []string
	var args []any
	add := func(q string, a ...any) {
		showDirect(q, a) // one statement at a time, as the server runs them
		parts, args = append(parts, q), append(args, a...)
	}
	ok := "TRUE"
	for _, w := range tail {
		add(w.sql, w.args...)
		if w.guard {
			add("SET " + okVar + " = " + ok + " AND ROW_COUNT() = 1")
			ok = okVar
		}
	}
	bump := len(parts)
	add("UPDATE branch SET version = LAST_INSERT_ID(version + 1) WHERE id = ?", e.BranchID)
	add("INSERT INTO queue_event ("+eventColumns+") VALUES (?, IF(ROW_COUNT() = 1, LAST_INSERT_ID(), NULL), "+
		"IF(UTC_TIMESTAMP(6) <= "+deadlineVar+", ?, NULL), "+
		"IF("+ok+", ?, NULL), "+placeholders(len(e.rest())-1)+")", append([]any{e.BranchID, e.At}, e.rest()...)...)
	add("COMMIT")
	return packet{sql: strings.Join(parts, "; "), args: args, bump: bump}
}

// lastEventFailed names the packet's own failures by the column it found
// NULL: the time is the deadline, the kind a lost race, the version a
// missing branch row.
func lastEventFailed(err error) error {
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1048 { // column cannot be null
		return err
	}
	switch {
	case strings.Contains(me.Message, "'at'"):
		return fmt.Errorf("%w: %w", errLate, err)
	case strings.Contains(me.Message, "'kind'"):
		return errConflict
	case strings.Contains(me.Message, "'version'"):
		return errBranchMissing
	}
	return err
}

// sendCancellable runs the packet on the driver's connection dc, and if
// the request ends meanwhile has the server kill it; killed says it did.
// It returns each statement's insert id: the bump's is the new version.
func (x *myTx) sendCancellable(dc any, q string, args []any) (ids []int64, killed bool, err error) {
	ex, ok := dc.(driver.ExecerContext)
	if !ok {
		return nil, false, fmt.Errorf("a MySQL connection of type %T", dc)
	}
	named := make([]driver.NamedValue, len(args))
	for i, a := range args {
		v, err := driver.DefaultParameterConverter.ConvertValue(a)
		if err != nil {
			return nil, false, err
		}
		named[i] = driver.NamedValue{Ordinal: i + 1, Value: v}
	}
	done := make(chan struct{})
	stop := context.AfterFunc(x.ctx, func() {
		defer close(done)
		x.killer.kill(x.id)
	})
	res, err := ex.ExecContext(x.ctx, q, named)
	if !stop() {
		<-done
		killed = true
	}
	var me *mysql.MySQLError
	if err != nil && !killed && !errors.As(err, &me) {
		// The driver gave up on the packet without the server saying
		// anything (its read timeout, a broken connection, a cancel it
		// saw before the kill above was started): the server may still
		// be waiting to run it, COMMIT and all.
		x.killer.kill(x.id)
		killed = true
	}
	if err != nil {
		return nil, killed, err
	}
	r, ok := res.(mysql.Result)
	if !ok {
		return nil, killed, fmt.Errorf("a MySQL result of type %T", res)
	}
	return r.AllLastInsertIds(), killed, nil
}

func (x *myTx) rollback() {
	endConn(x.conn, x.begun)
	x.conn = nil
}

// connIDs caches each pooled connection's server id, read once per
// connection: KILL QUERY names it. Connections come and go (the pool
// closes idle ones), so the cache is emptied when it grows past any pool.
var connIDs = struct {
	sync.Mutex
	m map[any]uint64
}{m: map[any]uint64{}}

const maxConnIDs = 1024

func connectionID(ctx context.Context, conn *sql.Conn) (uint64, error) {
	var key any
	if err := conn.Raw(func(dc any) error { key = dc; return nil }); err != nil {
		return 0, err
	}
	connIDs.Lock()
	id, ok := connIDs.m[key]
	connIDs.Unlock()
	if ok {
		return id, nil
	}
	if err := conn.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		return 0, err
	}
	connIDs.Lock()
	defer connIDs.Unlock()
	if len(connIDs.m) >= maxConnIDs {
		clear(connIDs.m)
	}
	connIDs.m[key] = id
	return id, nil
}

// mysqlConnector is the driver's connector for a pool. Its Driver is a
// mysqlKiller, so a write can reach the server outside the pool, whose
// connections may all be busy (pool=1: the one the write holds).
type mysqlConnector struct {
	driver.Connector
	readTimeout time.Duration
}

func (c mysqlConnector) Driver() driver.Driver {
	wait := c.readTimeout
	if wait <= 0 { // the driver waits for ever: so may the packet, within the server's own lock timeout
		wait = time.Hour
	}
	return mysqlKiller{c: c.Connector, maxBudget: wait - wait/5}
}

// mysqlKiller opens connections as the pool's own do. maxBudget is how
// long a packet may wait on the server and still commit: the driver's
// read timeout less a fifth, as commitBudget leaves of a request's time.
type mysqlKiller struct {
	c         driver.Connector
	maxBudget time.Duration
}

func (k mysqlKiller) Open(string) (driver.Conn, error) { return k.c.Connect(context.Background()) }

// kill stops the statement connection id runs, on a connection of its
// own, and gives up after two seconds. A server at its connection limit
// refuses it; the packet's deadline (beginStatements) still stops that packet.
// The id must be the server's own session: behind a proxy that shares
// sessions among clients (ProxySQL, MaxScale) it could name another.
func (k mysqlKiller) kill(id uint64) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c, err := k.c.Connect(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	if ex, ok := c.(driver.ExecerContext); ok {
		_, _ = ex.ExecContext(ctx, "KILL QUERY "+strconv.FormatUint(id, 10), nil)
	}
}
