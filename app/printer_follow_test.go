package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
	out := filepath.Join(t.TempDir(), "printer.bin")
	if err := st.SetSetting(context.Background(), "printer", "file:"+out); err != nil {
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
	b, err := os.ReadFile(out)
	if err != nil || len(b) == 0 || b[0] != 0x1B {
		t.Fatalf("printer received %d bytes (%v)", len(b), err)
	}
}

// A kiosk with a printer of its own (setup or --printer) prints there, not
// on the branch's printer: two kiosks of one branch each have their own.
func TestKioskOwnPrinterWinsOverBranchSetting(t *testing.T) {
	dir := t.TempDir()
	own, branch := filepath.Join(dir, "own.bin"), filepath.Join(dir, "branch.bin")
	dsn := daotest.SQLiteDSN(t)
	ctx := context.Background()
	be, err := connect(ctx, screens.Config{Role: "kiosk", Mode: screens.ModeDB, DSN: dsn, Printer: "file:" + own}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	if err := be.st.SetSetting(ctx, "printer", "file:"+branch); err != nil {
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
	if _, err := os.Stat(branch); !os.IsNotExist(err) {
		t.Fatalf("the branch's printer was used too (%v)", err)
	}
}
