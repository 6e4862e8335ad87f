//go:build linux

package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"jiaohao/app/desk"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens"
	"jiaohao/screens/offscreen"
)

// The compact caller's desktop paths on a real X server (Xvfb): global
// hotkeys grabbed on the display, pressed with xdotool while another X
// client has the focus, and the strip kept above other windows.

// xvfb starts a private X server, makes it this test's $DISPLAY and
// returns its name. Without Xvfb, xdotool and xprop the test skips, or
// fails when JIAOHAO_TEST_REQUIRE_DISPLAY=1 (CI).
func xvfb(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"Xvfb", "xdotool", "xprop"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv(EnvRequireDisplay) == "1" {
				t.Fatalf("%s=1 but the X test cannot run: %v (install xvfb, xdotool and x11-utils)", EnvRequireDisplay, err)
			}
			t.Skipf("skipping the X test: %v (install xvfb, xdotool and x11-utils, or set %s=1 to fail instead)", err, EnvRequireDisplay)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	// -displayfd: the server picks a free display and writes its number.
	srv := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	srv.ExtraFiles = []*os.File{w}
	if err := srv.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		srv.Process.Kill()
		srv.Wait()
	})
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb did not start")
		}
		t.Setenv("DISPLAY", ":"+n)
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not say its display in 30 s")
	}
	return ""
}

// focusedClient is another program's window, given the input focus; it
// counts the key presses it receives.
type focusedClient struct {
	conn    *xgb.Conn
	win     xproto.Window
	presses atomic.Int32
}

func newFocusedClient(t *testing.T) *focusedClient {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	screen := xproto.Setup(conn).DefaultScreen(conn)
	win, err := xproto.NewWindowId(conn)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateWindowChecked(conn, screen.RootDepth, win, screen.Root, 0, 0, 400, 300, 0,
		xproto.WindowClassInputOutput, screen.RootVisual, xproto.CwEventMask,
		[]uint32{xproto.EventMaskKeyPress}).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.MapWindowChecked(conn, win).Check(); err != nil {
		t.Fatal(err)
	}
	if err := xproto.SetInputFocusChecked(conn, xproto.InputFocusParent, win, xproto.TimeCurrentTime).Check(); err != nil {
		t.Fatal(err)
	}
	f := &focusedClient{conn: conn, win: win}
	go func() {
		for {
			ev, err := conn.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if _, ok := ev.(xproto.KeyPressEvent); ok {
				f.presses.Add(1)
			}
		}
	}()
	return f
}

// hasFocus checks the other program still has the focus.
func (f *focusedClient) hasFocus(t *testing.T) {
	t.Helper()
	r, err := xproto.GetInputFocus(f.conn).Reply()
	if err != nil || r.Focus != f.win {
		t.Fatalf("the focus is on %v (%v), not on the other program's window %v", r, err, f.win)
	}
}

func xdotool(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("xdotool %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestHotkeyUnderXvfb(t *testing.T) {
	xvfb(t)
	// Another program holds F9 before the caller starts.
	other, err := desk.OpenHotkeys()
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	var otherGot atomic.Int32
	if err := other.Grab(desk.Key{Name: "F9"}, func() { otherGot.Add(1) }); err != nil {
		t.Fatal(err)
	}

	st, err := sqlstore.Open(context.Background(), daotest.SQLiteDSN(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for range 2 {
		if _, err := st.TakeTicket(context.Background(), "A", 0, "test"); err != nil {
			t.Fatal(err)
		}
	}
	a := offscreen.Serialise(test.NewTempApp(t))
	w := a.NewWindow("caller")
	ctx, cancel := context.WithCancel(context.Background())
	var c *screens.Caller
	offscreen.Do(func() { c = screens.NewCaller(ctx, w, st, 1, nil) })
	defer func() {
		cancel()
		c.Wait()
	}()
	<-c.Loaded()
	var mu sync.Mutex
	var logs []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	offscreen.Do(func() {
		callerDesk(ctx, a.Preferences(), w, c, Config{Role: model.RoleCaller, Window: 1}, desk.OpenHotkeys, logf)
	})
	mu.Lock()
	said := strings.Join(logs, "\n")
	mu.Unlock()
	if want := screens.Text("hotkey.taken", "Key", "F9"); !strings.Contains(said, want) {
		t.Fatalf("the caller did not refuse F9 with %q; it logged:\n%s", want, said)
	}

	focus := newFocusedClient(t)
	focus.hasFocus(t)
	xdotool(t, "key", "F8")
	eventually(t, "A001 called by F8", func() bool { return ticketStatus(t, st, 1).Status == model.Called })
	xdotool(t, "key", "F11")
	eventually(t, "A001 started by F11", func() bool { return ticketStatus(t, st, 1).Status == model.Serving })
	// F9 stays the other program's: it gets the press, the caller recalls
	// nothing.
	xdotool(t, "key", "F9")
	eventually(t, "the other program's F9", func() bool { return otherGot.Load() == 1 })
	focus.hasFocus(t)
	if n := focus.presses.Load(); n != 0 {
		t.Fatalf("the focused window received %d of the grabbed keys", n)
	}
	if tk := ticketStatus(t, st, 1); tk.CallCount != 1 {
		t.Fatalf("A001 was called %d times, want once: F9 is not the caller's", tk.CallCount)
	}
	if tk := ticketStatus(t, st, 2); tk.Status != model.Waiting {
		t.Fatalf("A002 is %s, want waiting", tk.Status)
	}
}

// A window kept above has _NET_WM_STATE_ABOVE, read back by xprop (another
// X client), and loses it when let go.
func TestCompactKeptAboveUnderXvfb(t *testing.T) {
	xvfb(t)
	win := newFocusedClient(t).win
	state := func() string {
		out, err := exec.Command("xprop", "-id", fmt.Sprintf("0x%x", uint32(win)), "_NET_WM_STATE").CombinedOutput()
		if err != nil {
			t.Fatalf("xprop: %v\n%s", err, out)
		}
		return string(out)
	}
	if err := desk.KeepAboveX(uint32(win), true); err != nil {
		t.Fatal(err)
	}
	if s := state(); !strings.Contains(s, "_NET_WM_STATE_ABOVE") {
		t.Fatalf("kept above, the window's state is %q", s)
	}
	if err := desk.KeepAboveX(uint32(win), false); err != nil {
		t.Fatal(err)
	}
	if s := state(); strings.Contains(s, "_NET_WM_STATE_ABOVE") {
		t.Fatalf("let go, the window's state is still %q", s)
	}
}

// A caller that ends lets its keys go before it says so: the next caller
// on this PC (the setup saved, the role restarted) grabs them at once,
// instead of finding them "taken by another program".
func TestHotkeysFreeAfterCloseUnderXvfb(t *testing.T) {
	xvfb(t)
	newFocusedClient(t) // a desktop has other clients: Xvfb resets when its last one leaves
	for round := range 100 {
		hk, err := desk.OpenHotkeys()
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []desk.Key{{Name: "F8"}, {Mods: desk.ModCtrl | desk.ModAlt, Name: "K"}} {
			if err := hk.Grab(k, func() {}); err != nil {
				t.Fatalf("round %d: %s after the last caller closed: %v", round, k, err)
			}
		}
		if err := hk.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// F8 pressed while a mouse button is held (a clerk dragging in the bank's
// system) still calls: the press's state then carries the button, which
// is no modifier of the grab, and the key was swallowed for nothing.
func TestHotkeyWithButtonHeldUnderXvfb(t *testing.T) {
	xvfb(t)
	newFocusedClient(t)
	hk, err := desk.OpenHotkeys()
	if err != nil {
		t.Fatal(err)
	}
	defer hk.Close()
	var f8, f9 atomic.Int32
	for k, n := range map[string]*atomic.Int32{"F8": &f8, "F9": &f9} {
		if err := hk.Grab(desk.Key{Name: k}, func() { n.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	xdotool(t, "mousemove", "100", "100", "mousedown", "1", "key", "F8", "mouseup", "1", "key", "F9")
	eventually(t, "F9, pressed after", func() bool { return f9.Load() == 1 })
	if n := f8.Load(); n != 1 {
		t.Fatalf("F8 with the mouse button held fired %d times, want once", n)
	}
}

// A role restarted (the setup saved) ends its caller and starts the next
// one at once: the new caller gets the keys the old one is letting go.
func TestHotkeysAfterRestartUnderXvfb(t *testing.T) {
	xvfb(t)
	newFocusedClient(t)
	st := daotest.SQLite(t)
	a := offscreen.Serialise(test.NewTempApp(t))
	var mu sync.Mutex
	var logs []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	stop := func() {}
	for range 50 { // the old caller's goroutine loses the race now and then
		ctx, cancel := context.WithCancel(context.Background())
		w := a.NewWindow("caller")
		var c *screens.Caller
		offscreen.Do(func() { c = screens.NewCaller(ctx, w, st, 1, nil) })
		defer c.Wait()
		<-c.Loaded()
		stop() // the caller before ends as this one starts
		offscreen.Do(func() {
			callerDesk(ctx, a.Preferences(), w, c, Config{Role: model.RoleCaller, Window: 1}, desk.OpenHotkeys, logf)
		})
		stop = cancel
	}
	stop()
	mu.Lock()
	defer mu.Unlock()
	if len(logs) > 0 {
		t.Fatalf("a restarted caller said:\n%s", strings.Join(logs, "\n"))
	}
}

// A key held down calls one number, not one per autorepeat (Xvfb repeats
// a held key some 20 times a second), with Caps Lock or Num Lock on too.
func TestHotkeyHeldFiresOnceUnderXvfb(t *testing.T) {
	xvfb(t)
	newFocusedClient(t)
	hk, err := desk.OpenHotkeys()
	if err != nil {
		t.Fatal(err)
	}
	defer hk.Close()
	var f8, f9 atomic.Int32
	for k, n := range map[string]*atomic.Int32{"F8": &f8, "F9": &f9} {
		if err := hk.Grab(desk.Key{Name: k}, func() { n.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}
	for i, lock := range []string{"", "Caps_Lock", "Num_Lock"} {
		if lock != "" {
			xdotool(t, "key", lock)
		}
		xdotool(t, "keydown", "F8", "sleep", "1", "keyup", "F8", "key", "F9")
		eventually(t, "F9, pressed after", func() bool { return f9.Load() == int32(i+1) })
		if n := f8.Load(); n != int32(i+1) {
			t.Fatalf("F8 held for a second (lock %q) fired %d times in all, want %d", lock, n, i+1)
		}
		if lock != "" {
			xdotool(t, "key", lock)
		}
	}
}
