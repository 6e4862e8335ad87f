package printing

import (
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A requeued ticket (重叫) is said with the requeue template, in both
// languages; an unmarked one with the normal one; an empty requeue
// template falls back to the normal one.
func TestRequeuedCallIsSaidAsSuch(t *testing.T) {
	tk := model.Ticket{Number: "A012", Window: 3, Requeued: 1}
	zh := SpeechText(CallTemplate(model.DefaultSettings["voice_template"], model.DefaultSettings["voice_template_requeue"], tk), tk, "zh")
	if zh != "请 A 零 一 二 号重新到 3 号窗口" {
		t.Errorf("zh: %q", zh)
	}
	en := SpeechText(CallTemplate(model.DefaultSettings["voice_template_en"], model.DefaultSettings["voice_template_requeue_en"], tk), tk, "en")
	if en != "Number A zero one two, please return to window 3" {
		t.Errorf("en: %q", en)
	}
	if got := CallTemplate("normal", " ", tk); got != "normal" {
		t.Errorf("empty requeue template: %q", got)
	}
	tk.Requeued = 0
	if got := CallTemplate("normal", "requeue", tk); got != "normal" {
		t.Errorf("unmarked ticket: %q", got)
	}

	// Through the announcer, with the branch's own wording from the
	// settings.
	s := model.ParseSettings(map[string]string{"voice_template_requeue": "{number} 号请回到 {window} 号窗口"})
	cfg := AnnouncerSettings(s, "", "")
	e := &timedEngine{}
	cfg.Engine, cfg.Repeat, cfg.English, cfg.Chime, cfg.Logf = e, 1, true, "", quietLog
	a := NewAnnouncer(cfg)
	defer a.Close()
	a.Announce(model.Ticket{Number: "B007", Window: 2, Requeued: 1})
	a.Announce(model.Ticket{Number: "B008", Window: 2})
	if err := a.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	want := "zh:B 零 零 七 号请回到 2 号窗口|en:Number B zero zero seven, please return to window 2|" +
		"zh:请 B 零 零 八 号到 2 号窗口办理|en:Number B zero zero eight, please go to window 2"
	if got := strings.Join(e.said(), "|"); got != want {
		t.Errorf("said %q\nwant %q", got, want)
	}
}

// A window's LED bar says 午休中 while its window is at lunch, and shows its
// calls again after; the hall bar is not affected.
func TestLEDBarAtLunch(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := testCtx(t)
	if _, err := st.TakeTicket(ctx, "A", 0, "kiosk"); err != nil {
		t.Fatal(err)
	}
	tk, err := st.CallNext(ctx, 2, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.StartServing(ctx, tk.ID, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Finish(ctx, tk.ID, 2); err != nil {
		t.Fatal(err)
	}
	bar, hall := &lastShown{}, &lastShown{}
	b, h := &LEDBoard{Display: bar, Window: 2}, &LEDBoard{Display: hall}
	show := func() {
		t.Helper()
		snap, err := st.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		b.Update(model.Change{Reloaded: true, Snapshot: snap})
		h.Update(model.Change{Reloaded: true, Snapshot: snap})
	}
	if _, err := st.SetWindowStatus(ctx, 2, model.WindowLunch); err != nil {
		t.Fatal(err)
	}
	show()
	if bar.text != LEDLunchText || hall.text != tk.Number+"→2号窗口" {
		t.Errorf("at lunch: window bar %q, hall bar %q", bar.text, hall.text)
	}
	if _, err := st.SetWindowStatus(ctx, 2, model.WindowOpen); err != nil {
		t.Fatal(err)
	}
	show()
	if bar.text != "请 "+tk.Number+" 号到 2 号窗口" {
		t.Errorf("after lunch: window bar %q", bar.text)
	}
}
