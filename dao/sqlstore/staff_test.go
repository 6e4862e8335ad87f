package sqlstore_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

const staffPass = "s3cret-pass"

func addStaff(t *testing.T, s *sqlstore.GormStore, number, name string, services ...string) model.Staff {
	t.Helper()
	st, err := s.AddStaff(bg, model.Staff{Number: number, Name: name, Services: services}, staffPass)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func clerkAt(t *testing.T, s *sqlstore.GormStore, window int) *model.Clerk {
	t.Helper()
	ws, err := s.Windows(bg)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Number == window {
			return w.Clerk
		}
	}
	t.Fatalf("no window %d", window)
	return nil
}

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if model.ErrorCode(err) != code {
		t.Fatalf("got %v (%s), want code %s", err, model.ErrorCode(err), code)
	}
}

// A clerk signs in, every event of the window then names them beside the
// terminal, the snapshot shows them, signing in elsewhere or out ends it,
// and the next business day finds the window signed out.
func TestStaffSignInOutAndEvents(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		li := addStaff(t, s, "1001", "李娜")
		w, err := s.SignIn(bg, 1, "1001", staffPass)
		okAny(t, err)
		if w.Clerk == nil || w.Clerk.ID != li.ID || w.Clerk.Number != "1001" || w.Clerk.Name != "李娜" {
			t.Fatalf("signed-in window: %+v", w.Clerk)
		}
		snap, err := s.Snapshot(bg)
		okAny(t, err)
		if c := snap.Windows[0].Clerk; c == nil || c.ID != li.ID {
			t.Fatalf("snapshot window 1 clerk %+v", c)
		}
		since := snap.Version
		take(t, s, "A", 0)
		ctx := model.WithActor(bg, "caller-1")
		tk := ok(t)(s.CallNext(ctx, 1, ""))
		ok(t)(s.StartServing(ctx, tk.ID, 1))
		ok(t)(s.Finish(ctx, tk.ID, 1))
		evs, err := s.EventsSince(bg, since, 100)
		okAny(t, err)
		kinds := map[string]bool{}
		for _, e := range evs {
			kinds[e.Kind] = true
			switch e.Kind {
			case model.EvCall, model.EvStart, model.EvFinish:
				if e.StaffID != li.ID || e.Actor != "caller-1" {
					t.Errorf("%s event: staff %d actor %q, want %d caller-1", e.Kind, e.StaffID, e.Actor, li.ID)
				}
			case model.EvTake:
				if e.StaffID != 0 {
					t.Errorf("take names staff %d", e.StaffID)
				}
			}
		}
		if !kinds[model.EvCall] || !kinds[model.EvFinish] {
			t.Fatalf("events %v", kinds)
		}

		// Signing in at window 2 signs out of 1, with an event naming her.
		v := lastVersion(t, s)
		_, err = s.SignIn(bg, 2, "1001", staffPass)
		okAny(t, err)
		if clerkAt(t, s, 1) != nil || clerkAt(t, s, 2) == nil {
			t.Fatal("sign-in at window 2 left window 1 signed in or 2 not")
		}
		evs, _ = s.EventsSince(bg, v, 10)
		if len(evs) != 2 || evs[0].Kind != model.EvSignOut || evs[0].Window != 1 || evs[0].StaffID != li.ID || evs[1].Kind != model.EvSignIn {
			t.Fatalf("events of the move: %+v", evs)
		}
		w, err = s.SignOut(bg, 2)
		okAny(t, err)
		if w.Clerk != nil || clerkAt(t, s, 2) != nil {
			t.Fatal("still signed in after sign-out")
		}
		take(t, s, "A", 0)
		v = lastVersion(t, s)
		ok(t)(s.CallNext(ctx, 2, ""))
		evs, _ = s.EventsSince(bg, v, 10)
		if len(evs) != 1 || evs[0].StaffID != 0 {
			t.Fatalf("call after sign-out names staff: %+v", evs)
		}

		// The end of the business day signs out.
		_, err = s.SignIn(bg, 3, "1001", staffPass)
		okAny(t, err)
		s.ShiftClock(24 * time.Hour)
		if c := clerkAt(t, s, 3); c != nil {
			t.Fatalf("next day window 3 still has %+v", c)
		}
	})
}

func lastVersion(t *testing.T, s *sqlstore.GormStore) int64 {
	t.Helper()
	snap, err := s.Snapshot(bg)
	okAny(t, err)
	return snap.Version
}

// Five wrong passwords lock the account for five minutes by the
// database clock; fewer do not, and a right one starts the count again.
func TestStaffLockout(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		addStaff(t, s, "2002", "王强")
		for range model.StaffLockAfter - 1 {
			_, err := s.SignIn(bg, 1, "2002", "wrong-pass")
			wantCode(t, err, model.EWrongPassword)
		}
		_, err := s.SignIn(bg, 1, "2002", staffPass)
		okAny(t, err) // four wrong, then right: not locked, count restarts
		for i := range model.StaffLockAfter {
			_, err := s.SignIn(bg, 1, "2002", "wrong-pass")
			want := model.EWrongPassword
			if i == model.StaffLockAfter-1 {
				want = model.EStaffLocked
			}
			wantCode(t, err, want)
		}
		_, err = s.SignIn(bg, 1, "2002", staffPass)
		wantCode(t, err, model.EStaffLocked) // the right password waits too
		s.ShiftClock(model.StaffLockFor - time.Minute)
		_, err = s.SignIn(bg, 1, "2002", staffPass)
		wantCode(t, err, model.EStaffLocked)
		s.ShiftClock(time.Minute)
		_, err = s.SignIn(bg, 1, "2002", staffPass)
		okAny(t, err)
		// A reset lifts a lock at once.
		for range model.StaffLockAfter {
			s.SignIn(bg, 1, "2002", "wrong-pass")
		}
		okAny(t, s.ResetStaffPassword(bg, "2002", "new-pass-1"))
		_, err = s.SignIn(bg, 1, "2002", "new-pass-1")
		okAny(t, err)
		_, err = s.SignIn(bg, 1, "2002", staffPass)
		wantCode(t, err, model.EWrongPassword)
	})
}

// Wrong passwords typed at two PCs at once all count: four never lock,
// the fifth does, however they interleave.
func TestStaffLockoutConcurrent(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 2)
		addStaff(t, stores[0], "3003", "赵敏")
		var wg sync.WaitGroup
		errs := make(chan error, model.StaffLockAfter)
		for i := range model.StaffLockAfter - 1 {
			wg.Go(func() {
				_, err := stores[i%2].SignIn(bg, 1+i%2, "3003", "wrong-pass")
				errs <- err
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			wantCode(t, err, model.EWrongPassword)
		}
		_, err := stores[1].SignIn(bg, 2, "3003", "wrong-pass")
		wantCode(t, err, model.EStaffLocked)
		_, err = stores[0].SignIn(bg, 1, "3003", staffPass)
		wantCode(t, err, model.EStaffLocked)
	})
}

// A disabled account cannot sign in, and disabling signs the clerk out.
func TestStaffDisabled(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		addStaff(t, s, "4004", "孙丽")
		_, err := s.SignIn(bg, 1, "4004", staffPass)
		okAny(t, err)
		st, err := s.SetStaffEnabled(bg, "4004", false)
		okAny(t, err)
		if st.Enabled || clerkAt(t, s, 1) != nil {
			t.Fatalf("disabled %+v, window 1 clerk %+v", st, clerkAt(t, s, 1))
		}
		_, err = s.SignIn(bg, 1, "4004", staffPass)
		wantCode(t, err, model.EStaffDisabled)
		_, err = s.SetStaffEnabled(bg, "4004", true)
		okAny(t, err)
		_, err = s.SignIn(bg, 1, "4004", staffPass)
		okAny(t, err)
		_, err = s.SignIn(bg, 1, "9999", staffPass)
		wantCode(t, err, model.EWrongPassword) // unknown numbers say no more than wrong passwords
	})
}

// While a clerk is signed in, call-next calls only the services they may
// handle among the window's.
func TestStaffServicesNarrowCalls(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		addStaff(t, s, "5005", "周杰", "B")
		addStaff(t, s, "5006", "吴芳", "V")
		_, err := s.SetWindowServices(bg, 1, []string{"A", "B"})
		okAny(t, err)
		take(t, s, "A", 0)
		b := take(t, s, "B", 0)
		_, err = s.SignIn(bg, 1, "5005", staffPass)
		okAny(t, err)
		if got := ok(t)(s.CallNext(bg, 1, "")); got.ID != b.ID {
			t.Fatalf("called %s, want the B ticket %s", got.Number, b.Number)
		}
		_, err = s.SignIn(bg, 1, "5006", staffPass)
		okAny(t, err)
		_, err = s.CallNext(bg, 1, "")
		wantCode(t, err, model.EWindowNotServing)
	})
}

// Bad input is one sentence and a typed code, and changes nothing; the
// password is never stored in clear.
func TestStaffBadInput(t *testing.T) {
	s := daotest.SQLite(t)
	addStaff(t, s, "6006", "郑华")
	for _, c := range []struct {
		st   model.Staff
		pass string
		code string
	}{
		{model.Staff{Number: "", Name: "甲"}, staffPass, model.EInvalidInput},
		{model.Staff{Number: "6006", Name: "乙"}, staffPass, model.EConflict},
		{model.Staff{Number: "6007", Name: strings.Repeat("长", model.MaxNameLen+1)}, staffPass, model.EInvalidInput},
		{model.Staff{Number: "6008", Name: "丙"}, "short", model.EInvalidInput},
		{model.Staff{Number: "60 09", Name: "丁"}, staffPass, model.EInvalidInput},
		{model.Staff{Number: "6010", Name: "戊", Services: []string{"Z"}}, staffPass, model.ENotFound},
	} {
		_, err := s.AddStaff(bg, c.st, c.pass)
		wantCode(t, err, c.code)
		if msg := model.ErrorMessage(err); !strings.Contains(msg, "(") {
			t.Errorf("%q: not a sentence in both languages", msg)
		}
	}
	list, err := s.StaffList(bg)
	okAny(t, err)
	if len(list) != 1 || list[0].Name != "郑华" {
		t.Fatalf("staff after refused input: %+v", list)
	}
	var hashes []string
	okAny(t, s.DB().Raw("SELECT pass_hash FROM staff").Scan(&hashes).Error)
	if len(hashes) != 1 || strings.Contains(hashes[0], staffPass) || !strings.HasPrefix(hashes[0], "$2") {
		t.Fatalf("stored password column %q", hashes)
	}
}

// The clerk's own page counts the day's tickets they finished and passed,
// and none of another clerk's.
func TestStaffToday(t *testing.T) {
	s := daotest.SQLite(t)
	addStaff(t, s, "7007", "钱鑫")
	addStaff(t, s, "7008", "孙悦")
	_, err := s.StaffToday(bg, 1)
	wantCode(t, err, model.ENotFound)
	_, err = s.SignIn(bg, 1, "7007", staffPass)
	okAny(t, err)
	_, err = s.SignIn(bg, 2, "7008", staffPass)
	okAny(t, err)
	for range 4 {
		take(t, s, "A", 0)
	}
	for _, w := range []int{1, 1, 2} {
		tk := ok(t)(s.CallNext(bg, w, ""))
		ok(t)(s.StartServing(bg, tk.ID, w))
		s.ShiftClock(2 * time.Minute)
		ok(t)(s.Finish(bg, tk.ID, w))
	}
	tk := ok(t)(s.CallNext(bg, 1, ""))
	ok(t)(s.Pass(bg, tk.ID, 1))
	f, err := s.StaffToday(bg, 1)
	okAny(t, err)
	if f.Staff.Number != "7007" || f.Served != 2 || f.Passed != 1 || f.AvgRating != nil ||
		f.AvgService < 2*time.Minute || f.AvgService > 3*time.Minute {
		t.Fatalf("window 1 figures %+v", f)
	}
	if f, _ := s.StaffToday(bg, 2); f.Served != 1 || f.Passed != 0 {
		t.Fatalf("window 2 figures %+v", f)
	}
}

// A timer's events name the clerk of the window that called the ticket,
// and a manager acting for a window (window 0) names the event's own
// window's clerk; the raw queue_event row carries the same staff_id.
func TestStaffOnTimerAndManagerEvents(t *testing.T) {
	s := daotest.SQLite(t)
	st := addStaff(t, s, "7101", "冯雪")
	settings(t, s, "call_timeout_s", "5", "recall_max", "0")
	_, err := s.SignIn(bg, 1, "7101", staffPass)
	okAny(t, err)
	a := take(t, s, "A", 0)
	b := take(t, s, "A", 0)
	ok(t)(s.CallNext(bg, 1, ""))
	v := lastVersion(t, s)
	s.ShiftClock(10 * time.Second)
	sweep(t, s)
	ok(t)(s.CallNext(bg, 1, ""))
	ok(t)(s.Cancel(bg, b.ID, 0)) // the manager cancels window 1's ticket
	evs, err := s.EventsSince(bg, v, 10)
	okAny(t, err)
	var kinds []string
	for _, e := range evs {
		if e.TicketID == a.ID || e.TicketID == b.ID {
			kinds = append(kinds, e.Kind)
			if e.StaffID != st.ID {
				t.Errorf("%s of %d names staff %d, want %d", e.Kind, e.TicketID, e.StaffID, st.ID)
			}
		}
	}
	if !slices.Contains(kinds, model.EvTimeout) || !slices.Contains(kinds, model.EvCancel) {
		t.Fatalf("events %v: want a timeout and a cancel", kinds)
	}
	var raw []int64
	okAny(t, s.DB().Raw("SELECT staff_id FROM queue_event WHERE kind = ? AND ticket_id = ?", model.EvTimeout, a.ID).Scan(&raw).Error)
	if len(raw) != 1 || raw[0] != st.ID {
		t.Fatalf("queue_event.staff_id %v", raw)
	}
}
