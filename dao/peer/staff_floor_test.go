package peer

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"jiaohao/model"
)

// passedTicket takes a number, calls it at window and passes it.
func passedTicket(t testing.TB, e *env, window int) model.Ticket {
	t.Helper()
	ctx := context.Background()
	if _, err := e.store.TakeTicket(ctx, "A", 0, "test"); err != nil {
		t.Fatal(err)
	}
	c, err := e.store.CallNext(ctx, window, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.store.Pass(ctx, c.ID, window)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The floor requeues or cancels a passed number, whichever window passed
// it, as the handheld (the event log names it); a waiting or called
// ticket is refused and unchanged, and a handheld's token is no window on
// the PCs' API.
func TestStaffFloorActions(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c := signedIn(t, e)
	back := passedTicket(t, e, 2)
	resp, b := c.do(t, "POST", "/staff/api/tickets/"+itoa(back.ID)+"/requeue", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("requeue: %d %s", resp.StatusCode, b)
	}
	if got, _ := e.store.Ticket(ctx, back.ID); got.Status != model.Waiting || got.Requeued != 1 {
		t.Fatalf("requeued ticket is %+v", got)
	}
	evs, err := e.store.EventsSince(ctx, e.version(t)-1, 1)
	if err != nil || len(evs) != 1 || evs[0].Kind != model.EvRequeue || evs[0].Actor != string(model.RoleHandheld) {
		t.Fatalf("requeue event %+v %v", evs, err)
	}

	gone := passedTicket(t, e, 3)
	if resp, b := c.do(t, "POST", "/staff/api/tickets/"+itoa(gone.ID)+"/cancel", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("cancel passed: %d %s", resp.StatusCode, b)
	}
	if got, _ := e.store.Ticket(ctx, gone.ID); got.Status != model.Cancelled {
		t.Fatalf("cancelled ticket is %s", got.Status)
	}

	waiting, err := e.store.TakeTicket(ctx, "B", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	v0 := e.version(t)
	for _, act := range []string{"cancel", "requeue", "pass", "finish"} {
		resp, b := c.do(t, "POST", "/staff/api/tickets/"+itoa(waiting.ID)+"/"+act, "")
		if resp.StatusCode < 400 {
			t.Errorf("%s of a waiting ticket: %d %s", act, resp.StatusCode, b)
		}
	}
	if got, _ := e.store.Ticket(ctx, waiting.ID); got.Status != model.Waiting || e.version(t) != v0 {
		t.Fatalf("a refused action changed the queue: %s, version %d -> %d", got.Status, v0, e.version(t))
	}
	// On the PCs' API a handheld token acts for no window.
	other := passedTicket(t, e, 2)
	if st, b := e.call(t, "POST", "/api/v1/tickets/"+itoa(other.ID)+"/requeue", e.tokens[model.RoleHandheld], ""); st != http.StatusForbidden {
		t.Fatalf("handheld bearer requeue: %d %s", st, b)
	}
}

// A number looked up by what the customer holds shows where it stands;
// an unknown number is not found, and a priority is taken only while VIP
// is on.
func TestStaffLookupAndTake(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c := signedIn(t, e)
	first, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	resp, b := c.do(t, "POST", "/staff/api/tickets", `{"service":"A"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("take: %d %s", resp.StatusCode, b)
	}
	var taken staffTicket
	json.Unmarshal(b, &taken)
	resp, b = c.do(t, "GET", "/staff/api/lookup?number="+strings.ToLower(taken.Number), "")
	var got staffTicket
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &got) != nil || got.ID != taken.ID || got.Ahead != 1 || got.Status != model.Waiting {
		t.Fatalf("lookup %s: %d %s (first %s)", taken.Number, resp.StatusCode, b, first.Number)
	}
	for _, n := range []string{"A999", "Z001"} {
		if resp, b := c.do(t, "GET", "/staff/api/lookup?number="+n, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("lookup %s: %d %s", n, resp.StatusCode, b)
		}
	}
	if resp, b := c.do(t, "GET", "/staff/api/lookup?number=12", ""); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("lookup of no number: %d %s", resp.StatusCode, b)
	}
	resp, b = c.do(t, "POST", "/staff/api/tickets", `{"service":"A","priority":1}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("VIP take: %d %s", resp.StatusCode, b)
	}
	json.Unmarshal(b, &got)
	if got.Priority != 1 {
		t.Fatalf("VIP ticket has priority %d", got.Priority)
	}
	if err := e.store.SetSetting(ctx, "vip_enabled", "false"); err != nil {
		t.Fatal(err)
	}
	v0 := e.version(t)
	if resp, b := c.do(t, "POST", "/staff/api/tickets", `{"service":"A","priority":1}`); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("VIP take with VIP off: %d %s", resp.StatusCode, b)
	}
	if e.version(t) != v0 {
		t.Fatal("a refused VIP take changed the queue")
	}
	// The QR code opens the customer page at the branch's customer_url
	// when it is set, else where the handheld reached the host.
	if err := e.store.SetSetting(ctx, "customer_url", "http://192.168.1.10:8520/"); err != nil {
		t.Fatal(err)
	}
	resp, b = c.do(t, "GET", "/staff/api/lookup?number="+taken.Number, "")
	if json.Unmarshal(b, &got) != nil || got.CustomerURL != "http://192.168.1.10:8520/t/"+taken.PublicID {
		t.Fatalf("customer page of %s: %s", taken.Number, b)
	}
	resp, b = c.do(t, "GET", "/staff/api/tickets/"+itoa(taken.ID)+"/qr.png", "")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("QR: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if img, err := png.Decode(bytes.NewReader(b)); err != nil || img.Bounds().Dx() != 320 {
		t.Fatalf("QR image: %v", err)
	}
}

// dialStaffEvents opens the page's event stream with c's cookie and the
// given Origin.
func (c *staffClient) dialEvents(t testing.TB, ctx context.Context, origin string) (*websocket.Conn, error) {
	t.Helper()
	u, _ := url.Parse(c.base)
	hdr := http.Header{"Origin": {origin}}
	for _, ck := range c.http.Jar.Cookies(u) {
		hdr.Add("Cookie", ck.Name+"="+ck.Value)
	}
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.base, "http")+"/staff/api/events?since="+itoa(0), &websocket.DialOptions{HTTPHeader: hdr})
	return conn, err
}

// The page's event stream is the PCs' one behind the session: another
// site's page cannot open it with the phone's cookie, it carries the
// events, and signing out ends it.
func TestStaffEventStream(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // a hang guard only
	defer cancel()
	c := signedIn(t, e)
	if conn, err := c.dialEvents(t, ctx, "http://evil.example"); err == nil {
		conn.CloseNow()
		t.Fatal("another site's page opened the event stream")
	}
	if conn, err := newStaffClient(t, e.ts.URL, nil).dialEvents(t, ctx, e.ts.URL); err == nil {
		conn.CloseNow()
		t.Fatal("the event stream opened without a session")
	}
	conn, err := c.dialEvents(t, ctx, e.ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		var m message
		json.Unmarshal(b, &m)
		if m.Kind == model.EvTake && m.TicketID == tk.ID {
			break
		}
	}
	if resp, b := c.do(t, "DELETE", "/staff/api/session", ""); resp.StatusCode != http.StatusOK {
		t.Fatalf("sign out: %d %s", resp.StatusCode, b)
	}
	for {
		if _, _, err := conn.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("the stream outlived its session")
			}
			break
		}
	}
}
