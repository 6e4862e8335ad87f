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
