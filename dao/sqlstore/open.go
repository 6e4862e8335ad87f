package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"jiaohao/model"
)

// GormStore is the Store on a real database.
type GormStore struct {
	db       *gorm.DB
	d        dialect
	branchID int64
	cal      calendarCache
	offset   atomic.Int64 // test-only shift of the database clock, ns

	watchOnce sync.Once
	hub       atomic.Pointer[hub] // set once by the first Watch; writes wake it
	watch     *versionWatch       // the pool's one version poll, shared with its Branch stores
	clock     dbClock
	codes     codeCache
	health    health
	closeOnce sync.Once
	file      string                    // the embedded database's file; "" on a server
	writers   chan struct{}             // one slot per pooled connection; see writeOnce
	alerts    atomic.Pointer[alertMark] // the last alert sweep; see alertsDue
	taken     lastTake
	readings  readings // the last take's estimate reading (take_reading.go)
	// inFlight bounds this branch's writes in flight (BranchInFlight; nil
	// where the engine is better without).
	inFlight chan struct{}
	// sharedPool: the connections belong to the Store this one was made
	// from (Branch), which closes them.
	sharedPool bool
	custKey    atomic.Pointer[[]byte] // the branch's customer-number secret, read once (customers_secret.go)
}

var (
	_ model.Store     = (*GormStore)(nil)
	_ model.Terminals = (*GormStore)(nil)
)

// DefaultDSN is the embedded database in the user's config directory.
func DefaultDSN() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = "."
	}
	return "sqlite:" + filepath.Join(dir, "jiaohao", "jiaohao.db")
}

// connectTimeout bounds how long an unreachable server keeps a PC waiting:
// under the 5 s a person is promised, with room for the one sentence.
const connectTimeout = 4500 * time.Millisecond

// Open connects to dsn, migrates and seeds it, and returns the Store of
// branch 1.
func Open(ctx context.Context, dsn string) (*GormStore, error) {
	tg, pool, dial, err := reach(ctx, dsn)
	if err != nil {
		return nil, err
	}
	db, err := gorm.Open(dial, &gorm.Config{
		Logger:                                   logger.Discard,
		SkipDefaultTransaction:                   true,
		DisableForeignKeyConstraintWhenMigrating: true,
		DisableAutomaticPing:                     true,
	})
	if err != nil {
		pool.Close()
		return nil, unreachable(tg, dsn, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, unreachable(tg, dsn, err)
	}
	tg.d.sizePool(sqlDB, tg.pool)
	s := &GormStore{db: db, d: tg.d, branchID: 1, writers: make(chan struct{}, max(1, sqlDB.Stats().MaxOpenConnections)),
		watch: newVersionWatch(db)}
	s.health.secret, s.health.closed, s.file = tg.secret, make(chan struct{}), tg.file
	s.inFlight = s.newInFlight()
	if err := s.migrate(ctx); err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("preparing the database at %s: %w", Redact(dsn), err)
	}
	if err := s.loadBranch(ctx); err != nil {
		sqlDB.Close()
		return nil, err
	}
	return s, nil
}

// reach parses dsn, opens its pool and makes the first connection.
func reach(ctx context.Context, dsn string) (target, *sql.DB, gorm.Dialector, error) {
	tg, pool, dial, err := reachAs(ctx, dsn, isolationVar)
	if err != nil && strings.Contains(err.Error(), "Unknown system variable '"+isolationVar+"'") {
		return reachAs(ctx, dsn, "tx_isolation") // MariaDB before 11.1 only knows the old name
	}
	return tg, pool, dial, err
}

// isolationVar is MySQL 8's name for the session isolation variable.
const isolationVar = "transaction_isolation"

// reachAs is reach with the name of MySQL's isolation variable.
func reachAs(ctx context.Context, dsn, isolation string) (target, *sql.DB, gorm.Dialector, error) {
	tg, err := parseDSN(dsn, isolation)
	if err != nil {
		return tg, nil, nil, err
	}
	pool, dial, err := tg.d.connect(tg.dsn)
	if err != nil {
		return tg, nil, nil, model.Errorf(model.EInvalidInput, "连接串无效 (invalid connection string) %s: %s", Redact(dsn), firstLine(err))
	}
	// Connect first, within the timeout and the caller's context: GORM's
	// own first statements (its ping, MySQL's version query) take no
	// context, and on a server that accepts but never answers they hung.
	pingCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := pool.PingContext(pingCtx); err != nil {
		pool.Close()
		return tg, nil, nil, unreachable(tg, dsn, err)
	}
	return tg, pool, dial, nil
}

// unreachable is the one sentence for a database that cannot be opened,
// with the driver's reason (which never holds the password).
func unreachable(tg target, dsn string, err error) error {
	why := scrubSecret(firstLine(err), tg.secret)
	return &model.Error{Code: model.EUnavailable,
		Message: fmt.Sprintf("无法连接数据库 %s (cannot reach the database): %s", Redact(dsn), why)}
}

func firstLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// Redact hides the password of a DSN so it can appear in messages and logs.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" || u.Opaque != "" || strings.ContainsAny(dsn, "; ") {
		// key=value forms (ADO.NET "Password=…;", libpq "password=… ")
		dsn = keyedSecret.ReplaceAllString(dsn, "${1}xxxxx")
		if i := strings.LastIndex(dsn, "@"); i >= 0 {
			return "…" + dsn[i:]
		}
		return dsn
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "password") || strings.EqualFold(k, "pwd") {
			q.Set(k, "xxxxx")
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

var keyedSecret = regexp.MustCompile(`(?i)((?:password|pwd)\s*=\s*)[^;\s&]*`)

// DB is the handle for reports and archiving; roles never use it.
func (s *GormStore) DB() *gorm.DB { return s.db }

// BranchID is the branch this Store serves.
func (s *GormStore) BranchID() int64 { return s.branchID }

// File is the embedded database's file, "" on a database server: the
// host keeps its own files (the daily health check's) beside it.
func (s *GormStore) File() string { return s.file }

// Engine names the database engine.
func (s *GormStore) Engine() string { return s.d.name() }

// ShiftClock moves this Store's view of the database clock by d. It exists
// for tests and day simulations (crossing midnight, timing out calls); real
// terminals never call it.
func (s *GormStore) ShiftClock(d time.Duration) { s.offset.Add(int64(d)) }

// Close releases the connections.
func (s *GormStore) Close() error {
	s.stopHub()
	s.closeOnce.Do(func() { close(s.health.closed) })
	if s.sharedPool {
		return nil
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Now is the database clock.
func (s *GormStore) Now(ctx context.Context) (time.Time, error) {
	t, err := s.clock.now(ctx, func(ctx context.Context) (time.Time, error) { return s.d.now(ctx, s.db) })
	if err != nil {
		return t, s.wrap(err)
	}
	return t.Add(time.Duration(s.offset.Load())), nil
}

func (s *GormStore) loadBranch(ctx context.Context) error {
	_, err := s.loadCalendar(s.db.WithContext(ctx))
	return err
}
