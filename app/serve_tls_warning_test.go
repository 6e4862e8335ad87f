package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
)

// `jiaohao serve` without TLS says once, at start, that the staff page's
// sign-in travels in the clear over the branch Wi-Fi.
func TestServeWarnsStaffWithoutTLS(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stderr daotest.LogBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--db", daotest.SQLiteDSN(t), "--listen", "127.0.0.1:0", "--sweep", "0"}, &bytes.Buffer{}, &stderr)
	}()
	for !strings.Contains(stderr.String(), "staff handhelds sign in at") {
		select {
		case err := <-done:
			t.Fatalf("serve ended: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
	if n := strings.Count(stderr.String(), "without TLS"); n != 1 || !strings.Contains(stderr.String(), "--tls-cert") {
		t.Fatalf("want one warning naming --tls-cert, got %d:\n%s", n, stderr.String())
	}
}
