package model

import (
	"context"
	"strings"
	"unicode/utf8"
)

// The customers the branch knows (客户管理, seed 002's 客户信息表): a
// register of customer number, name, phone, level and note. A customer
// identifies at the kiosk by a card or ID number or a phone number; the
// ticket then carries the customer and the level's priority. An ID or
// card number is never kept in clear: the store keeps a keyed hash (HMAC
// with a secret of the branch) and the last 4 digits to show.

// Codes of bad customer input, apart from EInvalidInput so a screen or an
// import report can say which rule a row broke.
const (
	EBadPhone         = "bad_phone"
	EBadIDNumber      = "bad_id_number"
	ECustomerTaken    = "customer_taken"
	EUnknownLevel     = "unknown_level"
	ECustomerNotFound = "customer_not_found"
)

const (
	MaxCustomerNumberLen = 20  // 客户号 characters
	MaxCustomerNoteLen   = 200 // characters of a note
	MaxLevels            = 20  // levels one branch keeps
	MaxImportRows        = 20000
)

// CustomerLevel is one level of the register (普通, 贵宾, 私行 ...): the
// priority its customers' tickets get (0: the service's own) and, when
// Service is set, the service their tickets are issued in whatever they
// tap (a 私行 customer goes to the private banking queue).
type CustomerLevel struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Priority  int    `json:"priority"`
	Service   string `json:"service,omitempty"`
	SortOrder int    `json:"sort_order"`
}

// Customer is one entry of the register as the manager sees it. IDLast4
// and CardLast4 are all that is shown of the numbers.
type Customer struct {
	ID        int64  `json:"id"`
	Number    string `json:"number"` // 客户号, unique in the branch
	Name      string `json:"name"`
	Phone     string `json:"phone,omitempty"`
	Level     string `json:"level"` // a CustomerLevel's name
	Note      string `json:"note,omitempty"`
	IDLast4   string `json:"id_last4,omitempty"`
	CardLast4 string `json:"card_last4,omitempty"`
	Enabled   bool   `json:"enabled"`
}

// CustomerInput is a customer to save with the numbers typed for it, in
// clear only on their way to the store's hash. An empty IDNumber or
// CardNumber keeps the one stored (a new customer: none); ClearID and
// ClearCard remove it. Line is the CSV line an imported row came from.
type CustomerInput struct {
	Customer
	IDNumber   string `json:"id_number,omitempty"`
	CardNumber string `json:"card_number,omitempty"`
	ClearID    bool   `json:"clear_id,omitempty"`
	ClearCard  bool   `json:"clear_card,omitempty"`
	Line       int    `json:"line,omitempty"`
	// Unreadable is why the line of an imported file could not be read.
	Unreadable string `json:"unreadable,omitempty"`
}

// CustomerMatch is what the kiosk learns of an identified customer: what
// the ticket needs and a masked name to greet them by, never the phone or
// the numbers.
type CustomerMatch struct {
	ID       int64  `json:"id"`
	Level    string `json:"level"`
	Priority int    `json:"priority"`
	Service  string `json:"service,omitempty"`
	Masked   string `json:"masked"` // 王**
}

// CustomerCard is what the clerk at a window sees of the customer of the
// ticket it holds. Ticket is that ticket: a window that moved on while
// the card was asked for shows no card of the ticket before.
type CustomerCard struct {
	Ticket int64  `json:"ticket"`
	Number string `json:"number"`
	Name   string `json:"name"`
	Level  string `json:"level"`
	Note   string `json:"note,omitempty"`
}

// RowError is one bad field of an imported line.
type RowError struct {
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// ImportResult is an import's outcome: when Bad holds a row, nothing was
// changed; otherwise Added and Updated were written in one transaction.
type ImportResult struct {
	Added   int        `json:"added"`
	Updated int        `json:"updated"`
	Bad     []RowError `json:"bad,omitempty"`
}

// CustomerRegister is the manager's side of the register. Both adapters
// have it.
type CustomerRegister interface {
	// Customers finds up to limit customers by query: a customer number,
	// part of a name, a phone, or a card or ID number (hashed to look up);
	// "" lists them by number.
	Customers(ctx context.Context, query string, limit int) ([]Customer, error)
	// SaveCustomer adds a customer (ID 0) or edits one by ID; a number
	// another has is ECustomerTaken, an unknown ID ECustomerNotFound.
	SaveCustomer(ctx context.Context, c CustomerInput) (Customer, error)
	// ImportCustomers checks every row first and writes all of them in one
	// transaction (adding new numbers, updating known ones), or none.
	ImportCustomers(ctx context.Context, rows []CustomerInput) (ImportResult, error)
	CustomerLevels(ctx context.Context) ([]CustomerLevel, error)
	// SaveCustomerLevel adds a level (ID 0) or edits one; renaming keeps
	// its customers.
	SaveCustomerLevel(ctx context.Context, l CustomerLevel) (CustomerLevel, error)
}

// CustomerDesk is the kiosk's side: identify, then take for the customer.
type CustomerDesk interface {
	// IdentifyCustomer finds the enabled customer of a card or ID number
	// or a phone number; none is ECustomerNotFound.
	IdentifyCustomer(ctx context.Context, key string) (CustomerMatch, error)
	// TakeTicketFor takes a number for the customer: the level's priority,
	// in the level's service when it has one, else in service.
	TakeTicketFor(ctx context.Context, service string, customer int64, source string) (Ticket, error)
}

// WindowCustomers is the caller's side: who the window's ticket is for.
type WindowCustomers interface {
	// WindowCustomer is the customer of the ticket the window holds;
	// ECustomerNotFound when it holds none or one taken without.
	WindowCustomer(ctx context.Context, window int) (CustomerCard, error)
}

// KeyKind is what an identification key is.
type KeyKind int

const (
	KeyPhone KeyKind = iota + 1
	KeyIDNumber
	KeyCard
)

// NormalizeKey strips what a scanner or a person adds to a number
// (spaces, dashes) and upper-cases an ID's X.
func NormalizeKey(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-' || r == '\t' || r == '\r' || r == '\n':
			return -1
		case r == 'x':
			return 'X'
		}
		return r
	}, strings.TrimSpace(s))
}

// ClassifyKey says what a normalized key is: an 11-digit mobile number, an
// 18-character ID number with a right check digit, or a card number (12
// to 19 digits). Anything else is EInvalidInput.
func ClassifyKey(k string) (KeyKind, error) {
	switch {
	case CheckPhone(k) == nil:
		return KeyPhone, nil
	case len(k) == 18 && CheckIDNumber(k) == nil:
		return KeyIDNumber, nil
	case CheckCardNumber(k) == nil:
		return KeyCard, nil
	}
	return 0, Errorf(EInvalidInput, "请输入手机号、身份证号或卡号 (enter a phone, ID or card number)")
}

// CheckPhone accepts a mainland mobile number: 11 digits starting 13-19.
func CheckPhone(p string) error {
	if len(p) != 11 || p[0] != '1' || p[1] < '3' || !allDigits(p) {
		return Errorf(EBadPhone, "手机号须为 11 位数字，以 13 到 19 开头 (the phone must be 11 digits starting 13-19)")
	}
	return nil
}

var idWeights = [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}

// CheckIDNumber accepts an 18-character resident ID number (身份证) whose
// last character is its ISO 7064 MOD 11-2 check digit (0-9 or X).
func CheckIDNumber(id string) error {
	if len(id) != 18 || !allDigits(id[:17]) {
		return Errorf(EBadIDNumber, "身份证号须为 18 位，前 17 位为数字 (the ID number must be 18 characters, the first 17 digits)")
	}
	sum := 0
	for i, w := range idWeights {
		sum += int(id[i]-'0') * w
	}
	if "10X98765432"[sum%11] != id[17] {
		return Errorf(EBadIDNumber, "身份证号校验位不对，请核对 (the ID number's check digit is wrong)")
	}
	return nil
}

// CheckCardNumber accepts a card number of 12 to 19 digits.
func CheckCardNumber(c string) error {
	if len(c) < 12 || len(c) > 19 || !allDigits(c) {
		return Errorf(EBadIDNumber, "卡号须为 12 到 19 位数字 (the card number must be 12-19 digits)")
	}
	return nil
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// Last4 is what is shown of a number.
func Last4(k string) string {
	if len(k) <= 4 {
		return k
	}
	return k[len(k)-4:]
}

// MaskName keeps the first character of a name: 王小明 -> 王**.
func MaskName(name string) string {
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(name)
	return string(r) + strings.Repeat("*", max(n-1, 1))
}
