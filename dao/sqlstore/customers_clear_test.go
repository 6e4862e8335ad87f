package sqlstore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// secretDigits are the parts of the test numbers that must never be kept:
// each number whole and all of it but the last 4 digits shown.
func secretDigits() []string {
	return []string{vipID, vipID[:14], vipCard, vipCard[:15]}
}

// An ID and a card number, saved, imported, identified by and taken for,
// are nowhere in the database: not in any row of any table (the customer,
// the ticket, the event log's details) on every engine, and on SQLite not
// in the bytes of the database file or its write-ahead log either.
func TestCustomerIDNeverInClear(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		s, err := sqlstore.Open(bg, dsn)
		okAny(t, err)
		c := vipCustomer(t, s)
		other := testID("44030519751111888")
		res, err := s.ImportCustomers(bg, []model.CustomerInput{{Customer: model.Customer{Number: "C100", Name: "周七", Level: "普通"}, IDNumber: other, Line: 2}})
		if err != nil || len(res.Bad) > 0 || res.Added != 1 {
			t.Fatalf("import: %+v %v", res, err)
		}
		m, err := s.IdentifyCustomer(bg, vipID)
		okAny(t, err)
		tk := ok(t)(s.TakeTicketFor(bg, "A", m.ID, model.SourceKiosk))
		ok(t)(s.CallNext(bg, 1, ""))
		_, err = s.Customers(bg, vipCard, 5)
		okAny(t, err)
		if strings.Contains(fmt.Sprintf("%+v %+v %+v", c, m, tk), vipID[:14]) {
			t.Fatal("a customer, match or ticket holds the ID number")
		}
		secrets := append(secretDigits(), other, other[:14])
		tables, err := s.DB().Migrator().GetTables()
		okAny(t, err)
		seen := 0
		for _, tb := range tables {
			var rows []map[string]any
			okAny(t, s.DB().Table(tb).Find(&rows).Error)
			for _, r := range rows {
				for col, v := range r {
					text := fmt.Sprint(v)
					if b, isBytes := v.([]byte); isBytes {
						text = string(b)
					}
					for _, d := range secrets {
						if strings.Contains(text, d) {
							t.Errorf("%s.%s holds %s in clear", tb, col, d)
						}
					}
				}
				seen++
			}
		}
		if seen == 0 || !contains(tables, "customer") || !contains(tables, "queue_event") {
			t.Fatalf("dumped %d rows of %v: not the database under test", seen, tables)
		}
		okAny(t, s.Close())
		if file, found := strings.CutPrefix(dsn, "sqlite:"); found {
			files, _ := filepath.Glob(file + "*")
			for _, f := range files {
				b, err := os.ReadFile(f)
				okAny(t, err)
				for _, d := range secrets {
					if strings.Contains(string(b), d) {
						t.Errorf("%s holds %s in clear", filepath.Base(f), d)
					}
				}
			}
			if len(files) == 0 {
				t.Fatal("no database file to scan")
			}
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
