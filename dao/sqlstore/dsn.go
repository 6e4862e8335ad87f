package sqlstore

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"jiaohao/model"
)

// ioTimeout bounds one read or write on a server connection whose context
// has no deadline (the event tail, migrations): a frozen server then fails
// the statement instead of holding the connection forever.
const ioTimeout = 30 * time.Second

// target is how to reach one database: the database/sql driver, the
// driver's own DSN, the dialect, and the password (kept out of logs).
type target struct {
	driver, dsn string
	d           dialect
	secret      string
	file        string // SQLite's file, whose disk the health probe watches
	pool        int    // the pool=N parameter; 0: the default
}

// The query parameters each engine passes to its driver; anything else is
// refused, so a mistyped "tls" cannot silently connect in clear text.
var (
	pgParams = []string{"application_name", "connect_timeout", "dbname", "host", "password", "port", "search_path",
		"sslcert", "sslkey", "sslmode", "sslpassword", "sslrootcert", "sslsni", "target_session_attrs", "user"}
	mysqlParams = []string{"allowCleartextPasswords", "allowNativePasswords", "readTimeout",
		"ssl-ca", "timeout", "tls", "writeTimeout"}
	mssqlParams = []string{"app name", "applicationintent", "certificate", "connection timeout", "database",
		"dial timeout", "encrypt", "failoverpartner", "failoverport", "hostnameincertificate", "keepalive",
		"multisubnetfailover", "packet size", "password", "serverspn", "tlsmin", "trustservercertificate",
		"user id", "workstation id"}
)

// parseDSN turns a jiaohao DSN into the driver's DSN for its engine, with
// the timeouts that keep a dead or silent server from hanging a PC and the
// user's parameters checked and kept.
func parseDSN(dsn, isolation string) (target, error) {
	scheme, rest, _ := strings.Cut(dsn, ":")
	switch strings.ToLower(scheme) {
	case "sqlite":
		return sqliteTarget(rest)
	case "postgres", "postgresql":
		return urlTarget(dsn, "PostgreSQL", "postgres://user:pass@host:5432/db", false, pgTarget)
	case "mysql", "mariadb":
		return urlTarget(dsn, "MySQL", "mysql://user:pass@host:3306/db", true, func(u *url.URL) (target, error) { return mysqlTarget(u, isolation) })
	case "sqlserver":
		return urlTarget(dsn, "SQL Server", "sqlserver://user:pass@host:1433?database=db", true, mssqlTarget)
	}
	return target{}, model.Errorf(model.EInvalidInput,
		"不支持的数据库连接串 %q：请用 sqlite:PATH、postgres://…、mysql://… 或 sqlserver://… (unsupported connection string)", Redact(dsn))
}

// urlTarget parses a URL-form DSN; PostgreSQL may name its host in the
// parameters instead (a Unix socket).
func urlTarget(dsn, engine, example string, needHost bool, build func(*url.URL) (target, error)) (target, error) {
	u, err := url.Parse(dsn)
	if err != nil || (needHost && u.Host == "") {
		return target{}, model.Errorf(model.EInvalidInput, "%s 连接串应形如 %s (the connection string should look like that): %s", engine, example, Redact(dsn))
	}
	q := u.Query()
	pool, err := takePool(q)
	if err != nil {
		return target{}, err
	}
	u.RawQuery = q.Encode()
	t, err := build(u)
	if err != nil {
		return t, err
	}
	t.pool = pool
	if pass, ok := u.User.Password(); ok {
		t.secret = pass
	} else if pass := u.Query().Get("password"); pass != "" {
		t.secret = pass
	}
	return t, nil
}

func sqliteTarget(rest string) (target, error) {
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
	tg := target{driver: "sqlite", dsn: path + "?" + q, d: sqliteDialect{}}
	if path != ":memory:" {
		tg.file = path
	}
	return tg, nil
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
	return target{driver: "pgx", dsn: u.String(), d: postgresDialect{}}, nil
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
	return target{driver: "mysql", dsn: cfg.FormatDSN() + "&charset=utf8mb4", d: mysqlDialect{}}, nil
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

func mssqlTarget(u *url.URL) (target, error) {
	q, err := knownParams(u.Query(), mssqlParams, "SQL Server", true)
	if err != nil {
		return target{}, err
	}
	setDefault(q, "dial timeout", "4") // whole seconds: under connectTimeout
	setDefault(q, "connection timeout", strconv.Itoa(int(ioTimeout/time.Second)))
	u.RawQuery = q.Encode()
	return target{driver: "sqlserver", dsn: u.String(), d: mssqlDialect{}}, nil
}

// knownParams checks every parameter against the engine's list; SQL
// Server's names are case-insensitive, as its driver reads them.
func knownParams(q url.Values, known []string, engine string, foldCase bool) (url.Values, error) {
	names := make([]string, 0, len(q))
	for k := range q {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		ok := false
		for _, n := range known {
			ok = ok || k == n || (foldCase && strings.EqualFold(k, n))
		}
		if !ok {
			return nil, model.Errorf(model.EInvalidInput, "%s 连接串不认识参数 %q，可用的参数有：%s (unknown connection string parameter %q; known: %s)",
				engine, k, strings.Join(known, ", "), k, strings.Join(known, ", "))
		}
		if len(q[k]) > 1 {
			return nil, model.Errorf(model.EInvalidInput, "连接串参数 %q 出现了多次 (the parameter %q is given more than once)", k, k)
		}
	}
	return q, nil
}

func badValue(name, v, allowed string) error {
	return model.Errorf(model.EInvalidInput, "连接串参数 %s=%q 无效，可用：%s (invalid value for %s; allowed: %s)", name, v, allowed, name, allowed)
}

func setDefault(q url.Values, key, v string) {
	for k := range q {
		if strings.EqualFold(k, key) {
			return
		}
	}
	q.Set(key, v)
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}
