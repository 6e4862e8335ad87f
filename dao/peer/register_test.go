package peer

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"jiaohao/model"
)

// The register over the peer: the manager adds and imports, a kiosk
// identifies and is told the level and a masked name only (the raw answer
// holds no phone, no full name, no number), takes for the customer at the
// level's priority, and the caller of the window that calls it sees the
// name and level; another window's caller may not ask.
func TestRegisterOverPeer(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, Options{})
	mgr, kiosk, caller := e.client(t, model.RoleManager), e.client(t, model.RoleKiosk), e.client(t, model.RoleCaller)
	const id = "11010519491231002X"
	c, err := mgr.SaveCustomer(ctx, model.CustomerInput{Customer: model.Customer{Number: "C1", Name: "王小明", Phone: "13812345678", Level: "贵宾"}, IDNumber: id})
	if err != nil || c.IDLast4 != "002X" {
		t.Fatalf("save: %+v %v", c, err)
	}
	res, err := mgr.ImportCustomers(ctx, []model.CustomerInput{{Customer: model.Customer{Number: "C2", Name: "李四", Level: "无此级"}, Line: 2}})
	if err != nil || len(res.Bad) != 1 || res.Bad[0].Line != 2 || res.Bad[0].Field != "level" {
		t.Fatalf("import: %+v %v", res, err)
	}
	found, err := mgr.Customers(ctx, id, 5)
	if err != nil || len(found) != 1 || found[0].Number != "C1" {
		t.Fatalf("search: %+v %v", found, err)
	}

	status, raw := e.call(t, "POST", "/api/v1/customers/identify", e.tokens[model.RoleKiosk], `{"key":"`+id+`"}`)
	if status != http.StatusOK {
		t.Fatalf("identify: %d %s", status, raw)
	}
	for _, secret := range []string{"13812345678", "王小明", "小明", id, "C1"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the kiosk's answer %s holds %q", raw, secret)
		}
	}
	m, err := kiosk.IdentifyCustomer(ctx, id)
	if err != nil || m.Level != "贵宾" || m.Masked != "王**" {
		t.Fatalf("identify: %+v %v", m, err)
	}
	_, err = kiosk.IdentifyCustomer(ctx, "13900000000")
	if !model.IsCode(err, model.ECustomerNotFound) {
		t.Fatalf("unknown phone: %v", err)
	}
	normal, err := kiosk.TakeTicket(ctx, "A", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	vip, err := kiosk.TakeTicketFor(ctx, "A", m.ID, "")
	if err != nil || vip.Priority != 1 || vip.Level != "贵宾" {
		t.Fatalf("take for: %+v %v", vip, err)
	}
	called, err := caller.CallNext(ctx, 1, "")
	if err != nil || called.ID != vip.ID {
		t.Fatalf("called %+v (%v), want the 贵宾's %s before %s", called, err, vip.Number, normal.Number)
	}
	card, err := caller.WindowCustomer(ctx, 1)
	if err != nil || card.Name != "王小明" || card.Level != "贵宾" {
		t.Fatalf("window customer: %+v %v", card, err)
	}
	if _, err := caller.WindowCustomer(ctx, 2); !model.IsCode(err, model.EForbidden) {
		t.Fatalf("another window's customer: %v", err)
	}
	if status, b := e.call(t, "POST", "/api/v1/customers/identify", e.tokens[model.RoleKiosk], `{"key":"`+id+`","Key":"1"}`); status != http.StatusBadRequest {
		t.Fatalf("a repeated key in another case: %d %s", status, b)
	}
}

// Identification answers a level and a surname to a phone number, so one
// token may not try numbers faster than it may take tickets: a PC running
// through a list of phones is stopped, another PC is not.
func TestIdentifyIsRateLimited(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, Options{TakePerMinute: 3})
	kiosk, other := e.client(t, model.RoleKiosk), e.client(t, model.RoleCaller)
	for i := range 3 {
		if _, err := kiosk.IdentifyCustomer(ctx, "1390000000"+string(rune('0'+i))); !model.IsCode(err, model.ECustomerNotFound) {
			t.Fatalf("try %d: %v", i, err)
		}
	}
	if _, err := kiosk.IdentifyCustomer(ctx, "13900000009"); !model.IsCode(err, model.ERateLimited) {
		t.Fatalf("the 4th try in a minute: %v", err)
	}
	if _, err := other.IdentifyCustomer(ctx, "13900000009"); !model.IsCode(err, model.ECustomerNotFound) {
		t.Fatalf("another PC: %v", err)
	}
}
