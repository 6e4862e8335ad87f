package model

import (
	"strings"
	"testing"
)

func TestCheckTextRefusesControls(t *testing.T) {
	for _, bad := range []string{"a\rb", "a\x1b@", "a\x1dV\x00", "tab\there", "\u202eA012", "A\u2066B", "x\u2028y", "del\x7f", "c1\u0085", "bad\xffutf8"} {
		if err := CheckText("名称", "name", bad, true); ErrorCode(err) != EInvalidInput || !strings.Contains(err.Error(), "control character") {
			t.Errorf("%q accepted or unclear: %v", bad, err)
		}
	}
	if err := CheckText("名称", "name", "一楼\n二楼", false); ErrorCode(err) != EInvalidInput {
		t.Error("line break accepted where none is meant")
	}
	for _, good := range []string{"", "请留意叫号", "一楼\n二楼", "VIP 贵宾 (A-Z) 100%"} {
		if err := CheckText("名称", "name", good, true); err != nil {
			t.Errorf("%q refused: %v", good, err)
		}
	}
	if got := StripUnsafe("a\x1b@b\r\nc\u202ed"); got != "a@b\ncd" {
		t.Errorf("StripUnsafe = %q", got)
	}
}

func TestSettingsRefuseFilesAndInjection(t *testing.T) {
	for _, bad := range [][2]string{
		{"printer", "file:/tmp/x"},
		{"printer", "file:C:/ProgramData/Microsoft/Windows/Start Menu/Programs/StartUp/x.bat"},
		{"printer", "FILE:///etc/cron.d/x"},
		{"printer", "escpos+tcp:"},
		{"printer", "lpr:printer"},
		{"printer", "escpos+tcp://10.0.0.5:9100\r\nx"},
		{"ticket_footer", "thanks\r\n@echo off"},
		{"ticket_footer", "\x1d\x56\x00cut"},
		{"notice", "\u202e号叫"},
		{"voice_template", "请 {number}\n号"},
		{"customer_url", "javascript:alert(1)"},
		{"customer_url", "file:///etc/passwd"},
		{"customer_url", "http://"},
		{"customer_url", "192.168.1.10:8520"},
	} {
		if err := ValidateSetting(bad[0], bad[1]); ErrorCode(err) != EInvalidInput {
			t.Errorf("%s=%q accepted", bad[0], bad[1])
		}
	}
	for _, good := range [][2]string{
		{"printer", ""},
		{"printer", "escpos+tcp://192.168.1.50:9100"},
		{"printer", "escpos+serial://COM3?baud=9600"},
		{"printer", "spool:Receipt Printer"},
		{"ticket_footer", "请留意叫号\n过号请到窗口咨询"},
		{"customer_url", "https://queue.example.cn"},
		{"customer_url", "http://192.168.1.10:8520"},
	} {
		if err := ValidateSetting(good[0], good[1]); err != nil {
			t.Errorf("%s=%q refused: %v", good[0], good[1], err)
		}
	}
	// A value stored before the check existed is not used: the default is.
	st := ParseSettings(map[string]string{"printer": "file:/tmp/evil", "ticket_footer": "a\rb"})
	if st.Raw["printer"] != "" || st.Raw["ticket_footer"] != DefaultSettings["ticket_footer"] {
		t.Errorf("unsafe stored values used: printer=%q footer=%q", st.Raw["printer"], st.Raw["ticket_footer"])
	}
}
