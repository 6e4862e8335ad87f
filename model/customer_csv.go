package model

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// A register exported from a bank's core system or kept in Excel comes as
// CSV in UTF-8 (with or without the BOM Excel writes) or in GB18030, what
// a Chinese Windows saves. The first line names the columns, in Chinese or
// English, in any order.

var csvColumns = map[string]string{
	"客户号": "number", "客户编号": "number", "number": "number",
	"姓名": "name", "客户姓名": "name", "name": "name",
	"手机": "phone", "手机号": "phone", "电话": "phone", "phone": "phone",
	"等级": "level", "客户等级": "level", "level": "level",
	"备注": "note", "note": "note",
	"身份证号": "id_number", "证件号": "id_number", "id_number": "id_number",
	"卡号": "card_number", "card_number": "card_number",
}

// MaxImportFile is the largest register file read: MaxImportRows rows
// with long notes fit many times over.
const MaxImportFile = 64 << 20

// ReadCustomerFile reads a register file whole, refusing one over
// MaxImportFile rather than cutting it there: a file cut inside a row
// would import that row's first part and drop the rest unsaid.
func ReadCustomerFile(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxImportFile+1))
	if err != nil {
		return nil, Errorf(EInvalidInput, "无法读取文件 (the file cannot be read)")
	}
	if len(b) > MaxImportFile {
		return nil, Errorf(EInvalidInput, "文件超过 %d MiB，未导入 (the file is over %d MiB; nothing imported)", MaxImportFile>>20, MaxImportFile>>20)
	}
	return b, nil
}

// DecodeCSVText returns the file as UTF-8: valid UTF-8 as is (its BOM
// dropped), anything else read as GB18030. The decoder does not fail on
// bytes GB18030 does not have but puts U+FFFD for them, so a line with
// one is where the file is neither, and is named.
func DecodeCSVText(b []byte) ([]byte, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if utf8.Valid(b) {
		return b, nil
	}
	out, err := simplifiedchinese.GB18030.NewDecoder().Bytes(b)
	if i := bytes.IndexRune(out, utf8.RuneError); err != nil || i >= 0 {
		line := 1 + bytes.Count(out[:max(i, 0)], []byte("\n"))
		return nil, Errorf(EInvalidInput, "文件既不是 UTF-8 也不是 GB18030 编码（第 %d 行）(the file is neither UTF-8 nor GB18030: line %d)", line, line)
	}
	return out, nil
}

// ParseCustomerCSV reads a register file into rows to import, each with
// its line; a line it could not read (a broken quote, more fields than
// the header) is a row with Unreadable set, so the import names it with
// the others and writes nothing. A file with no usable header is an
// error.
func ParseCustomerCSV(file []byte) ([]CustomerInput, error) {
	text, err := DecodeCSVText(file)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(text))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, Errorf(EInvalidInput, "文件第 1 行须为列名，例如 客户号,姓名,手机,等级 (line 1 must name the columns)")
	}
	cols := make([]string, len(head))
	seen := map[string]bool{}
	for i, h := range head {
		cols[i] = csvColumns[strings.ToLower(strings.TrimSpace(h))]
		if cols[i] != "" {
			seen[cols[i]] = true
		}
	}
	for _, need := range []string{"number", "name", "level"} {
		if !seen[need] {
			return nil, Errorf(EInvalidInput, "第 1 行缺少列 %s：须有 客户号、姓名、等级 (line 1 lacks the column %s: number, name and level are required)", need, need)
		}
	}
	var rows []CustomerInput
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			// StartLine: a quote never closed is read to the end of the
			// file, where Line would point.
			rows = append(rows, CustomerInput{Line: pe.StartLine, Unreadable: "此行的引号不成对，无法读取 (this line's quotes do not match)"})
			continue
		}
		if err != nil {
			return nil, Errorf(EInvalidInput, "无法读取文件 (the file cannot be read)")
		}
		if blankRecord(rec) {
			continue // an empty line, or one of the commas-only lines Excel leaves after a sheet's end
		}
		if len(rec) > len(cols) {
			rows = append(rows, CustomerInput{Line: line, Unreadable: "此行的列数多于第 1 行的列名 (this line has more fields than line 1 names)"})
			continue
		}
		if len(rows) >= MaxImportRows {
			return nil, Errorf(EInvalidInput, "一次最多导入 %d 行 (at most %d rows at once)", MaxImportRows, MaxImportRows)
		}
		in := CustomerInput{Line: line}
		for i, v := range rec {
			switch cols[i] {
			case "number":
				in.Number = v
			case "name":
				in.Name = v
			case "phone":
				in.Phone = v
			case "level":
				in.Level = v
			case "note":
				in.Note = v
			case "id_number":
				in.IDNumber = v
			case "card_number":
				in.CardNumber = v
			}
		}
		rows = append(rows, in)
	}
	return rows, nil
}

func blankRecord(rec []string) bool {
	for _, v := range rec {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}
