package app

import (
	"maps"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
	"jiaohao/screens"
)

func TestHotkeySetting(t *testing.T) {
	good := []struct {
		text string
		want map[screens.CallerAction]string
	}{
		{"", map[screens.CallerAction]string{"call": "F8", "recall": "F9", "pass": "F10", "start": "F11", "finish": "F12"}},
		{"off", nil},
		{"call=F1,recall=F2", map[screens.CallerAction]string{"call": "F1", "recall": "F2"}},
		{" Call = ctrl+alt+k , finish=Shift+f2", map[screens.CallerAction]string{"call": "ctrl+alt+K", "finish": "shift+F2"}},
	}
	for _, g := range good {
		got, err := parseHotkeys(g.text)
		if err != nil || !maps.Equal(got, g.want) {
			t.Errorf("parseHotkeys(%q) = %v, %v; want %v", g.text, got, err, g.want)
		}
	}
	if err := screens.SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { screens.SetLanguage("zh") })
	bad := []struct{ text, want string }{
		{"call F8", `The hotkeys "call F8" must read action=key separated by commas, e.g. call=F8,recall=F9, with the actions call, recall, pass, start and finish`},
		{"dial=F8", `There is no hotkey action "dial": use call, recall, pass, start or finish`},
		{"call=F8,call=F9", `The hotkey action "call" is given twice`},
		{"call=F8,pass=f8", "The hotkey F8 is given to two actions"},
		{"call=F2", "The hotkey F2 is the caller window's own key for recall: it cannot be given to call"},
		{"pass=control+shift+s", `A letter or digit hotkey ("control+shift+s") needs both ctrl and alt: alone it fires while typing, and with only one it takes a shortcut of the program in front (ctrl+C copies)`},
		{"call=", `The hotkey "" names no key`},
		{"call=F25", `The key of hotkey "F25" must be F1 to F24, a letter or a digit`},
		{"call=hyper+F2", `The modifiers of hotkey "hyper+F2" can only be ctrl, alt, shift or super`},
		{"call=shift+K", `A letter or digit hotkey ("shift+K") needs both ctrl and alt: alone it fires while typing, and with only one it takes a shortcut of the program in front (ctrl+C copies)`},
		{"recall=ctrl+C", `A letter or digit hotkey ("ctrl+C") needs both ctrl and alt: alone it fires while typing, and with only one it takes a shortcut of the program in front (ctrl+C copies)`},
		{"finish=alt+F4", `The hotkey "alt+F4" is alt+F4, which closes the program in front`},
	}
	for _, b := range bad {
		_, err := parseHotkeys(b.text)
		if !model.IsCode(err, model.EInvalidInput) || model.ErrorMessage(err) != b.want {
			t.Errorf("parseHotkeys(%q) = %v, want %q", b.text, err, b.want)
		}
		c := Config{Role: model.RoleCaller, Mode: "host", Window: 1, Lang: "en", Hotkeys: b.text}
		if err := c.Validate(); model.ErrorMessage(err) != b.want {
			t.Errorf("a setup with hotkeys %q validates as %v", b.text, err)
		}
	}
}

// The hotkeys are this PC's: a settings file carries them (the setup
// form, which does not show them, keeps them: TestSetupWindowKeepsHotkeys).
func TestHotkeySettingKept(t *testing.T) {
	p := test.NewTempApp(t).Preferences()
	c := Config{Role: model.RoleCaller, Mode: "host", Window: 3, Lang: "zh", Hotkeys: "call=ctrl+alt+1"}
	if err := SaveConfig(p, c); err != nil {
		t.Fatal(err)
	}
	file, err := ExportPCSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodePCSettings(file)
	if err != nil || back.Hotkeys != c.Hotkeys {
		t.Fatalf("the settings file carries hotkeys %q (%v), want %q", back.Hotkeys, err, c.Hotkeys)
	}
}
