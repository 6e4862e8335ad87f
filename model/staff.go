package model

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Staff accounts (个人中心, seed 002): the clerks of the branch. A caller
// PC's token says which window it is; a clerk's sign-in says who works
// there, so every event and the report can name the person, not the PC.

const (
	// StaffLockAfter wrong passwords in a row lock the account ...
	StaffLockAfter = 5
	// ... for StaffLockFor, by the database clock.
	StaffLockFor      = 5 * time.Minute
	MaxStaffNumberLen = 16 // characters of a staff number (工号)
	MinPasswordLen    = 6
	MaxPasswordLen    = 72 // bcrypt reads no further
)

// Staff is one clerk's account. The password is never part of it: the
// store keeps a bcrypt hash only.
type Staff struct {
	ID     int64  `json:"id"`
	Number string `json:"number"` // 工号, unique in the branch
	Name   string `json:"name"`
	// Enabled: a disabled account cannot sign in (a clerk who left).
	Enabled bool `json:"enabled"`
	// Services the clerk may handle; empty: any the window serves.
	Services []string `json:"services"`
	// LockedUntil is set while wrong passwords keep the account locked.
	LockedUntil *time.Time `json:"locked_until,omitempty"`
}

// Clerk is who is signed in at a window, as every screen shows it.
type Clerk struct {
	ID     int64  `json:"id"`
	Number string `json:"number"`
	Name   string `json:"name"`
}

// StaffFigures are one clerk's business day: what their own page shows
// and the report's per-staff row holds. AvgRating is nil while no rating
// exists.
type StaffFigures struct {
	Staff       Clerk         `json:"staff"`
	Served      int           `json:"served"`
	Passed      int           `json:"passed"`
	AvgService  time.Duration `json:"avg_service"`
	AvgRating   *float64      `json:"avg_rating,omitempty"`
	RatingCount int           `json:"rating_count"`
}

// StaffAdmin is the manager's side of the accounts, by staff number.
type StaffAdmin interface {
	StaffList(ctx context.Context) ([]Staff, error)
	// AddStaff creates an enabled account with the given password.
	AddStaff(ctx context.Context, s Staff, password string) (Staff, error)
	// SetStaffEnabled disables (and signs out everywhere) or enables.
	SetStaffEnabled(ctx context.Context, number string, enabled bool) (Staff, error)
	// SetStaffServices sets the services the clerk may handle.
	SetStaffServices(ctx context.Context, number string, services []string) (Staff, error)
	// ResetStaffPassword sets a new password and lifts a lock.
	ResetStaffPassword(ctx context.Context, number, password string) error
}

// StaffDesk is the caller's side: who works at a window.
type StaffDesk interface {
	// SignIn signs the clerk in at the window (and out of any other);
	// a wrong password counts toward the lock, a locked or disabled
	// account is refused.
	SignIn(ctx context.Context, window int, number, password string) (Window, error)
	// SignOut ends the window's sign-in; none is no error.
	SignOut(ctx context.Context, window int) (Window, error)
	// StaffToday is the figures of the clerk signed in at the window
	// today (ENotFound when none is).
	StaffToday(ctx context.Context, window int) (StaffFigures, error)
}

// CheckStaff accepts a new account's number, name and password.
func CheckStaff(s Staff, password string) error {
	if err := CheckStaffNumber(s.Number); err != nil {
		return err
	}
	if err := CheckName("姓名", "name", s.Name); err != nil {
		return err
	}
	return CheckPassword(password)
}

// CheckStaffNumber accepts letters and digits, 1 to MaxStaffNumberLen.
func CheckStaffNumber(n string) error {
	if n == "" || utf8.RuneCountInString(n) > MaxStaffNumberLen {
		return Errorf(EInvalidInput, "工号须为 1 到 %d 个字母或数字 (staff number must be 1-%d letters or digits)", MaxStaffNumberLen, MaxStaffNumberLen)
	}
	if strings.IndexFunc(n, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z')
	}) >= 0 {
		return Errorf(EInvalidInput, "工号只能含字母和数字 (staff number: letters and digits only)")
	}
	return nil
}

// CheckPassword accepts MinPasswordLen to MaxPasswordLen bytes.
func CheckPassword(p string) error {
	if len(p) < MinPasswordLen || len(p) > MaxPasswordLen {
		return Errorf(EInvalidInput, "密码须为 %d 到 %d 个字符 (password must be %d-%d characters)", MinPasswordLen, MaxPasswordLen, MinPasswordLen, MaxPasswordLen)
	}
	return nil
}

// ClerkMayHandle narrows the services a window calls for to those its
// clerk may handle. No clerk, or a clerk with no list, leaves the
// window's; an empty result means the clerk handles none of them.
func ClerkMayHandle(window, clerk []string) []string {
	if len(clerk) == 0 {
		return window
	}
	var out []string
	for _, s := range window {
		for _, c := range clerk {
			if s == c {
				out = append(out, s)
				break
			}
		}
	}
	return out
}
