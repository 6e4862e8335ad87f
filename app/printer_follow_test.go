package app

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/screens"
)

// A kiosk that could not read its settings holds the ticket and prints it
// once the printer is known; it never drops the job.
func TestKioskPrinterFollowsSettings(t *testing.T) {
	st := daotest.SQLite(t)
	addr, received := tcpPrinter(t)
	if err := st.SetSetting(context.Background(), "printer", "escpos+tcp://"+addr+"?status=off"); err != nil {
		t.Fatal(err)
	}
	q := printing.NewPrintQueue(printing.QueueConfig{Printer: unknownPrinter{}, Header: printing.StoreHeader(st, nil),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond, Logf: t.Logf})
	defer q.Close()
	tk, err := st.TakeTicket(context.Background(), "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	q.Submit(tk, model.Position{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go followPrinter(ctx, st, q, t.Logf) // settings now readable
	flush, done := context.WithTimeout(context.Background(), 30*time.Second)
	defer done()
	if err := q.Flush(flush); err != nil {
		t.Fatalf("job never printed: %v (fault %q)", err, q.Fault())
	}
	// The printer's side may still be reading when the kiosk's write ends.
	for end := time.Now().Add(10 * time.Second); !bytes.Contains(received(), []byte(tk.Number)) && time.Now().Before(end); {
		time.Sleep(10 * time.Millisecond)
	}
	if b := received(); len(b) == 0 || b[0] != 0x1B || !bytes.Contains(b, []byte(tk.Number)) {
		t.Fatalf("printer received %d bytes, want ticket %s", len(b), tk.Number)
	}
}

// The branch's printer setting names devices only (a file path there would
// let one manager token write files on every kiosk), so tests stand in a
// loopback network printer for it. received returns every byte it got.
func tcpPrinter(t *testing.T) (addr string, received func() []byte) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln.Addr().String(), capture(t, ln)
}

// capture is a network printer on ln, until the test ends.
func capture(t *testing.T, ln net.Listener) (received func() []byte) {
	t.Helper()
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var got bytes.Buffer
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				b, _ := io.ReadAll(c)
				mu.Lock()
				got.Write(b)
				mu.Unlock()
			}()
		}
	}()
	return func() []byte {
		mu.Lock()
		defer mu.Unlock()
		return bytes.Clone(got.Bytes())
	}
}

// A kiosk with a printer of its own (setup or --printer) prints there, not
// on the branch's printer: two kiosks of one branch each have their own.
func TestKioskOwnPrinterWinsOverBranchSetting(t *testing.T) {
	own := filepath.Join(t.TempDir(), "own.bin")
	branch, branchGot := tcpPrinter(t)
	dsn := daotest.SQLiteDSN(t)
	ctx := context.Background()
	be, err := connect(ctx, Config{Role: "kiosk", Mode: screens.ModeDB, DSN: dsn, Printer: "file:" + own}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	if err := be.st.SetSetting(ctx, "printer", "escpos+tcp://"+branch+"?status=off"); err != nil {
		t.Fatal(err)
	}
	tk, err := be.st.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	q, ok := be.printer.(*printing.PrintQueue)
	if !ok {
		t.Fatalf("the kiosk's printer is %T, not a print queue", be.printer)
	}
	q.Submit(tk, model.Position{})
	flush, done := context.WithTimeout(ctx, 30*time.Second)
	defer done()
	if err := q.Flush(flush); err != nil {
		t.Fatalf("job never printed: %v (fault %q)", err, q.Fault())
	}
	if b, err := os.ReadFile(own); err != nil || !bytes.Contains(b, []byte(tk.Number)) {
		t.Fatalf("the kiosk's own printer got %q (%v), want ticket %s", b, err, tk.Number)
	}
	if b := branchGot(); len(b) != 0 {
		t.Fatalf("the branch's printer was used too (%d bytes)", len(b))
	}
}
