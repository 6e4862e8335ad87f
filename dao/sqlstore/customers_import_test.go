package sqlstore_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/text/encoding/simplifiedchinese"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A register file with two bad lines among good ones imports nothing and
// names both lines with their field; the same file in GB18030 says the
// same; with the lines put right it imports in one go, and again it
// updates the customers it added rather than adding them twice.
func TestCustomerImportAllOrNothing(t *testing.T) {
	good := "客户号,姓名,手机,等级,备注,身份证号\n" +
		"K001,张三,13900000001,普通,,\n" +
		"K002,李四,13900000002,贵宾,常来,%s\n" +
		"K003,王五,13900000003,%s,,\n" +
		"K004,赵六,%s,普通,,\n"
	badFile := fmt.Sprintf(good, testID("11010119900307456"), "钻石", "1390000")
	fixed := fmt.Sprintf(good, testID("11010119900307456"), "私行", "13900000004")
	gb, err := simplifiedchinese.GB18030.NewEncoder().String(badFile)
	okAny(t, err)
	if gb == badFile {
		t.Fatal("the GB18030 file is the UTF-8 one")
	}
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		vipCustomer(t, s)
		for name, file := range map[string]string{"utf-8": badFile, "utf-8 bom": "\xef\xbb\xbf" + badFile, "gb18030": gb} {
			rows, err := model.ParseCustomerCSV([]byte(file))
			okAny(t, err)
			res, err := s.ImportCustomers(bg, rows)
			okAny(t, err)
			want := map[string]bool{"4 level": true, "5 phone": true}
			if len(res.Bad) != len(want) || res.Added+res.Updated != 0 {
				t.Fatalf("%s: %+v, want lines 4 (level) and 5 (phone) refused and nothing written", name, res)
			}
			for _, b := range res.Bad {
				if !want[fmt.Sprintf("%d %s", b.Line, b.Field)] || b.Message == "" {
					t.Errorf("%s: bad row %+v", name, b)
				}
			}
			if !strings.Contains(res.Bad[0].Message+res.Bad[1].Message, "钻石") {
				t.Errorf("%s: the sentences do not name the unknown level: %+v", name, res.Bad)
			}
			all, err := s.Customers(bg, "", 0)
			okAny(t, err)
			if len(all) != 1 {
				t.Fatalf("%s: %d customers after a refused import, want the 1 there before", name, len(all))
			}
		}
		// A row the register refuses though every field reads right (an ID
		// number another customer holds) also rolls the others back.
		clash := "number,name,level,id_number\nK010,甲,普通,\nK011,乙,普通," + vipID + "\n"
		rows, err := model.ParseCustomerCSV([]byte(clash))
		okAny(t, err)
		res, err := s.ImportCustomers(bg, rows)
		okAny(t, err)
		if len(res.Bad) != 1 || res.Bad[0].Line != 3 || res.Bad[0].Field != "id_number" {
			t.Fatalf("clash: %+v", res)
		}
		if all, _ := s.Customers(bg, "", 0); len(all) != 1 {
			t.Fatalf("%d customers after a refused import, want 1", len(all))
		}

		rows, err = model.ParseCustomerCSV([]byte(fixed))
		okAny(t, err)
		res, err = s.ImportCustomers(bg, rows)
		okAny(t, err)
		if len(res.Bad) != 0 || res.Added != 4 {
			t.Fatalf("fixed file: %+v", res)
		}
		res, err = s.ImportCustomers(bg, rows)
		okAny(t, err)
		if res.Added != 0 || res.Updated != 4 {
			t.Fatalf("again: %+v", res)
		}
		got, err := s.Customers(bg, "K003", 1)
		okAny(t, err)
		if len(got) != 1 || got[0].Level != "私行" || got[0].Phone != "13900000003" {
			t.Fatalf("K003: %+v", got)
		}
	})
}

// A line the CSV reader cannot read and a number twice are named too.
func TestCustomerImportUnreadableAndRepeated(t *testing.T) {
	s := daotest.SQLite(t)
	file := "number,name,level\nK1,甲,普通\nK1,乙,普通\nK2,丙,普通,多余\n"
	rows, err := model.ParseCustomerCSV([]byte(file))
	okAny(t, err)
	res, err := s.ImportCustomers(bg, rows)
	okAny(t, err)
	if len(res.Bad) != 2 || res.Bad[0].Line != 3 || res.Bad[0].Field != "number" || res.Bad[1].Line != 4 || res.Bad[1].Field != "line" {
		t.Fatalf("%+v", res)
	}
	if all, _ := s.Customers(bg, "", 0); len(all) != 0 {
		t.Fatalf("%d customers written", len(all))
	}
}
