package printing

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A number taken for a registered 贵宾 prints the level, and nothing of
// who they are: not the name, the phone or any digit of the card; one
// taken without identification prints no level line.
func TestTicketPrintsTheLevelOnly(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := testCtx(t)
	const card = "6222020200112233445"
	c, err := st.SaveCustomer(ctx, model.CustomerInput{Customer: model.Customer{Number: "C001", Name: "王小明", Phone: "13812345678", Level: "贵宾"}, CardNumber: card})
	if err != nil {
		t.Fatal(err)
	}
	tk, err := st.TakeTicketFor(ctx, "A", c.ID, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := st.TakeTicket(ctx, "A", 0, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	h, err := StoreHeader(st, nil)(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := h.Slip(tk, model.Position{})
	if s.Level != "贵宾客户" {
		t.Fatalf("level line %q", s.Level)
	}
	out := RenderESCPOS(s, Paper80)
	want, _ := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(s.Level))
	if !bytes.Contains(out, want) {
		t.Fatal("the printed bytes leave out the level")
	}
	for _, secret := range []string{"王小明", "13812345678", card[len(card)-4:], "C001"} {
		enc, _ := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(secret))
		if bytes.Contains(out, enc) || strings.Contains(string(out), secret) {
			t.Errorf("the ticket prints %q", secret)
		}
	}
	if l := h.Slip(plain, model.Position{}).Level; l != "" {
		t.Fatalf("a plain ticket prints level %q", l)
	}
}
