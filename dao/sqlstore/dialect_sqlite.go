package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/gorm"

	"jiaohao/model"
)

// sqliteDialect: the hosting process is the clock (there is no server), and
// one writer connection serialises every transaction.
type sqliteDialect struct{}

func (sqliteDialect) name() string { return "sqlite" }

func (sqliteDialect) schemes() []string { return []string{"sqlite"} }

func (sqliteDialect) form() string { return "sqlite:PATH" }

// target: a file path and no parameters but pool=1; the pragmas make every
// commit durable and wait for the lock instead of failing.
func (sqliteDialect) target(dsn, _ string) (target, error) {
	_, rest, _ := strings.Cut(dsn, ":")
	path := strings.TrimPrefix(rest, "//")
	if p, raw, ok := strings.Cut(path, "?"); ok {
		q, err := url.ParseQuery(raw)
		pool, perr := takePool(q)
		switch {
		case perr != nil:
			return target{}, perr
		case pool > 1:
			return target{}, model.Errorf(model.EInvalidInput,
				"SQLite 数据库只用一个连接，pool 只能为 1 (SQLite uses one connection: pool must be 1)")
		case err != nil || len(q) > 0:
			return target{}, model.Errorf(model.EInvalidInput,
				"sqlite 连接串不接受参数 %q，只写文件路径，例如 sqlite:%s (sqlite takes a file path and no parameters)", raw, p)
		}
		path = p
	}
	if path == "" {
		return target{}, model.Errorf(model.EInvalidInput, "sqlite 连接串缺少文件路径，例如 sqlite:/var/lib/jiaohao.db (the sqlite connection string needs a file path)")
	}
	if path != ":memory:" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return target{}, model.Errorf(model.EUnavailable, "无法创建数据库目录 %s (cannot create the database folder): %v", filepath.Dir(path), err)
		}
	}
	// synchronous(FULL): a number committed and printed must survive a
	// power cut, or the next one would be issued again.
	q := "_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_txlock=immediate"
	tg := target{dsn: path + "?" + q}
	if path != ":memory:" {
		tg.file = path
	}
	return tg, nil
}

func (sqliteDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	pinAllocator()
	db, err := sql.Open(sqlite.DriverName, dsn)
	return db, &sqlite.Dialector{Conn: db}, err
}

func (sqliteDialect) now(context.Context, *gorm.DB) (time.Time, error) { return time.Now().UTC(), nil }

func (sqliteDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	return incrementReturning(db, table, column, where, args...)
}

func (sqliteDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return insertOnConflict(db, table, cols, vals)
}

// claimNext needs no row lock: the one writer connection (BEGIN
// IMMEDIATE) already keeps every other window out until commit.
func (sqliteDialect) givenID(_ *gorm.DB, _ string, insert func() error) error { return insert() }

func (sqliteDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	return claimHead(db, c, headQuery("", ""))
}

// sizePool: always one connection (target refuses pool above 1): one
// writer, so no SQLITE_BUSY inside the process.
func (sqliteDialect) sizePool(db *sql.DB, _ int) { db.SetMaxOpenConns(1) }

func (sqliteDialect) migrate(*gorm.DB) error { return nil }

// rowValues: the comparison bounds the walk of ix_ticket_call.
func (sqliteDialect) rowValues() bool { return true }

func (sqliteDialect) statementSnapshot() bool { return true }

// serviceInBound: SQLite bounds the walk by the comparison after the
// equal service_id, and by a comparison naming service_id not at all.
func (sqliteDialect) serviceInBound() bool { return false }

func (sqliteDialect) refreshStats(db *gorm.DB) error {
	for _, t := range statsTables {
		if err := db.Exec("ANALYZE " + t).Error; err != nil {
			return err
		}
	}
	return nil
}

func (sqliteDialect) scratch(*url.URL, string) (scratchDB, error) {
	return scratchDB{}, errors.New("a SQLite database is a file: give a new path instead")
}

// lockRead: every transaction begins immediate (_txlock), holding the
// one write lock, so no other writer runs in between.
func (sqliteDialect) lockRead(q *gorm.DB) *gorm.DB { return q }

// lockBranch: SQLite's one writer already is the branch-wide lock.
func (sqliteDialect) lockBranch(*gorm.DB, int64) error { return nil }

func (sqliteDialect) errorKind(err error) errKind {
	return classify(err, []string{"SQLITE_BUSY", "database is locked"}, []string{"UNIQUE constraint"})
}

func (d sqliteDialect) beginWrite(ctx context.Context, db *gorm.DB, _ time.Duration) (writeTx, error) {
	return beginSQL(ctx, db, d)
}

func (d sqliteDialect) appendEvent(db *gorm.DB, e eventRow, tail []tailWrite) (int64, error) {
	return incrementThenInsert(d, db, e, tail)
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
