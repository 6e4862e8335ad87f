package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

// postgresDialect shares RETURNING and ON CONFLICT with SQLite through the
// helpers in dialect.go; the branch lock is an advisory lock.
type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

func (postgresDialect) schemes() []string { return []string{"postgres", "postgresql"} }

func (postgresDialect) form() string { return "postgres://…" }

// pgParams are the query parameters passed to the driver; anything else is
// refused, so a mistyped "sslmode" cannot silently connect in clear text.
var pgParams = []string{"application_name", "connect_timeout", "dbname", "host", "password", "port", "search_path",
	"sslcert", "sslkey", "sslmode", "sslpassword", "sslrootcert", "sslsni", "target_session_attrs", "user"}

// target: PostgreSQL may name its host in the parameters instead of the
// URL (a Unix socket).
func (postgresDialect) target(dsn, _ string) (target, error) {
	return urlTarget(dsn, "PostgreSQL", "postgres://user:pass@host:5432/db", false, pgTarget)
}

func pgTarget(u *url.URL) (target, error) {
	q, err := knownParams(u.Query(), pgParams, "PostgreSQL", false)
	if err != nil {
		return target{}, err
	}
	if m := q.Get("sslmode"); m != "" && !oneOf(m, "disable", "allow", "prefer", "require", "verify-ca", "verify-full") {
		return target{}, badValue("sslmode", m, "disable, allow, prefer, require, verify-ca, verify-full")
	}
	setDefault(q, "connect_timeout", "4") // whole seconds: under connectTimeout
	setDefault(q, "sslmode", "disable")
	u.RawQuery = q.Encode()
	return target{dsn: u.String()}, nil
}

func (postgresDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	db, err := sql.Open("pgx", dsn)
	return db, postgres.New(postgres.Config{Conn: db}), err
}

func (postgresDialect) now(ctx context.Context, db *gorm.DB) (time.Time, error) {
	var t time.Time
	err := db.WithContext(ctx).Raw("SELECT clock_timestamp()").Scan(&t).Error
	return t.UTC(), err
}

func (postgresDialect) sizePool(db *sql.DB, n int) { serverPool(db, n) }

// migrate installs the write guards (dialect_postgres_guard.go) and tells
// the planner that a ticket's service names its branch and
// that waiting tickets are today's: estimating the call-next pick's
// columns as independent, among a hundred branches it expected one row,
// walked ix_ticket_wait and sorted every waiting ticket of the services
// (0.5 ms at 300 waiting, growing with the queue) instead of taking the
// head of ix_ticket_call (0.04 ms). It is looked up first, so opening the
// database does not take the table's lock CREATE STATISTICS takes; PCs
// migrating at once may both create it, and the second finds it there.
func (d postgresDialect) migrate(db *gorm.DB) error {
	if err := installGuards(db); err != nil {
		return err
	}
	var n int64
	if err := db.Raw("SELECT COUNT(*) FROM pg_statistic_ext WHERE stxname = 'st_ticket_branch' AND stxnamespace = current_schema()::regnamespace").Scan(&n).Error; err != nil || n > 0 {
		return err
	}
	err := db.Exec("CREATE STATISTICS IF NOT EXISTS st_ticket_branch (dependencies) ON branch_id, status, business_date, service_id FROM ticket").Error
	if err != nil && d.errorKind(err) != errUnique && !strings.Contains(err.Error(), "already exists") {
		return fmt.Errorf("creating the ticket statistics: %w", err)
	}
	return nil
}

// VACUUM (not only ANALYZE) also marks the pages all-visible, so the
// bounded count of people ahead stays an index-only scan.
// rowValues: the comparison bounds the walk of ix_ticket_call.
func (postgresDialect) rowValues() bool { return true }

func (postgresDialect) statementSnapshot() bool { return true }

// serviceInBound: PostgreSQL estimates a row comparison from its first
// column alone; see aheadQuery.
func (postgresDialect) serviceInBound() bool { return true }

func (postgresDialect) refreshStats(db *gorm.DB) error {
	return db.Exec("VACUUM (ANALYZE) " + strings.Join(statsTables, ", ")).Error
}

// scratch: the statements run in the database the DSN names (a
// PostgreSQL session is always in one); FORCE ends sessions left open.
func (postgresDialect) scratch(u *url.URL, name string) (scratchDB, error) {
	return scratchDB{admin: u.String(), dsn: withPath(u, name), drop: []string{"DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"}}, nil
}

// lockRead: READ COMMITTED lets another transaction change a row read
// without a lock.
func (postgresDialect) lockRead(q *gorm.DB) *gorm.DB { return forUpdate(q) }

func (postgresDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	return incrementReturning(db, table, column, where, args...)
}

func (postgresDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return insertOnConflict(db, table, cols, vals)
}

func (postgresDialect) givenID(_ *gorm.DB, _ string, insert func() error) error { return insert() }

func (postgresDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	return claimHead(db, c, headQuery("", c.rowLock()))
}

// lockBranch is a transaction-scoped advisory lock keyed by the branch.
func (postgresDialect) lockBranch(db *gorm.DB, branchID int64) error {
	return db.Exec("SELECT pg_advisory_xact_lock(?)", branchID).Error
}

func (postgresDialect) errorKind(err error) errKind {
	return classify(err, []string{"SQLSTATE 40P01", "SQLSTATE 40001"}, []string{"SQLSTATE 23505"})
}

// pgFaults are the SQLSTATEs of a server that cannot work right now.
var pgFaults = faultCodes{
	"53100": msgDiskFull, "53200": msgBusy, "53300": msgTooMany, "53400": msgTooMany,
	"57P01": msgUnreachable, "57P02": msgUnreachable, "57P03": msgUnreachable, "57P05": msgUnreachable,
	"57014": msgTimeout, lateCode: msgTimeout, "55P03": msgBusy, "40001": msgBusy, "40P01": msgBusy,
	"58030": msgIO, "25006": msgReadOnly,
}

func (postgresDialect) fault(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		if strings.HasPrefix(pe.Code, "08") { // connection exception
			return msgUnreachable
		}
		return pgFaults[pe.Code]
	}
	var ce *pgconn.ConnectError
	switch {
	case pgconn.Timeout(err):
		return msgTimeout
	case errors.As(err, &ce), containsAny(err.Error(), "conn closed", "failed to connect", "failed to receive message", "failed to write startup message"):
		return msgUnreachable
	}
	return ""
}
