package model

import (
	"errors"
	"fmt"
)

// Error codes are stable strings: the peer protocol sends them, the UI maps
// them to sentences, tests assert on them.
const (
	ENotFound          = "not_found"
	EInvalidTransition = "invalid_transition"
	EQueueEmpty        = "queue_empty"
	EWindowNotOpen     = "window_not_open"
	EWindowNotServing  = "window_not_serving"
	EInvalidInput      = "invalid_input"
	EUnavailable       = "unavailable"
	EUnauthorized      = "unauthorized"
	EForbidden         = "forbidden"
	ERateLimited       = "rate_limited"
	EConflict          = "conflict"
	// EOtherDay: the ticket belongs to another business day than today's.
	EOtherDay = "other_day"
	// ELowContrast: colours whose text would be unreadable (CheckContrast).
	ELowContrast = "low_contrast"
	// A clerk's sign-in (StaffDesk.SignIn): a wrong staff number or
	// password, an account locked by wrong ones, a disabled account.
	// Codes of their own, apart from EUnauthorized and EForbidden, which
	// speak of the PC's token.
	EWrongPassword = "wrong_password"
	EStaffLocked   = "staff_locked"
	EStaffDisabled = "staff_disabled"
	// EAreaNotEmpty: a waiting area services still belong to cannot be
	// deleted.
	EAreaNotEmpty = "area_not_empty"
	// A customer's rating (Ratings.Rate): the ticket has one already,
	// its rating window has passed, or it is not done.
	EAlreadyRated  = "already_rated"
	ERatingExpired = "rating_expired"
	ETicketNotDone = "ticket_not_done"
	EInternal      = "internal"
)

// Error is the domain error: a code for programs and one plain sentence for
// people. Wrap it with %w freely; ErrorCode finds it again.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf builds a domain error with a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first domain error in err's chain, or
// EInternal for anything else (nil gives "").
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessage returns a sentence fit to show a person: the domain message,
// or a generic one so internal details never reach a screen.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "内部错误，请联系管理员 (internal error)"
}

// IsCode reports whether err carries the given domain code.
func IsCode(err error, code string) bool { return ErrorCode(err) == code }
