package sqlstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/microsoft/go-mssqldb/msdsn"

	"jiaohao/model"
)

// The parameters of a DSN reach the driver: mysql://…?tls=true used to be
// dropped, so TLS to MariaDB could not be turned on.
func TestDSNParametersReachTheDriver(t *testing.T) {
	my := func(t *testing.T, dsn string) *mysql.Config {
		t.Helper()
		tg, err := parseDSN(dsn, isolationVar)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := mysql.ParseDSN(tg.dsn)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	t.Run("mysql", func(t *testing.T) {
		cfg := my(t, "mysql://u:p%40ss@db:3306/q?tls=true&readTimeout=7s")
		if cfg.TLSConfig != "true" || cfg.TLS == nil || cfg.TLS.ServerName != "db" || cfg.ReadTimeout != 7*time.Second {
			t.Fatalf("tls %q %+v, read timeout %v", cfg.TLSConfig, cfg.TLS, cfg.ReadTimeout)
		}
		if cfg.Passwd != "p@ss" || cfg.DBName != "q" || cfg.Timeout != connectTimeout || cfg.WriteTimeout != ioTimeout {
			t.Fatalf("config %+v", cfg)
		}
		ca := caFile(t)
		cfg = my(t, "mysql://u@db/q?ssl-ca="+ca)
		if cfg.TLS == nil || cfg.TLS.RootCAs == nil || cfg.TLS.InsecureSkipVerify {
			t.Fatalf("ssl-ca did not make a verifying TLS config: %+v", cfg.TLS)
		}
	})
	t.Run("postgres", func(t *testing.T) {
		tg, err := parseDSN("postgres://u:p@db/q?sslmode=require&application_name=hall", isolationVar)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := pgx.ParseConfig(tg.dsn)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.TLSConfig == nil || cfg.RuntimeParams["application_name"] != "hall" || cfg.ConnectTimeout <= 0 || cfg.ConnectTimeout > connectTimeout {
			t.Fatalf("config: tls %v, params %v, timeout %v", cfg.TLSConfig, cfg.RuntimeParams, cfg.ConnectTimeout)
		}
	})
	t.Run("sqlserver", func(t *testing.T) {
		tg, err := parseDSN("sqlserver://u:p@db:1433?database=q&encrypt=true&TrustServerCertificate=false", isolationVar)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := msdsn.Parse(tg.dsn)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Encryption != msdsn.EncryptionRequired || cfg.TLSConfig == nil || cfg.TLSConfig.InsecureSkipVerify ||
			cfg.Database != "q" || cfg.DialTimeout <= 0 || cfg.DialTimeout > connectTimeout || cfg.ConnTimeout != ioTimeout {
			t.Fatalf("config: encryption %v, tls %+v, database %q, timeouts %v %v", cfg.Encryption, cfg.TLSConfig, cfg.Database, cfg.DialTimeout, cfg.ConnTimeout)
		}
	})
}

// A parameter the engine does not know, or a value it cannot take, is one
// sentence naming it, not a silently different connection.
func TestDSNUnknownParameterRefused(t *testing.T) {
	for dsn, name := range map[string]string{
		"mysql://u:secretpw@db/q?tsl=true":                     "tsl",
		"mysql://u:secretpw@db/q?tls=yes":                      "tls",
		"mysql://u:secretpw@db/q?ssl-ca=/nonexistent/ca.pem":   "ssl-ca",
		"postgres://u:secretpw@db/q?ssl_mode=require":          "ssl_mode",
		"postgres://u:secretpw@db/q?sslmode=on":                "sslmode",
		"sqlserver://u:secretpw@db?database=q&encrypted=true":  "encrypted",
		"sqlite:/tmp/jiaohao-never-created/x.db?mode=ro":       "mode",
		"mysql://u:secretpw@db/q?tls=true&tls=false":           "tls",
		"sqlserver://u:secretpw@db?Database=q&Bogus+Option=1":  "Bogus Option",
		"postgres://u:secretpw@db/q?statement_timeout=1":       "statement_timeout",
		"mysql://u:secretpw@db/q?charset=latin1":               "charset",
		"mysql://u:secretpw@db/q?readTimeout=soon":             "readTimeout",
		"sqlserver://u:secretpw@db?database=q&dial+timeout=x1": "dial timeout",
	} {
		_, err := parseDSN(dsn, isolationVar)
		if name == "dial timeout" { // the driver itself checks its values
			_, err = Open(t.Context(), dsn)
		}
		if model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("%s: %v, want invalid input", dsn, err)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, name) || strings.Contains(msg, "secretpw") || strings.Contains(msg, "\n") || !strings.Contains(msg, "(") {
			t.Errorf("%s: message %q should name %q in one sentence, without the password", dsn, msg, name)
		}
	}
	if _, err := os.Stat("/tmp/jiaohao-never-created"); err == nil {
		t.Error("a refused sqlite DSN created its folder")
	}
}

// caFile writes a self-signed CA certificate and returns its path.
func caFile(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
