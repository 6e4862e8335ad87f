package model

import (
	"strings"
	"unicode/utf8"
)

// CheckCustomer trims a customer to save and checks every field apart
// from the level's existence (the store knows the levels); each bad field
// is one RowError, so an import names them all at once.
func CheckCustomer(c CustomerInput) (CustomerInput, []RowError) {
	if c.Unreadable != "" {
		return c, []RowError{{Line: c.Line, Field: "line", Message: c.Unreadable}}
	}
	c.Number, c.Name, c.Phone = strings.TrimSpace(c.Number), strings.TrimSpace(c.Name), NormalizeKey(c.Phone)
	c.Level, c.Note = strings.TrimSpace(c.Level), strings.TrimSpace(c.Note)
	c.IDNumber, c.CardNumber = NormalizeKey(c.IDNumber), NormalizeKey(c.CardNumber)
	var bad []RowError
	add := func(field string, err error) {
		if err != nil {
			bad = append(bad, RowError{Line: c.Line, Field: field, Message: ErrorMessage(err)})
		}
	}
	add("number", CheckCustomerNumber(c.Number))
	add("name", CheckName("姓名", "name", c.Name))
	if c.Phone != "" {
		add("phone", CheckPhone(c.Phone))
	}
	if c.Level == "" {
		add("level", Errorf(EUnknownLevel, "请填写客户等级 (the level is missing)"))
	}
	if utf8.RuneCountInString(c.Note) > MaxCustomerNoteLen {
		add("note", Errorf(EInvalidInput, "备注须不超过 %d 个字 (the note must be at most %d characters)", MaxCustomerNoteLen, MaxCustomerNoteLen))
	} else {
		add("note", CheckText("备注", "note", c.Note, false))
	}
	if c.IDNumber != "" {
		add("id_number", CheckIDNumber(c.IDNumber))
	}
	if c.CardNumber != "" {
		add("card_number", CheckCardNumber(c.CardNumber))
	}
	return c, bad
}

// CheckCustomerNumber accepts letters and digits, 1 to
// MaxCustomerNumberLen.
func CheckCustomerNumber(n string) error {
	if n == "" || len(n) > MaxCustomerNumberLen || strings.IndexFunc(n, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z')
	}) >= 0 {
		return Errorf(EInvalidInput, "客户号须为 1 到 %d 个字母或数字 (the customer number must be 1-%d letters or digits)", MaxCustomerNumberLen, MaxCustomerNumberLen)
	}
	return nil
}

// CheckCustomerLevel trims and checks a level: a name, a priority of 0
// (the service's own) or MinPriority..MaxPriority.
func CheckCustomerLevel(l CustomerLevel) (CustomerLevel, error) {
	l.Name, l.Service = strings.TrimSpace(l.Name), strings.TrimSpace(l.Service)
	if err := CheckName("等级名称", "level name", l.Name); err != nil {
		return l, err
	}
	if l.Priority != 0 && (l.Priority < MinPriority || l.Priority > MaxPriority) {
		return l, Errorf(EInvalidInput, "等级的优先级须为 0（按业务）或 %d 到 %d (the level's priority must be 0 or %d-%d)", MinPriority, MaxPriority, MinPriority, MaxPriority)
	}
	if l.SortOrder < -MaxSortOrder || l.SortOrder > MaxSortOrder {
		return l, Errorf(EInvalidInput, "排序值超出范围 (sort order out of range)")
	}
	return l, nil
}

// ErrCustomerNotFound is the sentence of a key or id nobody has.
func ErrCustomerNotFound() error {
	return Errorf(ECustomerNotFound, "没有找到这位客户，请核对号码或到柜台登记 (no customer found; check the number or register at the counter)")
}

// ErrCustomerTaken is the sentence of a customer number already in use.
func ErrCustomerTaken(number string) error {
	return Errorf(ECustomerTaken, "客户号 %s 已存在 (customer number %s already exists)", number, number)
}

// ErrUnknownLevel is the sentence of a level the branch does not have.
func ErrUnknownLevel(name string) error {
	return Errorf(EUnknownLevel, "没有客户等级“%s” (no customer level %q)", name, name)
}
