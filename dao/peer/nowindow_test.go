package peer

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"jiaohao/model"
)

// With every window paused or closed no one calls the ticket: the API's
// ticket and the customer's page say no window serves it now, so the
// staff handheld and the page show that instead of a wait.
func TestNoWindowServingNow(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	snap, err := e.store.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range snap.Windows {
		if _, err := e.store.SetWindowStatus(ctx, w.Number, model.WindowPaused); err != nil {
			t.Fatal(err)
		}
	}
	tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", e.tokens[model.RoleManager], `{"service":"A"}`)
	if !tk.NoWindow || tk.Ahead != 0 {
		t.Fatalf("taken at an all-window pause: %+v, want no window serving now", tk)
	}
	if _, zh, _ := getPage(t, e, "/t/"+tk.PublicID, "zh-CN"); !strings.Contains(zh, `"no_window":true`) || !strings.Contains(zh, "暂无窗口办理") {
		t.Fatalf("the customer page does not say no window serves now:\n%s", zh)
	}
	if _, err := e.store.SetWindowStatus(ctx, snap.Windows[0].Number, model.WindowOpen); err != nil {
		t.Fatal(err)
	}
	if got := must[Ticket](t, e, http.StatusOK, "GET", "/api/v1/tickets/"+strconv.FormatInt(tk.ID, 10), e.tokens[model.RoleManager], ""); got.NoWindow {
		t.Fatalf("with a window open again: %+v, want a wait", got)
	}
}
