package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
	"jiaohao/screens"
)

// The setup form's keeper saves to this PC's preferences and reads back
// what it saved; a fresh PC has nothing saved. (The form itself is tested
// in screens with a keeper in memory.)
func TestSetupSavesAndReloads(t *testing.T) {
	prefs := test.NewTempApp(t).Preferences()
	if _, ok := LoadConfig(prefs); ok {
		t.Fatal("a fresh app already has a configuration")
	}
	k := prefsSetup{prefs}
	if got, want := Config(k.Load()), (Config{Mode: screens.ModeHost, Window: 1, Lang: "zh"}); got != want {
		t.Fatalf("a fresh PC's form shows %+v, want %+v", got, want)
	}
	want := Config{Role: "caller", Mode: screens.ModePeer, Window: 3, Peer: "http://192.168.1.10:8520", Token: "jh_secret", Lang: "en"}
	if err := k.Keep(screens.SetupValues(want)); err != nil {
		t.Fatal(err)
	}
	got, ok := LoadConfig(prefs)
	if !ok || got != want {
		t.Fatalf("reloaded %+v (saved %v), want %+v", got, ok, want)
	}
	if c := Config(k.Load()); c != want {
		t.Fatalf("a new form shows %+v, want %+v", c, want)
	}
}

// An incomplete setup is refused in one sentence of the chosen language,
// and nothing is saved.
func TestSetupRefusesIncomplete(t *testing.T) {
	if err := screens.SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	prefs := test.NewTempApp(t).Preferences()
	err := prefsSetup{prefs}.Keep(screens.SetupValues{Role: "kiosk", Mode: screens.ModeDB, Window: 1, Lang: "zh"})
	if model.ErrorMessage(err) != "直连数据库须填写连接串" {
		t.Fatalf("refused with %v", err)
	}
	if _, ok := LoadConfig(prefs); ok {
		t.Fatal("an incomplete configuration was saved")
	}
}

// A kiosk's own printer and an LED bar are saved with the PC's setup after
// their drivers' parsers accept them; an address either refuses is the
// parser's one sentence and saves nothing.
func TestSetupSavesDevices(t *testing.T) {
	prefs := test.NewTempApp(t).Preferences()
	k := prefsSetup{prefs}
	kiosk := screens.SetupValues{Role: "kiosk", Mode: screens.ModeHost, Window: 1, Lang: "zh"}
	for _, bad := range []struct{ printer, led, kind, addr string }{
		{"lpt1", "", "printer", "lpt1"},
		{"", "led+serial://COM4?encoding=latin1", "led", "led+serial://COM4?encoding=latin1"},
	} {
		v := kiosk
		v.Printer, v.LED = bad.printer, bad.led
		want := checkDevice(bad.kind, bad.addr)
		if err := k.Keep(v); want == nil || err == nil || model.ErrorMessage(err) != model.ErrorMessage(want) {
			t.Fatalf("%s %q: refused with %v, want the parser's %v", bad.kind, bad.addr, err, want)
		}
		if _, ok := LoadConfig(prefs); ok {
			t.Fatalf("a setup with a bad %s address was saved", bad.kind)
		}
	}
	good := kiosk
	good.Printer, good.LED = "escpos+tcp://192.168.1.50:9100", "led+serial://COM4?encoding=gb2312"
	if err := k.Keep(good); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadConfig(prefs); got != Config(good) {
		t.Fatalf("reloaded %+v, want %+v", got, good)
	}
}

// A hall screen's own layout and image folder are kept with the PC's
// setup and carried in its settings file; a layout that is not one is
// refused in a sentence and nothing is saved.
func TestSetupKeepsHallLayout(t *testing.T) {
	if err := screens.SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	prefs := test.NewTempApp(t).Preferences()
	k := prefsSetup{prefs}
	want := Config{Role: model.RoleScreen, Mode: screens.ModeHost, Window: 1, Lang: "zh", HallLayout: model.HallSplitList, Media: t.TempDir(), HallArea: "二楼贵宾区"}
	if err := k.Keep(screens.SetupValues(want)); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadConfig(prefs); got != want {
		t.Fatalf("reloaded %+v, want %+v", got, want)
	}
	file, err := EncodePCSettings(want)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodePCSettings(file); err != nil || got != want {
		t.Fatalf("settings file gave %+v, %v", got, err)
	}
	bad := want
	bad.HallLayout = "mosaic"
	err = k.Keep(screens.SetupValues(bad))
	if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), "split-tiles") {
		t.Fatalf("a bad layout: %v", err)
	}
	if got, _ := LoadConfig(prefs); got != want {
		t.Fatalf("a refused layout changed the setup to %+v", got)
	}
	bad = want
	bad.HallArea = strings.Repeat("区", model.MaxNameLen+1)
	if err := k.Keep(screens.SetupValues(bad)); model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("an area name too long: %v", err)
	}
	if got, _ := LoadConfig(prefs); got != want {
		t.Fatalf("a refused area changed the setup to %+v", got)
	}
}

// An image folder typed in the setup form must be a folder: a path that
// does not exist, or names a file, is refused in a sentence naming it and
// nothing is saved.
func TestSetupRefusesMissingMediaFolder(t *testing.T) {
	if err := screens.SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	prefs := test.NewTempApp(t).Preferences()
	k := prefsSetup{prefs}
	dir := t.TempDir()
	file := filepath.Join(dir, "logo.png")
	if err := os.WriteFile(file, []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, media := range []string{filepath.Join(dir, "missing"), file} {
		c := Config{Role: model.RoleScreen, Mode: screens.ModeHost, Lang: "zh", Media: media}
		err := k.Keep(screens.SetupValues(c))
		if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), media) {
			t.Errorf("image folder %s: %v, want a sentence naming it", media, err)
		}
		if _, ok := LoadConfig(prefs); ok {
			t.Fatalf("a refused image folder saved the setup")
		}
	}
}

// A PC's branch code is kept with its setup and carried by its settings
// file; a code that is not one is refused in one sentence, saving nothing.
func TestSetupKeepsBranch(t *testing.T) {
	if err := screens.SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	prefs := test.NewTempApp(t).Preferences()
	k := prefsSetup{prefs}
	want := Config{Role: "kiosk", Mode: screens.ModeDB, Window: 1, DSN: "postgres://hq-db/jiaohao", Branch: "BJ001", Lang: "zh"}
	if err := k.Keep(screens.SetupValues(want)); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadConfig(prefs); got != want {
		t.Fatalf("reloaded %+v, want %+v", got, want)
	}
	b, err := EncodePCSettings(want)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodePCSettings(b); err != nil || back != want {
		t.Fatalf("the settings file carried %+v (%v), want %+v", back, err, want)
	}
	bad := want
	bad.Branch = "北京"
	if err := k.Keep(screens.SetupValues(bad)); model.ErrorMessage(err) != screens.Text("setup.err_branch") {
		t.Fatalf("a bad code: %v", err)
	}
	if got, _ := LoadConfig(prefs); got != want {
		t.Fatalf("a refused code changed the setup to %+v", got)
	}
}

// Head office's PC reads every branch through a host serving them all: a
// setup of the hq role on this PC's own database or straight on one is
// refused in one sentence, through a host with its token it is kept.
func TestSetupHQNeedsAHost(t *testing.T) {
	if err := screens.SetLanguage("zh"); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{screens.ModeHost, screens.ModeDB} {
		err := Config{Role: model.RoleHQ, Mode: mode, DSN: "sqlite:x.db", Lang: "zh"}.Validate()
		if model.ErrorCode(err) != model.EInvalidInput || !strings.Contains(model.ErrorMessage(err), "serve --branch all") {
			t.Errorf("hq in mode %s: %v", mode, err)
		}
	}
	if err := (Config{Role: model.RoleHQ, Mode: screens.ModePeer, Peer: "http://10.0.0.1:8520", Token: "jh_x", Lang: "zh"}).Validate(); err != nil {
		t.Errorf("hq through a host: %v", err)
	}
}
