package printing

import (
	"bytes"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// A printer whose roll is out is not sent the ticket: the print fails with
// "out of paper" (the queue keeps the job and shows the fault). A printer
// that does not answer, or answers noise, still prints; status=off never
// asks.
func TestTCPPrinterPaperStatus(t *testing.T) {
	for _, c := range []struct {
		name, params string
		answer       []byte
		wantOut      bool
		wantQuery    bool
	}{
		{"paper end", "", []byte{0x72}, true, true},
		{"near end prints", "", []byte{0x1E}, false, true},
		{"no answer prints", "", nil, false, true},
		{"noise prints", "", []byte{0xFF}, false, true},
		{"status off", "?status=off", []byte{0x72}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			addr, query, job := tcpPrinter(t, c.answer)
			p, err := OpenPrinter("escpos+tcp://" + addr + c.params)
			if err != nil {
				t.Fatal(err)
			}
			err = p.Print(testCtx(t), knownSlip())
			if out := err == errPaperOut; out != c.wantOut {
				t.Fatalf("print: %v, want out of paper %v", err, c.wantOut)
			}
			if !c.wantOut && err != nil {
				t.Fatalf("print: %v", err)
			}
			q, b := <-query, <-job
			all := append(q, b...)
			if asked := bytes.HasPrefix(all, paperQuery); asked != c.wantQuery {
				t.Fatalf("paper query sent %v, want %v: % X", asked, c.wantQuery, all[:min(8, len(all))])
			}
			ticket := bytes.Contains(all, RenderESCPOS(knownSlip(), Paper80))
			if ticket == c.wantOut {
				t.Fatalf("ticket sent %v with out of paper %v", ticket, c.wantOut)
			}
		})
	}
	if _, err := OpenPrinter("escpos+tcp://127.0.0.1:9100?status=maybe"); err == nil {
		t.Fatal("status=maybe accepted")
	}
}

// The same over a real (virtual) serial cable: the printer answers "paper
// end", and after the roll is changed the ticket goes through whole.
func TestSerialPrinterPaperOutThenPrints(t *testing.T) {
	near, far := ptyPair(t)
	p, err := OpenPrinter("escpos+serial://" + near)
	if err != nil {
		t.Fatal(err)
	}
	answer := func(status byte) chan []byte {
		got := make(chan []byte, 1)
		go func() {
			q := readUntilQuiet(far, len(paperQuery))
			far.Write([]byte{status})
			got <- q
		}()
		return got
	}
	q := answer(0x72)
	if err := p.Print(testCtx(t), knownSlip()); err != errPaperOut {
		t.Fatalf("print with the roll out: %v", err)
	}
	if b := <-q; !bytes.Equal(b, paperQuery) {
		t.Fatalf("query % X", b)
	}
	q = answer(0x12)
	want := RenderESCPOS(knownSlip(), Paper80)
	rest := make(chan []byte, 1)
	go func() { <-q; rest <- readUntilQuiet(far, len(want)) }()
	if err := p.Print(testCtx(t), knownSlip()); err != nil {
		t.Fatalf("print with paper: %v", err)
	}
	if b := <-rest; !bytes.Equal(b, want) {
		t.Fatalf("ticket changed on the wire: got %d bytes, want %d", len(b), len(want))
	}
}

// A printer that answers after the wait (busy, slow link) and reads its
// input slowly still gets the whole ticket: the late byte is read and
// dropped instead of resetting the link under the ticket. (The ticket is
// made larger than the socket buffers, so bytes are still on their way
// when the kiosk finishes writing.)
func TestTCPPrinterLateAnswerKeepsTicketWhole(t *testing.T) {
	slip := knownSlip()
	slip.Footer = strings.Repeat("请留意叫号 ", 1<<18)
	job := make(chan []byte, 1)
	addr := loopbackPrinter(t, func(c net.Conn) {
		q := make([]byte, len(paperQuery))
		io.ReadFull(c, q)
		time.Sleep(statusWait + 200*time.Millisecond)
		c.Write([]byte{0x12}) // "paper present", too late to count
		time.Sleep(100 * time.Millisecond)
		b, _ := io.ReadAll(c)
		job <- b
	})
	p, err := OpenPrinter("escpos+tcp://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Print(testCtx(t), slip); err != nil {
		t.Fatalf("print: %v", err)
	}
	if b, want := <-job, RenderESCPOS(slip, Paper80); !bytes.Equal(b, want) {
		t.Fatalf("the printer got %d bytes of a %d-byte ticket", len(b), len(want))
	}
}

// An automatic status (Auto Status Back) waiting on the link is not taken
// for the answer: the printer's real answer "paper end" is.
func TestTCPPrinterSkipsUnaskedStatus(t *testing.T) {
	addr := loopbackPrinter(t, func(c net.Conn) {
		c.Write([]byte{0x14, 0x00, 0x00, 0x0F}) // ASB on connect: all fine
		q := make([]byte, len(paperQuery))
		io.ReadFull(c, q)
		c.Write([]byte{0x00, 0x72}) // a stray byte, then "paper end"
		io.ReadAll(c)
	})
	p, err := OpenPrinter("escpos+tcp://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Print(testCtx(t), knownSlip()); err != errPaperOut {
		t.Fatalf("print: %v, want out of paper", err)
	}
}
