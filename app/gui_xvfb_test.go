package app

import (
	"context"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// EnvRequireDisplay makes a missing xvfb-run fail the desktop tests
// instead of skipping them, so CI cannot pass without running them.
const EnvRequireDisplay = "JIAOHAO_TEST_REQUIRE_DISPLAY"

// The built binary, under a virtual X display: each way of starting it
// opens its real windows, stays up for 5 s and exits with status 0 when
// its window is closed (WM_DELETE_WINDOW, the title bar's ×) or, for the
// demo, the setup and the hall over a peer, when sent SIGTERM (what a
// session logout or `systemctl stop` sends).
func TestBinaryUnderXvfb(t *testing.T) {
	xvfb, err := exec.LookPath("xvfb-run")
	if err == nil {
		_, err = exec.LookPath("xwininfo")
	}
	if err == nil {
		err = exec.Command(python3(), "-c", "import Xlib").Run()
	}
	if err != nil {
		if os.Getenv(EnvRequireDisplay) == "1" {
			t.Fatalf("%s=1 but the desktop test cannot run: %v (install xvfb, x11-utils and python3-xlib)", EnvRequireDisplay, err)
		}
		t.Skipf("skipping the desktop test: %v (install xvfb, x11-utils and python3-xlib, or set %s=1 to fail instead)", err, EnvRequireDisplay)
	}
	bin := filepath.Join(t.TempDir(), "jiaohao")
	build := exec.Command("go", "build", "-o", bin, "jiaohao")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cases := []struct {
		name   string
		args   []string
		titles []string
	}{
		{"demo", []string{"demo", "--lang", "en"}, []string{"Jiaohao · Kiosk", "Jiaohao · Window 1", "Jiaohao · Window 2", "Jiaohao · Hall screen", "Jiaohao · Manager"}},
		{"setup", []string{"--lang", "en"}, []string{"Jiaohao · Setup"}},
		{"kiosk", []string{"--role", "kiosk"}, []string{"Jiaohao · Kiosk"}},
		{"caller", []string{"--role", "caller", "--window", "2"}, []string{"Jiaohao · Window 2"}},
		{"screen", []string{"--role", "screen"}, []string{"Jiaohao · Hall screen"}},
		{"manager", []string{"--role", "manager"}, []string{"Jiaohao · Manager"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := c.args
			if c.name != "demo" && c.name != "setup" {
				args = append(args, "--lang", "en", "--db", "sqlite:"+filepath.Join(dir, "branch.db"))
			}
			closeTitle := ""
			if c.name != "demo" && c.name != "setup" {
				closeTitle = c.titles[0]
			}
			windows, out := runFor5s(t, xvfb, bin, dir, closeTitle, args)
			if c.name == "demo" && !strings.Contains(out, "demo branch served on http://127.0.0.1:") {
				t.Errorf("the demo did not start its peer server:\n%s", out)
			}
			for _, title := range c.titles {
				if !strings.Contains(windows, `"`+title+`"`) {
					t.Errorf("no window titled %q; X windows:\n%s\noutput:\n%s", title, windows, out)
				}
			}
		})
	}
	t.Run("screen over peer", func(t *testing.T) { hallOverPeer(t, xvfb, bin) })
}

// hallOverPeer starts `jiaohao serve` on a branch and the hall screen of
// another PC connected to it by token, and checks the screen loaded the
// queue through the server.
func hallOverPeer(t *testing.T, xvfb, bin string) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "host.db")
	token, err := exec.Command(bin, "token", "add", "--db", db, "--role", "screen").Output()
	if err != nil {
		t.Fatalf("token add: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	logPath := filepath.Join(dir, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	srv := exec.Command(bin, "serve", "--db", db, "--listen", addr)
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Process.Signal(syscall.SIGTERM)
		srv.Wait()
	}()
	windows, out := runFor5s(t, xvfb, bin, dir, "", []string{"--role", "screen", "--peer", "http://" + addr,
		"--token", strings.TrimSpace(string(token)), "--lang", "en", "--windowed"})
	if !strings.Contains(windows, `"Jiaohao · Hall screen"`) {
		t.Errorf("no hall window; X windows:\n%s\noutput:\n%s", windows, out)
	}
	served, _ := os.ReadFile(logPath)
	if !strings.Contains(string(served), "/api/v1/snapshot") {
		t.Errorf("the hall never loaded the queue through the server; server log:\n%s", served)
	}
}

// shell runs the program, lists the X windows after 5 s, then closes the
// window titled $JH_CLOSE (or sends SIGTERM when there is none to close)
// and reports the exit status. A program that ignores the close is killed
// after 30 s and fails.
const shell = `"$0" "$@" > "$JH_DIR/out.txt" 2>&1 &
pid=$!
sleep 5
if ! kill -0 $pid 2>/dev/null; then wait $pid; echo "exited early with status $?"; exit 3; fi
xwininfo -root -tree > "$JH_DIR/windows.txt"
how=SIGTERM
if [ -n "$JH_CLOSE" ]; then
  how="closing its window"
  "$JH_PY" "$JH_CLOSER" "$JH_CLOSE" || { echo "no window titled $JH_CLOSE to close"; kill -KILL $pid; exit 5; }
  i=0
  while kill -0 $pid 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  if kill -0 $pid 2>/dev/null; then echo "still running 30 s after its window was closed"; kill -KILL $pid; exit 6; fi
else
  kill -TERM $pid
fi
wait $pid
status=$?
if [ $status -ne 0 ]; then echo "exit status $status after $how"; exit 4; fi
`

// python3 is the system's Python, which has the Debian python3-xlib
// package; a user's own Python earlier in PATH may not.
func python3() string {
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		return "/usr/bin/python3"
	}
	return "python3"
}

func runFor5s(t *testing.T, xvfb, bin, dir, closeTitle string, args []string) (windows, out string) {
	t.Helper()
	for try := 1; ; try++ {
		w, o, res, err := runOnce(xvfb, bin, dir, closeTitle, args)
		// The virtual X server refusing the program's first connection is
		// the test machine's fault, not the program's: seen once with other
		// packages' X servers starting at the same moment. Once more, on a
		// server number of its own.
		if err != nil && try == 1 && strings.Contains(o, "Failed to open display") {
			t.Logf("the X server refused the program (%v); running it once more", err)
			continue
		}
		if err != nil {
			t.Fatalf("%v: %s\nprogram output:\n%s", err, res, o)
		}
		if strings.Contains(o, "panic:") || strings.Contains(o, "goroutine ") {
			t.Fatalf("the program crashed:\n%s", o)
		}
		return w, o
	}
}

// runOnce runs the program under its own xvfb-run once. The server number
// search starts at a random place (-n before -a: xvfb-run searches as it
// reads -a), so two tests starting X servers at once rarely try the same.
func runOnce(xvfb, bin, dir, closeTitle string, args []string) (windows, out string, res []byte, err error) {
	os.Remove(filepath.Join(dir, "windows.txt"))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	num := strconv.Itoa(200 + rand.IntN(700))
	cmd := exec.CommandContext(ctx, xvfb, append([]string{"-n", num, "-a", "sh", "-c", shell, bin}, args...)...)
	// A private home: preferences and the default database stay in dir.
	closer, err := filepath.Abs(filepath.Join("testdata", "closewindow.py"))
	if err != nil {
		return "", "", nil, err
	}
	cmd.Env = append(os.Environ(), "JH_DIR="+dir, "JH_CLOSE="+closeTitle, "JH_PY="+python3(), "JH_CLOSER="+closer, "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"), "LANG=en_US.UTF-8")
	res, err = cmd.CombinedOutput()
	w, _ := os.ReadFile(filepath.Join(dir, "windows.txt"))
	o, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	return string(w), string(o), res, err
}
