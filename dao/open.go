package dao

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/mysql"
	"gorm.io/driver/postgres"
	"gorm.io/driver/sqlserver"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"jiaohao/model"
)

// GormStore is the Store on a real database.
type GormStore struct {
	db       *gorm.DB
	d        dialect
	branchID int64
	loc      *time.Location
	offset   atomic.Int64 // test-only shift of the database clock, ns

	watchOnce sync.Once
	hub       atomic.Pointer[hub] // set once by the first Watch; writes wake it
	clock     dbClock
	codes     codeCache
}

var (
	_ Store     = (*GormStore)(nil)
	_ Terminals = (*GormStore)(nil)
)

// DefaultDSN is the embedded database in the user's config directory.
func DefaultDSN() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		dir = "."
	}
	return "sqlite:" + filepath.Join(dir, "jiaohao", "jiaohao.db")
}

// connectTimeout bounds how long an unreachable server keeps a PC waiting.
const connectTimeout = 5 * time.Second

// Open connects to dsn, migrates and seeds it, and returns the Store of
// branch 1.
func Open(ctx context.Context, dsn string) (*GormStore, error) {
	s, err := open(ctx, dsn, isolationVar)
	if err != nil && strings.Contains(err.Error(), "Unknown system variable '"+isolationVar+"'") {
		s, err = open(ctx, dsn, "tx_isolation") // MariaDB before 11.1 only knows the old name
	}
	return s, err
}

// isolationVar is MySQL 8's name for the session isolation variable.
const isolationVar = "transaction_isolation"

func open(ctx context.Context, dsn, isolation string) (*GormStore, error) {
	driverDSN, pool, err := takePool(dsn)
	if err != nil {
		return nil, err
	}
	dial, d, err := dialector(driverDSN, isolation)
	if err != nil {
		return nil, err
	}
	db, err := gorm.Open(dial, &gorm.Config{
		Logger:                                   logger.Discard,
		SkipDefaultTransaction:                   true,
		DisableForeignKeyConstraintWhenMigrating: true,
	})
	if err != nil {
		return nil, unreachable(dsn, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, unreachable(dsn, err)
	}
	setPool(sqlDB, d.name(), pool)
	pingCtx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	if err := sqlDB.PingContext(pingCtx); err != nil {
		sqlDB.Close()
		return nil, unreachable(dsn, err)
	}
	s := &GormStore{db: db, d: d, branchID: 1}
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

func unreachable(dsn string, err error) error {
	return &model.Error{Code: model.EUnavailable,
		Message: fmt.Sprintf("无法连接数据库 %s (cannot reach the database): %s", Redact(dsn), firstLine(err))}
}

func firstLine(err error) string {
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// dialector turns a jiaohao DSN into a GORM dialector for its engine.
func dialector(dsn, isolation string) (gorm.Dialector, dialect, error) {
	scheme, rest, _ := strings.Cut(dsn, ":")
	switch strings.ToLower(scheme) {
	case "sqlite":
		path := strings.TrimPrefix(rest, "//")
		if path == "" {
			return nil, nil, model.Errorf(model.EInvalidInput, "sqlite 连接串缺少文件路径，例如 sqlite:/var/lib/jiaohao.db")
		}
		if path != ":memory:" {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return nil, nil, model.Errorf(model.EUnavailable, "无法创建数据库目录 %s: %v", filepath.Dir(path), err)
			}
		}
		// synchronous(FULL): a number committed and printed must survive a
		// power cut, or the next one would be issued again.
		q := "_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_txlock=immediate"
		return sqlite.Open(path + "?" + q), sqliteDialect{}, nil
	case "postgres", "postgresql":
		u, err := url.Parse(dsn)
		if err != nil {
			return nil, nil, model.Errorf(model.EInvalidInput, "PostgreSQL 连接串无法解析: %s", Redact(dsn))
		}
		q := u.Query()
		if q.Get("connect_timeout") == "" {
			q.Set("connect_timeout", "5")
		}
		if q.Get("sslmode") == "" {
			q.Set("sslmode", "disable")
		}
		u.RawQuery = q.Encode()
		return postgres.New(postgres.Config{DSN: u.String()}), postgresDialect{}, nil
	case "mysql", "mariadb":
		u, err := url.Parse(dsn)
		if err != nil || u.Host == "" {
			return nil, nil, model.Errorf(model.EInvalidInput, "MySQL 连接串应为 mysql://user:pass@host:port/db: %s", Redact(dsn))
		}
		pass, _ := u.User.Password()
		cfg := fmt.Sprintf("%s:%s@tcp(%s)%s?parseTime=true&loc=UTC&timeout=5s&charset=utf8mb4&%s=%%27READ-COMMITTED%%27",
			u.User.Username(), pass, u.Host, u.Path, isolation)
		return mysql.Open(cfg), mysqlDialect{}, nil
	case "sqlserver":
		u, err := url.Parse(dsn)
		if err != nil {
			return nil, nil, model.Errorf(model.EInvalidInput, "SQL Server 连接串无法解析: %s", Redact(dsn))
		}
		q := u.Query()
		if q.Get("dial timeout") == "" {
			q.Set("dial timeout", "5")
		}
		u.RawQuery = q.Encode()
		return sqlserver.Open(u.String()), mssqlDialect{}, nil
	}
	return nil, nil, model.Errorf(model.EInvalidInput,
		"不支持的数据库连接串 %q：请用 sqlite:PATH、postgres://…、mysql://… 或 sqlserver://…", Redact(dsn))
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

// Location is the branch's time zone, which decides the business date.
func (s *GormStore) Location() *time.Location { return s.loc }

// Engine names the database engine.
func (s *GormStore) Engine() string { return s.d.name() }

// ShiftClock moves this Store's view of the database clock by d. It exists
// for tests and day simulations (crossing midnight, timing out calls); real
// terminals never call it.
func (s *GormStore) ShiftClock(d time.Duration) { s.offset.Add(int64(d)) }

// Close releases the connections.
func (s *GormStore) Close() error {
	if h := s.hub.Load(); h != nil {
		h.stop()
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
	var b branchRow
	if err := s.db.WithContext(ctx).First(&b, s.branchID).Error; err != nil {
		return fmt.Errorf("reading the branch: %w", err)
	}
	loc, err := time.LoadLocation(b.TimeZone)
	if err != nil {
		loc = time.FixedZone("CST", 8*3600) // the branch row names a zone this PC does not know
	}
	s.loc = loc
	return nil
}

// wrap turns driver errors into domain errors where the cause is known.
func (s *GormStore) wrap(err error) error {
	var me *model.Error
	if err == nil || errors.As(err, &me) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &model.Error{Code: model.EUnavailable, Message: "数据库响应超时 (database timed out)"}
	}
	return fmt.Errorf("database: %w", err)
}
