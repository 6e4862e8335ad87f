package model

import "testing"

// The check digit, the kinds of keys and the mask, against numbers worked
// out by hand: 11010519491231002X is the standard's own example.
func TestCustomerKeys(t *testing.T) {
	if err := CheckIDNumber("11010519491231002X"); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"110105194912310021", "11010519491231002", "1101051949123100AX"} {
		if !IsCode(CheckIDNumber(bad), EBadIDNumber) {
			t.Errorf("%s accepted", bad)
		}
	}
	cases := map[string]KeyKind{
		"13812345678": KeyPhone, "11010519491231002x": KeyIDNumber, "6222 0202 0011 2233": KeyCard, "110105194912310021": KeyCard,
	}
	for in, want := range cases {
		got, err := ClassifyKey(NormalizeKey(in))
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	if _, err := ClassifyKey("12345"); !IsCode(err, EInvalidInput) {
		t.Errorf("12345: %v", err)
	}
	if !IsCode(CheckPhone("12812345678"), EBadPhone) || !IsCode(CheckPhone("1381234567"), EBadPhone) {
		t.Error("bad phones accepted")
	}
	for in, want := range map[string]string{"王小明": "王**", "李四": "李*", "张": "张*", "": ""} {
		if got := MaskName(in); got != want {
			t.Errorf("MaskName(%q) = %q, want %q", in, got, want)
		}
	}
}
