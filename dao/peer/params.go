package peer

import "strconv"

// Path and query values.

func parseID(s string) (int64, error) {
	n, err := parseDigits(s, 18)
	if err != nil || n < 1 {
		return 0, invalid("号码编号须为正整数 (ticket id must be a positive integer)")
	}
	return n, nil
}

func parseWindowPath(s string) (int, error) {
	n, err := parseDigits(s, 3)
	if err != nil || validWindow(int(n), false) != nil {
		return 0, invalid("窗口号须在 1 到 999 之间 (window must be 1-999)")
	}
	return int(n), nil
}

// parseDigits accepts only plain decimal digits (no sign, no spaces).
func parseDigits(s string, max int) (int64, error) {
	if s == "" || len(s) > max {
		return 0, strconv.ErrSyntax
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

func validPublicID(s string) bool {
	if len(s) < 16 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func validSettingKey(s string) bool {
	if len(s) < 1 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}
