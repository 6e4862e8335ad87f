package printing

import (
	"bytes"
	"testing"

	"jiaohao/model"
)

// A ticket sent to escpos+serial:// crosses a real (virtual) serial cable
// byte for byte, after the paper query this silent printer leaves
// unanswered.
func TestSerialPrinterThroughPty(t *testing.T) {
	near, far := ptyPair(t)
	p, err := OpenPrinter("escpos+serial://" + near + "?baud=19200&paper=58")
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]byte{}, paperQuery...), RenderESCPOS(knownSlip(), Paper58)...)
	got := make(chan []byte, 1)
	go func() { got <- readUntilQuiet(far, len(want)) }()
	if err := p.Print(testCtx(t), knownSlip()); err != nil {
		t.Fatalf("print: %v", err)
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("ticket changed on the wire:\n got % X\nwant % X", b, want)
	}
}

// The LED line arrives in GB2312 between the configured framing bytes.
func TestLEDLineThroughPtyInGB2312(t *testing.T) {
	near, far := ptyPair(t)
	prefix, err := model.ParseHex("0xAA,0x55")
	if err != nil {
		t.Fatal(err)
	}
	suffix, _ := model.ParseHex("0D 0A")
	led, err := NewLED(LEDConfig{Port: near, Prefix: prefix, Suffix: suffix, Encoding: "GB2312", Logf: quietLog})
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	// 请 A012 号到 3 号窗口, spelled out independently of the encoder.
	want := unhex(t, "AA 55 C7 EB 20 41 30 31 32 20 BA C5 B5 BD 20 33 20 BA C5 B4 B0 BF DA 0D 0A")
	got := make(chan []byte, 1)
	go func() { got <- readUntilQuiet(far, len(want)) }()
	led.Show("请 A012 号到 3 号窗口")
	if err := led.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("LED frame:\n got % X\nwant % X", b, want)
	}
	if f := led.Fault(); f != "" {
		t.Errorf("fault after a good write: %s", f)
	}
}
