package app

import (
	"bytes"
	"strings"
	"testing"
)

// The desktop program and jiaohao screenshot refuse the handheld (it runs
// in a browser), so their help offers the desktop roles only; jiaohao
// token add, which issues a handheld's token, still offers it.
func TestRoleHelpListsWhatEachAccepts(t *testing.T) {
	help := func(args ...string) string {
		var out, errs bytes.Buffer
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("jiaohao %v: exit %d, %s", args, code, errs.String())
		}
		return out.String() + errs.String()
	}
	desktop := "kiosk, caller, screen, counter, evaluator, manager or hq"
	for _, args := range [][]string{{"-h"}, {"screenshot", "-h"}} {
		h := help(args...)
		if args[0] == "-h" {
			h = help("--window", "1", "-h") // "-h" alone is the list of commands
		}
		if !strings.Contains(h, desktop) || strings.Contains(h, "handheld") {
			t.Errorf("jiaohao %v help: want --role %q without handheld, got:\n%s", args, desktop, h)
		}
	}
	if u := help("help"); strings.Contains(u, "handheld") || !strings.Contains(u, "kiosk|caller|screen|counter|evaluator|manager|hq") {
		t.Errorf("the commands' list offers screenshot roles: %s", u)
	}
	if h := help("token", "add", "-h"); !strings.Contains(h, "handheld") {
		t.Errorf("jiaohao token add help does not offer handheld:\n%s", h)
	}
}
