package printing

import (
	"bytes"
	"encoding/hex"
	"flag"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tcpPrinter is a fake network thermal printer on loopback: it answers
// the paper query with answer (none when nil) and keeps the rest of what
// it receives.
func tcpPrinter(t *testing.T, answer []byte) (addr string, query, job chan []byte) {
	t.Helper()
	query, job = make(chan []byte, 1), make(chan []byte, 1)
	addr = loopbackPrinter(t, func(c net.Conn) {
		q := make([]byte, len(paperQuery))
		n, _ := io.ReadFull(c, q)
		query <- q[:n]
		if answer != nil {
			c.Write(answer)
		}
		b, _ := io.ReadAll(c)
		job <- b
	})
	return addr, query, job
}

// A network thermal printer on port 9100 is a plain TCP socket: asked for
// its paper first, it then receives the ticket's exact ESC/POS bytes.
func TestTCPPrinterReceivesESCPOS(t *testing.T) {
	addr, query, got := tcpPrinter(t, []byte{0x12}) // paper present
	p, err := OpenPrinter("escpos+tcp://" + addr)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Print(testCtx(t), knownSlip()); err != nil {
		t.Fatalf("print: %v", err)
	}
	if q := <-query; !bytes.Equal(q, unhex(t, "10 04 04")) {
		t.Errorf("the printer was not asked for its paper (DLE EOT 4) first: % X", q)
	}
	b := <-got

	if !bytes.HasPrefix(b, unhex(t, "1B 40")) {
		t.Errorf("job does not start with ESC @ (1B 40): % X", b[:min(8, len(b))])
	}
	// 个人业务 in GB18030, spelled out independently of the encoder.
	if !bytes.Contains(b, unhex(t, "B8 F6 C8 CB D2 B5 CE F1")) {
		t.Error("service name 个人业务 is not in the job as GB18030 bytes")
	}
	url := "http://10.0.0.5:8520/t/Xy7kQ2"
	store := append(unhex(t, "1D 28 6B 20 00 31 50 30"), url...) // len(url)+3 = 0x20
	qr := bytes.Join([][]byte{
		unhex(t, "1D 28 6B 04 00 31 41 32 00"), // model 2
		unhex(t, "1D 28 6B 03 00 31 43 07"),    // module 7 dots (80 mm)
		unhex(t, "1D 28 6B 03 00 31 45 31"),    // error correction M
		store,
		unhex(t, "1D 28 6B 03 00 31 51 30"), // print
	}, nil)
	if !bytes.Contains(b, qr) {
		t.Error("the QR block for the customer URL is missing or malformed")
	}
	if !bytes.Contains(b, unhex(t, "1D 21 11")) || !bytes.Contains(b, []byte("A012")) {
		t.Error("number is not printed double-size")
	}
	if !bytes.HasSuffix(b, unhex(t, "1D 56 01")) {
		t.Errorf("job does not end with the partial cut 1D 56 01: % X", b[max(0, len(b)-8):])
	}
	golden(t, "ticket80.escpos", b)
}

// golden compares b with testdata/name, so any change of the printed bytes
// is a reviewed change (go test -run ESCPOS -update rewrites it).
func golden(t *testing.T, name string, b []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden file: %v (run with -update to create it)", err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("bytes differ from %s:\n got % X\nwant % X", path, b, want)
	}
}

func TestRenderPaperWidths(t *testing.T) {
	s := knownSlip()
	s.Footer = strings.Repeat("请", 30) // 60 columns: wraps on both widths
	for _, tc := range []struct {
		paper  Paper
		module byte
		lines  int
	}{{Paper58, 5, 2}, {Paper80, 7, 2}} {
		b := RenderESCPOS(s, tc.paper)
		if !bytes.Contains(b, []byte{0x31, 0x43, tc.module}) {
			t.Errorf("%d mm: QR module size %d not set", tc.paper, tc.module)
		}
		rule := strings.Repeat("-", tc.paper.columns()) + "\n"
		if !bytes.Contains(b, []byte(rule)) || bytes.Contains(b, []byte(rule[:len(rule)-1]+"-")) {
			t.Errorf("%d mm: separator is not %d columns", tc.paper, tc.paper.columns())
		}
		if n := bytes.Count(b, unhex(t, "C7 EB")); n != 30 {
			t.Errorf("%d mm: footer lost characters: %d of 30", tc.paper, n)
		}
	}
	if got := wrap(strings.Repeat("请", 30), 32); len(got) != 2 || len(got[0]) != 16*3 {
		t.Errorf("wrap at 32 columns: %q", got)
	}
}

func TestNoQRWithoutCustomerURL(t *testing.T) {
	s := knownSlip()
	s.URL = CustomerURL("", "Xy7kQ2")
	if b := RenderESCPOS(s, Paper80); bytes.Contains(b, []byte{0x1D, 0x28, 0x6B}) {
		t.Error("QR block printed without a customer URL")
	}
	if got := CustomerURL("http://h:8520/", "a b"); got != "http://h:8520/t/a%20b" {
		t.Errorf("CustomerURL = %q", got)
	}
}

// Text from settings and names prints as text: an ESC or GS in it would
// otherwise reach the printer as a command (cut, open drawer, reset).
func TestRenderDropsControlBytesFromText(t *testing.T) {
	clean := knownSlip()
	clean.Footer = "请留意叫号\n谢谢"
	dirty := clean
	dirty.Footer = "请留意\x1b\x70\x00\x19\xfa叫号\r\n谢\x1d\x56\x00谢"
	dirty.Branch = clean.Branch + "\x1b@"
	dirty.Service = "\u202e" + clean.Service
	want := RenderESCPOS(clean, Paper80)
	got := RenderESCPOS(dirty, Paper80)
	if bytes.Count(got, []byte{0x1B}) != bytes.Count(want, []byte{0x1B}) || bytes.Count(got, []byte{0x1D}) != bytes.Count(want, []byte{0x1D}) {
		t.Fatalf("control bytes from text reached the printer:\n got % X\nwant % X", got, want)
	}
	if bytes.Contains(got, []byte{'\r'}) {
		t.Error("CR from a setting reached the printer")
	}
	b, _ := EncodeLED("A012\x02\x03 请\n到 3 号", "GB2312")
	if bytes.ContainsAny(b, "\x02\x03\n") {
		t.Errorf("LED text carries framing bytes: % X", b)
	}
}
