package printing

import (
	"net/url"
	"strconv"
	"strings"

	"jiaohao/model"
)

// LEDAddress is one LED bar as an installer writes it on the command line:
//
//	led+serial:///dev/ttyUSB1?baud=9600&encoding=gb2312&prefix=AA55&suffix=0D0A&lines=3
//	led+serial://COM4?encoding=gbk
//
// The prefix and suffix are the vendor's framing bytes in hex; lines is how
// many recent calls a hall bar shows (a caller's bar shows its window's).
type LEDAddress struct {
	Config LEDConfig
	Lines  int
}

// ParseLEDAddress reads an LED bar address; a wrong one is one sentence.
func ParseLEDAddress(addr string) (LEDAddress, error) {
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
	q := u.Query()
	out := LEDAddress{Config: LEDConfig{Port: port, Encoding: q.Get("encoding")}, Lines: 1}
	if v := q.Get("baud"); v != "" {
		if out.Config.Baud, err = strconv.Atoi(v); err != nil || out.Config.Baud <= 0 {
			return bad("波特率须为正整数")
		}
	}
	if v := q.Get("lines"); v != "" {
		if out.Lines, err = strconv.Atoi(v); err != nil || out.Lines < 1 || out.Lines > 10 {
			return bad("lines 须在 1 到 10 之间")
		}
	}
	for key, dst := range map[string]*[]byte{"prefix": &out.Config.Prefix, "suffix": &out.Config.Suffix} {
		if v := q.Get(key); v != "" {
			if *dst, err = ParseHex(v); err != nil {
				return bad(key + " 须为十六进制字节")
			}
		}
	}
	if _, err := EncodeLED("", out.Config.Encoding); err != nil {
		return bad("编码须为 gb2312、gbk 或 utf-8")
	}
	return out, nil
}
