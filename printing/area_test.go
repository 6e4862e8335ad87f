package printing

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// The ticket says where to wait only when the branch has more than one
// area: read from a real store, as the kiosk's print queue does.
func TestTicketNamesTheAreaWhenThereAreSeveral(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := testCtx(t)
	tk, err := st.TakeTicket(ctx, "V", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	h, err := StoreHeader(st, nil)(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s := h.Slip(tk, model.Position{}); s.Area != "" {
		t.Fatalf("one area, the ticket says %q", s.Area)
	}

	daotest.MoveToNewArea(t, st, "V", model.Area{Name: "二楼贵宾区", Where: "二楼"})
	a, err := st.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	if h, err = StoreHeader(st, nil)(ctx); err != nil {
		t.Fatal(err)
	}
	s := h.Slip(tk, model.Position{})
	if s.Area != "请到 二楼贵宾区（二楼） 等候" {
		t.Fatalf("a V ticket says %q, want the VIP area and its floor", s.Area)
	}
	want, _ := simplifiedchinese.GB18030.NewEncoder().Bytes([]byte(s.Area))
	if !bytes.Contains(RenderESCPOS(s, Paper80), want) {
		t.Fatal("the printed bytes leave out the area")
	}
	if got := h.Slip(a, model.Position{}).Area; !strings.Contains(got, "大厅") {
		t.Fatalf("an A ticket says %q, want the default area", got)
	}
}

// The voice names the area the ticket carries, before the window, in the
// branch's own Chinese template; {area} places it where a template wants.
func TestSpeechNamesTheArea(t *testing.T) {
	tk := model.Ticket{Number: "A012", Window: 3}
	tpl := model.DefaultSettings["voice_template"]
	plain := SpeechText(tpl, tk, "zh")
	tk.Area = &model.Area{Name: "二楼贵宾区", Where: "二楼"}
	named := SpeechText(tpl, tk, "zh")
	if plain == named || !strings.Contains(named, "二楼 3") || strings.Contains(plain, "二楼") {
		t.Fatalf("without area %q, with area %q", plain, named)
	}
	if got := SpeechText("请 {number} 号到{area}{window} 号窗口", tk, "zh"); got != "请 A 零 一 二 号到二楼3 号窗口" {
		t.Fatalf("{area} template: %q", got)
	}
	if got := SpeechText(model.DefaultSettings["voice_template_en"], tk, "en"); strings.Contains(got, "二楼") {
		t.Fatalf("an English template without {area} says the Chinese place: %q", got)
	}
}
