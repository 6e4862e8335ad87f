package app

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/screens"
)

// TestSetupWindowExportsAndImports: the setup window writes the settings
// file of what it shows, and fills itself from one; a bad file leaves the
// form and the preferences as they were, and an imported file is saved only
// by the save button.
func TestSetupWindowExportsAndImports(t *testing.T) {
	a := test.NewTempApp(t)
	prefs := a.Preferences()
	if err := SaveConfig(prefs, callerPC); err != nil {
		t.Fatal(err)
	}
	s := screens.NewSetup(a.NewWindow("setup"), prefsSetup{prefs}, nil, nil)
	findButton(t, s.Content(), "导出到文件…", "Export to a file…", "setup.export")
	findButton(t, s.Content(), "从文件导入…", "Import from a file…", "setup.import")
	var file bytes.Buffer
	if err := s.ExportTo(&file); err != nil {
		t.Fatal(err)
	}
	if c, err := DecodePCSettings(file.Bytes()); err != nil || c != callerPC {
		t.Fatalf("exported %+v, %v; want %+v", c, err, callerPC)
	}

	// A second PC, set up as a kiosk so far.
	kiosk := Config{Role: "kiosk", Mode: screens.ModeHost, Window: 1, Lang: "zh"}
	a2 := test.NewTempApp(t)
	prefs2 := a2.Preferences()
	if err := SaveConfig(prefs2, kiosk); err != nil {
		t.Fatal(err)
	}
	var saved []Config
	s2 := screens.NewSetup(a2.NewWindow("setup"), prefsSetup{prefs2}, func(v screens.SetupValues) { saved = append(saved, Config(v)) }, nil)

	older := `{"format":"jiaohao-pc-settings","version":0,"settings":{}}`
	if err := s2.ImportFrom(strings.NewReader(older)); err == nil || !strings.Contains(err.Error(), "older version") {
		t.Fatalf("older file: %v", err)
	}
	if Config(s2.Values()) != kiosk {
		t.Fatalf("a refused file changed the form to %+v", s2.Values())
	}
	if err := s2.ImportFrom(&file); err != nil {
		t.Fatal(err)
	}
	if Config(s2.Values()) != callerPC {
		t.Fatalf("form shows %+v after import, want %+v", s2.Values(), callerPC)
	}
	if c, _ := LoadConfig(prefs2); c != kiosk {
		t.Fatalf("import saved %+v before the save button", c)
	}
	test.Tap(findButton(t, s2.Content(), "保存并启动", "Save and start", "setup.save"))
	if c, _ := LoadConfig(prefs2); c != callerPC || len(saved) != 1 {
		t.Fatalf("after save: %+v (done called %d times)", c, len(saved))
	}
}

// The setup form does not show a caller's hotkeys, but it carries them:
// saving the form starts the role with this PC's own keys (not the
// defaults, which may be keys the bank's system uses), an exported file
// holds them, and an imported file's keys are the ones saved.
func TestSetupWindowKeepsHotkeys(t *testing.T) {
	own := callerPC
	own.Hotkeys = "off"
	a := test.NewTempApp(t)
	prefs := a.Preferences()
	if err := SaveConfig(prefs, own); err != nil {
		t.Fatal(err)
	}
	var started []Config
	s := screens.NewSetup(a.NewWindow("setup"), prefsSetup{prefs}, func(v screens.SetupValues) { started = append(started, Config(v)) }, nil)
	test.Tap(findButton(t, s.Content(), "保存并启动", "Save and start", "setup.save"))
	if len(started) != 1 || started[0].Hotkeys != "off" {
		t.Fatalf("saving the form started %+v, want the PC's hotkeys %q", started, own.Hotkeys)
	}
	var file bytes.Buffer
	if err := s.ExportTo(&file); err != nil {
		t.Fatal(err)
	}
	if c, err := DecodePCSettings(file.Bytes()); err != nil || c.Hotkeys != "off" {
		t.Fatalf("exported %+v, %v; want the hotkeys %q", c, err, own.Hotkeys)
	}

	a2 := test.NewTempApp(t)
	prefs2 := a2.Preferences()
	if err := SaveConfig(prefs2, callerPC); err != nil {
		t.Fatal(err)
	}
	s2 := screens.NewSetup(a2.NewWindow("setup"), prefsSetup{prefs2}, func(v screens.SetupValues) { started = append(started, Config(v)) }, nil)
	if err := s2.ImportFrom(&file); err != nil {
		t.Fatal(err)
	}
	test.Tap(findButton(t, s2.Content(), "保存并启动", "Save and start", "setup.save"))
	if c, _ := LoadConfig(prefs2); c != own || len(started) != 2 || started[1] != own {
		t.Fatalf("after importing a PC with hotkeys %q: saved %+v, started %+v", own.Hotkeys, c, started)
	}
}

// findButton finds the button labelled with one of texts in o's tree.
func findButton(t *testing.T, o fyne.CanvasObject, texts ...string) *widget.Button {
	t.Helper()
	var walk func(o fyne.CanvasObject) *widget.Button
	walk = func(o fyne.CanvasObject) *widget.Button {
		if b, ok := o.(*widget.Button); ok && slices.Contains(texts, b.Text) {
			return b
		}
		var kids []fyne.CanvasObject
		switch x := o.(type) {
		case *fyne.Container:
			kids = x.Objects
		case fyne.Widget:
			kids = test.WidgetRenderer(x).Objects()
		}
		for _, k := range kids {
			if b := walk(k); b != nil {
				return b
			}
		}
		return nil
	}
	b := walk(o)
	if b == nil {
		t.Fatalf("no button labelled %q", texts)
	}
	return b
}
