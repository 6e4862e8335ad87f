package model

import (
	"encoding/hex"
	"net/url"
	"sort"
	"strconv"
	"strings"
)

// LEDFormat is how a branch's LED bars want their lines: the serial speed,
// the vendor's framing bytes and the text encoding (seed 003 §5.3: the
// wrong encoding shows boxes). The branch keeps it in the led_format
// setting, as a query string such as
//
//	baud=9600&encoding=gb2312&prefix=AA55&suffix=0D0A&lines=3
//
// and each PC's bar address may override any part of it.
type LEDFormat struct {
	Baud     int    // 0: the driver's default (9600)
	Encoding string // gb2312 (default), gbk or utf-8
	Prefix   []byte
	Suffix   []byte
	Lines    int // recent calls a hall bar shows; 1 by default
	// Staff: a window's bar follows its call with the staff number and
	// name of the clerk signed in there (staff=true); off by default.
	Staff bool
}

// ledKeys are the parts of a format; anything else is a typo.
var ledKeys = map[string]bool{"baud": true, "encoding": true, "prefix": true, "suffix": true, "lines": true, "staff": true}

// ParseLEDFormat reads a format query string; a wrong one is one sentence.
func ParseLEDFormat(query string) (LEDFormat, error) {
	q, err := url.ParseQuery(strings.TrimSpace(query))
	if err != nil {
		return LEDFormat{}, Errorf(EInvalidInput, "条屏格式应为 baud=9600&encoding=gb2312&prefix=AA55&suffix=0D0A，收到 %q", query)
	}
	return parseLEDValues(q)
}

// MergeLEDFormat reads base (the branch's format) with every part over
// names replaced by over's. A wrong over, or a wrong result, is one
// sentence.
func MergeLEDFormat(base, over string) (LEDFormat, error) {
	b, err := url.ParseQuery(strings.TrimSpace(base))
	if err != nil {
		b = url.Values{} // the branch's is checked when it is saved
	}
	o, err := url.ParseQuery(over)
	if err != nil {
		return LEDFormat{}, Errorf(EInvalidInput, "条屏参数无法识别：%q", over)
	}
	for k, v := range o {
		b[k] = v
	}
	return parseLEDValues(b)
}

func parseLEDValues(q url.Values) (LEDFormat, error) {
	var unknown []string
	for k, v := range q {
		if !ledKeys[k] {
			unknown = append(unknown, k)
		}
		if len(v) > 1 {
			return LEDFormat{}, Errorf(EInvalidInput, "条屏参数 %s 出现了 %d 次", k, len(v))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return LEDFormat{}, Errorf(EInvalidInput, "条屏参数只能是 baud、encoding、prefix、suffix、lines、staff，收到 %s", strings.Join(unknown, "、"))
	}
	f := LEDFormat{Encoding: q.Get("encoding"), Lines: 1}
	var err error
	if v := q.Get("baud"); v != "" {
		if f.Baud, err = strconv.Atoi(v); err != nil || f.Baud <= 0 || f.Baud > 921600 {
			return LEDFormat{}, Errorf(EInvalidInput, "条屏波特率须为正整数，收到 %q", v)
		}
	}
	if v := q.Get("lines"); v != "" {
		if f.Lines, err = strconv.Atoi(v); err != nil || f.Lines < 1 || f.Lines > 10 {
			return LEDFormat{}, Errorf(EInvalidInput, "条屏行数 lines 须在 1 到 10 之间，收到 %q", v)
		}
	}
	if v := q.Get("staff"); v != "" {
		if f.Staff, err = strconv.ParseBool(v); err != nil {
			return LEDFormat{}, Errorf(EInvalidInput, "条屏参数 staff 须为 true 或 false，收到 %q", v)
		}
	}
	if f.Prefix, err = ParseHex(q.Get("prefix")); err != nil {
		return LEDFormat{}, err
	}
	if f.Suffix, err = ParseHex(q.Get("suffix")); err != nil {
		return LEDFormat{}, err
	}
	if !ValidLEDEncoding(f.Encoding) {
		return LEDFormat{}, Errorf(EInvalidInput, "条屏编码只能是 GB2312、GBK 或 UTF-8，收到 %q", f.Encoding)
	}
	return f, nil
}

// ValidLEDEncoding reports whether name is an encoding the bars can be
// sent in; "" means the default, GB2312.
func ValidLEDEncoding(name string) bool {
	switch strings.ToUpper(strings.ReplaceAll(name, "-", "")) {
	case "", "GB2312", "GBK", "UTF8":
		return true
	}
	return false
}

// ParseHex reads framing bytes as vendors' manuals print them: "AA55",
// "AA 55", "0xAA,0x55", "AA:55".
func ParseHex(s string) ([]byte, error) {
	clean := strings.NewReplacer("0x", "", "0X", "", " ", "", ",", "", ":", "", "-", "").Replace(s)
	b, err := hex.DecodeString(clean)
	if err != nil {
		return nil, Errorf(EInvalidInput, "条屏前后缀应为十六进制字节，如 \"AA 55\"，收到 %q", s)
	}
	return b, nil
}
