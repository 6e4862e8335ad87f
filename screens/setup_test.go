package screens

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// keeper is a SetupKeeper in memory: a fresh PC's defaults until it keeps
// what refuse lets through. The program's keeper (the preferences, the
// sentences of what is wrong) is tested in app.
type keeper struct {
	saved  *SetupValues
	refuse func(SetupValues) error
}

func (k *keeper) Load() SetupValues {
	if k.saved != nil {
		return *k.saved
	}
	return SetupValues{Mode: ModeHost, Window: 1, Lang: "zh"}
}

func (k *keeper) Keep(v SetupValues) error {
	if k.refuse != nil {
		if err := k.refuse(v); err != nil {
			return err
		}
	}
	k.saved = &v
	return nil
}

func TestSetupSavesAndReloads(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	k := &keeper{}
	var done []SetupValues
	s := NewSetup(w, k, func(c SetupValues) { done = append(done, c) }, nil)
	s.role.SetSelected(textOf(roleLabels(), "caller"))
	s.mode.SetSelected(textOf(modeLabels(), ModePeer))
	s.window.SetText("3")
	s.peer.SetText("http://192.168.1.10:8520")
	s.token.SetText("jh_secret")
	s.lang.SetSelected("English")
	test.Tap(s.save)

	want := SetupValues{Role: "caller", Mode: ModePeer, Window: 3, Peer: "http://192.168.1.10:8520", Token: "jh_secret", Lang: "en"}
	if len(done) != 1 || done[0] != want {
		t.Fatalf("done got %+v, want [%+v]", done, want)
	}
	if k.saved == nil || *k.saved != want {
		t.Fatalf("kept %+v, want %+v", k.saved, want)
	}
	again := NewSetup(fyne.CurrentApp().NewWindow("again"), k, nil, nil)
	if c := again.Values(); c != want {
		t.Fatalf("a new form shows %+v, want %+v", c, want)
	}
	if !again.windowRow.Visible() || !again.peerRows.Visible() || again.dbR.Visible() {
		t.Fatal("the reloaded form does not show the caller's window and the peer fields only")
	}
}

// What the keeper refuses is its one sentence on the form, and the form
// goes nowhere.
func TestSetupRefusesIncomplete(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	k := &keeper{refuse: func(v SetupValues) error {
		if v.Mode == ModeDB && v.DSN == "" {
			return model.Errorf(model.EInvalidInput, "直连数据库须填写连接串")
		}
		return nil
	}}
	called := false
	s := NewSetup(w, k, func(SetupValues) { called = true }, nil)
	s.role.SetSelected(textOf(roleLabels(), "kiosk"))
	s.mode.SetSelected(textOf(modeLabels(), ModeDB))
	test.Tap(s.save)
	if called || s.msg.Text != "直连数据库须填写连接串" {
		t.Fatalf("saved=%v with message %q", called, s.msg.Text)
	}
	if k.saved != nil {
		t.Fatal("an incomplete configuration was saved")
	}
}

// A kiosk's (or window's) own printer and an LED bar go with the PC's
// setup; the printer field is offered to the roles that print tickets only, and an address
// the keeper refuses is one sentence and saves nothing.
func TestSetupSavesDevices(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	k := &keeper{refuse: func(v SetupValues) error {
		if v.Printer == "lpt1" {
			return model.Errorf(model.EInvalidInput, "打印机地址无效：lpt1")
		}
		return nil
	}}
	var done []SetupValues
	s := NewSetup(w, k, func(c SetupValues) { done = append(done, c) }, nil)
	s.role.SetSelected(textOf(roleLabels(), "screen"))
	if s.printerRow.Visible() {
		t.Fatal("a hall screen is offered a ticket printer")
	}
	// A window PC may have its own printer for the numbers a clerk takes
	// for customers (窗口代取, issue 13).
	s.role.SetSelected(textOf(roleLabels(), "caller"))
	if !s.printerRow.Visible() {
		t.Fatal("a caller is not offered its own printer")
	}
	s.role.SetSelected(textOf(roleLabels(), "kiosk"))
	if !s.printerRow.Visible() {
		t.Fatal("a kiosk is not offered its own printer")
	}
	s.mode.SetSelected(textOf(modeLabels(), ModeHost))
	s.printer.SetText("lpt1")
	test.Tap(s.save)
	if len(done) != 0 || s.msg.Text != "打印机地址无效：lpt1" {
		t.Fatalf("a bad printer address: saved %v, message %q", done, s.msg.Text)
	}
	if k.saved != nil {
		t.Fatal("a setup with a bad printer address was saved")
	}
	s.printer.SetText(" escpos+tcp://192.168.1.50:9100 ")
	s.led.SetText("led+serial://COM4?encoding=gb2312")
	test.Tap(s.save)
	if len(done) != 1 || done[0].Printer != "escpos+tcp://192.168.1.50:9100" || done[0].LED != "led+serial://COM4?encoding=gb2312" {
		t.Fatalf("saved %+v", done)
	}
	if got := k.Load(); got != done[0] {
		t.Fatalf("reloaded %+v, want %+v", got, done[0])
	}

	// A printer typed in and then hidden by choosing another role neither
	// blocks saving nor stays with a PC that prints no tickets.
	s.printer.SetText("lpt1")
	s.role.SetSelected(textOf(roleLabels(), "screen"))
	test.Tap(s.save)
	if len(done) != 2 || done[1].Printer != "" || done[1].Role != "screen" {
		t.Fatalf("saving a hall screen with a hidden printer field: %+v, message %q", done, s.msg.Text)
	}
}

// A hall screen's PC picks its own layout and image folder, or follows the
// branch ("" layout); another role keeps neither.
func TestSetupHallLayout(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	k := &keeper{}
	var done []SetupValues
	s := NewSetup(w, k, func(c SetupValues) { done = append(done, c) }, nil)
	s.mode.SetSelected(textOf(modeLabels(), ModeHost))
	s.role.SetSelected(textOf(roleLabels(), "kiosk"))
	if s.hallRows.Visible() {
		t.Fatal("a kiosk is offered the hall's layout")
	}
	s.role.SetSelected(textOf(roleLabels(), "screen"))
	if !s.hallRows.Visible() || s.layout.Selected != tr("setup.hall_layout_branch") {
		t.Fatalf("a hall screen: layout rows shown %v, layout %q (want the branch's)", s.hallRows.Visible(), s.layout.Selected)
	}
	test.Tap(s.save)
	s.layout.SetSelected(textOf(layoutLabels(), string(model.HallSplitTiles)))
	s.media.SetText(" D:\\hall\\pictures ")
	s.area.SetText(" 二楼贵宾区 ")
	test.Tap(s.save)
	if len(done) != 2 || done[0].HallLayout != "" || done[1].HallLayout != model.HallSplitTiles || done[1].Media != `D:\hall\pictures` || done[1].HallArea != "二楼贵宾区" {
		t.Fatalf("saved %+v", done)
	}
	if got := k.Load(); got != done[1] {
		t.Fatalf("reloaded %+v, want %+v", got, done[1])
	}
	if again := NewSetup(newTestWindow(t, 640, 720), k, nil, nil); again.layout.Selected != tr("hall.layout_split_tiles") || again.media.Text != `D:\hall\pictures` {
		t.Fatalf("a new form shows layout %q, folder %q", again.layout.Selected, again.media.Text)
	}
	s.role.SetSelected(textOf(roleLabels(), "caller"))
	s.window.SetText("2")
	test.Tap(s.save)
	if len(done) != 3 || done[2].HallLayout != "" || done[2].Media != "" || done[2].HallArea != "" {
		t.Fatalf("a caller kept the hall's layout: %+v", done[2])
	}
}

// A PC on a shared database names its branch by code: the field is on the
// database rows, saves the code as the database keeps it (upper case), and
// shows it again; a peer's token names its branch, so it saves none.
func TestSetupNamesBranch(t *testing.T) {
	w := newTestWindow(t, 640, 720)
	other := newTestWindow(t, 640, 720)
	peerW := newTestWindow(t, 640, 720)
	k := &keeper{}
	s := NewSetup(w, k, nil, nil)
	s.role.SetSelected(textOf(roleLabels(), "kiosk"))
	s.mode.SetSelected(textOf(modeLabels(), ModeDB))
	if !s.dbR.Visible() || !s.branch.Visible() {
		t.Fatal("the database rows do not offer the branch's code")
	}
	s.dsn.SetText("postgres://hq-db/jiaohao")
	s.branch.SetText(" bj001 ")
	test.Tap(s.save)
	if k.saved == nil || k.saved.Branch != "BJ001" || k.saved.DSN != "postgres://hq-db/jiaohao" {
		t.Fatalf("kept %+v, want branch BJ001", k.saved)
	}
	again := NewSetup(other, k, nil, nil)
	if again.branch.Text != "BJ001" || again.Values().Branch != "BJ001" {
		t.Fatalf("the reloaded form names branch %q", again.branch.Text)
	}
	p := NewSetup(peerW, k, nil, nil)
	p.mode.SetSelected(textOf(modeLabels(), ModePeer))
	if p.dbR.Visible() || p.Values().Branch != "" {
		t.Fatalf("a peer's form shows the branch field (%v) or saves %q", p.dbR.Visible(), p.Values().Branch)
	}
}
