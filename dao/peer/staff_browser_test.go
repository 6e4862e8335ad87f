package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"jiaohao/model"
)

// phone makes the page a touch phone's: a narrow screen that emits touch
// events, so taps go through the browser's own gesture handling.
func (d *devtools) phone(ctx context.Context) error {
	if _, err := d.do(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
		"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true}); err != nil {
		return err
	}
	_, err := d.do(ctx, "Emulation.setTouchEmulationEnabled", map[string]any{"enabled": true, "maxTouchPoints": 1})
	return err
}

// tap scrolls the element matched by the CSS selector into view and taps
// its centre with a finger: touch start, touch end, as a phone sends them.
func (d *devtools) tap(t *testing.T, ctx context.Context, selector string) {
	t.Helper()
	var box struct{ X, Y float64 }
	for ctx.Err() == nil {
		s, err := d.eval(ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e || e.disabled) return "";
			e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect();
			return JSON.stringify({x: r.left + r.width / 2, y: r.top + r.height / 2}) })()`, selector))
		if err == nil && s != "" && json.Unmarshal([]byte(s), &box) == nil {
			break
		}
		time.Sleep(50 * time.Millisecond) // waiting for the page to show it
	}
	pt := []map[string]any{{"x": box.X, "y": box.Y}}
	if _, err := d.do(ctx, "Input.dispatchTouchEvent", map[string]any{"type": "touchStart", "touchPoints": pt}); err != nil {
		t.Fatalf("tap %s: %v", selector, err)
	}
	if _, err := d.do(ctx, "Input.dispatchTouchEvent", map[string]any{"type": "touchEnd", "touchPoints": []any{}}); err != nil {
		t.Fatalf("tap %s: %v", selector, err)
	}
}

// typeText types into the focused field as a keyboard would.
func (d *devtools) typeText(t *testing.T, ctx context.Context, text string) {
	t.Helper()
	if _, err := d.do(ctx, "Input.insertText", map[string]any{"text": text}); err != nil {
		t.Fatal(err)
	}
}

// The staff handheld in a real browser, by taps: the page sends an
// unsigned phone to sign in; signing in with the handheld's token shows
// the queue; a tap takes a number, which shows with its QR code and
// appears live in the queue count, as does a number taken at the kiosk; a
// number passed at a window appears in the passed list without a reload,
// and a tap requeues it in the store; window states follow live; a change
// without the CSRF token is refused; signing out ends the session.
func TestStaffHandheldInBrowser(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	d := startChromium(t, ctx)
	if err := d.phone(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Network.enable", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "zh-CN,zh;q=0.9"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.navigate", map[string]any{"url": e.ts.URL + "/staff"}); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `location.pathname + "|" + !!document.getElementById("signin-token")`, "/staff/login|true")

	// A wrong token is refused in a sentence, and the page stays.
	d.tap(t, ctx, "#signin-token")
	d.typeText(t, ctx, "jh_wrong")
	d.tap(t, ctx, "#signin-go")
	d.waitFor(t, ctx, `(() => { const m = document.getElementById("signin-msg").textContent; return m.includes("需要有效的终端令牌") ? "refused" : m })()`, "refused")
	if _, err := d.eval(ctx, `document.getElementById("signin-token").value = ""`); err != nil {
		t.Fatal(err)
	}
	d.tap(t, ctx, "#signin-token")
	d.typeText(t, ctx, e.tokens[model.RoleHandheld])
	d.tap(t, ctx, "#signin-go")
	d.waitFor(t, ctx, `location.pathname`, "/staff")
	queueA := `(() => { const e = document.querySelector("#queue-A .n"); return e ? e.textContent : "" })()`
	d.waitFor(t, ctx, queueA, "0")
	if _, err := d.eval(ctx, `window.jiaohaoSamePage = "yes"`); err != nil { // a reload would wipe it out
		t.Fatal(err)
	}

	// Take a number by a tap: it shows with its QR code, and the queue
	// count follows the event.
	d.tap(t, ctx, "#take-A")
	d.waitFor(t, ctx, `document.getElementById("taken-number").textContent`, "A001")
	d.waitFor(t, ctx, `(() => { const i = document.getElementById("taken-qr"); return i.complete && i.naturalWidth > 0 ? "shown" : "" })()`, "shown")
	d.waitFor(t, ctx, queueA, "1")
	snap, err := e.store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := e.store.TicketByNumber(ctx, "A001")
	if err != nil || tk.Source != model.SourceHandheld || tk.BusinessDate != snap.BusinessDate {
		t.Fatalf("the tapped number in the store: %+v %v", tk, err)
	}
	// A number taken elsewhere appears live.
	if _, err := e.store.TakeTicket(ctx, "A", 0, model.SourceKiosk); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, queueA, "2")

	// A window calls A001 and passes it: it shows in the passed list, and
	// a tap requeues it for the customer who came back.
	called, err := e.store.CallNext(ctx, 2, "")
	if err != nil || called.ID != tk.ID {
		t.Fatalf("call: %+v %v", called, err)
	}
	if _, err := e.store.Pass(ctx, tk.ID, 2); err != nil {
		t.Fatal(err)
	}
	row := "#passed-" + strconv.FormatInt(tk.ID, 10)
	d.waitFor(t, ctx, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e ? e.dataset.number : "" })()`, row), "A001")
	d.waitFor(t, ctx, queueA, "1")
	d.tap(t, ctx, row+" button.requeue")
	d.waitFor(t, ctx, fmt.Sprintf(`document.querySelector(%q) ? "listed" : "gone"`, row), "gone")
	d.waitFor(t, ctx, queueA, "2")
	got, err := e.store.Ticket(ctx, tk.ID)
	if err != nil || got.Status != model.Waiting || got.Requeued != 1 {
		t.Fatalf("after the requeue tap: %+v %v", got, err)
	}

	// Window states follow too: a window paused at its PC shows paused.
	windowOne := `(() => { const e = document.querySelector("#window-1"); return e ? e.dataset.status + "|" + e.querySelector(".badge").textContent : "" })()`
	d.waitFor(t, ctx, windowOne, "open|开放")
	if _, err := e.store.SetWindowStatus(ctx, 1, model.WindowPaused); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, windowOne, "paused|暂停")

	// The cookie alone is not enough, even from the page itself: a change
	// without the CSRF token is refused and takes no number.
	before := e.version(t)
	if _, err := d.eval(ctx, `fetch("/staff/api/tickets", {method: "POST", headers: {"Content-Type": "application/json"}, body: '{"service":"A"}'})
		.then((r) => { window.jiaohaoNoCSRF = String(r.status) }), ""`); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `String(window.jiaohaoNoCSRF)`, "403")
	if v := e.version(t); v != before {
		t.Fatalf("a change without the CSRF token was made: version %d -> %d", before, v)
	}

	// Look the number up: it waits again, with people ahead of it.
	d.tap(t, ctx, "#lookup-number")
	d.typeText(t, ctx, "a001")
	d.tap(t, ctx, "#lookup-go")
	d.waitFor(t, ctx, `(() => { const e = document.getElementById("lookup-status"); return e ? e.dataset.status : "" })()`, "waiting")
	if got, _ := d.eval(ctx, `window.jiaohaoSamePage`); got != "yes" {
		t.Fatalf("the page reloaded (marker %q)", got)
	}

	// Signing out ends the session: the page goes to sign in, and the
	// API refuses the browser's old cookie.
	d.tap(t, ctx, "#signout")
	d.waitFor(t, ctx, `location.pathname`, "/staff/login")
	if _, err := d.eval(ctx, `fetch("/staff/api/me").then((r) => { window.jiaohaoMe = String(r.status) }), ""`); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `String(window.jiaohaoMe)`, "401")
}
