package screens

import (
	"testing"

	"fyne.io/fyne/v2"

	"fyne.io/fyne/v2/test"
)

func TestSetupSavesAndReloads(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	prefs := fyne.CurrentApp().Preferences()
	if _, ok := LoadConfig(prefs); ok {
		t.Fatal("a fresh app already has a configuration")
	}
	var done []Config
	s := NewSetup(w, prefs, func(c Config) { done = append(done, c) }, nil)
	s.role.SetSelected(textOf(roleLabels(), "caller"))
	s.mode.SetSelected(textOf(modeLabels(), ModePeer))
	s.window.SetText("3")
	s.peer.SetText("http://192.168.1.10:8520")
	s.token.SetText("jh_secret")
	s.lang.SetSelected("English")
	test.Tap(s.save)

	want := Config{Role: "caller", Mode: ModePeer, Window: 3, Peer: "http://192.168.1.10:8520", Token: "jh_secret", Lang: "en"}
	if len(done) != 1 || done[0] != want {
		t.Fatalf("done got %+v, want [%+v]", done, want)
	}
	got, ok := LoadConfig(prefs)
	if !ok || got != want {
		t.Fatalf("reloaded %+v (saved %v), want %+v", got, ok, want)
	}
	again := NewSetup(fyne.CurrentApp().NewWindow("again"), prefs, nil, nil)
	if c := again.Config(); c != want {
		t.Fatalf("a new form shows %+v, want %+v", c, want)
	}
	if !again.windowRow.Visible() || !again.peerRows.Visible() || again.dbR.Visible() {
		t.Fatal("the reloaded form does not show the caller's window and the peer fields only")
	}
}

func TestSetupRefusesIncomplete(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	prefs := fyne.CurrentApp().Preferences()
	called := false
	s := NewSetup(w, prefs, func(Config) { called = true }, nil)
	s.role.SetSelected(textOf(roleLabels(), "kiosk"))
	s.mode.SetSelected(textOf(modeLabels(), ModeDB))
	test.Tap(s.save)
	if called || s.msg.Text != "直连数据库须填写连接串" {
		t.Fatalf("saved=%v with message %q", called, s.msg.Text)
	}
	if _, ok := LoadConfig(prefs); ok {
		t.Fatal("an incomplete configuration was saved")
	}
}
