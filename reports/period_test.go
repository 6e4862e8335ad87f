package reports

import (
	"testing"
	"time"
)

// A period of business days starting at 03:00 (day_start) runs from 03:00
// of its first date to 03:00 after its last.
func TestPeriodFollowsDayStart(t *testing.T) {
	p, err := NewPeriod("2026-03-02", "2026-03-03", shanghai)
	if err != nil {
		t.Fatal(err)
	}
	p.DayStart = 3 * time.Hour
	if want := time.Date(2026, 3, 2, 3, 0, 0, 0, shanghai); !p.Start().Equal(want) {
		t.Errorf("start %v, want %v", p.Start(), want)
	}
	if want := time.Date(2026, 3, 4, 3, 0, 0, 0, shanghai); !p.End().Equal(want) {
		t.Errorf("end %v, want %v", p.End(), want)
	}
	if p.Days() != 2 || p.String() != "2026-03-02 ~ 2026-03-03" {
		t.Errorf("%d days, %q", p.Days(), p.String())
	}
}
