package sqlstore_test

import (
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// testID is a valid resident ID number made up for the tests: 17 digits
// and the check digit computed here, not by the code under test.
func testID(base17 string) string {
	w := []int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	sum := 0
	for i, c := range base17 {
		sum += int(c-'0') * w[i]
	}
	return base17 + string("10X98765432"[sum%11])
}

var (
	vipID   = testID("31010419870605123")
	vipCard = "6222020200112233445"
)

func addCustomer(t *testing.T, s *sqlstore.GormStore, in model.CustomerInput) model.Customer {
	t.Helper()
	c, err := s.SaveCustomer(bg, in)
	if err != nil {
		t.Fatalf("save customer %s: %v", in.Number, err)
	}
	return c
}

func vipCustomer(t *testing.T, s *sqlstore.GormStore) model.Customer {
	return addCustomer(t, s, model.CustomerInput{
		Customer: model.Customer{Number: "C001", Name: "王小明", Phone: "13812345678", Level: "贵宾", Note: "老客户"},
		IDNumber: vipID, CardNumber: vipCard,
	})
}

// A 贵宾 identified by any of ID, card or phone takes a ticket with the
// level's priority, and the window calls it before the normal tickets
// taken earlier; the window then sees the name and level. A 私行 customer
// goes to the level's service whatever the kiosk asked.
func TestCustomerIdentifyAndPriority(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		c := vipCustomer(t, s)
		if c.IDLast4 != vipID[14:] || c.CardLast4 != vipCard[15:] || c.Level != "贵宾" || !c.Enabled {
			t.Fatalf("saved: %+v", c)
		}
		for _, key := range []string{vipID, strings.ToLower(vipID[:4]) + " " + vipID[4:], vipCard, "138-1234-5678"} {
			m, err := s.IdentifyCustomer(bg, key)
			if err != nil {
				t.Fatalf("identify %q: %v", key, err)
			}
			if m.ID != c.ID || m.Level != "贵宾" || m.Priority != 1 || m.Masked != "王**" {
				t.Fatalf("identify %q: %+v", key, m)
			}
		}
		_, err := s.IdentifyCustomer(bg, testID("11010119900307456"))
		wantCode(t, err, model.ECustomerNotFound)
		_, err = s.IdentifyCustomer(bg, "12345")
		wantCode(t, err, model.EInvalidInput)

		normal := []model.Ticket{take(t, s, "A", 0), take(t, s, "A", 0)}
		vip := ok(t)(s.TakeTicketFor(bg, "A", c.ID, model.SourceKiosk))
		if vip.Priority != 1 || vip.CustomerID != c.ID || vip.Level != "贵宾" || vip.Service != "A" {
			t.Fatalf("vip ticket: %+v", vip)
		}
		got := ok(t)(s.CallNext(bg, 1, ""))
		if got.ID != vip.ID {
			t.Fatalf("called %s first, want the 贵宾's %s before %s and %s", got.Number, vip.Number, normal[0].Number, normal[1].Number)
		}
		card, err := s.WindowCustomer(bg, 1)
		okAny(t, err)
		if card.Name != "王小明" || card.Level != "贵宾" || card.Number != "C001" {
			t.Fatalf("window customer: %+v", card)
		}
		if next := ok(t)(s.CallNext(bg, 2, "")); next.ID != normal[0].ID {
			t.Fatalf("then %s, want %s", next.Number, normal[0].Number)
		}
		_, err = s.WindowCustomer(bg, 2)
		wantCode(t, err, model.ECustomerNotFound)

		p := addCustomer(t, s, model.CustomerInput{Customer: model.Customer{Number: "C002", Name: "赵六", Level: "私行"}})
		pt := ok(t)(s.TakeTicketFor(bg, "A", p.ID, model.SourceKiosk))
		if pt.Service != "V" || pt.Level != "私行" || pt.Priority != 1 {
			t.Fatalf("私行 ticket: %+v", pt)
		}

		p.Enabled = false
		_, err = s.SaveCustomer(bg, model.CustomerInput{Customer: p})
		okAny(t, err)
		_, err = s.TakeTicketFor(bg, "A", p.ID, model.SourceKiosk)
		wantCode(t, err, model.ECustomerNotFound)
	})
}

// Each bad input is refused with its own code and one sentence, and
// nothing is saved.
func TestCustomerBadInput(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		vipCustomer(t, s)
		base := model.Customer{Number: "C009", Name: "李四", Level: "普通"}
		cases := []struct {
			in   model.CustomerInput
			code string
		}{
			{model.CustomerInput{Customer: with(base, func(c *model.Customer) { c.Phone = "1381234567" })}, model.EBadPhone},
			{model.CustomerInput{Customer: base, IDNumber: wrongCheck(vipID)}, model.EBadIDNumber},
			{model.CustomerInput{Customer: base, IDNumber: vipID}, model.ECustomerTaken},
			{model.CustomerInput{Customer: with(base, func(c *model.Customer) { c.Number = "C001" })}, model.ECustomerTaken},
			{model.CustomerInput{Customer: with(base, func(c *model.Customer) { c.Level = "钻石" })}, model.EUnknownLevel},
			{model.CustomerInput{Customer: with(base, func(c *model.Customer) { c.ID = 99999 })}, model.ECustomerNotFound},
		}
		for _, tc := range cases {
			_, err := s.SaveCustomer(bg, tc.in)
			wantCode(t, err, tc.code)
			if msg := model.ErrorMessage(err); !strings.Contains(msg, "(") || strings.Contains(msg, "\n") {
				t.Errorf("%s: %q is not one sentence in zh and en", tc.code, msg)
			}
		}
		all, err := s.Customers(bg, "", 0)
		okAny(t, err)
		if len(all) != 1 {
			t.Fatalf("%d customers after refused saves, want 1", len(all))
		}
	})
}

// wrongCheck is id with another check digit.
func wrongCheck(id string) string {
	if id[17] == '0' {
		return id[:17] + "1"
	}
	return id[:17] + "0"
}

func with(c model.Customer, fn func(*model.Customer)) model.Customer {
	fn(&c)
	return c
}

// The manager finds a customer by number, phone, part of the name, and
// by the ID or card number, which only the hash matches.
func TestCustomerSearch(t *testing.T) {
	s := daotest.SQLite(t)
	vipCustomer(t, s)
	addCustomer(t, s, model.CustomerInput{Customer: model.Customer{Number: "C002", Name: "李四", Level: "普通"}})
	for _, q := range []string{"C001", "13812345678", "小明", vipID, vipCard} {
		got, err := s.Customers(bg, q, 10)
		okAny(t, err)
		if len(got) != 1 || got[0].Number != "C001" {
			t.Fatalf("search %q: %+v", q, got)
		}
	}
}
