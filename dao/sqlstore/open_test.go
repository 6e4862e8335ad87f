package sqlstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

func TestOpenRefusesUnknownScheme(t *testing.T) {
	_, err := sqlstore.Open(bg, "oracle://scott:tiger@db/orcl")
	if model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "tiger") {
		t.Fatalf("password in message: %s", err)
	}
}

// An unreachable server is one sentence, within the connect timeout, and
// never shows the password.
func TestOpenUnreachableServer(t *testing.T) {
	for _, dsn := range []string{
		"postgres://u:secretpw@127.0.0.1:1/x",
		"mysql://u:secretpw@127.0.0.1:1/x",
	} {
		ctx, cancel := context.WithTimeout(bg, 20*time.Second)
		_, err := sqlstore.Open(ctx, dsn)
		cancel()
		if model.ErrorCode(err) != model.EUnavailable {
			t.Fatalf("%s: got %v", sqlstore.Redact(dsn), err)
		}
		if msg := err.Error(); strings.Contains(msg, "secretpw") || strings.Contains(msg, "\n") {
			t.Fatalf("message leaks or spans lines: %q", msg)
		}
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://u:pw@h:5432/db":               "postgres://u:xxxxx@h:5432/db",
		"sqlserver://sa:pw@h?database=q":          "sqlserver://sa:xxxxx@h?database=q",
		"sqlite:/tmp/x.db":                        "sqlite:/tmp/x.db",
		"sqlserver://h?password=pw&database=q":    "sqlserver://h?database=q&password=xxxxx",
		"Server=db;User Id=sa;Password=S3cret;":   "Server=db;User Id=sa;Password=xxxxx;",
		"host=db user=u password=S3cret dbname=q": "host=db user=u password=xxxxx dbname=q",
	} {
		if got := sqlstore.Redact(in); got != want {
			t.Errorf("Redact(%s) = %s, want %s", in, got, want)
		}
	}
}

// A fresh database is a working branch: services A, B, V and windows 1-4
// open and serving all three; migrating again changes nothing.
func TestFreshDatabaseIsSeeded(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		svc, err := s.Services(bg)
		if err != nil || len(svc) != 3 || svc[0].Code != "A" || svc[1].Code != "B" || svc[2].Code != "V" || svc[2].Priority != 1 || svc[0].Name != "个人业务" {
			t.Fatalf("services %+v %v", svc, err)
		}
		again, err := sqlstore.Open(bg, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer again.Close()
		ws, err := again.Windows(bg)
		if err != nil || len(ws) != 4 {
			t.Fatalf("windows %+v %v", ws, err)
		}
		for _, w := range ws {
			if w.Status != model.WindowOpen || len(w.Services) != 3 {
				t.Fatalf("window %+v", w)
			}
		}
		st, _ := s.Settings(bg)
		if st.CallTimeout != 120*time.Second || st.RecallMax != 1 || st.IdleWindowTimeout != 300*time.Second || st.RequeueOffset != 3 {
			t.Fatalf("default settings %+v", st)
		}
	})
}

// tls=true reaches a real MariaDB: the connection is encrypted, or, on a
// server without TLS, refused for that reason (it used to connect in clear
// text, the parameter dropped).
func TestMySQLTLSParameterIsUsed(t *testing.T) {
	s, err := sqlstore.Open(bg, daotest.ServerDSN(t, daotest.EnvMySQL)+"?tls=skip-verify")
	if err != nil {
		if !strings.Contains(err.Error(), "TLS") {
			t.Fatalf("tls=skip-verify on a server: %v", err)
		}
		t.Logf("the server has no TLS: %v", err)
		return
	}
	defer s.Close()
	var row struct{ VariableName, Value string }
	if err := s.DB().Raw("SHOW SESSION STATUS LIKE 'Ssl_cipher'").Scan(&row).Error; err != nil || row.Value == "" {
		t.Fatalf("connected without TLS: %+v %v", row, err)
	}
}
