package model

import (
	"bytes"
	"testing"
)

func TestParseHex(t *testing.T) {
	for _, in := range []string{"AA 55", "aa55", "0xAA,0x55", "AA:55"} {
		if b, err := ParseHex(in); err != nil || !bytes.Equal(b, []byte{0xAA, 0x55}) {
			t.Errorf("ParseHex(%q) = % X, %v", in, b, err)
		}
	}
	if b, err := ParseHex(""); err != nil || len(b) != 0 {
		t.Errorf("empty: % X, %v", b, err)
	}
	if _, err := ParseHex("AG"); ErrorCode(err) != EInvalidInput {
		t.Errorf("AG accepted: %v", err)
	}
}

func TestParseLEDFormat(t *testing.T) {
	f, err := ParseLEDFormat("baud=19200&encoding=gbk&prefix=AA%2055&suffix=0D0A&lines=3")
	if err != nil {
		t.Fatal(err)
	}
	if f.Baud != 19200 || f.Encoding != "gbk" || f.Lines != 3 || !bytes.Equal(f.Prefix, []byte{0xAA, 0x55}) || !bytes.Equal(f.Suffix, []byte{0x0D, 0x0A}) {
		t.Fatalf("parsed %+v", f)
	}
	if f, err := ParseLEDFormat(""); err != nil || f.Lines != 1 || f.Baud != 0 || f.Encoding != "" {
		t.Fatalf("empty: %+v %v", f, err)
	}
	for _, bad := range []string{"baud=fast", "baud=-1", "lines=0", "lines=11", "prefix=zz", "encoding=big5",
		"encodng=gbk", "%zz", "suffix=0D0", "baud=9600&baud=x"} {
		if _, err := ParseLEDFormat(bad); !IsCode(err, EInvalidInput) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// A PC's bar names only what differs from the branch's format.
func TestMergeLEDFormat(t *testing.T) {
	f, err := MergeLEDFormat("encoding=gbk&prefix=AA55&lines=3", "encoding=utf-8&baud=19200")
	if err != nil {
		t.Fatal(err)
	}
	if f.Encoding != "utf-8" || f.Baud != 19200 || f.Lines != 3 || !bytes.Equal(f.Prefix, []byte{0xAA, 0x55}) {
		t.Fatalf("merged %+v", f)
	}
	if _, err := MergeLEDFormat("", "%zz"); !IsCode(err, EInvalidInput) {
		t.Fatalf("a malformed PC part: %v", err)
	}
}

// The branch's format is a setting like any other: a wrong one is refused.
func TestLEDFormatSetting(t *testing.T) {
	if err := ValidateSetting("led_format", "encoding=gb2312&prefix=AA55&suffix=0D0A"); err != nil {
		t.Fatal(err)
	}
	if err := ValidateSetting("led_format", "encoding=latin1"); !IsCode(err, EInvalidInput) {
		t.Fatalf("latin1: %v", err)
	}
	if got := ParseSettings(map[string]string{"led_format": "encoding=latin1"}).Raw["led_format"]; got != DefaultSettings["led_format"] {
		t.Fatalf("a stored wrong format is read as %q, want the default", got)
	}
}
