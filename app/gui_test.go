package app

import (
	"bytes"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/screens"
)

func TestFlagsOverrideSavedSetup(t *testing.T) {
	saved := Config{Role: "caller", Mode: screens.ModePeer, Window: 3, Peer: "http://10.0.0.2:8520", Token: "jh_x", Lang: "zh"}
	got := overrideConfig(saved, map[string]bool{"window": true, "lang": true}, Config{Window: 5, Lang: "en"})
	want := saved
	want.Window, want.Lang = 5, "en"
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got = overrideConfig(saved, map[string]bool{"role": true, "db": true}, Config{Role: "manager", DSN: "sqlite:/tmp/b.db"})
	if got.Role != "manager" || got.Mode != screens.ModeDB || got.DSN != "sqlite:/tmp/b.db" {
		t.Fatalf("--role --db gave %+v", got)
	}
	got = overrideConfig(saved, map[string]bool{"printer": true, "led": true},
		Config{Printer: "escpos+tcp://10.0.0.9", LED: "led+serial://COM4"})
	if got.Printer != "escpos+tcp://10.0.0.9" || got.LED != "led+serial://COM4" || got.Window != saved.Window {
		t.Fatalf("--printer --led gave %+v", got)
	}
	fresh := overrideConfig(Config{}, map[string]bool{"role": true}, Config{Role: "screen"})
	if fresh.Mode != screens.ModeHost || fresh.Lang != "zh" || fresh.Validate() != nil {
		t.Fatalf("a --role alone on a fresh PC should host in Chinese: %+v (%v)", fresh, fresh.Validate())
	}
}

// A --role other than the saved one leaves the saved role's devices
// behind: the window screen run beside a caller (a second instance on the
// same PC) does not open the caller's LED bar or printer as well. The
// same role keeps them, and --led gives the other role one of its own.
func TestRoleFlagLeavesSavedDevices(t *testing.T) {
	caller := Config{Role: "caller", Mode: screens.ModePeer, Window: 3, Peer: "http://10.0.0.2:8520", Token: "jh_c", Lang: "zh",
		Printer: "escpos+tcp://10.0.0.9", LED: "led+serial://COM4"}
	got := overrideConfig(caller, map[string]bool{"role": true, "token": true}, Config{Role: "counter", Token: "jh_w"})
	if got.Role != "counter" || got.Window != 3 || got.Token != "jh_w" || got.LED != "" || got.Printer != "" {
		t.Fatalf("--role counter on a caller PC gave %+v", got)
	}
	if got := overrideConfig(caller, map[string]bool{"role": true}, Config{Role: "caller"}); got != caller {
		t.Fatalf("--role caller on a caller PC gave %+v, want the saved %+v", got, caller)
	}
	got = overrideConfig(caller, map[string]bool{"role": true, "led": true}, Config{Role: "counter", LED: "led+serial://COM5"})
	if got.LED != "led+serial://COM5" {
		t.Fatalf("--role counter --led gave LED %q", got.LED)
	}
}

// Bad flags are refused in one sentence with exit status 2, before any
// window opens (so this runs without a display).
func TestGUIRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--role", "cashier"},
		{"--role", "caller", "--window", "0"},
		{"--role", "kiosk", "--lang", "fr"},
		{"--role", "kiosk", "--peer", "10.0.0.2:8520", "--token", "t"},
		{"--role", "kiosk", "--peer", "http://10.0.0.2:8520"},
		{"--role", "kiosk", "--printer", "lpt1"},
		{"--role", "kiosk", "--printer", "escpos+serial://COM3?paper=76"},
		{"--role", "caller", "--window", "2", "--led", "led+serial://COM4?encoding=latin1"},
	} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || strings.Contains(errb.String(), "goroutine") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// A preferences change restarts the role only when the saved setup now
// says something new and valid.
func TestPrefsChangeLeavesSameOrBadSetupAlone(t *testing.T) {
	a := test.NewTempApp(t)
	running := Config{Role: "caller", Mode: screens.ModeHost, Window: 2, Lang: "zh"}
	l := &launcher{app: a, cfg: running, override: func(c Config) Config { return c }}
	if err := SaveConfig(a.Preferences(), running); err != nil {
		t.Fatal(err)
	}
	l.prefsChanged()
	a.Preferences().SetString("jiaohao.mode", "bogus")
	l.prefsChanged()
	if l.win != nil || l.cfg != running {
		t.Fatalf("the role restarted: %+v", l.cfg)
	}
}
