package peer

import (
	"context"
	"testing"
	"time"

	"jiaohao/model"
)

// The handheld sends a number to a kiosk by taps: the page offers the
// kiosks by name, marking the offline one; with kiosk chosen a tap takes
// a number that says it was sent there, with its QR code still shown, and
// says printed once the kiosk claimed it; with the offline kiosk chosen
// the page says it prints when the kiosk is back, and the request waits
// in the store. The choice stays on the phone across a reload.
func TestStaffPrintAtKioskInBrowser(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{})
	addNamed(t, e, "K2", model.RoleKiosk)
	k := e.client(t, model.RoleKiosk) // the kiosk "kiosk" is online
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	d := startChromium(t, ctx)
	if err := d.phone(ctx); err != nil {
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
	d.waitFor(t, ctx, text("#kiosk-kiosk"), "取号机 kiosk")
	d.waitFor(t, ctx, text("#kiosk-K2"), "取号机 K2（离线）")
	d.waitFor(t, ctx, `document.querySelector("#kiosk-none").getAttribute("aria-pressed")`, "true")

	d.tap(t, ctx, "#kiosk-kiosk")
	d.tap(t, ctx, "#take-A")
	d.waitFor(t, ctx, text("#taken-print"), "已发送到 取号机 kiosk 打印")
	d.waitFor(t, ctx, `(() => { const i = document.getElementById("taken-qr"); return i.complete && i.naturalWidth > 0 ? "shown" : "" })()`, "shown")
	taken, err := e.store.TicketByNumber(ctx, "A001")
	if err != nil || taken.PrintAt != "kiosk" || taken.PrintedAt != nil || taken.Source != model.SourceHandheld {
		t.Fatalf("the tapped number in the store: %+v %v", taken, err)
	}
	if _, err := k.ClaimPrint(ctx, taken.ID, "kiosk"); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, text("#taken-print"), "取号机 kiosk 已打印")

	d.tap(t, ctx, "#kiosk-K2")
	d.tap(t, ctx, "#take-A")
	d.waitFor(t, ctx, `document.getElementById("taken-print").dataset.state + "|" + document.getElementById("taken-number").textContent`, "offline|A002")
	d.waitFor(t, ctx, text("#taken-print"), "取号机 K2 离线：它恢复连接后自动打印，顾客可先扫码")
	pending, err := e.store.PendingPrints(ctx, "K2")
	if err != nil || len(pending) != 1 || pending[0].Number != "A002" {
		t.Fatalf("K2's requests: %+v %v, want A002 waiting", pending, err)
	}

	if _, err := d.do(ctx, "Page.reload", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `(() => { const e = document.querySelector("#kiosk-K2"); return e ? e.getAttribute("aria-pressed") : "" })()`, "true")
}
