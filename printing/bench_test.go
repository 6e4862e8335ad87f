package printing

import (
	"context"
	"io"
	"net"
	"testing"

	"jiaohao/model"
)

func BenchmarkRenderESCPOS80(b *testing.B) {
	s := knownSlip()
	b.ReportAllocs()
	for b.Loop() {
		RenderESCPOS(s, Paper80)
	}
}

func BenchmarkRenderImage80(b *testing.B) {
	s := knownSlip()
	if _, err := RenderImage(s, Paper80); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		RenderImage(s, Paper80)
	}
}

type nopPrinter struct{}

func (nopPrinter) Print(context.Context, Slip) error { return nil }
func (nopPrinter) String() string                    { return "nop" }

// BenchmarkQueueSubmit measures what the kiosk pays per ticket: Submit
// only, the printing happens on the worker.
func BenchmarkQueueSubmit(b *testing.B) {
	q := NewPrintQueue(QueueConfig{Printer: nopPrinter{}, Header: StaticHeader(Header{}), Capacity: 1 << 30, Logf: quietLog})
	defer q.Close()
	t := model.Ticket{Number: "A012", Service: "A", PublicID: "Xy7kQ2"}
	b.ReportAllocs()
	for b.Loop() {
		q.Submit(t, model.Position{Ahead: 3})
	}
	b.StopTimer()
	q.Flush(context.Background())
}

// BenchmarkTCPPrintAnsweringPrinter is one ticket to a network printer
// that answers the paper query at once: connect, ask, send, close.
func BenchmarkTCPPrintAnsweringPrinter(b *testing.B) {
	addr := loopbackPrinter(b, func(c net.Conn) {
		q := make([]byte, len(paperQuery))
		io.ReadFull(c, q)
		c.Write([]byte{0x12})
		io.Copy(io.Discard, c)
	})
	p, err := OpenPrinter("escpos+tcp://" + addr)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	slip := knownSlip()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.Print(ctx, slip); err != nil {
			b.Fatal(err)
		}
	}
}
