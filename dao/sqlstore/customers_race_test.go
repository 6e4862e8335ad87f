package sqlstore_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// PCs opening a fresh register at once: each makes a secret on its first
// hash, one is kept and all hash with it, so a customer saved on one PC is
// identified on every other; and PCs adding one customer number at once
// add it once, the others told it is taken, never a database error.
func TestCustomerSecretAndNumberUnderConcurrentPCs(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		const pcs = 4
		stores := openStores(t, dsn, pcs)
		ids := make([]string, pcs)
		var wg sync.WaitGroup
		errs := make([]error, pcs)
		for i, s := range stores {
			ids[i] = testID(fmt.Sprintf("3201021990010%04d", 1000+i))
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.SaveCustomer(bg, model.CustomerInput{
					Customer: model.Customer{Number: fmt.Sprintf("P%d", i), Name: "客户", Level: "普通"}, IDNumber: ids[i]})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			okAny(t, err)
			for j, s := range stores {
				m, err := s.IdentifyCustomer(bg, ids[i])
				if err != nil {
					t.Fatalf("PC %d identifying PC %d's customer: %v", j, i, err)
				}
				_ = m
			}
		}
		var secrets int64
		okAny(t, stores[0].DB().Raw("SELECT COUNT(*) FROM branch_secret").Scan(&secrets).Error)
		if secrets != 1 {
			t.Fatalf("%d secrets kept, want 1", secrets)
		}

		for i, s := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.SaveCustomer(bg, model.CustomerInput{Customer: model.Customer{Number: "SAME", Name: fmt.Sprint("客户", i), Level: "贵宾"}})
			}()
		}
		wg.Wait()
		added := 0
		for _, err := range errs {
			switch {
			case err == nil:
				added++
			case !model.IsCode(err, model.ECustomerTaken):
				t.Fatalf("a racing add: %v (%s)", err, model.ErrorCode(err))
			}
		}
		if got, _ := stores[0].Customers(bg, "SAME", 5); added != 1 || len(got) != 1 {
			t.Fatalf("%d adds succeeded, %d rows", added, len(got))
		}
	})
}

// PCs saving one ID or card number for different customers at once: one
// keeps it, the others are told it is taken, never a database error, and
// a scan of it finds one person. An ID number whose check digit is a
// digit is a card number too, so half the PCs give it as a card.
func TestCustomerIDNumberUnderConcurrentSaves(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		const pcs, rounds = 4, 8
		stores := openStores(t, dsn, pcs)
		for round := range rounds {
			var num string
			for i := 0; num == "" || strings.HasSuffix(num, "X"); i++ {
				num = testID(fmt.Sprintf("4401061988%02d%02d%03d", round+1, i%28+1, 100+i))
			}
			errs := make([]error, pcs)
			var wg sync.WaitGroup
			for i, s := range stores {
				in := model.CustomerInput{Customer: model.Customer{Number: fmt.Sprintf("R%dP%d", round, i), Name: "客户", Level: "普通"}}
				if i%2 == 0 {
					in.IDNumber = num
				} else {
					in.CardNumber = num
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = s.SaveCustomer(bg, in)
				}()
			}
			wg.Wait()
			saved := 0
			for _, err := range errs {
				switch {
				case err == nil:
					saved++
				case !model.IsCode(err, model.ECustomerTaken):
					t.Fatalf("round %d: a racing save: %v (%s)", round, err, model.ErrorCode(err))
				}
			}
			found, err := stores[0].Customers(bg, num, 10)
			okAny(t, err)
			if saved != 1 || len(found) != 1 {
				t.Fatalf("round %d: %d saves kept the number, %d customers found by it", round, saved, len(found))
			}
			if _, err := stores[1].IdentifyCustomer(bg, num); err != nil {
				t.Fatalf("round %d: identify: %v", round, err)
			}
		}
	})
}

// Two managers importing one register file at once both succeed: each
// row is added by one and updated by the other, never refused as taken nor
// failed with a database error, and the register holds each row once.
func TestCustomerImportsAtOnce(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		const pcs, n = 3, 60
		stores := openStores(t, dsn, pcs)
		var rows []model.CustomerInput
		for i := range n {
			rows = append(rows, model.CustomerInput{Customer: model.Customer{Number: fmt.Sprintf("M%03d", i), Name: "客户", Level: "普通"},
				CardNumber: fmt.Sprintf("62990000%08d", i), Line: i + 2})
		}
		res := make([]model.ImportResult, pcs)
		errs := make([]error, pcs)
		var wg sync.WaitGroup
		for i, s := range stores {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res[i], errs[i] = s.ImportCustomers(bg, rows)
			}()
		}
		wg.Wait()
		added := 0
		for i := range stores {
			if errs[i] != nil || len(res[i].Bad) > 0 || res[i].Added+res[i].Updated != n {
				t.Fatalf("import %d: %+v %v (%s)", i, res[i], errs[i], model.ErrorCode(errs[i]))
			}
			added += res[i].Added
		}
		all, err := stores[0].Customers(bg, "", 0)
		okAny(t, err)
		if added != n || len(all) != n {
			t.Fatalf("%d added in all, %d customers, want %d", added, len(all), n)
		}
	})
}
