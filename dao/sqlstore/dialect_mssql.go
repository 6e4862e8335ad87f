package sqlstore

import (
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	mssql "github.com/microsoft/go-mssqldb"
	"gorm.io/driver/sqlserver"
	"gorm.io/gorm"
)

// uspCallNext is created by the migration; see dao/sqlstore/sql/mssql.
//
//go:embed sql/mssql/usp_CallNext.sql
var uspCallNext string

// mssqlDialect is the classic deployment: a branch SQL Server, calls through
// the stored procedure with UPDLOCK, READPAST, ROWLOCK.
type mssqlDialect struct{}

func (mssqlDialect) name() string { return "sqlserver" }

func (mssqlDialect) schemes() []string { return []string{"sqlserver"} }

func (mssqlDialect) form() string { return "sqlserver://…" }

// mssqlParams are the query parameters passed to the driver; anything else
// is refused, so a mistyped "encrypt" cannot silently connect in clear text.
var mssqlParams = []string{"app name", "applicationintent", "certificate", "connection timeout", "database",
	"dial timeout", "encrypt", "failoverpartner", "failoverport", "hostnameincertificate", "keepalive",
	"multisubnetfailover", "packet size", "password", "serverspn", "tlsmin", "trustservercertificate",
	"user id", "workstation id"}

// target: the database is a parameter, and parameter names are
// case-insensitive, as the driver reads them.
func (mssqlDialect) target(dsn, _ string) (target, error) {
	return urlTarget(dsn, "SQL Server", "sqlserver://user:pass@host:1433?database=db", true, mssqlTarget)
}

func mssqlTarget(u *url.URL) (target, error) {
	q, err := knownParams(u.Query(), mssqlParams, "SQL Server", true)
	if err != nil {
		return target{}, err
	}
	setDefault(q, "dial timeout", "4") // whole seconds: under connectTimeout
	setDefault(q, "connection timeout", strconv.Itoa(int(ioTimeout/time.Second)))
	u.RawQuery = q.Encode()
	return target{dsn: u.String()}, nil
}

func (mssqlDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	db, err := openMSSQL(dsn)
	return db, sqlserver.New(sqlserver.Config{Conn: db}), err
}

func (mssqlDialect) sizePool(db *sql.DB, n int) { serverPool(db, n) }

// migrate creates usp_CallNext, the claim's stored procedure.
// rowValues: SQL Server has no row values.
func (mssqlDialect) rowValues() bool { return false }

// Under locking read committed a statement reads rows as it goes, not
// one committed state: no kept reading (takeReading).
func (mssqlDialect) statementSnapshot() bool { return false }

func (mssqlDialect) serviceInBound() bool { return false }

func (mssqlDialect) refreshStats(db *gorm.DB) error {
	for _, t := range statsTables {
		if err := db.Exec("UPDATE STATISTICS " + t).Error; err != nil {
			return err
		}
	}
	return nil
}

func (mssqlDialect) migrate(db *gorm.DB) error {
	if err := installProcedure(db); err != nil {
		return fmt.Errorf("creating usp_CallNext: %w", err)
	}
	return nil
}

// uspMarker is the version line inside usp_CallNext; a database that has it
// is left alone, so PCs opening the database do not ALTER the procedure
// (which would briefly block every window's calls).
const uspMarker = "jiaohao:usp_CallNext:v3"

func installProcedure(db *gorm.DB) error {
	var def *string
	if err := db.Raw("SELECT OBJECT_DEFINITION(OBJECT_ID(N'dbo.usp_CallNext', N'P'))").Scan(&def).Error; err != nil {
		return err
	}
	if def != nil && strings.Contains(*def, uspMarker) {
		return nil
	}
	if def == nil {
		if err := db.Exec("EXEC(N'CREATE PROCEDURE dbo.usp_CallNext AS RETURN 0')").Error; err != nil {
			return err
		}
	}
	return db.Exec(uspCallNext).Error
}

// scratch: a database still in use cannot be dropped; SINGLE_USER ends the
// sessions left open first.
func (mssqlDialect) scratch(u *url.URL, name string) (scratchDB, error) {
	c := *u
	q := c.Query()
	q.Set("database", name)
	c.RawQuery = q.Encode()
	return scratchDB{admin: u.String(), dsn: c.String(), drop: []string{
		"ALTER DATABASE " + name + " SET SINGLE_USER WITH ROLLBACK IMMEDIATE", "DROP DATABASE IF EXISTS " + name}}, nil
}

// lockRead leaves the read as it is: T-SQL has no FOR UPDATE (it locks
// with table hints, which GORM's query does not carry).
func (mssqlDialect) lockRead(q *gorm.DB) *gorm.DB { return q }

func (mssqlDialect) now(ctx context.Context, db *gorm.DB) (time.Time, error) {
	var t time.Time
	err := db.WithContext(ctx).Raw("SELECT SYSUTCDATETIME()").Scan(&t).Error
	return t.UTC(), err
}

func (mssqlDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	var out []int64
	err := db.Raw("UPDATE "+table+" SET "+column+" = "+column+" + 1 OUTPUT inserted."+column+" WHERE "+where, args...).Scan(&out).Error
	if err != nil || len(out) == 0 {
		return 0, false, err
	}
	return out[0], true, nil
}

// insertIgnore relies on the unique key: a duplicate (2627/2601) is the
// "already there" answer, which leaves the transaction usable.
func (mssqlDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	err := db.Exec(insertSQL("INSERT INTO", table, cols, ""), vals...).Error
	if (mssqlDialect{}).errorKind(err) == errUnique {
		return nil
	}
	return err
}

// givenID: an IDENTITY column refuses a given id unless IDENTITY_INSERT
// is on for its table, which the session keeps after the transaction
// (even one rolled back) and allows for one table at a time. So it is
// turned off again whatever the insert did, also when the caller's
// context has ended meanwhile, before the connection goes back to the
// pool.
func (mssqlDialect) givenID(tx *gorm.DB, table string, insert func() error) error {
	if err := tx.Exec("SET IDENTITY_INSERT " + table + " ON").Error; err != nil {
		return err
	}
	err := insert()
	off := tx.WithContext(context.WithoutCancel(tx.Statement.Context)).Exec("SET IDENTITY_INSERT " + table + " OFF").Error
	if err != nil {
		return err
	}
	return off
}

// claimNext runs the procedure, which returns the head row under UPDLOCK,
// READPAST, ROWLOCK; the lock lasts until the caller's transaction ends.
func (mssqlDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	ids := make([]string, len(c.serviceIDs))
	for i, id := range c.serviceIDs {
		ids[i] = itoa64(id)
	}
	return firstRow(db.Raw("EXEC dbo.usp_CallNext @BranchId = ?, @BusinessDate = ?, @ServiceIds = ?",
		c.branchID, c.date, strings.Join(ids, ",")))
}

// lockBranch holds an update lock on the branch row; the procedure's
// READPAST then finds nothing held by another window to skip.
func (mssqlDialect) lockBranch(db *gorm.DB, branchID int64) error {
	return lockBranchRow(db, branchID, " WITH (UPDLOCK, ROWLOCK)", "")
}

func (mssqlDialect) errorKind(err error) errKind {
	return classify(err, []string{"mssql: Transaction (Process ID", "deadlock"}, []string{"Cannot insert duplicate key"})
}

func (d mssqlDialect) beginWrite(ctx context.Context, db *gorm.DB, _ time.Duration) (writeTx, error) {
	return beginSQL(ctx, db, d)
}

func (d mssqlDialect) appendEvent(db *gorm.DB, e eventRow, tail []tailWrite) (int64, error) {
	return incrementThenInsert(d, db, e, tail)
}

// mssqlFaults are the error numbers of a server that cannot work right now.
var mssqlFaults = faultCodes{
	"1105": msgDiskFull, "9002": msgDiskFull, "3906": msgReadOnly,
	"4060": msgUnreachable, "6005": msgUnreachable, "233": msgUnreachable, "10053": msgUnreachable,
	"10054": msgUnreachable, "10060": msgUnreachable, "40613": msgUnreachable,
	"10928": msgTooMany, "10929": msgTooMany, "1222": msgBusy, "1205": msgBusy, "701": msgBusy,
}

func (mssqlDialect) fault(err error) string {
	var me mssql.Error
	if errors.As(err, &me) {
		return mssqlFaults[strconv.Itoa(int(me.Number))]
	}
	var se mssql.StreamError
	if errors.As(err, &se) || containsAny(err.Error(), "unable to open tcp connection", "connection reset", "bad connection") {
		return msgUnreachable
	}
	return ""
}
