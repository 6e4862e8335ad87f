package model_test

import (
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"jiaohao/model"
)

func TestHealthDueFollowsTheBusinessDay(t *testing.T) {
	loc, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	at := func(h, m int) time.Duration { return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute }
	for _, c := range []struct {
		dayStart, check time.Duration
		want            string
	}{
		{0, at(20, 0), "2026-11-02 20:00"},         // the evening of the day
		{at(3, 0), at(20, 0), "2026-11-02 20:00"},  // a late branch still checks that evening
		{at(3, 0), at(2, 0), "2026-11-03 02:00"},   // before the day start: the night after, same business day
		{at(3, 0), at(3, 0), "2026-11-03 03:00"},   // at the day start: its end
		{0, 0, "2026-11-03 00:00"},                 // midnight is the end of the day, not its start
		{at(3, 0), at(23, 59), "2026-11-02 23:59"}, // late but before midnight
	} {
		cal := model.Calendar{Loc: loc, DayStart: c.dayStart}
		due, err := model.HealthDue(cal, c.check, "2026-11-02")
		if err != nil {
			t.Fatal(err)
		}
		if got := due.Format("2006-01-02 15:04"); got != c.want {
			t.Errorf("day start %v, check at %v: due %s, want %s", c.dayStart, c.check, got, c.want)
		}
		if cal.Date(due.Add(-time.Second)) != "2026-11-02" {
			t.Errorf("day start %v, check at %v: the moment before %s is not in the business day", c.dayStart, c.check, c.want)
		}
	}
	if _, err := model.HealthDue(model.Calendar{Loc: loc}, at(20, 0), "2026-13-01"); model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("a bad date gave %v, want invalid input", err)
	}
}

// A host off at the set time checks the days it missed when it starts:
// every day of the window back, and today only once its time has come.
func TestHealthDaysCatchUp(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	cal := model.Calendar{Loc: loc}
	check := model.Settings{HealthCheckAt: 20 * time.Hour, BusinessClose: 24 * time.Hour}
	before := time.Date(2026, 11, 5, 19, 59, 0, 0, loc)
	if got, want := model.HealthDays(cal, check, before, 2), []string{"2026-11-03", "2026-11-04"}; !slices.Equal(got, want) {
		t.Fatalf("at 19:59: %v, want %v", got, want)
	}
	after := time.Date(2026, 11, 5, 20, 0, 0, 0, loc)
	if got, want := model.HealthDays(cal, check, after, 2), []string{"2026-11-03", "2026-11-04", "2026-11-05"}; !slices.Equal(got, want) {
		t.Fatalf("at 20:00: %v, want %v", got, want)
	}
}

func TestHealthSettings(t *testing.T) {
	for _, v := range []string{"health", "reports/daily", "每日检查", "a.b"} {
		if err := model.ValidateSetting("health_check_dir", v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
	// Whoever holds a manager token may set it: no place of its choosing.
	for _, v := range []string{"", "/etc", "../x", "a/../../b", `C:\Users`, "C:x", `a\b`, "a//b", "./a", "NUL", "com1.txt",
		"CONIN$", "conout$", "x/CONOUT$.log", "COM¹", "lpt²", "LPT³.txt", "a/com³",
		"a/", "x. ", " x", "a\x00b"} {
		if err := model.ValidateSetting("health_check_dir", v); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("%q accepted (%v)", v, err)
		}
	}
	for _, v := range []string{"", "20:00", "02:30", "23:59"} {
		if err := model.ValidateSetting("health_check_time", v); err != nil {
			t.Errorf("time %q refused: %v", v, err)
		}
	}
	for _, v := range []string{"24:00", "8pm", "20", "20:60"} {
		if err := model.ValidateSetting("health_check_time", v); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("time %q accepted (%v)", v, err)
		}
	}
	s := model.ParseSettings(nil)
	if !s.HealthCheckOn || s.HealthCheckAt != 20*time.Hour || s.HealthCheckDir != "health" || s.Alerts.PassedPct != 15 {
		t.Fatalf("defaults: on %v at %v dir %q ratio %v", s.HealthCheckOn, s.HealthCheckAt, s.HealthCheckDir, s.Alerts.PassedPct)
	}
	s = model.ParseSettings(map[string]string{"health_check_time": "", "alert_passed_ratio_pct": "30"})
	if s.HealthCheckOn || s.Alerts.PassedPct != 30 {
		t.Fatalf("off and 30 %%: on %v ratio %v", s.HealthCheckOn, s.Alerts.PassedPct)
	}
	if err := model.ValidateSetting("alert_passed_ratio_pct", "101"); model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("101 %% accepted (%v)", err)
	}
}

// A host name is cut to 255 bytes at a character boundary, never inside a
// character.
func TestHealthHostCut(t *testing.T) {
	if got := model.HealthHost("pc1"); got != "pc1" {
		t.Fatalf("short name changed to %q", got)
	}
	long := strings.Repeat("a", 254) + "网点"
	got := model.HealthHost(long)
	if got != strings.Repeat("a", 254) || !utf8.ValidString(got) {
		t.Fatalf("cut to %q (%d bytes)", got, len(got))
	}
}

// The check runs at the later of health_check_time and closing: a branch
// open until 21:00 is checked at 21:00, one closing at 17:00 at 20:00, and
// all-day hours (the default 00:00-24:00) leave the set time alone.
func TestHealthCheckWaitsForClosing(t *testing.T) {
	loc := time.FixedZone("CST", 8*3600)
	cal := model.Calendar{Loc: loc}
	for _, c := range []struct {
		hours, want string
	}{
		{"09:00-21:00", "2026-11-05 21:00"},
		{"09:00-17:00", "2026-11-05 20:00"},
		{"00:00-24:00", "2026-11-05 20:00"},
		{"09:00-23:30", "2026-11-05 23:30"},
	} {
		s := model.ParseSettings(map[string]string{"business_hours": c.hours})
		due, err := s.HealthCheckDue(cal, "2026-11-05")
		if err != nil || due.Format("2006-01-02 15:04") != c.want {
			t.Errorf("hours %s: due %v (%v), want %s", c.hours, due, err, c.want)
		}
	}
	late := model.ParseSettings(map[string]string{"business_hours": "09:00-21:00"})
	at2030 := time.Date(2026, 11, 5, 20, 30, 0, 0, loc)
	if got := model.HealthDays(cal, late, at2030, 0); len(got) != 0 {
		t.Fatalf("open until 21:00, at 20:30 the day is due: %v", got)
	}
	if got := model.HealthDays(cal, late, at2030.Add(30*time.Minute), 0); !slices.Equal(got, []string{"2026-11-05"}) {
		t.Fatalf("at 21:00: %v", got)
	}
}
