package model

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text that staff type ends up on a thermal printer, an LED bar, a hall
// screen and in a speech engine's input. A control character there is not
// text: ESC and GS are printer commands, CR starts a line an attacker
// writes, and a bidi override (U+202E) makes "A012" read as "210A" on a
// screen. So such text is refused where it is saved, not cleaned where it is
// shown.

// CheckText refuses control characters, bidi overrides, line or paragraph
// separators and broken UTF-8 in a value shown to people; zh and en name
// the value in both languages. multiline allows a plain line break ("\n")
// where a line break is meant (a ticket footer, the notice); "\r" is never
// allowed, so a line cannot be rewritten.
func CheckText(zh, en, s string, multiline bool) error {
	for _, r := range s {
		if r == '\n' && multiline {
			continue
		}
		if unsafeRune(r) || r == utf8.RuneError {
			return Errorf(EInvalidInput, "%s含有不可见的控制字符 %U，请删除后再保存 (%s contains the control character %U)",
				zh, r, en, r)
		}
	}
	return nil
}

// unsafeRune reports the runes no shown text may hold: C0 and C1 controls
// (tab too: printers treat it as a command), DEL, the bidi embedding,
// override and isolate controls, and the Unicode line and paragraph
// separators.
func unsafeRune(r rune) bool {
	switch {
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// StripUnsafe drops what CheckText refuses, keeping line breaks. Output
// paths (the ticket printer) use it so a value saved before the check
// existed, or arriving from elsewhere, still prints as text and never as a
// command.
func StripUnsafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || !unsafeRune(r) {
			return r
		}
		return -1
	}, s)
}
