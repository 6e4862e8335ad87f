package model

import (
	"strings"
	"testing"
)

// Lines Excel leaves at the end of a sheet (only commas) are empty lines,
// not customers with every field missing; CRLF and a quoted field over two
// lines keep the line numbers right.
func TestCustomerCSVBlankRowsAndLines(t *testing.T) {
	file := "客户号,姓名,等级\r\nK1,甲,普通\r\n\r\nK2,\"乙\r\n丙\",普通\r\n,,\r\nK3,丁,普通\r\n, ,\r\n,,\r\n"
	rows, err := ParseCustomerCSV([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, r := range rows {
		got = append(got, r.Line)
	}
	if len(rows) != 3 || got[0] != 2 || got[1] != 4 || got[2] != 7 {
		t.Fatalf("rows at lines %v, want 2, 4 and 7 only: %+v", got, rows)
	}
}

// A quote never closed is named at the line it opens on, not at the end
// of the file where the reader gave up.
func TestCustomerCSVBrokenQuoteLine(t *testing.T) {
	rows, err := ParseCustomerCSV([]byte("客户号,姓名,等级\nK1,甲,普通\nK2,\"乙,普通\nK3,丙,普通\n"))
	if err != nil {
		t.Fatal(err)
	}
	var bad []CustomerInput
	for _, r := range rows {
		if r.Unreadable != "" {
			bad = append(bad, r)
		}
	}
	if len(bad) != 1 || bad[0].Line != 3 {
		t.Fatalf("unreadable rows %+v, want line 3", bad)
	}
}

// A file in neither UTF-8 nor GB18030 (a Latin-1 export) is refused as
// such, naming its first such line, instead of reading as names full of
// replacement characters.
func TestCustomerCSVNeitherEncoding(t *testing.T) {
	_, err := ParseCustomerCSV([]byte("number,name,level\nK1,Ann,x\nK2,Jos\xe9,x\n"))
	if !IsCode(err, EInvalidInput) || !strings.Contains(ErrorMessage(err), "GB18030") || !strings.Contains(ErrorMessage(err), "3") {
		t.Fatalf("%v", err)
	}
	// GB18030 itself still reads.
	rows, err := ParseCustomerCSV([]byte("number,name,level\nK1,\xd5\xc5\xc8\xfd,x\n"))
	if err != nil || len(rows) != 1 || rows[0].Name != "张三" {
		t.Fatalf("%+v %v", rows, err)
	}
}

// A file over the limit is refused, not cut at the limit into a last row
// that still reads.
func TestReadCustomerFileRefusesOverLimit(t *testing.T) {
	row := "K1,甲,普通\n"
	big := strings.Repeat(row, MaxImportFile/len(row)+1)
	if _, err := ReadCustomerFile(strings.NewReader(big)); !IsCode(err, EInvalidInput) {
		t.Fatalf("a file of %d bytes: %v", len(big), err)
	}
	b, err := ReadCustomerFile(strings.NewReader(row))
	if err != nil || string(b) != row {
		t.Fatalf("%q %v", b, err)
	}
}
