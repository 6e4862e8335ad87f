package model

import "time"

// Calendar says which business day a moment belongs to (seed 003 §6,
// DailyResetTime): a day starts at DayStart local time in the branch's
// zone, midnight by default, and numbering restarts then. A branch open
// past midnight sets day_start = "03:00" and its 00:30 numbers still
// belong to the evening before. Every business date of the program is
// computed here.
type Calendar struct {
	Loc *time.Location
	// DayStart is the local clock time the business day starts at,
	// since midnight, under 24 h.
	DayStart time.Duration
}

func (c Calendar) loc() *time.Location {
	if c.Loc == nil {
		return time.UTC
	}
	return c.Loc
}

// Date is the business date (YYYY-MM-DD) of t: the local date of t less
// DayStart, counted on the wall clock so a daylight-saving change does not
// move the start of the day.
func (c Calendar) Date(t time.Time) string { return c.Day(t).Format(time.DateOnly) }

// Day is the local midnight of t's business date.
func (c Calendar) Day(t time.Time) time.Time {
	l := t.In(c.loc())
	y, m, d := l.Date()
	day := time.Date(y, m, d, 0, 0, 0, 0, c.loc())
	if l.Before(c.Start(day)) {
		day = time.Date(y, m, d-1, 0, 0, 0, 0, c.loc())
	}
	return day
}

// Start is the first instant of the business day dated day (any moment of
// that local date): DayStart on its wall clock.
func (c Calendar) Start(day time.Time) time.Time {
	y, m, d := day.In(c.loc()).Date()
	h, mi := int(c.DayStart/time.Hour), int(c.DayStart%time.Hour/time.Minute)
	return time.Date(y, m, d, h, mi, 0, 0, c.loc())
}

// Bounds is the business day of date as [from, to).
func (c Calendar) Bounds(date string) (from, to time.Time, err error) {
	day, err := time.ParseInLocation(time.DateOnly, date, c.loc())
	if err != nil {
		return time.Time{}, time.Time{}, Errorf(EInvalidInput, "日期 %q 无效，应为 YYYY-MM-DD (invalid date)", date)
	}
	return c.Start(day), c.Start(day.AddDate(0, 0, 1)), nil
}
