//go:build linux

package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The program itself on Xvfb, on a PC that remembers the compact mode:
// the caller opens as the strip, kept above other windows, and F8 pressed
// while another X client has the focus calls the next number.
func TestCompactStripUnderXvfb(t *testing.T) {
	xvfb(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "jiaohao")
	build := exec.Command("go", "build", "-o", bin, "jiaohao")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dsn := "sqlite:" + filepath.Join(dir, "branch.db")
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for range 2 {
		if _, err := st.TakeTicket(context.Background(), "A", 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	config := filepath.Join(dir, "config")
	prefs := fynePrefsPath("linux", dir, config, appID)
	if err := os.MkdirAll(filepath.Dir(prefs), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prefs, []byte(`{"`+prefCompact+`": true}`), 0o600); err != nil {
		t.Fatal(err)
	}

	logPath := filepath.Join(dir, "out.txt")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	prog := exec.Command(bin, "--role", "caller", "--window", "1", "--db", dsn, "--lang", "en")
	prog.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+config, "XDG_DATA_HOME="+filepath.Join(dir, "data"), "LANG=en_US.UTF-8")
	prog.Stdout, prog.Stderr = logFile, logFile
	if err := prog.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- prog.Wait() }()
	stopped := false
	defer func() {
		if !stopped {
			prog.Process.Kill()
			<-exited
		}
	}()
	output := func() string { b, _ := os.ReadFile(logPath); return string(b) }

	var win string
	eventually(t, "the caller's window", func() bool {
		out, err := exec.Command("xdotool", "search", "--name", "^Jiaohao · Window 1$").Output()
		win, _, _ = strings.Cut(strings.TrimSpace(string(out)), "\n")
		return err == nil && win != ""
	})
	eventually(t, "the strip kept above", func() bool {
		out, _ := exec.Command("xprop", "-id", win, "_NET_WM_STATE").Output()
		return strings.Contains(string(out), "_NET_WM_STATE_ABOVE")
	})
	// The window manager's part (here the X server's) of a resize comes
	// after the program asks.
	eventually(t, "the strip at 480×64", func() bool {
		return strings.Contains(xdotool(t, "getwindowgeometry", win), "Geometry: 480x64")
	})

	focus := newFocusedClient(t)
	focus.hasFocus(t)
	xdotool(t, "key", "F8")
	eventually(t, "A001 called by F8", func() bool { return ticketStatus(t, st, 1).Status == model.Called })
	focus.hasFocus(t)
	if tk := ticketStatus(t, st, 2); tk.Status != model.Waiting {
		t.Fatalf("A002 is %s, want waiting: one press, one call", tk.Status)
	}

	prog.Process.Signal(syscall.SIGTERM)
	err = <-exited
	stopped = true
	if err != nil {
		t.Fatalf("the program ended with %v:\n%s", err, output())
	}
	if out := output(); strings.Contains(out, "panic:") || strings.Contains(out, "hotkeys:") {
		t.Fatalf("the program said:\n%s", out)
	}
}
