package model

import (
	"testing"
	"time"
)

func TestCalendarDayStart(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Skip(err)
	}
	c := Calendar{Loc: loc, DayStart: 3 * time.Hour}
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 3, 2, 2, 59, 59, 0, loc), "2026-03-01"},
		{time.Date(2026, 3, 2, 3, 0, 0, 0, loc), "2026-03-02"},
		{time.Date(2026, 3, 2, 23, 59, 0, 0, loc), "2026-03-02"},
		{time.Date(2026, 3, 1, 19, 0, 0, 0, time.UTC), "2026-03-02"}, // 03:00 in Shanghai
	} {
		if got := c.Date(tc.at); got != tc.want {
			t.Errorf("%v is on %s, want %s", tc.at, got, tc.want)
		}
	}
	from, to, err := c.Bounds("2026-03-02")
	if err != nil || !from.Equal(time.Date(2026, 3, 2, 3, 0, 0, 0, loc)) || !to.Equal(time.Date(2026, 3, 3, 3, 0, 0, 0, loc)) {
		t.Fatalf("bounds %v %v %v", from, to, err)
	}
	if got := (Calendar{Loc: loc}).Date(time.Date(2026, 3, 2, 0, 0, 0, 0, loc)); got != "2026-03-02" {
		t.Fatalf("midnight default: %s", got)
	}
	if err := ValidateSetting("day_start", "24:00"); err == nil {
		t.Fatal("24:00 accepted as a day start")
	}
	if s := ParseSettings(map[string]string{"day_start": "03:30"}); s.DayStart != 3*time.Hour+30*time.Minute {
		t.Fatalf("day start %v", s.DayStart)
	}
}
