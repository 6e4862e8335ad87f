package app

import (
	"bytes"
	"strings"
	"testing"

	"jiaohao/screens"
)

func TestFlagsOverrideSavedSetup(t *testing.T) {
	saved := screens.Config{Role: "caller", Mode: screens.ModePeer, Window: 3, Peer: "http://10.0.0.2:8520", Token: "jh_x", Lang: "zh"}
	got := overrideConfig(saved, map[string]bool{"window": true, "lang": true}, "", 5, "", "", "", "en")
	want := saved
	want.Window, want.Lang = 5, "en"
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	got = overrideConfig(saved, map[string]bool{"role": true, "db": true}, "manager", 0, "sqlite:/tmp/b.db", "", "", "")
	if got.Role != "manager" || got.Mode != screens.ModeDB || got.DSN != "sqlite:/tmp/b.db" {
		t.Fatalf("--role --db gave %+v", got)
	}
	fresh := overrideConfig(screens.Config{}, map[string]bool{"role": true}, "screen", 0, "", "", "", "")
	if fresh.Mode != screens.ModeHost || fresh.Lang != "zh" || fresh.Validate() != nil {
		t.Fatalf("a --role alone on a fresh PC should host in Chinese: %+v (%v)", fresh, fresh.Validate())
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
	} {
		var out, errb bytes.Buffer
		code := run(args, &out, &errb)
		if code != 2 || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 || strings.Contains(errb.String(), "goroutine") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
