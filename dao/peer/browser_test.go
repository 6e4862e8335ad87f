package peer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

const chromiumPath = "/usr/bin/chromium"

// needChromium skips (or, in CI with JIAOHAO_TEST_REQUIRE_BROWSER=1, fails)
// when Debian's chromium is not installed.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err == nil {
		return
	}
	if os.Getenv("JIAOHAO_TEST_REQUIRE_BROWSER") == "1" {
		t.Fatalf("%s is missing and JIAOHAO_TEST_REQUIRE_BROWSER=1 (apt-get install chromium)", chromiumPath)
	}
	t.Skipf("%s not installed (Debian package chromium); set JIAOHAO_TEST_REQUIRE_BROWSER=1 to make this a failure", chromiumPath)
}

// devtools drives one page of a headless chromium over its DevTools
// protocol.
type devtools struct {
	conn *websocket.Conn
	next int
}

// startChromium launches a headless browser and attaches to its page.
func startChromium(t *testing.T, ctx context.Context) *devtools {
	t.Helper()
	// Not t.TempDir: chromium's helper processes can still be writing the
	// profile for a moment after the browser is gone, and that must not fail
	// the test.
	profile, err := os.MkdirTemp("", "jiaohao-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(chromiumPath, "--headless", "--no-sandbox", "--disable-gpu",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--no-first-run", "--user-data-dir="+profile, "--remote-debugging-port=0", "about:blank")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		for i := 0; i < 50 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	var port string
	for port == "" {
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil {
			port, _, _ = strings.Cut(string(b), "\n")
		}
		if ctx.Err() != nil {
			t.Fatal("chromium did not open its DevTools port")
		}
		time.Sleep(50 * time.Millisecond) // waiting for the browser, not asserting
	}
	var targets []struct{ Type, WebSocketDebuggerURL string }
	for len(targets) == 0 {
		resp, err := http.Get("http://127.0.0.1:" + port + "/json/list")
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&targets)
			resp.Body.Close()
		}
		if ctx.Err() != nil {
			t.Fatal("chromium lists no page")
		}
	}
	for _, tg := range targets {
		if tg.Type == "page" {
			conn, _, err := websocket.Dial(ctx, tg.WebSocketDebuggerURL, nil)
			if err != nil {
				t.Fatal(err)
			}
			conn.SetReadLimit(16 << 20)
			t.Cleanup(func() { conn.CloseNow() })
			return &devtools{conn: conn}
		}
	}
	t.Fatal("no page target")
	return nil
}

// do sends one DevTools command and returns its result.
func (d *devtools) do(ctx context.Context, method string, params any) (json.RawMessage, error) {
	d.next++
	id := d.next
	b, _ := json.Marshal(map[string]any{"id": id, "method": method, "params": params})
	if err := d.conn.Write(ctx, websocket.MessageText, b); err != nil {
		return nil, err
	}
	for {
		_, data, err := d.conn.Read(ctx)
		if err != nil {
			return nil, err
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct{ Message string }
		}
		if json.Unmarshal(data, &m) != nil || m.ID != id {
			continue // an event, or another answer
		}
		if m.Error != nil {
			return nil, fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		return m.Result, nil
	}
}

// eval runs a JavaScript expression in the page and returns its string
// value.
func (d *devtools) eval(ctx context.Context, expr string) (string, error) {
	res, err := d.do(ctx, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true})
	if err != nil {
		return "", err
	}
	var r struct{ Result struct{ Value any } }
	json.Unmarshal(res, &r)
	return fmt.Sprint(r.Result.Value), nil
}

// waitFor polls expr until it returns want (the page updates on its own
// time; the deadline is only a hang guard).
func (d *devtools) waitFor(t *testing.T, ctx context.Context, expr, want string) {
	t.Helper()
	var got string
	for ctx.Err() == nil {
		got, _ = d.eval(ctx, expr)
		if got == want {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("page shows %q, want %q", got, want)
}

// The customer page in a real browser: the ticket goes from waiting to
// called on the page without it reloading.
func TestCustomerPageLiveInBrowser(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	d := startChromium(t, ctx)
	if _, err := d.do(ctx, "Network.enable", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "zh-CN,zh;q=0.9"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.navigate", map[string]any{"url": e.ts.URL + "/t/" + tk.PublicID}); err != nil {
		t.Fatal(err)
	}
	status := `(() => { const s = document.getElementById("status"); return s ? s.dataset.status + "|" + s.textContent : "" })()`
	d.waitFor(t, ctx, status, "waiting|等待中")
	d.waitFor(t, ctx, `document.getElementById("number").textContent`, tk.Number)
	// A marker that a reload would wipe out.
	if _, err := d.eval(ctx, `window.jiaohaoSamePage = "yes"`); err != nil {
		t.Fatal(err)
	}
	called, err := e.store.CallNext(ctx, 2, "")
	if err != nil || called.ID != tk.ID {
		t.Fatalf("call: %v %+v", err, called)
	}
	d.waitFor(t, ctx, status, "called|请到 2 号窗口")
	if got, _ := d.eval(ctx, `window.jiaohaoSamePage`); got != "yes" {
		t.Fatalf("the page reloaded (marker %q)", got)
	}
}

// Past the live-page cap the browser's socket is refused, and the page
// keeps itself current by polling its view instead, still without a
// reload.
func TestCustomerPagePollsPastTheCap(t *testing.T) {
	needChromium(t)
	e := newEnv(t, Options{LivePerTicket: 1, LivePollEvery: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	tk, err := e.store.TakeTicket(ctx, "A", 0, "test")
	if err != nil {
		t.Fatal(err)
	}
	holder, _, err := dialLive(ctx, e, tk.PublicID, "") // takes the ticket's one live place
	if err != nil {
		t.Fatal(err)
	}
	defer holder.CloseNow()
	d := startChromium(t, ctx)
	if _, err := d.do(ctx, "Network.enable", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Network.setExtraHTTPHeaders", map[string]any{"headers": map[string]string{"Accept-Language": "en"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, "Page.navigate", map[string]any{"url": e.ts.URL + "/t/" + tk.PublicID}); err != nil {
		t.Fatal(err)
	}
	status := `(() => { const s = document.getElementById("status"); return s ? s.dataset.status + "|" + s.textContent : "" })()`
	d.waitFor(t, ctx, status, "waiting|Waiting")
	if _, err := d.eval(ctx, `window.jiaohaoSamePage = "yes"`); err != nil {
		t.Fatal(err)
	}
	if _, err := e.store.CallNext(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	d.waitFor(t, ctx, status, "called|Please go to window 3")
	if got, _ := d.eval(ctx, `window.jiaohaoSamePage`); got != "yes" {
		t.Fatalf("the page reloaded (marker %q)", got)
	}
	if got, _ := d.eval(ctx, `document.getElementById("offline").textContent`); got != "" {
		t.Fatalf("a polling page says it is offline: %q", got)
	}
	e.srv.live.mu.Lock()
	n := len(e.srv.live.byPID[tk.PublicID].pages)
	e.srv.live.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d live pages on the ticket: the browser got a socket past the cap", n)
	}
}
