package sqlstore

import (
	"net/url"
	"sort"
	"strings"
	"time"

	"jiaohao/model"
)

// ioTimeout bounds one read or write on a server connection whose context
// has no deadline (the event tail, migrations): a frozen server then fails
// the statement instead of holding the connection forever.
const ioTimeout = 30 * time.Second

// target is how to reach one database: the driver's own DSN, the dialect,
// and the password (kept out of logs).
type target struct {
	dsn    string
	d      dialect
	secret string
	file   string // SQLite's file, whose disk the health probe watches
	pool   int    // the pool=N parameter; 0: the default
}

// parseDSN turns a jiaohao DSN into the driver's DSN for its engine, with
// the timeouts that keep a dead or silent server from hanging a PC and the
// user's parameters checked and kept.
func parseDSN(dsn, isolation string) (target, error) {
	d, err := dialectOf(dsn)
	if err != nil {
		return target{}, err
	}
	t, err := d.target(dsn, isolation)
	t.d = d
	return t, err
}

// dialectOf is the dialect whose scheme begins dsn.
func dialectOf(dsn string) (dialect, error) {
	scheme, _, _ := strings.Cut(dsn, ":")
	forms := make([]string, len(dialects))
	for i, d := range dialects {
		if oneOf(strings.ToLower(scheme), d.schemes()...) {
			return d, nil
		}
		forms[i] = d.form()
	}
	last := len(forms) - 1
	return nil, model.Errorf(model.EInvalidInput, "不支持的数据库连接串 %q：请用 %s 或 %s (unsupported connection string)",
		Redact(dsn), strings.Join(forms[:last], "、"), forms[last])
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
