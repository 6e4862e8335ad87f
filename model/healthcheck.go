package model

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// The daily health check (seed 002 §5.2): after closing, the PC that hosts
// the branch writes the day's report and a health summary, and the
// manager sees the verdict the next morning. A day is flagged when tickets
// were left called or serving (seed 003 §5.4: a report short by 20 %
// because finishes never reached the database) or when a service's passed
// share is over alert_passed_ratio_pct.

// HealthCheck is what one business day's check found and where its files
// are.
type HealthCheck struct {
	Date string    `json:"date"` // business date, YYYY-MM-DD
	At   time.Time `json:"at"`   // when it ran, database clock
	Host string    `json:"host"` // the PC that wrote the files
	// Dir is the folder on Host holding Files; "" when nothing was written
	// (an automatic check of a day without tickets).
	Dir   string   `json:"dir"`
	Files []string `json:"files"`
	Taken int      `json:"taken"`
	Stuck int      `json:"stuck"` // left called or serving at the check
	// PassedOver names the services whose passed share was over the
	// threshold.
	PassedOver []string `json:"passed_over"`
	Flagged    bool     `json:"flagged"`
}

// HealthFiles are the names of a day's files: the daily report and the
// health summary, each as PDF and CSV, all named by the business date.
func HealthFiles(date string) []string {
	return []string{
		"jiaohao-report-" + date + ".pdf", "jiaohao-report-" + date + ".csv",
		"jiaohao-health-" + date + ".pdf", "jiaohao-health-" + date + ".csv",
	}
}

// HealthHolderMax is the longest holder or host a check records, in bytes:
// a host name of up to 255 (a Windows FQDN may be that long), "/" and the
// process's 12 hex digits, with room to spare.
const HealthHolderMax = 300

// HealthHost cuts a host name to 255 bytes, at a character boundary, so
// that with its process suffix it always fits HealthHolderMax.
func HealthHost(name string) string {
	const most = 255
	if len(name) <= most {
		return name
	}
	cut := most
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return name[:cut]
}

// HealthLog is the store's record of the checks. The automatic check of a
// day is claimed by one PC at a time (a unique row per day), so two hosts,
// or one restarted, write it once.
type HealthLog interface {
	// ClaimHealthCheck makes holder the PC that runs the automatic check of
	// date. It is false when the check is done or another holder's claim
	// is younger than lease (an older one died mid-check and is taken over).
	ClaimHealthCheck(ctx context.Context, date, holder string, lease time.Duration) (bool, error)
	// RecordHealthCheck stores what a check found. With a holder it also
	// marks the day's automatic check done, if holder still has the claim;
	// with "" (a check on demand) only the findings change.
	RecordHealthCheck(ctx context.Context, c HealthCheck, holder string) error
	// HealthChecksDone says which of dates have their automatic check done.
	HealthChecksDone(ctx context.Context, dates []string) (map[string]bool, error)
	// LastHealthCheck is the newest check of a day whose automatic run is
	// done and had tickets, else the newest done, else the newest with
	// tickets, else the newest; ENotFound when none ran yet.
	LastHealthCheck(ctx context.Context) (HealthCheck, error)
}

// HealthDesk is the manager's view: the last check, and a check now that
// rewrites a day's files on the host.
type HealthDesk interface {
	LastHealthCheck(ctx context.Context) (HealthCheck, error)
	RunHealthCheck(ctx context.Context, date string) (HealthCheck, error)
}

// HealthDue is when the automatic check of the business day date falls
// due: the first health_check_time (at, since local midnight) on the wall
// clock inside that day. A time before the day's start (02:00 with
// day_start 03:00) is on the next calendar date, still the same business
// day; a time equal to it is the day's end.
func HealthDue(cal Calendar, at time.Duration, date string) (time.Time, error) {
	from, _, err := cal.Bounds(date)
	if err != nil {
		return time.Time{}, err
	}
	y, m, d := from.Date()
	if at <= cal.DayStart {
		d++
	}
	h, mi := int(at/time.Hour), int(at%time.Hour/time.Minute)
	return time.Date(y, m, d, h, mi, 0, 0, from.Location()), nil
}

// HealthCheckDue is when the automatic check of date runs: the later of
// health_check_time and the close of business_hours, so a branch open
// until 21:00 is not checked at 20:00 with clerks still serving. A close
// of 24:00 (the default 00:00-24:00, no hours set) does not move it.
func (s Settings) HealthCheckDue(cal Calendar, date string) (time.Time, error) {
	due, err := HealthDue(cal, s.HealthCheckAt, date)
	if err != nil || s.BusinessClose <= 0 || s.BusinessClose >= 24*time.Hour {
		return due, err
	}
	closed, err := HealthDue(cal, s.BusinessClose, date)
	if err != nil {
		return time.Time{}, err
	}
	if closed.After(due) {
		due = closed
	}
	return due, nil
}

// HealthDays are the business days whose automatic check is due at now
// (Settings.HealthCheckDue), oldest first: the back days before today,
// then today once its time has come. A host that was off at the set time
// checks the days it missed when it starts again.
func HealthDays(cal Calendar, s Settings, now time.Time, back int) []string {
	today := cal.Day(now)
	var out []string
	for i := back; i >= 0; i-- {
		date := today.AddDate(0, 0, -i).Format(time.DateOnly)
		due, err := s.HealthCheckDue(cal, date)
		if err == nil && !now.Before(due) {
			out = append(out, date)
		}
	}
	return out
}

// parseCheckTime reads health_check_time: "" (off) or HH:MM before 24:00.
func parseCheckTime(v string) (time.Duration, bool, error) {
	if strings.TrimSpace(v) == "" {
		return 0, false, nil
	}
	d, err := parseClock(v)
	if err != nil || d >= 24*time.Hour {
		return 0, false, Errorf(EInvalidInput, "健康检查时间须为 00:00 到 23:59 之间的 HH:MM，留空则不自动检查，收到 %q (health_check_time must be HH:MM, or empty for no automatic check)", v)
	}
	return d, true, nil
}

// CheckHealthDir accepts the health check's folder: a relative name of
// plain parts ("health", "reports/daily") under the host's data folder.
// The setting travels from any manager token, so, as with the branch
// printer, it may not name a place of its own choosing on the host (an
// absolute path, a drive, "..", a Windows device name): only the person at
// the host picks another folder (serve --health-dir).
func CheckHealthDir(v string) error {
	bad := Errorf(EInvalidInput, "健康检查文件夹须为主机数据文件夹下的相对名称，如 health 或 reports/daily；不能是绝对路径、盘符或 ..，收到 %q (health_check_dir must be a relative folder name under the host's data folder)", v)
	if v == "" || len(v) > 120 || strings.ContainsAny(v, `\:*?"<>|`) {
		return bad
	}
	for _, part := range strings.Split(v, "/") {
		if part == "" || part == "." || part == ".." || strings.TrimRight(part, ". ") != part || strings.TrimSpace(part) != part {
			return bad
		}
		base, _, _ := strings.Cut(strings.ToUpper(part), ".")
		if reservedName(base) {
			return bad
		}
	}
	return nil
}

// reservedName is a Windows device name, which opens the device, not a
// folder: CON, PRN, AUX, NUL, CONIN$, CONOUT$, and COM or LPT with a digit,
// the superscript ¹ ² ³ among them.
func reservedName(s string) bool {
	switch s {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	for _, dev := range []string{"COM", "LPT"} {
		n, ok := strings.CutPrefix(s, dev)
		if !ok {
			continue
		}
		switch n {
		case "¹", "²", "³":
			return true
		}
		if len(n) == 1 && n[0] >= '0' && n[0] <= '9' {
			return true
		}
	}
	return false
}
