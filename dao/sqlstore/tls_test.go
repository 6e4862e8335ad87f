//go:build unix

package sqlstore_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// TLS to a MariaDB whose certificate is signed by the branch's own CA:
// ssl-ca=FILE encrypts and verifies; tls=true (the system's CAs) refuses
// the unknown signer instead of connecting.
func TestMariaDBTLSWithOwnCA(t *testing.T) {
	ca, cert, key := serverCertificate(t)
	db := daotest.PrivateMariaDB(t, "--ssl-ca="+ca, "--ssl-cert="+cert, "--ssl-key="+key)
	cipher := func(s *sqlstore.GormStore) string {
		var row struct{ VariableName, Value string }
		if err := s.DB().Raw("SHOW SESSION STATUS LIKE 'Ssl_cipher'").Scan(&row).Error; err != nil {
			t.Fatal(err)
		}
		return row.Value
	}
	s, err := sqlstore.Open(bg, db.DSN+"?ssl-ca="+ca)
	if err != nil {
		t.Fatalf("ssl-ca: %v", err)
	}
	defer s.Close()
	if c := cipher(s); c == "" {
		t.Fatal("ssl-ca connected without TLS")
	}
	if _, err := sqlstore.Open(bg, db.DSN+"?tls=true"); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("tls=true against a private CA: %v, want a refused certificate", err)
	}
	plain, err := sqlstore.Open(bg, db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if c := cipher(plain); c != "" {
		t.Fatalf("no TLS parameter, yet cipher %q", c)
	}
}

// serverCertificate writes a CA and a server certificate for 127.0.0.1
// signed by it, in a directory the database's user can read.
func serverCertificate(t *testing.T) (ca, cert, key string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "jiaohao-tls-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "branch CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	srvKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	srvTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(srvKey)
	write := func(name, typ string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", srvDER), write("server-key.pem", "PRIVATE KEY", keyDER)
}
