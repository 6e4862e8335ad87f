package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// kioskPrintHost serves a fresh branch to the PCs of a test on a
// loopback port; add registers a terminal and returns its token.
func kioskPrintHost(t *testing.T) (url string, add func(name string, role model.Role) string, st model.Store) {
	t.Helper()
	gs := daotest.SQLite(t)
	srv := peer.NewServer(gs, gs, peer.Options{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-done })
	return "http://" + ln.Addr().String(), func(name string, role model.Role) string {
		tok, hash, err := peer.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gs.AddTerminal(context.Background(), model.Terminal{Name: name, Role: role, TokenHash: hash}); err != nil {
			t.Fatal(err)
		}
		return tok
	}, gs
}

// kioskTerminal is the terminal id of the one kiosk named name.
func kioskTerminal(t *testing.T, st model.Store, name string) int64 {
	t.Helper()
	ts, err := st.(interface {
		Terminals(context.Context) ([]model.Terminal, error)
	}).Terminals(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range ts {
		if term.Role == model.RoleKiosk && term.Name == name {
			return term.ID
		}
	}
	t.Fatalf("no kiosk %s", name)
	return 0
}

// handheldTake signs in to the staff page with token and takes a number
// of service A to be printed at the kiosk of terminal id kiosk, as the
// page does.
func handheldTake(t *testing.T, url, token string, kiosk int64) model.Ticket {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	post := func(path, csrf, body string) []byte {
		req, _ := http.NewRequest("POST", url+path, strings.NewReader(body))
		req.Header.Set("Origin", url)
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		if resp.StatusCode/100 != 2 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b.String())
		}
		return b.Bytes()
	}
	var me struct{ CSRF string }
	if err := json.Unmarshal(post("/staff/api/session", "", `{"token":"`+token+`"}`), &me); err != nil || me.CSRF == "" {
		t.Fatalf("sign in: %v", err)
	}
	var tk model.Ticket
	if err := json.Unmarshal(post("/staff/api/tickets", me.CSRF, fmt.Sprintf(`{"service":"A","kiosk":%d}`, kiosk)), &tk); err != nil || tk.PrintKiosk != kiosk {
		t.Fatalf("take for %d: %+v %v", kiosk, tk, err)
	}
	return tk
}

// kioskPC starts a kiosk PC the way the program does (connect through the
// host with its token, its own printer on the network); stop closes it.
func kioskPC(t *testing.T, url, token, printer string) (stop func()) {
	t.Helper()
	be, err := connect(context.Background(), Config{Role: model.RoleKiosk, Mode: screens.ModePeer, Peer: url, Token: token,
		Printer: "escpos+tcp://" + printer + "?status=off"}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			be.close()
		}
	}
	t.Cleanup(stop)
	return stop
}

// slips counts the tickets in what a printer received that carry number:
// each ticket ends with the cutter command.
func slips(b []byte, number string) int {
	n := 0
	for _, slip := range bytes.Split(b, []byte{0x1D, 0x56, 0x01}) {
		if bytes.Contains(slip, []byte(number)) {
			n++
		}
	}
	return n
}

// waitPrinted waits until the printer's bytes hold a ticket of number.
func waitPrinted(t *testing.T, received func() []byte, number string) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); slips(received(), number) == 0; {
		if time.Now().After(end) {
			t.Fatalf("ticket %s never printed", number)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A number the handheld takes for kiosk K is printed by K's printer, once:
// the other kiosk never prints it, and K started again neither prints it
// again nor misses the one taken for it while it was off. The counts are
// taken after a last number went through K, so a late duplicate of any
// earlier one would be on the paper by then.
func TestHandheldNumberPrintedAtKioskOnce(t *testing.T) {
	url, add, st := kioskPrintHost(t)
	k1Tok, k2Tok, handTok := add("K1", model.RoleKiosk), add("K2", model.RoleKiosk), add("floor", model.RoleHandheld)
	k1, k2 := kioskTerminal(t, st, "K1"), kioskTerminal(t, st, "K2")
	k1Addr, k1Got := tcpPrinter(t)
	k2Addr, k2Got := tcpPrinter(t)
	stopK1 := kioskPC(t, url, k1Tok, k1Addr)
	kioskPC(t, url, k2Tok, k2Addr)

	first := handheldTake(t, url, handTok, k1)
	waitPrinted(t, k1Got, first.Number)
	// K2 follows the same events in order: once it printed a later number
	// of its own, it has seen (and left alone) the first.
	own := handheldTake(t, url, handTok, k2)
	waitPrinted(t, k2Got, own.Number)
	if n := slips(k2Got(), first.Number); n != 0 {
		t.Fatalf("kiosk K2 printed K1's %s %d times", first.Number, n)
	}

	stopK1()
	away := handheldTake(t, url, handTok, k1) // K1 is off: the request waits
	kioskPC(t, url, k1Tok, k1Addr)
	waitPrinted(t, k1Got, away.Number)
	// The restarted K1 read its requests before printing away's; then a
	// number taken now shows it follows the events as well.
	after := handheldTake(t, url, handTok, k1)
	waitPrinted(t, k1Got, after.Number)
	last := handheldTake(t, url, handTok, k1) // K1 handles events in order
	waitPrinted(t, k1Got, last.Number)
	got := k1Got()
	for _, n := range []string{first.Number, away.Number, after.Number, last.Number} {
		if c := slips(got, n); c != 1 {
			t.Fatalf("K1's printer has %d tickets %s, want exactly one", c, n)
		}
	}
	if n := slips(k2Got(), away.Number) + slips(k2Got(), after.Number); n != 0 {
		t.Fatalf("kiosk K2 printed K1's numbers (%d tickets)", n)
	}
}

// A kiosk whose printer is out still claims the number (the claim is the
// queue's state, the print a side effect after it), reports the fault as
// any printer fault, and prints the ticket once when the printer is back:
// still once after a further number went through the same printer.
func TestKioskPrintFaultKeepsTicket(t *testing.T) {
	url, add, st := kioskPrintHost(t)
	k1Tok, handTok := add("K1", model.RoleKiosk), add("floor", model.RoleHandheld)
	k1 := kioskTerminal(t, st, "K1")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // the printer is off
	kioskPC(t, url, k1Tok, addr)
	tk := handheldTake(t, url, handTok, k1)
	ctx := context.Background()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got, err := st.Ticket(ctx, tk.ID)
		if err == nil && got.PrintedAt != nil {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%s never claimed (%v)", tk.Number, err)
		}
	}
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		snap, err := st.Snapshot(ctx)
		if err == nil && slices.ContainsFunc(snap.Faults, func(d model.Device) bool { return d.Terminal == "K1" && d.Kind == "printer" && d.Fault != "" }) {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the printer's fault was never reported: %+v %v", snap.Faults, err)
		}
	}
	got, err := st.Ticket(ctx, tk.ID)
	if err != nil || got.Status != model.Waiting {
		t.Fatalf("%s after the printer fault: %+v %v, want it waiting", tk.Number, got, err)
	}
	ln, err = net.Listen("tcp", addr) // the printer is back
	if err != nil {
		t.Fatal(err)
	}
	received := capture(t, ln)
	waitPrinted(t, received, tk.Number)
	next := handheldTake(t, url, handTok, k1) // the queue is in order: after it, nothing earlier is still to come
	waitPrinted(t, received, next.Number)
	if n := slips(received(), tk.Number); n != 1 {
		t.Fatalf("%d tickets %s printed, want one", n, tk.Number)
	}
}
