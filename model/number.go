package model

import (
	"net/url"
	"strconv"
	"strings"
)

// ParseNumber splits a number as a customer reads it from a ticket
// ("A012", "a12" typed on a phone) into its service code and sequence, the
// inverse of FormatNumber; ok is false for anything else.
func ParseNumber(number string) (code string, seq int, ok bool) {
	s := strings.ToUpper(strings.TrimSpace(number))
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	code, digits := s[:i], s[i:]
	if CheckServiceCode(code) != nil || digits == "" || len(digits) > 9 {
		return "", 0, false
	}
	for j := 0; j < len(digits); j++ {
		if digits[j] < '0' || digits[j] > '9' {
			return "", 0, false
		}
	}
	seq, err := strconv.Atoi(digits)
	if err != nil || seq <= 0 {
		return "", 0, false
	}
	return code, seq, true
}

// CustomerURL is the page a customer's QR code opens: base + /t/{public_id}.
// Either part missing gives "", and no QR code is shown or printed.
func CustomerURL(base, publicID string) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" || publicID == "" {
		return ""
	}
	return base + "/t/" + url.PathEscape(publicID)
}
