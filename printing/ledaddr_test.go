package printing

import (
	"bytes"
	"testing"

	"jiaohao/model"
)

func TestParseLEDAddress(t *testing.T) {
	a, err := ParseLEDAddress("led+serial:///dev/ttyUSB1?baud=19200&encoding=gbk&prefix=AA55&suffix=0D0A&lines=3")
	if err != nil {
		t.Fatal(err)
	}
	c := a.Config
	if c.Port != "/dev/ttyUSB1" || c.Baud != 19200 || c.Encoding != "gbk" || a.Lines != 3 ||
		!bytes.Equal(c.Prefix, []byte{0xAA, 0x55}) || !bytes.Equal(c.Suffix, []byte{0x0D, 0x0A}) {
		t.Fatalf("parsed %+v", a)
	}
	if w, err := ParseLEDAddress("led+serial://COM4"); err != nil || w.Config.Port != "COM4" || w.Lines != 1 {
		t.Fatalf("COM4: %+v %v", w, err)
	}
	for _, bad := range []string{"", "serial:///dev/ttyS0", "led+serial://", "led+serial:///dev/x?baud=fast",
		"led+serial:///dev/x?prefix=zz", "led+serial:///dev/x?encoding=big5", "led+serial:///dev/x?lines=99"} {
		if _, err := ParseLEDAddress(bad); !model.IsCode(err, model.EInvalidInput) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A bar's address names what differs from the branch's led_format; the
// rest comes from the branch.
func TestLEDAddressOverBranchFormat(t *testing.T) {
	branch := "encoding=gbk&prefix=AA55&suffix=0D0A&lines=3"
	a, err := ParseLEDAddressOver("led+serial://COM4?encoding=utf-8", branch)
	if err != nil {
		t.Fatal(err)
	}
	c := a.Config
	if c.Port != "COM4" || c.Encoding != "utf-8" || a.Lines != 3 || !bytes.Equal(c.Prefix, []byte{0xAA, 0x55}) || !bytes.Equal(c.Suffix, []byte{0x0D, 0x0A}) {
		t.Fatalf("parsed %+v", a)
	}
	if _, err := ParseLEDAddressOver("led+serial://COM4?colour=red", branch); !model.IsCode(err, model.EInvalidInput) {
		t.Fatalf("an unknown part: %v", err)
	}
}

// Every encoding the settings accept can be sent.
func TestLEDEncodingsAgree(t *testing.T) {
	for _, enc := range []string{"", "gb2312", "GB2312", "gbk", "utf-8", "UTF8"} {
		if !model.ValidLEDEncoding(enc) {
			t.Errorf("%q refused by the settings", enc)
		}
		if _, err := EncodeLED("请 A001 号", enc); err != nil {
			t.Errorf("%q accepted by the settings but not sent: %v", enc, err)
		}
	}
}
