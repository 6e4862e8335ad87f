package app

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
	"jiaohao/printing"
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
	go followPrinter(ctx, st, q, true, "file:"+out, t.Logf) // settings now readable
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
