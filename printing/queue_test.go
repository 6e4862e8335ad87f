package printing

import (
	"context"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

func fastQueue(p Printer, h HeaderFunc) *PrintQueue {
	return NewPrintQueue(QueueConfig{Printer: p, Header: h, MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond, Logf: quietLog})
}

// The kiosk's number is committed before printing starts; a printer out of
// paper for three attempts shows a fault meanwhile and prints the ticket
// exactly once when it comes back.
func TestPrinterFailsThreeTimesThenRecovers(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := testCtx(t)
	attempts := make(chan int)
	release := make(chan struct{})
	p := &fakePrinter{fail: func(_ context.Context, n int) error {
		attempts <- n
		<-release
		if n <= 3 {
			return errFakePaperOut
		}
		return nil
	}}
	q := fastQueue(p, StoreHeader(st, nil))

	tk, err := st.TakeTicket(ctx, "A", 0, "kiosk")
	if err != nil {
		t.Fatal(err)
	}
	pos, err := st.Position(ctx, tk.ID)
	if err != nil {
		t.Fatal(err)
	}
	q.Submit(tk, pos) // returns although the printer is about to hang
	if n := <-attempts; n != 1 {
		t.Fatalf("first attempt is %d", n)
	}
	// Attempt 1 is stuck in the printer; the number is already the store's.
	if got, err := st.Ticket(ctx, tk.ID); err != nil || got.Status != model.Waiting || got.Number != tk.Number {
		t.Fatalf("ticket not issued while the printer hangs: %+v, %v", got, err)
	}
	for n := 2; n <= 4; n++ {
		release <- struct{}{} // attempt n-1 fails with paper out
		if got := <-attempts; got != n {
			t.Fatalf("attempt %d came as %d", n, got)
		}
		if f := q.Fault(); !strings.Contains(f, "打印机故障") || !strings.Contains(f, "paper out") {
			t.Errorf("after %d failures the fault is %q", n-1, f)
		}
	}
	release <- struct{}{} // attempt 4 succeeds
	if err := q.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if f := q.Fault(); f != "" {
		t.Errorf("fault after recovery: %q", f)
	}
	q.Close()
	printed := p.Printed()
	if len(printed) != 1 {
		t.Fatalf("printed %d times, want exactly once", len(printed))
	}
	if s := printed[0]; s.Number != tk.Number || s.Service != "个人业务" || s.Branch == "" {
		t.Errorf("printed slip %+v", s)
	}
}

func TestReprintLastPrintsTheSameSlip(t *testing.T) {
	p := &fakePrinter{}
	q := fastQueue(p, StaticHeader(Header{Branch: "城东支行", Services: map[string]string{"B": "对公业务"}}))
	defer q.Close()
	q.ReprintLast() // nothing printed yet: nothing to do
	q.Submit(model.Ticket{Number: "B007", Service: "B", PublicID: "p1"}, model.Position{Ahead: 2, ETASeconds: 600})
	if err := q.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	q.ReprintLast()
	if err := q.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	got := p.Printed()
	if len(got) != 2 || got[0] != got[1] || got[0].Service != "对公业务" || got[0].Ahead != 2 {
		t.Errorf("reprint: %+v", got)
	}
}

// While the printer is out the queue keeps the oldest jobs, in order, and
// says how many it had to drop.
func TestFullQueueKeepsOldestJobs(t *testing.T) {
	hold := make(chan struct{})
	p := &fakePrinter{fail: func(ctx context.Context, n int) error {
		if n == 1 {
			<-hold
			return errFakePaperOut
		}
		return nil
	}}
	q := NewPrintQueue(QueueConfig{Printer: p, Header: StaticHeader(Header{}), Capacity: 3, MinBackoff: time.Millisecond, Logf: quietLog})
	defer q.Close()
	for _, n := range []string{"A001", "A002", "A003", "A004"} {
		q.Submit(model.Ticket{Number: n}, model.Position{})
	}
	if f := q.Fault(); !strings.Contains(f, "1 张票未能打印") {
		t.Errorf("fault with a full queue: %q", f)
	}
	close(hold)
	if err := q.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range p.Printed() {
		got = append(got, s.Number)
	}
	if strings.Join(got, ",") != "A001,A002,A003" {
		t.Errorf("printed %v, want the three oldest in order", got)
	}
}

func TestHeaderFailureIsRetried(t *testing.T) {
	calls := 0
	h := func(context.Context) (Header, error) {
		calls++
		if calls == 1 {
			return Header{}, model.Errorf(model.EUnavailable, "database unreachable")
		}
		return Header{Branch: "总行"}, nil
	}
	p := &fakePrinter{}
	q := fastQueue(p, h)
	defer q.Close()
	q.Submit(model.Ticket{Number: "A001"}, model.Position{})
	if err := q.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if got := p.Printed(); len(got) != 1 || got[0].Branch != "总行" {
		t.Errorf("printed %+v", got)
	}
}
