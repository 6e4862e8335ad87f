package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"
)

// sqliteDialect: the hosting process is the clock (there is no server), and
// one writer connection serialises every transaction.
type sqliteDialect struct{}

func (sqliteDialect) name() string { return "sqlite" }

func (sqliteDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	db, err := sql.Open(sqlite.DriverName, dsn)
	return db, &sqlite.Dialector{Conn: db}, err
}

func (sqliteDialect) now(context.Context, *gorm.DB) (time.Time, error) { return time.Now().UTC(), nil }

func (sqliteDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	var out []int64
	err := db.Raw("UPDATE "+table+" SET "+column+" = "+column+" + 1 WHERE "+where+" RETURNING "+column, args...).Scan(&out).Error
	if err != nil || len(out) == 0 {
		return 0, false, err
	}
	return out[0], true, nil
}

func (sqliteDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return db.Exec(insertSQL("INSERT INTO", table, cols, " ON CONFLICT DO NOTHING"), vals...).Error
}

// claimNext needs no row lock: the one writer connection (BEGIN
// IMMEDIATE) already keeps every other window out until commit.
func (sqliteDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	return claimHead(db, c, headQuery("", ""))
}

// lockBranch: SQLite's one writer already is the branch-wide lock.
func (sqliteDialect) lockBranch(*gorm.DB, int64) error { return nil }

func (sqliteDialect) errorKind(err error) errKind {
	return classify(err, []string{"SQLITE_BUSY", "database is locked"}, []string{"UNIQUE constraint"})
}

func (d sqliteDialect) appendEvent(db *gorm.DB, e eventRow) (int64, error) {
	return incrementThenInsert(d, db, e)
}

// sqliteFaults are SQLite's primary result codes of a file that cannot be
// written right now; busy means past the busy timeout and every retry.
var sqliteFaults = map[int]string{
	13: msgDiskFull,    // SQLITE_FULL
	10: msgIO,          // SQLITE_IOERR, with all its extended codes
	5:  msgBusy,        // SQLITE_BUSY
	6:  msgBusy,        // SQLITE_LOCKED
	8:  msgReadOnly,    // SQLITE_READONLY
	14: msgIO,          // SQLITE_CANTOPEN
	7:  msgBusy,        // SQLITE_NOMEM
	15: msgUnreachable, // SQLITE_PROTOCOL
}

func (sqliteDialect) fault(err error) string {
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		return sqliteFaults[coded.Code()&0xff]
	}
	return ""
}
