package reports

import (
	"time"

	"jiaohao/model"
)

// DateLayout is how business dates are written everywhere: YYYY-MM-DD.
const DateLayout = "2006-01-02"

// MaxDays bounds a period so a typo in a year cannot start a scan of
// everything ever recorded.
const MaxDays = 366

// Period is a run of whole business days, From and To included, in the
// branch time zone. A business day starts at DayStart local time (the
// day_start setting; Generate fills it in), midnight by default.
type Period struct {
	From, To time.Time // local midnights
	DayStart time.Duration
}

// ParseDate reads one YYYY-MM-DD business date as local midnight in loc.
func ParseDate(s string, loc *time.Location) (time.Time, error) {
	d, err := time.ParseInLocation(DateLayout, s, loc)
	if err != nil {
		return time.Time{}, model.Errorf(model.EInvalidInput, "日期 %q 无效，应为 YYYY-MM-DD (invalid date)", s)
	}
	return d, nil
}

// NewPeriod builds the period [from, to] from two dates; an inverted or too
// long range is invalid input.
func NewPeriod(from, to string, loc *time.Location) (Period, error) {
	f, err := ParseDate(from, loc)
	if err != nil {
		return Period{}, err
	}
	t, err := ParseDate(to, loc)
	if err != nil {
		return Period{}, err
	}
	if t.Before(f) {
		return Period{}, model.Errorf(model.EInvalidInput, "日期范围颠倒：结束日 %s 早于开始日 %s (inverted range)", to, from)
	}
	p := Period{From: f, To: t}
	if p.Days() > MaxDays {
		return Period{}, model.Errorf(model.EInvalidInput, "日期范围 %s 至 %s 超过 %d 天 (range too long)", from, to, MaxDays)
	}
	return p, nil
}

// Day is the period of one business date.
func Day(date string, loc *time.Location) (Period, error) { return NewPeriod(date, date, loc) }

// Start is the first instant of the period (UTC), for issued_at >= Start.
func (p Period) Start() time.Time { return p.dayStart(0).UTC() }

// End is the first instant after the period (UTC), for issued_at < End. It
// is computed by calendar days so a daylight-saving change stays exact.
func (p Period) End() time.Time { return p.dayStart(p.Days()).UTC() }

// Days is the number of business days in the period.
func (p Period) Days() int {
	n := 0
	for d := p.From; !d.After(p.To); d = d.AddDate(0, 0, 1) {
		n++
		if n > MaxDays+1 {
			break
		}
	}
	return n
}

// dayStart is the start of the i-th business day of the period.
func (p Period) dayStart(i int) time.Time {
	return p.calendar().Start(p.From.AddDate(0, 0, i))
}

func (p Period) calendar() model.Calendar {
	return model.Calendar{Loc: p.From.Location(), DayStart: p.DayStart}
}

// Single reports whether the period is one day.
func (p Period) Single() bool { return p.From.Equal(p.To) }

// String is "2026-11-02" or "2026-11-01 ~ 2026-11-30" (ASCII, so every
// font of the PDF can draw it).
func (p Period) String() string {
	if p.Single() {
		return p.From.Format(DateLayout)
	}
	return p.From.Format(DateLayout) + " ~ " + p.To.Format(DateLayout)
}
