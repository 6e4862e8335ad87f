package printing

import (
	"net/url"
	"strings"

	"jiaohao/model"
)

// LEDAddress is one LED bar as an installer writes it in a PC's setup:
//
//	led+serial:///dev/ttyUSB1?baud=9600&encoding=gb2312&prefix=AA55&suffix=0D0A&lines=3
//	led+serial://COM4
//
// The parts after "?" are a model.LEDFormat; those left out come from the
// branch's led_format setting, so one branch's bars are set up once.
type LEDAddress struct {
	Config LEDConfig
	Lines  int
	Staff  bool // a window's bar names its clerk (model.LEDFormat.Staff)
}

// ParseLEDAddress reads an LED bar address on its own (built-in defaults
// for what it leaves out); a wrong one is one sentence.
func ParseLEDAddress(addr string) (LEDAddress, error) {
	return ParseLEDAddressOver(addr, "")
}

// ParseLEDAddressOver reads an LED bar address over the branch's format:
// what the address names wins, the rest comes from branch.
func ParseLEDAddressOver(addr, branch string) (LEDAddress, error) {
	bad := func(why string) (LEDAddress, error) {
		return LEDAddress{}, model.Errorf(model.EInvalidInput, "LED 条屏地址 %q 无效：%s", addr, why)
	}
	u, err := url.Parse(addr)
	if err != nil || u.Scheme != "led+serial" {
		return bad("应为 led+serial:///dev/ttyUSB1?baud=9600 或 led+serial://COM4")
	}
	port := u.Path
	if u.Host != "" {
		port = u.Host // led+serial://COM4
	}
	if strings.TrimSpace(port) == "" {
		return bad("缺少串口")
	}
	f, err := model.MergeLEDFormat(branch, u.RawQuery)
	if err != nil {
		return bad(model.ErrorMessage(err))
	}
	return LEDAddress{Config: LEDConfig{Port: port, Baud: f.Baud, Encoding: f.Encoding, Prefix: f.Prefix, Suffix: f.Suffix},
		Lines: f.Lines, Staff: f.Staff}, nil
}
