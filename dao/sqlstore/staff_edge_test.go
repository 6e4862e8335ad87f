package sqlstore_test

import (
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A ticket a clerk passed, requeued and passed again at a window nobody
// is signed in at counts for no clerk: its last pass names nobody. The
// clerk's own page and the report's facts agree.
func TestStaffLastPassByNobody(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		addStaff(t, s, "8101", "林静")
		_, err := s.SignIn(bg, 1, "8101", staffPass)
		okAny(t, err)
		tk := take(t, s, "A", 0)
		ok(t)(s.CallNext(bg, 1, ""))
		ok(t)(s.Pass(bg, tk.ID, 1))
		ok(t)(s.Requeue(bg, tk.ID, 1))
		ok(t)(s.CallNext(bg, 2, ""))
		ok(t)(s.Pass(bg, tk.ID, 2)) // window 2: nobody signed in
		f, err := s.StaffToday(bg, 1)
		okAny(t, err)
		if f.Passed != 0 {
			t.Errorf("the clerk's page counts %d passed, want 0: the last pass was at window 2 with nobody signed in", f.Passed)
		}
		now, err := s.Now(bg)
		okAny(t, err)
		_, passed, err := s.StaffActs(bg, now.Add(-time.Hour), now.Add(time.Hour))
		okAny(t, err)
		if id, ok := passed[tk.ID]; ok {
			t.Errorf("the report credits staff %d with the pass, want nobody", id)
		}
	})
}

// The account list says locked while the lock holds by the database
// clock, and no longer once it has run out (the manager's list and
// `jiaohao staff list` read it).
func TestStaffListLockRunsOut(t *testing.T) {
	s := daotest.SQLite(t)
	addStaff(t, s, "8201", "何平")
	for range model.StaffLockAfter {
		s.SignIn(bg, 1, "8201", "wrong-pass")
	}
	list, err := s.StaffList(bg)
	okAny(t, err)
	if list[0].LockedUntil == nil {
		t.Fatal("locked account listed without its lock")
	}
	s.ShiftClock(model.StaffLockFor + time.Second)
	list, err = s.StaffList(bg)
	okAny(t, err)
	if list[0].LockedUntil != nil {
		t.Fatalf("lock until %v listed after it ran out", list[0].LockedUntil)
	}
}

// A disabled account says so only to its right password: to a wrong one
// it answers as an unknown number does, so a guesser cannot find the
// numbers of clerks who left.
func TestStaffDisabledNeedsThePassword(t *testing.T) {
	s := daotest.SQLite(t)
	addStaff(t, s, "8301", "罗兰")
	_, err := s.SetStaffEnabled(bg, "8301", false)
	okAny(t, err)
	_, err = s.SignIn(bg, 1, "8301", "wrong-pass")
	wantCode(t, err, model.EWrongPassword)
	_, unknown := s.SignIn(bg, 1, "8399", "wrong-pass")
	if model.ErrorMessage(err) != model.ErrorMessage(unknown) {
		t.Errorf("disabled %q, unknown %q: the answers tell them apart", model.ErrorMessage(err), model.ErrorMessage(unknown))
	}
	_, err = s.SignIn(bg, 1, "8301", staffPass)
	wantCode(t, err, model.EStaffDisabled)
}

// A ticket the call timer passes counts for the clerk who called it, not
// for whoever signed in at the window meanwhile (a change of shift).
func TestStaffTimeoutNamesTheCaller(t *testing.T) {
	s := daotest.SQLite(t)
	caller := addStaff(t, s, "8401", "唐宁")
	addStaff(t, s, "8402", "宋雨")
	settings(t, s, "call_timeout_s", "5", "recall_max", "0")
	_, err := s.SignIn(bg, 1, "8401", staffPass)
	okAny(t, err)
	tk := take(t, s, "A", 0)
	ok(t)(s.CallNext(bg, 1, ""))
	_, err = s.SignIn(bg, 1, "8402", staffPass) // the next shift takes the window
	okAny(t, err)
	s.ShiftClock(10 * time.Second)
	sweep(t, s)
	var raw []int64
	okAny(t, s.DB().Raw("SELECT staff_id FROM queue_event WHERE kind = ? AND ticket_id = ?", model.EvTimeout, tk.ID).Scan(&raw).Error)
	if len(raw) != 1 || raw[0] != caller.ID {
		t.Fatalf("the timeout names staff %v, want the caller %d", raw, caller.ID)
	}
}

// bcrypt reads 72 bytes only: a password of 72 with anything typed after
// it is still a wrong password, not the account's.
func TestStaffPasswordPastBcryptsLength(t *testing.T) {
	s := daotest.SQLite(t)
	long := strings.Repeat("p", model.MaxPasswordLen)
	_, err := s.AddStaff(bg, model.Staff{Number: "8501", Name: "江河"}, long)
	okAny(t, err)
	_, err = s.SignIn(bg, 1, "8501", long+"-and-more")
	wantCode(t, err, model.EWrongPassword)
	_, err = s.SignIn(bg, 1, "8501", long)
	okAny(t, err)
}

// A clerk signing in at a window another clerk works at signs that clerk
// out with an event naming them, as a move between windows does: the log
// has an end for every sign-in.
func TestStaffSignInReplacesWithASignOut(t *testing.T) {
	s := daotest.SQLite(t)
	first := addStaff(t, s, "8601", "许诺")
	next := addStaff(t, s, "8602", "韩梅")
	_, err := s.SignIn(bg, 1, "8601", staffPass)
	okAny(t, err)
	v := lastVersion(t, s)
	_, err = s.SignIn(bg, 1, "8602", staffPass)
	okAny(t, err)
	evs, err := s.EventsSince(bg, v, 10)
	okAny(t, err)
	if len(evs) != 2 || evs[0].Kind != model.EvSignOut || evs[0].StaffID != first.ID || evs[0].Window != 1 ||
		evs[1].Kind != model.EvSignIn || evs[1].StaffID != next.ID {
		t.Fatalf("events of the takeover: %+v", evs)
	}
}
