package demodata

import (
	"fmt"

	"jiaohao/model"
)

// The simulated day's clerks: one per window signs in at opening, and a
// relief clerk takes over window 1 after its lunch, so the report's
// per-staff figures have a clerk whose day spans two sign-ins at one
// window. A store without staff accounts plays the day without them.

// DemoStaffPassword is the seeded clerks' password, for trying the demo.
const DemoStaffPassword = "demo1234"

const reliefClerk = "9000"

type staffStore interface {
	model.StaffAdmin
	model.StaffDesk
}

// clerkOf is the staff number seeded for window w.
func clerkOf(w int) string { return fmt.Sprintf("90%02d", w) }

var demoNames = []string{"李娜", "王强", "张伟", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴芳"}

// ensureClerks creates the day's accounts that do not exist yet.
func (s *sim) ensureClerks(windows []model.Window) (staffStore, error) {
	ss, ok := s.st.(staffStore)
	if !ok {
		return nil, nil
	}
	list, err := ss.StaffList(s.ctx)
	if err != nil {
		return nil, fmt.Errorf("read staff: %w", err)
	}
	have := map[string]bool{}
	for _, st := range list {
		have[st.Number] = true
	}
	numbers := []string{reliefClerk}
	for _, w := range windows {
		numbers = append(numbers, clerkOf(w.Number))
	}
	for i, n := range numbers {
		if have[n] {
			continue
		}
		name := demoNames[i%len(demoNames)]
		if _, err := ss.AddStaff(s.ctx, model.Staff{Number: n, Name: name}, DemoStaffPassword); err != nil {
			return nil, fmt.Errorf("add staff %s: %w", n, err)
		}
	}
	return ss, nil
}

// signIn is the stSignIn step: p.clerk signs in at p.window.
func (s *sim) signIn(p *step) error {
	if s.staff == nil {
		return nil
	}
	_, err := s.staff.SignIn(s.ctx, p.window, p.clerk, DemoStaffPassword)
	return err
}
