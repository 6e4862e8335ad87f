package sqlstore

import (
	"fmt"
	"strings"
	"time"
)

// A month's report reads four times per ticket, a million tickets: on
// SQLite, where a time is text, the driver decoded each with two
// time.Parse calls (the first for another layout, failing), a quarter of
// the report's time. The report reads SQLite's times as their stored text
// instead (see packedTicketColumns) and decodes the one layout the driver
// writes here; the other engines' drivers hand over a time.Time.

// storedLayouts are the layouts the SQLite driver reads times in, the
// first the one it writes.
var storedLayouts = []string{
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999-07:00",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04",
	"2006-01-02T15:04",
	"2006-01-02",
}

// parseStoredTime decodes 2006-01-02 15:04:05[.fraction][±07:00|Z] by
// position, the way time.ParseInLocation(layout, s, time.UTC) would; any
// other text is read as the driver reads it: Go's time.String form, then
// its layouts.
func parseStoredTime(s string) (time.Time, error) {
	if t, ok := fastStoredTime(s); ok {
		return t, nil
	}
	// Go's own time.String form, which the driver reads too.
	goForm := s
	if i := strings.Index(goForm, " m="); i > 0 {
		goForm = goForm[:i]
	}
	if t, err := time.Parse("2006-01-02 15:04:05.999999999 -0700 MST", strings.TrimSpace(goForm)); err == nil {
		return t, nil
	}
	ts := strings.TrimSuffix(s, "Z")
	for _, f := range storedLayouts {
		if t, err := time.ParseInLocation(f, ts, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("a stored time %q in no known layout", s)
}

func fastStoredTime(s string) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	num := func(i, n int) (int, bool) {
		v := 0
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 2)
	d, ok3 := num(8, 2)
	h, ok4 := num(11, 2)
	mi, ok5 := num(14, 2)
	sec, ok6 := num(17, 2)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59 {
		return time.Time{}, false
	}
	rest, ns := s[19:], 0
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			if i <= 9 {
				ns = ns*10 + int(rest[i]-'0')
			}
		}
		if i == 1 || i > 10 {
			return time.Time{}, false
		}
		for k := i; k <= 9; k++ {
			ns *= 10
		}
		rest = rest[i:]
	}
	loc := time.UTC
	switch {
	case rest == "" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, okh := num(len(s)-5, 2)
		om, okm := num(len(s)-2, 2)
		if !okh || !okm || oh > 23 || om > 59 {
			return time.Time{}, false
		}
		off := oh*3600 + om*60
		if rest[0] == '-' {
			off = -off
		}
		if off != 0 {
			loc = time.FixedZone("", off)
		}
	default:
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(mo), d, h, mi, sec, ns, loc)
	if t.Day() != d { // 31 April is no date; time.Date would roll it over
		return time.Time{}, false
	}
	return t, true
}
