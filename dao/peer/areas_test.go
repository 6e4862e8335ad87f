package peer

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// The manager's client adds an area, moves a service into it and is told
// in a sentence and a code that the area cannot go while the service is
// there; the snapshot every screen loads carries the service's area.
func TestAreasOverTheWire(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	c := e.client(t, model.RoleManager)
	vip, err := c.SaveArea(ctx, model.Area{Name: "二楼贵宾区", Where: "二楼"})
	if err != nil || vip.ID == 0 {
		t.Fatalf("save area: %+v, %v", vip, err)
	}
	svc, err := c.Services(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range svc {
		if v.Code == "V" {
			v.Area = vip.ID
			if _, err := c.SaveService(ctx, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	snap, err := e.client(t, model.RoleScreen).Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a, ok := snap.AreaOf("V"); !ok || a != vip {
		t.Fatalf("the screen's snapshot puts V in %+v, want %+v", a, vip)
	}
	if a, ok := snap.AreaOf("A"); !ok || a.ID == vip.ID {
		t.Fatalf("A moved with V: %+v", a)
	}
	err = c.DeleteArea(ctx, vip.ID)
	if !model.IsCode(err, model.EAreaNotEmpty) || model.ErrorMessage(err) == "" {
		t.Fatalf("deleting a non-empty area = %v, want %s", err, model.EAreaNotEmpty)
	}
	if got, _ := c.Areas(ctx); len(got) != 2 {
		t.Fatalf("areas after the refusal: %+v", got)
	}
	// Strict bodies: an unknown field or a place too long changes nothing.
	for _, body := range []string{`{"name":"三楼","where":"三楼","floor":3}`, `{"name":"三楼","where":"一二三四五六七八九十十一"}`} {
		if status, b := e.call(t, "POST", "/api/v1/areas", e.tokens[model.RoleManager], body); status != http.StatusBadRequest {
			t.Errorf("POST %s: %d %s, want 400", body, status, b)
		}
	}
	if got, _ := c.Areas(ctx); len(got) != 2 {
		t.Fatalf("a refused body added an area: %+v", got)
	}
}

// The customer's phone page says where to wait once the branch has more
// than one area, and nothing of areas before.
func TestCustomerPageNamesTheArea(t *testing.T) {
	e := newEnv(t, Options{})
	ctx := context.Background()
	tk, err := e.store.TakeTicket(ctx, "V", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	if _, page, _ := getPage(t, e, "/t/"+tk.PublicID, "zh-CN"); strings.Contains(page, `"area":"大厅"`) {
		t.Fatalf("one area, the page names it:\n%s", page)
	}
	daotest.MoveToNewArea(t, e.store, "V", model.Area{Name: "二楼贵宾区", Where: "二楼"})
	if _, page, _ := getPage(t, e, "/t/"+tk.PublicID, "zh-CN"); !strings.Contains(page, `"area":"二楼贵宾区（二楼）"`) {
		t.Fatalf("two areas, the page does not say where to wait:\n%s", page)
	}
}
