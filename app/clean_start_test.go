package app

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
)

// childArgs, when set, makes this test binary run the program's command
// line with those arguments (split on \x1f) and exit: a fresh process, so
// package initialisation and the environment are those a user gets.
const childArgs = "JIAOHAO_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(childArgs); ok {
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// runChild runs the command line in a fresh process of this test binary
// with env added to (and DISPLAY removed from) the test's environment.
func runChild(t *testing.T, env []string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, append(env, childArgs+"="+strings.Join(args, "\x1f"))...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out.String(), errb.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// Many Linux installs and containers run with LANG=C.UTF-8: every command
// starts quietly in the default language, with no toolkit complaint.
func TestCommandsQuietUnderCLocale(t *testing.T) {
	shot := filepath.Join(t.TempDir(), "kiosk.png")
	for _, args := range [][]string{{"help"}, {"migrate", "--db", daotest.SQLiteDSN(t)}, {"screenshot", "--role", "kiosk", "--out", shot}} {
		for _, locale := range [][]string{{"LANG=C.UTF-8"}, {"LC_ALL=C.UTF-8"}, {"LANG=POSIX"}} {
			code, out, errs := runChild(t, append([]string{"LC_ALL=", "LC_MESSAGES=", "LANGUAGE="}, locale...), args...)
			if code != 0 {
				t.Fatalf("%v under %v: exit %d: %s", args, locale, code, errs)
			}
			if strings.Contains(out+errs, "Fyne error") || strings.Contains(out+errs, "locale") {
				t.Errorf("%v under %v printed a locale complaint:\n%s%s", args, locale, out, errs)
			}
		}
	}
	if b, err := os.ReadFile(shot); err != nil || len(b) == 0 {
		t.Fatalf("screenshot under the C locale not written: %v", err)
	}
}

// Started with no display, the desktop program and the demo say what to do
// in one sentence and exit 2: no toolkit panic, no stack trace.
func TestNoDisplayIsOneSentence(t *testing.T) {
	for _, c := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"--role", "kiosk", "--db", daotest.SQLiteDSN(t)}},
		{nil, []string{"demo"}},
		{[]string{"DISPLAY=:97"}, []string{"--role", "screen", "--db", daotest.SQLiteDSN(t)}}, // no server there
	} {
		code, out, errs := runChild(t, c.env, c.args...)
		if code != 2 {
			t.Errorf("%v %v: exit %d, want 2\n%s%s", c.env, c.args, code, out, errs)
		}
		if !strings.Contains(errs, "jiaohao serve") || !strings.Contains(errs, "no display") {
			t.Errorf("%v %v: no clear sentence: %s", c.env, c.args, errs)
		}
		if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v %v: more than one sentence:\n%s", c.env, c.args, errs)
		}
	}
}
