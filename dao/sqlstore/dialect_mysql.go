package sqlstore

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
	gormmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"

	"jiaohao/model"
)

// mysqlDialect covers MariaDB (10.6+) and MySQL 8. Sessions run READ
// COMMITTED (set in the DSN) so FOR UPDATE SKIP LOCKED does not keep locks
// on rows it scanned but did not take.
type mysqlDialect struct{}

func (mysqlDialect) name() string { return "mysql" }

func (mysqlDialect) schemes() []string { return []string{"mysql", "mariadb"} }

func (mysqlDialect) form() string { return "mysql://…" }

// mysqlParams are the query parameters passed to the driver; anything else
// is refused, so a mistyped "tls" cannot silently connect in clear text.
var mysqlParams = []string{"allowCleartextPasswords", "allowNativePasswords", "readTimeout",
	"ssl-ca", "timeout", "tls", "writeTimeout"}

func (mysqlDialect) target(dsn, isolation string) (target, error) {
	return urlTarget(dsn, "MySQL", "mysql://user:pass@host:3306/db", true, func(u *url.URL) (target, error) { return mysqlTarget(u, isolation) })
}

func mysqlTarget(u *url.URL, isolation string) (target, error) {
	q, err := knownParams(u.Query(), mysqlParams, "MySQL", false)
	if err != nil {
		return target{}, err
	}
	cfg := mysql.NewConfig()
	cfg.User = u.User.Username()
	cfg.Passwd, _ = u.User.Password()
	cfg.Net, cfg.Addr, cfg.DBName = "tcp", u.Host, strings.TrimPrefix(u.Path, "/")
	cfg.ParseTime, cfg.Loc = true, time.UTC
	// A statement with arguments is sent with them in its text, one round
	// trip: otherwise the driver prepares it, runs it and closes it, two
	// round trips for every statement of every write. utf8mb4 (below) is
	// an encoding the driver escapes safely.
	cfg.InterpolateParams = true
	// A write's last event and its COMMIT go in one packet (myTx). Every
	// value is escaped by the driver, never pasted into the text.
	cfg.MultiStatements = true
	cfg.Timeout, cfg.ReadTimeout, cfg.WriteTimeout = connectTimeout, ioTimeout, ioTimeout
	cfg.Params = map[string]string{isolation: "'READ-COMMITTED'"}
	for name, d := range map[string]*time.Duration{"timeout": &cfg.Timeout, "readTimeout": &cfg.ReadTimeout, "writeTimeout": &cfg.WriteTimeout} {
		if v := q.Get(name); v != "" {
			if *d, err = time.ParseDuration(v); err != nil || *d <= 0 {
				return target{}, badValue(name, v, "a duration such as 5s")
			}
		}
	}
	for name, b := range map[string]*bool{"allowCleartextPasswords": &cfg.AllowCleartextPasswords, "allowNativePasswords": &cfg.AllowNativePasswords} {
		if v := q.Get(name); v != "" {
			if *b, err = strconv.ParseBool(v); err != nil {
				return target{}, badValue(name, v, "true, false")
			}
		}
	}
	switch v := q.Get("tls"); {
	case q.Get("ssl-ca") != "":
		if v != "" && v != "true" {
			return target{}, badValue("tls", v, "true (or leave it out) with ssl-ca")
		}
		if cfg.TLSConfig, err = mysqlCA(q.Get("ssl-ca")); err != nil {
			return target{}, err
		}
	case v == "" || oneOf(v, "true", "false", "skip-verify", "preferred"):
		cfg.TLSConfig = v
	default:
		return target{}, badValue("tls", v, "true, false, skip-verify, preferred")
	}
	// charset has no Config field in this driver version: it goes in the DSN.
	return target{dsn: cfg.FormatDSN() + "&charset=utf8mb4"}, nil
}

// mysqlCA registers a TLS configuration that trusts the CA in file and
// returns its name for the driver's tls parameter.
func mysqlCA(file string) (string, error) {
	pem, err := os.ReadFile(file)
	pool := x509.NewCertPool()
	if err != nil || !pool.AppendCertsFromPEM(pem) {
		return "", model.Errorf(model.EInvalidInput, "无法读取 ssl-ca 证书文件 %s (cannot read the CA certificate file)", file)
	}
	sum := sha256.Sum256(pem)
	name := "jiaohao-" + hex.EncodeToString(sum[:8])
	if err := mysql.RegisterTLSConfig(name, &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}); err != nil {
		return "", fmt.Errorf("register TLS config: %w", err)
	}
	return name, nil
}

func (mysqlDialect) sizePool(db *sql.DB, n int) { serverPool(db, n) }

func (mysqlDialect) migrate(db *gorm.DB) error { return installHead(db) }

// rowValues: MariaDB parses row comparisons but does not bound an index range with them.
func (mysqlDialect) rowValues() bool { return false }

func (mysqlDialect) statementSnapshot() bool { return true }

func (mysqlDialect) serviceInBound() bool { return false }

func (mysqlDialect) refreshStats(db *gorm.DB) error {
	return db.Exec("ANALYZE TABLE " + strings.Join(statsTables, ", ")).Error
}

// scratch: the statements run on the server without a database, since
// the one the DSN names need not exist.
func (mysqlDialect) scratch(u *url.URL, name string) (scratchDB, error) {
	return scratchDB{admin: withPath(u, ""), dsn: withPath(u, name), drop: []string{"DROP DATABASE IF EXISTS " + name}}, nil
}

// lockRead: READ COMMITTED (set in the DSN) lets another transaction
// change a row read without a lock.
func (mysqlDialect) lockRead(q *gorm.DB) *gorm.DB { return forUpdate(q) }

func (mysqlDialect) connect(dsn string) (*sql.DB, gorm.Dialector, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, nil, err
	}
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, nil, err
	}
	db := sql.OpenDB(mysqlConnector{Connector: c, readTimeout: cfg.ReadTimeout})
	return db, gormmysql.New(gormmysql.Config{Conn: db, DSN: dsn}), nil
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
	q := "UPDATE " + table + " SET " + column + " = LAST_INSERT_ID(" + column + " + 1) WHERE " + where
	showDirect(q, args)
	res, err := db.Statement.ConnPool.ExecContext(db.Statement.Context, q, args...)
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

func (mysqlDialect) givenID(_ *gorm.DB, _ string, insert func() error) error { return insert() }

// claimNext walks queue_head (dialect_mysql_head.go) in serving order: with
// a filesort InnoDB would lock every candidate row before sorting, and the
// other windows would skip them all.
func (mysqlDialect) claimNext(db *gorm.DB, c claim) (ticketRow, bool, error) {
	row, found, err := claimHead(db, c, headClaim(c.rowLock()))
	if err != nil || found {
		return row, found, err
	}
	if healed, err := healHead(db, c); err != nil || !healed {
		return row, false, err
	}
	return claimHead(db, c, headClaim(c.rowLock()))
}

func (mysqlDialect) lockBranch(db *gorm.DB, branchID int64) error {
	return lockBranchRow(db, branchID, "", " FOR UPDATE")
}

func (mysqlDialect) errorKind(err error) errKind {
	return classify(err, []string{"Error 1213", "Error 1205"}, []string{"Error 1062"})
}

func (d mysqlDialect) appendEvent(db *gorm.DB, e eventRow, tail []tailWrite) (int64, error) {
	return incrementThenInsert(d, db, e, tail)
}

// mysqlFaults are the error numbers of a server that cannot work right
// now, MariaDB's and MySQL's alike.
var mysqlFaults = faultCodes{
	"1040": msgTooMany, "1203": msgTooMany, "1226": msgTooMany,
	"1053": msgUnreachable, "1927": msgUnreachable, "4031": msgUnreachable, "2006": msgUnreachable, "2013": msgUnreachable,
	"1021": msgDiskFull, "1114": msgDiskFull, "3": msgIO,
	"1290": msgReadOnly, "1836": msgReadOnly, "1792": msgReadOnly,
	"1205": msgBusy, "1213": msgBusy,
	"1449": msgHeadDefinerGone,
}

// msgHeadDefinerGone: the triggers that keep queue_head run as the account
// that installed them (dialect_mysql_head.go); with it dropped, every
// write of a ticket fails until they are installed again, which opening
// the database does once they are gone.
const msgHeadDefinerGone = "安装叫号触发器的数据库账户已被删除，号码无法写入：请数据库管理员删除触发器 tr_ticket_head_ins、tr_ticket_head_upd、tr_ticket_head_del，再从任一台电脑重新打开数据库 " +
	"(the database account that installed the queue's triggers was dropped, so no ticket can be written: drop the triggers tr_ticket_head_ins, tr_ticket_head_upd and tr_ticket_head_del, then open the database again from any PC)"

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
