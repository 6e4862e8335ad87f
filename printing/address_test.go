package printing

import (
	"bytes"
	"context"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/model"
)

func TestOpenPrinterAddresses(t *testing.T) {
	for _, tc := range []struct{ addr, name string }{
		{"escpos+serial:///dev/ttyUSB0?baud=9600", "escpos+serial:///dev/ttyUSB0"},
		{"escpos+serial://COM3", "escpos+serial://COM3"},
		{"escpos+serial:///COM3?baud=115200&paper=58", "escpos+serial://COM3"},
		{"escpos+tcp://192.168.1.50:9100", "escpos+tcp://192.168.1.50:9100"},
		{"escpos+tcp://printer.local", "escpos+tcp://printer.local:9100"},
		{"spool:POS-80 Thermal", "spool:POS-80 Thermal"},
		{"file:/var/tmp/tickets.bin", "file:/var/tmp/tickets.bin"},
		{"file:///var/tmp/tickets.bin", "file:/var/tmp/tickets.bin"},
	} {
		p, err := OpenPrinter(tc.addr)
		if err != nil || p.String() != tc.name {
			t.Errorf("OpenPrinter(%q) = %v, %v; want %s", tc.addr, p, err, tc.name)
		}
	}
	for _, bad := range []string{"", "lpt1", "escpos+usb://x", "escpos+tcp://", "escpos+serial://?baud=9600",
		"escpos+serial:///dev/ttyS0?baud=fast", "file:/x?paper=76"} {
		if _, err := OpenPrinter(bad); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("OpenPrinter(%q) accepted: %v", bad, err)
		}
	}
}

// file: appends each job, so a diagnosis file holds every ticket sent.
func TestFilePrinterAppends(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.escpos")
	p, err := OpenPrinter("file:" + path + "?paper=58")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := p.Print(testCtx(t), knownSlip()); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(path)
	one := RenderESCPOS(knownSlip(), Paper58)
	if !bytes.Equal(b, append(append([]byte{}, one...), one...)) {
		t.Errorf("file holds %d bytes, want two jobs of %d", len(b), len(one))
	}
}

func TestTCPPrinterUnreachable(t *testing.T) {
	p, _ := OpenPrinter("escpos+tcp://127.0.0.1:1") // nothing listens on port 1
	if err := p.Print(testCtx(t), knownSlip()); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("error %v does not name the printer", err)
	}
}

// spool: draws the ticket and hands the PNG to lp (or PowerShell on
// Windows) with the printer's name.
func TestSpoolPrinterCommand(t *testing.T) {
	for _, goos := range []string{"linux", "windows"} {
		p := newSpoolPrinter("POS 58", Paper58)
		p.goos = goos
		var prog string
		var args, env []string
		var width int
		p.run = func(_ context.Context, e []string, name string, a ...string) error {
			prog, args, env = name, a, e
			file := a[len(a)-1]
			for _, kv := range e {
				if v, ok := strings.CutPrefix(kv, "JIAOHAO_TICKET="); ok {
					file = v
				}
			}
			f, err := os.Open(file)
			if err != nil {
				return err
			}
			defer f.Close()
			img, err := png.Decode(f)
			if err != nil {
				return err
			}
			width = img.Bounds().Dx()
			return nil
		}
		if err := p.Print(testCtx(t), knownSlip()); err != nil {
			t.Fatalf("%s: %v", goos, err)
		}
		if width != 384 {
			t.Errorf("%s: image %d dots wide, want 384 for 58 mm", goos, width)
		}
		switch goos {
		case "linux":
			if prog != "lp" || strings.Join(args[:2], " ") != "-d POS 58" {
				t.Errorf("linux: %s %q", prog, args)
			}
		case "windows":
			if prog != "powershell" || !strings.Contains(strings.Join(env, "\n"), "JIAOHAO_PRINTER=POS 58") {
				t.Errorf("windows: %s %q", prog, env)
			}
		}
	}
}

func TestRenderImageHasInk(t *testing.T) {
	img, err := RenderImage(knownSlip(), Paper80)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	dark := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if r, _, _, _ := img.At(x, y).RGBA(); r < 0x8000 {
				dark++
			}
		}
	}
	if b.Dx() != 576 || b.Dy() < 400 || dark < b.Dx()*b.Dy()/50 {
		t.Errorf("image %v with %d dark dots: too little drawn", b, dark)
	}
}
