package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

func (postgresDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	db, err := sql.Open("pgx", dsn)
	return db, postgres.New(postgres.Config{Conn: db}), err
}

func (postgresDialect) now(ctx context.Context, db *gorm.DB) (time.Time, error) {
	var t time.Time
	err := db.WithContext(ctx).Raw("SELECT clock_timestamp()").Scan(&t).Error
	return t.UTC(), err
}

func (postgresDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	return sqliteDialect{}.increment(db, table, column, where, args...) // same RETURNING syntax
}

func (postgresDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return sqliteDialect{}.insertIgnore(db, table, cols, vals) // same ON CONFLICT syntax
}

func (postgresDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	return claimHead(db, c, headQuery("", c.rowLock()))
}

// lockBranch is a transaction-scoped advisory lock keyed by the branch.
func (postgresDialect) lockBranch(db *gorm.DB, branchID int64) error {
	return db.Exec("SELECT pg_advisory_xact_lock(?)", branchID).Error
}

// appendEvent takes the version and writes the event in one statement, so
// the branch row lock is held for one round trip less.
func (postgresDialect) appendEvent(db *gorm.DB, e eventRow) (int64, error) {
	var v []int64
	err := db.Raw(`WITH v AS (UPDATE branch SET version = version + 1 WHERE id = ? RETURNING version)
		INSERT INTO queue_event (branch_id, version, at, kind, ticket_id, window_no, from_status, to_status, actor, detail)
		SELECT ?, v.version, ?, ?, ?, ?, ?, ?, ?, ? FROM v RETURNING version`,
		e.BranchID, e.BranchID, e.At, e.Kind, e.TicketID, e.WindowNo, e.FromStatus, e.ToStatus, e.Actor, e.Detail).Scan(&v).Error
	if err == nil && len(v) == 0 {
		err = errors.New("branch row missing")
	}
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func (postgresDialect) errorKind(err error) errKind {
	return classify(err, []string{"SQLSTATE 40P01", "SQLSTATE 40001"}, []string{"SQLSTATE 23505"})
}

// pgFaults are the SQLSTATEs of a server that cannot work right now.
var pgFaults = faultCodes{
	"53100": msgDiskFull, "53200": msgBusy, "53300": msgTooMany, "53400": msgTooMany,
	"57P01": msgUnreachable, "57P02": msgUnreachable, "57P03": msgUnreachable, "57P05": msgUnreachable,
	"57014": msgTimeout, "55P03": msgBusy, "40001": msgBusy, "40P01": msgBusy,
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
