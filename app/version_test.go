package app

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The version the program reports is the one the packages and the MSI
// carry: FyneApp.toml's.
func TestVersionMatchesFyneApp(t *testing.T) {
	b, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(b)
	if m == nil || string(m[1]) != Version {
		t.Fatalf("FyneApp.toml says version %q, the program %q", m, Version)
	}
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errs := cli(args...)
		if code != 0 || strings.TrimSpace(out) != "jiaohao "+Version || errs != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := cli("version", "extra"); code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("version with an argument: exit %d, %q", code, errs)
	}
}
