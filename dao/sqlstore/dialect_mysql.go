package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/go-sql-driver/mysql"
	gormmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"
)

// mysqlDialect covers MariaDB (10.6+) and MySQL 8. Sessions run READ
// COMMITTED (set in the DSN) so FOR UPDATE SKIP LOCKED does not keep locks
// on rows it scanned but did not take.
type mysqlDialect struct{}

func (mysqlDialect) name() string { return "mysql" }

func (mysqlDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	db, err := sql.Open("mysql", dsn)
	return db, gormmysql.New(gormmysql.Config{Conn: db, DSN: dsn}), err
}

func (mysqlDialect) now(ctx context.Context, db *gorm.DB) (time.Time, error) {
	var t time.Time
	err := db.WithContext(ctx).Raw("SELECT UTC_TIMESTAMP(6)").Scan(&t).Error
	return t.UTC(), err
}

// increment uses LAST_INSERT_ID(expr): MariaDB has no UPDATE … RETURNING,
// but the server returns that value in the UPDATE's own reply (the "insert
// id" of the OK packet). Reading it from there, not with a second SELECT,
// matters most for the branch version: its row lock is held until commit,
// so every round trip after taking it is time every other window waits.
func (mysqlDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	res, err := db.Statement.ConnPool.ExecContext(db.Statement.Context,
		"UPDATE "+table+" SET "+column+" = LAST_INSERT_ID("+column+" + 1) WHERE "+where, args...)
	if err != nil {
		return 0, false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return 0, false, err
	}
	n, err := res.LastInsertId()
	return n, err == nil, err
}

func (mysqlDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return db.Exec(insertSQL("INSERT IGNORE INTO", table, cols, ""), vals...).Error
}

// claimNext forces the serving-order index: with a filesort InnoDB would
// lock every candidate row before sorting, and the other windows would skip
// them all.
func (mysqlDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	return claimHead(db, c, headQuery(" FORCE INDEX (ix_ticket_call)", c.rowLock()))
}

func (mysqlDialect) lockBranch(db *gorm.DB, branchID int64) error {
	return lockBranchRow(db, branchID, "", " FOR UPDATE")
}

func (mysqlDialect) errorKind(err error) errKind {
	return classify(err, []string{"Error 1213", "Error 1205"}, []string{"Error 1062"})
}

func (d mysqlDialect) appendEvent(db *gorm.DB, e eventRow) (int64, error) {
	return incrementThenInsert(d, db, e)
}

// mysqlFaults are the error numbers of a server that cannot work right
// now, MariaDB's and MySQL's alike.
var mysqlFaults = faultCodes{
	"1040": msgTooMany, "1203": msgTooMany, "1226": msgTooMany,
	"1053": msgUnreachable, "1927": msgUnreachable, "4031": msgUnreachable, "2006": msgUnreachable, "2013": msgUnreachable,
	"1021": msgDiskFull, "1114": msgDiskFull, "3": msgIO,
	"1290": msgReadOnly, "1836": msgReadOnly, "1792": msgReadOnly,
	"1205": msgBusy, "1213": msgBusy,
}

func (mysqlDialect) fault(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return mysqlFaults[strconv.Itoa(int(me.Number))]
	}
	if errors.Is(err, mysql.ErrInvalidConn) || containsAny(err.Error(), "invalid connection", "bad connection") {
		return msgUnreachable
	}
	return ""
}
