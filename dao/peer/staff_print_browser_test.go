package peer

import (
	"context"
	"fmt"
	"testing"
	"time"

	"jiaohao/model"
)

// The handheld sends a number to a kiosk by taps: the page offers the
// kiosks by name and id, marking the offline one; with kiosk chosen a tap
// takes a number that says it was sent there, with its QR code still
// shown, and says the kiosk has it once the kiosk claimed it; with the
// offline kiosk chosen the page says it prints when the kiosk is back,
// and the request waits in the store. A claim made while the page's link
// was down shows once it reconnects, without an event. The choice stays
// on the phone across a reload.
func TestStaffPrintAtKioskInBrowser(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{})
	k2Tok, k2Term := addNamed(t, e, "K2", model.RoleKiosk)
	kid, k2 := kioskID(t, e, "kiosk"), k2Term.ID
	k := e.client(t, model.RoleKiosk) // the kiosk "kiosk" is online
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	d := startChromium(t, ctx)
	if err := d.phone(ctx); err != nil {
		t.Fatal(err)
	}
	// The page's event links, kept where the test can cut them, and
	// pointed nowhere while __block is set: the page then reads state
	// over HTTP but hears no event.
	if _, err := d.do(ctx, "Page.enable", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": `(() => {
  const W = window.WebSocket; window.__socks = [];
  window.WebSocket = function (url, p) { const ws = new W(window.__block ? "ws://127.0.0.1:9/" : url, p); window.__socks.push(ws); return ws; };
  window.WebSocket.prototype = W.prototype;
})()`}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.navigate", map[string]any{"url": e.ts.URL + "/staff/login?lang=zh"}); err != nil {
		t.Fatal(err)
	}
	d.tap(t, ctx, "#signin-token")
	d.typeText(t, ctx, e.tokens[model.RoleHandheld])
	d.tap(t, ctx, "#signin-go")
	d.waitFor(t, ctx, `location.pathname`, "/staff")
	text := func(sel string) string {
		return `(() => { const e = document.querySelector("` + sel + `"); return e ? e.textContent : "" })()`
	}
	kioskSel, k2Sel := fmt.Sprintf("#kiosk-%d", kid), fmt.Sprintf("#kiosk-%d", k2)
	kioskName, k2Name := fmt.Sprintf("取号机 kiosk（%d 号）", kid), fmt.Sprintf("取号机 K2（%d 号）", k2)
	d.waitFor(t, ctx, text(kioskSel), kioskName)
	d.waitFor(t, ctx, text(k2Sel), k2Name+"（离线）")
	d.waitFor(t, ctx, `document.querySelector("#kiosk-none").getAttribute("aria-pressed")`, "true")

	d.tap(t, ctx, kioskSel)
	d.tap(t, ctx, "#take-A")
	d.waitFor(t, ctx, text("#taken-print"), "已发送到 "+kioskName+" 打印")
	d.waitFor(t, ctx, `(() => { const i = document.getElementById("taken-qr"); return i.complete && i.naturalWidth > 0 ? "shown" : "" })()`, "shown")
	taken, err := e.store.TicketByNumber(ctx, "A001")
	if err != nil || taken.PrintAt != "kiosk" || taken.PrintedAt != nil || taken.Source != model.SourceHandheld {
		t.Fatalf("the tapped number in the store: %+v %v", taken, err)
	}
	if _, err := k.ClaimPrint(ctx, taken.ID, kid, "c1"); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, text("#taken-print"), kioskName+"已接收")

	d.tap(t, ctx, k2Sel)
	d.tap(t, ctx, "#take-A")
	d.waitFor(t, ctx, `document.getElementById("taken-print").dataset.state + "|" + document.getElementById("taken-number").textContent`, "offline|A002")
	d.waitFor(t, ctx, text("#taken-print"), k2Name+"离线：它恢复连接后自动打印，顾客可先扫码")
	pending, err := e.store.PendingPrints(ctx, k2)
	if err != nil || len(pending) != 1 || pending[0].Number != "A002" {
		t.Fatalf("K2's requests: %+v %v, want A002 waiting", pending, err)
	}

	// The link drops; K2 comes back and claims A002 while the page hears
	// no event. The page's reconnect reads the shown ticket again.
	d.waitFor(t, ctx, `(() => { window.__block = true; window.__socks.forEach((s) => s.close()); return "cut"; })()`, "cut")
	d.waitFor(t, ctx, `document.getElementById("offline").textContent !== "" ? "down" : ""`, "down")
	if _, err := dialAs(t, e, k2Tok).ClaimPrint(ctx, pending[0].ID, k2, "c2"); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, text("#taken-print"), k2Name+"已接收")
	d.waitFor(t, ctx, `(() => { window.__block = false; return "open"; })()`, "open")

	if _, err := d.do(ctx, "Page.reload", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `(() => { const e = document.querySelector("`+k2Sel+`"); return e ? e.getAttribute("aria-pressed") : "" })()`, "true")
}
