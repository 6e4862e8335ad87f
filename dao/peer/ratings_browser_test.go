package peer

import (
	"context"
	"slices"
	"testing"
	"time"

	"jiaohao/model"
)

// The phone page in a real browser: the rating appears when the ticket
// is finished, without a reload; a chip and a level rate the ticket, the
// page thanks and hides the buttons, and a reload says the ticket was
// rated instead of offering the buttons again.
func TestPhoneRatingInBrowser(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	d := startChromium(t, ctx)
	if _, err := d.do(ctx, "Network.enable", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "zh-CN"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.navigate", map[string]any{"url": e.ts.URL + "/t/" + tk.PublicID}); err != nil {
		t.Fatal(err)
	}
	hidden := `String(document.getElementById("rate").hidden)`
	d.waitFor(t, ctx, `document.getElementById("status").dataset.status`, "waiting")
	d.waitFor(t, ctx, hidden, "true")
	if _, err := e.store.CallNext(ctx, 1, "A"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.StartServing(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.Finish(ctx, tk.ID, 1); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, hidden, "false")
	if _, err := d.eval(ctx, `document.querySelector('#tags input[value="skilled"]').click(); document.getElementById("comment").value = "很专业"; document.querySelector('button[data-score="4"]').click(); "ok"`); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `document.getElementById("rate-msg").textContent`, "感谢您的评价！")
	d.waitFor(t, ctx, hidden, "true")
	r, err := e.store.RatingOf(ctx, tk.ID)
	if err != nil || r.Score != model.ScoreVerySatisfied || !slices.Equal(r.Tags, []string{"skilled"}) || r.Comment != "很专业" {
		t.Fatalf("the page's rating: %+v %v", r, err)
	}
	if _, err := d.do(ctx, "Page.reload", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, `document.getElementById("rate-msg").textContent`, "您已评价：非常满意")
	d.waitFor(t, ctx, hidden, "true")
}
