package peer

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"jiaohao/model"
)

// A PC trusts a host's self-signed certificate by its pinned SHA-256
// fingerprint: requests and the event stream work over HTTPS; a different
// certificate, or none pinned, is refused and never reaches the host.
func TestPinnedCertificate(t *testing.T) {
	e := newEnv(t, Options{})
	ts := httptest.NewTLSServer(e.srv.Handler())
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	pin := Fingerprint(ts.Certificate().Raw)

	hc, err := PinnedClient(strings.ToLower(strings.ReplaceAll(pin, ":", "")))
	if err != nil {
		t.Fatal(err)
	}
	c, err := DialWith(ctx, ts.URL, e.tokens[model.RoleScreen], hc)
	if err != nil {
		t.Fatalf("dial with the host's pin: %v", err)
	}
	defer c.Close()
	events, err := c.Watch(ctx, e.version(t))
	if err != nil {
		t.Fatal(err)
	}
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	seen := false
	for ev := range events {
		if seen = ev.Kind == model.EvTake && ev.TicketID == tk.ID; seen {
			break
		}
	}
	if !seen {
		t.Fatal("the event stream over the pinned connection never brought the take")
	}

	other, _ := PinnedClient(Fingerprint([]byte("another certificate")))
	if _, err := DialWith(ctx, ts.URL, e.tokens[model.RoleScreen], other); !model.IsCode(err, model.EUnavailable) || !strings.Contains(err.Error(), "指纹") {
		t.Fatalf("dial with another pin: %v, want unavailable naming the fingerprint", err)
	}
	if _, err := Dial(ctx, ts.URL, e.tokens[model.RoleScreen]); !model.IsCode(err, model.EUnavailable) {
		t.Fatalf("dial a self-signed host without a pin: %v, want unavailable", err)
	}
	for _, bad := range []string{"", "AB:CD", strings.Repeat("zz", 32)} {
		if _, err := PinnedClient(bad); !model.IsCode(err, model.EInvalidInput) {
			t.Errorf("pin %q: %v, want invalid input", bad, err)
		}
	}
}
