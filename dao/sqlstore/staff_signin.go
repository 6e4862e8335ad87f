package sqlstore

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/bcrypt"

	"jiaohao/model"
)

// A clerk signing in and out at a window (model.StaffDesk). The window
// row holds who is signed in and for which business day, so the end of
// the day signs everyone out with nothing to run. Wrong passwords are
// counted in the staff row by one conditional UPDATE, so tries from
// several PCs at once all count, and the lock's end is the database
// clock's.

var errBadSignIn = model.Errorf(model.EWrongPassword, "工号或密码错误 (wrong staff number or password)")

// dummyHash is compared against for an unknown number, so it costs the
// time a known one does and a guesser cannot tell them apart. Made on
// first use: every program start need not pay for a hash.
var dummyHash = sync.OnceValue(func() []byte {
	h, _ := bcrypt.GenerateFromPassword([]byte("no such staff"), bcryptCost)
	return h
})

// SignIn signs the clerk in at the window and out of any other.
func (s *GormStore) SignIn(ctx context.Context, window int, number, password string) (model.Window, error) {
	number = strings.TrimSpace(number)
	if err := model.CheckStaffNumber(number); err != nil {
		return model.Window{}, err
	}
	r := s.read(ctx)
	row, err := r.staffByNumber(number)
	if model.IsCode(err, model.ENotFound) {
		bcrypt.CompareHashAndPassword(dummyHash(), []byte(password))
		return model.Window{}, errBadSignIn
	}
	if err != nil {
		return model.Window{}, s.wrap(err)
	}
	// bcrypt compares the first 72 bytes only: a longer password, never
	// one an account can have, is wrong whatever it starts with.
	right := bcrypt.CompareHashAndPassword([]byte(row.PassHash), []byte(password)) == nil && len(password) <= model.MaxPasswordLen
	var out model.Window
	var refused error // committed, and still the answer (a counted wrong password)
	err = s.write(ctx, func(t *txn) error {
		// Lock the account's row before reading it: a disable, a reset or
		// a lock committed meanwhile is then read here, and one coming
		// later waits for this sign-in (a disable then finds the window
		// to sign out). Read unlocked, a disable committing between the
		// read and the window's write left a disabled clerk signed in.
		if err := t.Exec("UPDATE staff SET fail_count = fail_count WHERE id = ?", row.ID).Error; err != nil {
			return err
		}
		cur, err := t.staffByNumber(number)
		if err != nil {
			return err
		}
		if !cur.Enabled {
			if !right || cur.PassHash != row.PassHash { // said to the password only: numbers of clerks who left stay unknown
				return errBadSignIn
			}
			return model.Errorf(model.EStaffDisabled, "工号 %s 已停用 (account disabled)", number)
		}
		if locked(cur, t.now) {
			return errLocked(cur, t.now)
		}
		if !right || cur.PassHash != row.PassHash { // a reset meanwhile: the old password no longer counts
			refused, err = t.countWrongPassword(cur)
			return err
		}
		if err := t.Model(&staffRow{}).Where("id = ?", cur.ID).Update("fail_count", 0).Error; err != nil {
			return err
		}
		if _, err := t.window(window); err != nil {
			return err
		}
		// The clerk working here today is signed out with an event of
		// their own, as a move between windows is: every sign-in ends.
		if prev, err := t.eventStaff(window); err != nil {
			return err
		} else if prev != nil && *prev != cur.ID {
			if err := t.signOutStaff(*prev, -1); err != nil {
				return err
			}
		}
		if err := t.signOutStaff(cur.ID, window); err != nil {
			return err
		}
		if err := t.Exec("UPDATE service_window SET staff_id = ?, staff_date = ? WHERE branch_id = ? AND number = ?",
			cur.ID, t.date, s.branchID, window).Error; err != nil {
			return err
		}
		t.clerks = nil
		w, err := t.windowModel(window)
		if err != nil {
			return err
		}
		out = w
		t.emit(pendingEvent{kind: model.EvSignIn, window: &w, windowNo: window, staffID: &cur.ID})
		return nil
	})
	if err == nil && refused != nil {
		return model.Window{}, refused
	}
	return out, err
}

func locked(r staffRow, now time.Time) bool {
	return r.LockedUntil != nil && r.LockedUntil.After(now)
}

func errLocked(r staffRow, now time.Time) error {
	min := int(r.LockedUntil.Sub(now)/time.Minute) + 1
	return model.Errorf(model.EStaffLocked, "密码错误次数过多，工号已锁定，请 %d 分钟后再试 (too many wrong passwords: locked, try again in %d min)", min, min)
}

// countWrongPassword adds one wrong try in SQL, not from the row read, so
// concurrent tries are all counted; the StaffLockAfter-th locks the
// account for StaffLockFor and starts the count again. locked_until is
// assigned first: MySQL evaluates assignments left to right.
func (t *txn) countWrongPassword(r staffRow) (error, error) {
	until := t.now.Add(model.StaffLockFor)
	res := t.Exec(`UPDATE staff SET
		locked_until = CASE WHEN fail_count + 1 >= ? THEN ? ELSE locked_until END,
		fail_count = CASE WHEN fail_count + 1 >= ? THEN 0 ELSE fail_count + 1 END
		WHERE id = ? AND (locked_until IS NULL OR locked_until <= ?)`,
		model.StaffLockAfter, until, model.StaffLockAfter, r.ID, t.now)
	if res.Error != nil {
		return nil, res.Error
	}
	var after staffRow
	if err := t.Where("id = ?", r.ID).Take(&after).Error; err != nil {
		return nil, err
	}
	if locked(after, t.now) {
		return errLocked(after, t.now), nil
	}
	return errBadSignIn, nil
}

// SignOut ends the window's sign-in.
func (s *GormStore) SignOut(ctx context.Context, window int) (model.Window, error) {
	var out model.Window
	err := s.write(ctx, func(t *txn) error {
		if _, err := t.window(window); err != nil {
			return err
		}
		staff, err := t.eventStaff(window)
		if err != nil {
			return err
		}
		if staff == nil {
			out, err = t.windowModel(window)
			return err
		}
		if err := t.signOutStaff(*staff, -1); err != nil {
			return err
		}
		out, err = t.windowModel(window)
		return err
	})
	return out, err
}

// signOutStaff clears the clerk's sign-in at every window but keep (-1:
// none kept, 0 likewise as windows start at 1), one sign-out event each.
func (t *txn) signOutStaff(staffID int64, keep int) error {
	var wins []int
	if err := t.Raw("SELECT number FROM service_window WHERE branch_id = ? AND staff_id = ? AND number <> ?",
		t.s.branchID, staffID, keep).Scan(&wins).Error; err != nil {
		return err
	}
	for _, n := range wins {
		if err := t.Exec("UPDATE service_window SET staff_id = NULL, staff_date = NULL WHERE branch_id = ? AND number = ?",
			t.s.branchID, n).Error; err != nil {
			return err
		}
		t.clerks = nil
		w, err := t.windowModel(n)
		if err != nil {
			return err
		}
		id := staffID
		t.emit(pendingEvent{kind: model.EvSignOut, window: &w, windowNo: n, staffID: &id})
	}
	return nil
}
