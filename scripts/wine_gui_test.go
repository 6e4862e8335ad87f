package scripts

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/model"
)

// TestWineDemo: the Windows desktop program opens the demo's five windows,
// draws the hall screen, and ends with status 0 when its windows are
// closed from their title bars.
func TestWineDemo(t *testing.T) {
	w := needWine(t)
	p := w.start(t, "wine", w.exe, "demo", "--lang", "en")
	titles := []string{"Jiaohao · Hall screen", "Jiaohao · Kiosk", "Jiaohao · Window 1", "Jiaohao · Window 2", "Jiaohao · Manager"}
	ids := map[string]string{}
	for _, title := range titles {
		ids[title] = w.waitWindow(t, title, 2*time.Minute, p)
	}
	p.waitOutput(t, "demo branch served on http://127.0.0.1:", 30*time.Second)
	// The demo's morning is on the hall screen once its first snapshot has
	// come through the demo's server: a picture, not a blank.
	var colours int
	var share, black float64
	for deadline := time.Now().Add(45 * time.Second); ; {
		colours, share, black = inked(w.screenshot(t, ids[titles[0]]))
		if colours >= 50 && share >= 0.05 && black <= 0.05 || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("hall screen: %d colours, %.1f%% of pixels off the background, %.1f%% black", colours, 100*share, 100*black)
	if colours < 50 || share < 0.05 || black > 0.05 {
		t.Errorf("the hall screen is not drawn: %d colours, %.1f%% of pixels off the background, %.1f%% black", colours, 100*share, 100*black)
	}
	for _, title := range titles {
		w.closeWindow(t, title)
	}
	if err := p.wait(t, time.Minute); err != nil {
		t.Errorf("the demo ended with %v after its windows were closed:\n%s", err, p.output())
	}
}

// linuxHost is a branch hosted by the Linux build (`jiaohao serve`).
type linuxHost struct {
	bin, db, base string
	srv           *proc
}

func startLinuxHost(t *testing.T, w *wine) *linuxHost {
	t.Helper()
	h := &linuxHost{bin: buildFile(t, "jiaohao"), db: "sqlite:" + filepath.Join(t.TempDir(), "host.db")}
	addr := freeAddr(t)
	h.base = "http://" + addr
	h.token(t, "manager") // migrates the new database before it is served
	h.srv = w.start(t, h.bin, "serve", "--db", h.db, "--listen", addr, "--take-limit", "0")
	h.srv.waitOutput(t, "serving the branch on "+h.base, time.Minute)
	return h
}

func (h *linuxHost) token(t *testing.T, role string, extra ...string) string {
	t.Helper()
	out, err := execOutput(h.bin, append([]string{"token", "add", "--db", h.db, "--role", role}, extra...)...)
	if err != nil {
		t.Fatalf("token add on the Linux host: %v", err)
	}
	return strings.TrimSpace(out)
}

// dial is the Go peer client with a token: what every terminal uses.
func dial(t *testing.T, base, token string) *peer.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := peer.Dial(ctx, base, token)
	if err != nil {
		t.Fatalf("peer.Dial %s: %v", base, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitTicket polls a ticket until ok says yes; nudge, if not nil, runs
// every 5 s meanwhile (a key press the window may have missed).
func waitTicket(t *testing.T, c *peer.Client, id int64, what string, ok func(model.Ticket) bool, nudge func()) model.Ticket {
	t.Helper()
	deadline, next := time.Now().Add(45*time.Second), time.Now().Add(5*time.Second)
	for {
		tk, err := c.Ticket(context.Background(), id)
		if err == nil && ok(tk) {
			return tk
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: ticket %d is %+v (%v)", what, id, tk, err)
		}
		if nudge != nil && time.Now().After(next) {
			nudge()
			next = time.Now().Add(5 * time.Second)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// TestWineCallerOnLinuxHost: the Windows caller connects to a branch the
// Linux build hosts, calls with F1, and shows the call on an LED bar at
// COM5; closing its window ends it with status 0.
func TestWineCallerOnLinuxHost(t *testing.T) {
	w := needWine(t)
	h := startLinuxHost(t, w)
	manager := dial(t, h.base, h.token(t, "manager"))
	if err := manager.SetSetting(context.Background(), "led_format", "encoding=utf-8&prefix=02&suffix=03"); err != nil {
		t.Fatal(err)
	}
	bar := w.serialPort(t, "COM5", nil)
	caller := w.start(t, "wine", w.exe, "--role", "caller", "--window", "2", "--peer", h.base,
		"--token", h.token(t, "caller", "--window", "2"), "--lang", "en", "--led", "led+serial://COM5")
	id := w.waitWindow(t, "Jiaohao · Window 2", 2*time.Minute, caller)
	kiosk := dial(t, h.base, h.token(t, "kiosk"))
	tk, err := kiosk.TakeTicket(context.Background(), "A", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	w.key(t, id, "F1")
	waitTicket(t, kiosk, tk.ID, "F1 in the Windows caller", func(got model.Ticket) bool {
		return got.Status == model.Called && got.Window == 2
	}, func() { w.key(t, id, "F1") })
	frame := bar.waitFor(t, "the call on the LED bar", func(b []byte) bool {
		return strings.Contains(string(b), tk.Number) && strings.Contains(string(b), "2 号窗口")
	})
	if !strings.HasPrefix(string(frame), "\x02") {
		t.Errorf("the LED bar's frames lack the branch's prefix: %q", frame)
	}
	w.closeWindow(t, "Jiaohao · Window 2")
	if err := caller.wait(t, time.Minute); err != nil {
		t.Errorf("the caller ended with %v after its window was closed:\n%s", err, caller.output())
	}
}

// TestWineHostsLinuxClients: `jiaohao.exe serve` on the embedded database
// hosts the Linux build's kiosk and caller, and Go peer clients taking and
// calling at once: every number once, every ticket called once.
func TestWineHostsLinuxClients(t *testing.T) {
	w := needWine(t)
	linux := buildFile(t, "jiaohao")
	_, win := w.folder(t, "host")
	db := `sqlite:` + win + `\host.db`
	token := func(role string, extra ...string) string {
		return strings.TrimSpace(w.jiaohao(t, append([]string{"token", "add", "--db", db, "--role", role}, extra...)...))
	}
	managerTok, kioskTok, kioskGUITok := token("manager"), token("kiosk"), token("kiosk", "--name", "linux kiosk")
	callerTok := map[int]string{1: token("caller", "--window", "1"), 2: token("caller", "--window", "2"), 3: token("caller", "--window", "3")}
	addr := freeAddr(t)
	srv := w.start(t, "wine", w.exe, "serve", "--db", db, "--listen", addr, "--take-limit", "0")
	base := "http://" + addr
	srv.waitOutput(t, "serving the branch on "+base+" (sqlite database)", 2*time.Minute)
	ctx := context.Background()
	manager, kiosk := dial(t, base, managerTok), dial(t, base, kioskTok)

	// One service, so the kiosk's one tile fills the left of its grid.
	services, err := manager.Services(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range services {
		if s.Code != "A" {
			s.Enabled = false
			if _, err := manager.SaveService(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
	}
	home := t.TempDir()
	gui := func(args ...string) *proc {
		return w.start(t, "env", append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"),
			"XDG_DATA_HOME=" + filepath.Join(home, "data"), linux}, args...)...)
	}
	kioskGUI := gui("--role", "kiosk", "--peer", base, "--token", kioskGUITok, "--lang", "en", "--windowed")
	kid := w.waitWindow(t, "Jiaohao · Kiosk", time.Minute, kioskGUI)
	// The tiles come with the first snapshot: tap again while no number
	// has come of it.
	var taken model.Ticket
	for deadline, tap := time.Now().Add(45*time.Second), time.Now().Add(3*time.Second); taken.ID == 0; time.Sleep(500 * time.Millisecond) {
		if time.Now().After(tap) {
			w.click(t, kid, 0.25, 0.5)
			tap = time.Now().Add(5 * time.Second)
		}
		events, _ := manager.EventsSince(ctx, 0, 1000)
		for _, e := range events {
			if e.Kind == model.EvTake && e.Actor == "linux kiosk" && e.Ticket != nil && taken.ID == 0 {
				taken = *e.Ticket
			}
		}
		if taken.ID == 0 && time.Now().After(deadline) {
			t.Fatalf("a tap on the Linux kiosk's tile took no number through the Windows host:\n%s", kioskGUI.output())
		}
	}
	callerGUI := gui("--role", "caller", "--window", "2", "--peer", base, "--token", callerTok[2], "--lang", "en")
	cid := w.waitWindow(t, "Jiaohao · Window 2", time.Minute, callerGUI)
	time.Sleep(2 * time.Second)
	w.key(t, cid, "F1")
	waitTicket(t, kiosk, taken.ID, "F1 in the Linux caller", func(got model.Ticket) bool {
		return got.Status == model.Called && got.Window == 2
	}, func() { w.key(t, cid, "F1") })
	for title, p := range map[string]*proc{"Jiaohao · Kiosk": kioskGUI, "Jiaohao · Window 2": callerGUI} {
		w.closeWindow(t, title)
		if err := p.wait(t, time.Minute); err != nil {
			t.Errorf("%s ended with %v:\n%s", title, err, p.output())
		}
	}

	// Four kiosks and two windows at once through the Windows host; a
	// second tap on the kiosk may have left a number waiting too.
	snap, err := manager.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for _, s := range snap.Services {
		left += s.Waiting
	}
	const kiosks, each = 4, 10
	numbers := make(chan string, kiosks*each)
	var wg sync.WaitGroup
	for i := 0; i < kiosks; i++ {
		wg.Go(func() {
			for j := 0; j < each; j++ {
				tk, err := kiosk.TakeTicket(ctx, "A", 0, "")
				if err != nil {
					t.Error(err)
					return
				}
				numbers <- tk.Number
			}
		})
	}
	wg.Wait()
	close(numbers)
	seen := map[string]bool{taken.Number: true}
	for n := range numbers {
		if seen[n] {
			t.Errorf("number %s was given twice", n)
		}
		seen[n] = true
	}
	called := make(chan int64, kiosks*each+1)
	for _, win := range []int{1, 3} {
		c := dial(t, base, callerTok[win])
		wg.Go(func() {
			for {
				tk, err := c.CallNext(ctx, win, "")
				if model.ErrorCode(err) == model.EQueueEmpty {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				called <- tk.ID
			}
		})
	}
	wg.Wait()
	close(called)
	once := map[int64]bool{}
	for id := range called {
		if once[id] || id == taken.ID {
			t.Errorf("ticket %d was called twice", id)
		}
		once[id] = true
	}
	if len(once) != kiosks*each+left {
		t.Errorf("the windows called %d tickets, want %d", len(once), kiosks*each+left)
	}
}

// execOutput runs a Linux program and returns its stdout.
func execOutput(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	return string(out), err
}
