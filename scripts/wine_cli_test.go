package scripts

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWineCommandLine: the tools of a branch PC on the embedded database,
// with Windows paths, each checked by what it wrote.
func TestWineCommandLine(t *testing.T) {
	w := needWine(t)
	needTools(t, "pdftotext")
	app := fyneApp(t)
	if got, want := strings.TrimSpace(w.jiaohao(t, "--version")), "jiaohao "+strings.Join(strings.Split(app.version, ".")[:3], "."); got != want {
		t.Errorf("--version printed %q, want %q", got, want)
	}
	dir, win := w.folder(t, "cli")
	db := `sqlite:` + win + `\branch.db`

	if out := w.jiaohao(t, "migrate", "--db", db); !strings.Contains(out, win+`\branch.db (sqlite) is up to date`) {
		t.Errorf("migrate printed %q", out)
	}
	if fi, err := os.Stat(filepath.Join(dir, "branch.db")); err != nil || fi.Size() == 0 {
		t.Fatalf("migrate made no database at %s: %v", win, err)
	}

	token := strings.TrimSpace(w.jiaohao(t, "token", "add", "--db", db, "--role", "caller", "--window", "3"))
	if !regexp.MustCompile(`^jh_[A-Za-z0-9_-]{20,}$`).MatchString(token) {
		t.Errorf("token add printed %q, want the token alone on its line", token)
	}
	if list := w.jiaohao(t, "token", "list", "--db", db); !strings.Contains(list, "caller-3") || strings.Contains(list, token) {
		t.Errorf("token list shows %q (the token itself must never be listed)", list)
	}

	var bench struct {
		Engine              string
		Calls               int64
		Duplicates, Skipped int64
	}
	out := w.jiaohao(t, "bench", "--db", db, "--windows", "8", "--tickets", "400")
	if err := json.Unmarshal([]byte(out), &bench); err != nil {
		t.Fatalf("bench printed %q: %v", out, err)
	}
	if bench.Engine != "sqlite" || bench.Calls != 400 || bench.Duplicates != 0 || bench.Skipped != 0 {
		t.Errorf("bench under wine: %+v, want 400 calls, no duplicate, none skipped", bench)
	}

	if out := w.jiaohao(t, "seed-day", "--db", db, "--date", "2026-03-02", "--tickets", "40"); !strings.Contains(out, "40 个号码") {
		t.Errorf("seed-day printed %q", out)
	}
	w.jiaohao(t, "report", "--db", db, "--date", "2026-03-02", "--out", win+`\day.pdf`, "--csv", win+`\day.csv`)
	text, err := exec.Command("pdftotext", "-layout", filepath.Join(dir, "day.pdf"), "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	for _, want := range []string{"网点业务统计报表", "2026-03-02", "取号已完成过号弃号等待中已叫号办理中40"} {
		if !strings.Contains(strings.Join(strings.Fields(string(text)), ""), want) {
			t.Errorf("the report's text lacks %q:\n%s", want, text)
		}
	}
	if csv, _ := os.ReadFile(filepath.Join(dir, "day.csv")); !strings.Contains(string(csv), "\ntotals,40,") {
		t.Errorf("the CSV does not count 40 tickets:\n%s", csv)
	}
}

// TestWineConsole: started from a Command Prompt, a command prints there;
// started as a desktop program, it opens no console window.
func TestWineConsole(t *testing.T) {
	w := needWine(t)
	needTools(t, "script")
	nohandles := filepath.Join(w.drive, "jiaohao", "nohandles.exe")
	gcc := exec.Command("x86_64-w64-mingw32-gcc", "-municode", "-O2", "-o", nohandles, filepath.Join("testdata", "wine", "nohandles.c"))
	if out, err := gcc.CombinedOutput(); err != nil {
		t.Fatalf("building nohandles.exe: %v\n%s", err, out)
	}
	// script(1) gives wine a terminal, so cmd.exe has a real console; the
	// program gets no standard handles, as from a Windows Command Prompt,
	// and must find that console itself (app/console_windows.go).
	line := `wine 'C:\jiaohao\nohandles.exe' '` + w.exe + `' version`
	out, errOut, err := w.try(t, "script", "-qec", line, "/dev/null")
	if err != nil || !strings.Contains(out, "jiaohao ") {
		t.Errorf("`jiaohao version` typed in a console printed %q there (%v, %s)", out, err, errOut)
	}
	// A pipe or a file is kept as it is: what a script captures.
	if out := w.jiaohao(t, "version"); !strings.HasPrefix(out, "jiaohao ") {
		t.Errorf("stdout to a pipe: %q", out)
	}

	// The packaged program is a GUI program: started the way a shortcut
	// starts it, it opens its window and no console.
	_, win := w.folder(t, "console")
	w.launch(t, w.exe, "--role", "screen", "--db", `sqlite:`+win+`\hall.db`, "--lang", "en", "--windowed")
	id := w.waitWindow(t, "Jiaohao · Hall screen", 90*time.Second, nil)
	if tree := w.xwindows(t); strings.Contains(tree, `"conhost.exe"`) {
		t.Errorf("a console window opened with the hall screen:\n%s", tree)
	}
	w.closeWindow(t, "Jiaohao · Hall screen")
	waitGone(t, w, id)

	// The same start of a console-subsystem build does open one, so the
	// check above can see a console window.
	console := filepath.Join(w.drive, "jiaohao", "console.exe")
	if err := copyFile(buildFile(t, "jiaohao.exe"), console); err != nil {
		t.Fatal(err)
	}
	w.launch(t, `C:\jiaohao\console.exe`, "serve", "--db", `sqlite:`+win+`\serve.db`, "--listen", freeAddr(t))
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(w.xwindows(t), `"conhost.exe"`) {
		if time.Now().After(deadline) {
			t.Fatalf("the console build opened no console window either; the check above proves nothing:\n%s", w.xwindows(t))
		}
		time.Sleep(300 * time.Millisecond)
	}
	w.try(t, "taskkill", "/f", "/im", "console.exe")
	for deadline := time.Now().Add(30 * time.Second); strings.Contains(w.xwindows(t), `"conhost.exe"`) && time.Now().Before(deadline); {
		time.Sleep(300 * time.Millisecond)
	}
}

// waitGone waits for an X window to go away.
func waitGone(t *testing.T, w *wine, id string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for strings.Contains(w.xwindows(t), xid(id)+" ") {
		if time.Now().After(deadline) {
			t.Fatalf("window %s still open 30 s after it was closed", id)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// comPort is a serial device for the Windows program: wine maps COMn to
// whatever $WINEPREFIX/dosdevices/comn points at, here one end of a socat
// pty pair; the test reads (and answers on) the other end.
type comPort struct {
	mu   sync.Mutex
	got  bytes.Buffer
	seen chan struct{}
}

// serialPort connects the prefix's COMn to a pty pair. answer, if not nil,
// is given everything received so far after each read and returns bytes
// to send back.
func (w *wine) serialPort(t *testing.T, n string, answer func(got []byte) []byte) *comPort {
	t.Helper()
	dev, reader := filepath.Join(w.root, n+"-device"), filepath.Join(w.root, n+"-reader")
	socat := exec.Command("socat", "pty,raw,echo=0,link="+dev, "pty,raw,echo=0,link="+reader)
	if err := socat.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { socat.Process.Kill(); socat.Wait() })
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(reader); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	link := filepath.Join(w.prefix, "dosdevices", strings.ToLower(n))
	os.Remove(link)
	if err := os.Symlink(dev, link); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(link) })
	f, err := os.OpenFile(reader, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	c := &comPort{seen: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			k, err := f.Read(buf)
			if err != nil {
				return
			}
			c.mu.Lock()
			c.got.Write(buf[:k])
			all := append([]byte(nil), c.got.Bytes()...)
			c.mu.Unlock()
			if answer != nil {
				if reply := answer(all); len(reply) > 0 {
					f.Write(reply)
				}
			}
			select {
			case c.seen <- struct{}{}:
			default:
			}
		}
	}()
	return c
}

// waitFor waits until what the port received satisfies ok.
func (c *comPort) waitFor(t *testing.T, what string, ok func([]byte) bool) []byte {
	t.Helper()
	timeout := time.After(60 * time.Second)
	for {
		c.mu.Lock()
		got := append([]byte(nil), c.got.Bytes()...)
		c.mu.Unlock()
		if ok(got) {
			return got
		}
		select {
		case <-c.seen:
		case <-timeout:
			t.Fatalf("%s never reached the serial port; it received % X", what, got)
		}
	}
}

// TestWineSerialPrinter: `print-test` on an ESC/POS printer at COM6 goes
// through go.bug.st/serial's Windows code: the paper query is sent and
// its answer read back, an empty roll is refused, and a full one gets the
// ticket.
func TestWineSerialPrinter(t *testing.T) {
	w := needWine(t)
	query := []byte{0x10, 0x04, 0x04}
	// Wine 8 never times out a COM read that go.bug.st/serial sets up
	// (ReadIntervalTimeout and ReadTotalTimeoutMultiplier MAXDWORD), so this
	// printer always answers; a silent printer is tested on Linux.
	status := []byte{0x72, 0x12} // paper end, then paper present
	port := w.serialPort(t, "COM6", func(got []byte) []byte {
		if n := bytes.Count(got, query); bytes.HasSuffix(got, query) && n <= len(status) {
			return status[n-1 : n]
		}
		return nil
	})
	out, errOut, err := w.try(t, "wine", w.exe, "print-test", "--printer", "escpos+serial://COM6", "--number", "B042")
	if err == nil || !strings.Contains(errOut, "out of paper") {
		t.Errorf("a printer out of paper: exit %v, stdout %q, stderr %q; want the out-of-paper sentence", err, out, errOut)
	}
	if out := w.jiaohao(t, "print-test", "--printer", "escpos+serial://COM6", "--number", "B042"); !strings.Contains(out, "COM6") {
		t.Errorf("print-test printed %q", out)
	}
	got := port.waitFor(t, "the ticket's cut", func(b []byte) bool { return bytes.HasSuffix(b, []byte{0x1D, 0x56, 0x01}) })
	ticket := got[bytes.LastIndex(got, query)+len(query):]
	if !bytes.HasPrefix(ticket, []byte{0x1B, 0x40}) || !bytes.Contains(ticket, []byte("B042")) {
		t.Errorf("COM6 received no sample ticket B042 after the paper query: % X", got)
	}
}
