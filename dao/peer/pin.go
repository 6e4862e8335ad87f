package peer

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"jiaohao/model"
)

// Fingerprint is the SHA-256 of a certificate (DER), the way the host
// prints it and a PC's setup pins it: AB:CD:… in upper case.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	h := strings.ToUpper(hex.EncodeToString(sum[:]))
	parts := make([]string, 0, len(h)/2)
	for i := 0; i < len(h); i += 2 {
		parts = append(parts, h[i:i+2])
	}
	return strings.Join(parts, ":")
}

// parseFingerprint accepts a SHA-256 fingerprint with or without colons
// or spaces, in either case.
func parseFingerprint(s string) ([]byte, error) {
	clean := strings.NewReplacer(":", "", " ", "", "-", "").Replace(strings.TrimSpace(s))
	b, err := hex.DecodeString(clean)
	if err != nil || len(b) != sha256.Size {
		return nil, model.Errorf(model.EInvalidInput, "证书指纹应为 64 位十六进制的 SHA-256，例如 AB:CD:…  (the certificate fingerprint must be a SHA-256: 64 hex digits)")
	}
	return b, nil
}

// errPinMismatch is a host whose certificate is not the pinned one: a
// replaced certificate, or someone else answering at its address.
var errPinMismatch = errors.New("certificate does not match the pinned fingerprint")

// PinnedClient is an HTTP client for a host with a self-signed certificate
// (jiaohao serve --tls-cert): it trusts exactly the certificate whose
// SHA-256 fingerprint is given, whatever signed it, and nothing else.
func PinnedClient(fingerprint string) (*http.Client, error) {
	want, err := parseFingerprint(fingerprint)
	if err != nil {
		return nil, err
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{
		MinVersion: tls.VersionTLS12,
		// The chain is not checked against any CA: the pin below is the
		// whole of the trust, and it is stricter than a CA.
		InsecureSkipVerify: true,
		VerifyPeerCertificate: func(raw [][]byte, _ [][]*x509.Certificate) error {
			if len(raw) == 0 {
				return errPinMismatch
			}
			got := sha256.Sum256(raw[0])
			if subtle.ConstantTimeCompare(got[:], want) != 1 {
				return errPinMismatch
			}
			return nil
		},
	}
	tr.TLSHandshakeTimeout = 5 * time.Second
	return &http.Client{Transport: tr}, nil
}

// errPinned is what a call answers when the host's certificate is not the
// pinned one; the PC keeps retrying, as for an unreachable host.
var errPinned = model.Errorf(model.EUnavailable,
	"网点服务器的证书与本机设置的指纹不符 (the branch server's certificate does not match the fingerprint in this PC's setup)")
