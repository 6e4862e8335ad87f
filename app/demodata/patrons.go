package demodata

import (
	"fmt"
	"math/rand/v2"

	"jiaohao/model"
)

// The simulated day's register of customers (客户管理): when asked for
// (DayConfig.Customers), a register of that many is imported once — most
// 普通, some 贵宾, a few 私行 — and one kiosk customer in four identifies
// at the kiosk with a card, so the report's table by level and the
// priority of the 贵宾 show real figures. The choice of who identifies
// draws from a random source of its own, so a day's arrivals and outcomes
// stay what they are without a register.

type patronStore interface {
	model.CustomerRegister
	model.CustomerDesk
}

var (
	demoSurnames = []string{"王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭"}
	demoGiven    = []string{"伟", "芳", "娜", "敏", "静", "强", "磊", "洋", "艳", "勇", "军", "杰", "娟", "涛", "明", "超", "秀英", "建华", "志强", "海燕"}
)

// demoPatron is the i-th customer of the demo register; card numbers are
// made up (no real card starts 6299) and ID numbers are left out.
func demoPatron(i int) model.CustomerInput {
	level := "普通"
	switch {
	case i%20 == 7:
		level = "私行"
	case i%20 == 3 || i%20 == 11 || i%20 == 15:
		level = "贵宾"
	}
	name := demoSurnames[i%len(demoSurnames)] + demoGiven[(i*7)%len(demoGiven)]
	return model.CustomerInput{
		Customer:   model.Customer{Number: fmt.Sprintf("D%05d", i+1), Name: name, Phone: fmt.Sprintf("139%08d", 10000000+i), Level: level},
		CardNumber: fmt.Sprintf("6299%012d", 100000+i),
		Line:       i + 2,
	}
}

// ensurePatrons imports the demo register where it is missing, turns
// identification on at the kiosks, and returns the customers' ids; nil
// when the store keeps no register or none was asked for.
func (s *sim) ensurePatrons(n int) ([]int64, error) {
	ps, ok := s.st.(patronStore)
	if n <= 0 || !ok {
		return nil, nil
	}
	have, err := ps.Customers(s.ctx, demoPatron(0).Number, 1)
	if err != nil {
		return nil, fmt.Errorf("read customers: %w", err)
	}
	if len(have) == 0 {
		rows := make([]model.CustomerInput, n)
		for i := range rows {
			rows[i] = demoPatron(i)
		}
		res, err := ps.ImportCustomers(s.ctx, rows)
		if err != nil {
			return nil, fmt.Errorf("import the demo customers: %w", err)
		}
		if len(res.Bad) > 0 {
			return nil, fmt.Errorf("import the demo customers: line %d: %s", res.Bad[0].Line, res.Bad[0].Message)
		}
	}
	if err := s.st.SetSetting(s.ctx, "customer_ident", "true"); err != nil {
		return nil, err
	}
	var ids []int64
	for i := 0; i < n; i++ {
		found, err := ps.Customers(s.ctx, demoPatron(i).Number, 1)
		if err != nil {
			return nil, fmt.Errorf("read customers: %w", err)
		}
		if len(found) == 1 && found[0].Enabled {
			ids = append(ids, found[0].ID)
		}
	}
	s.patrons = ps
	return ids, nil
}

// identify gives one kiosk arrival in four a customer of the register.
func identify(arrivals []arrival, ids []int64, seed uint64) {
	if len(ids) == 0 {
		return
	}
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, seed|1))
	for i := range arrivals {
		if arrivals[i].source == model.SourceKiosk && i%4 == 1 {
			arrivals[i].customer = ids[rng.IntN(len(ids))]
		}
	}
}
