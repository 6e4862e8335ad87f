package model

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Setting keys with their defaults (seed 002 §4.1). The store refuses keys it
// does not know, so a typo cannot silently leave a default in force.
var DefaultSettings = map[string]string{
	"call_timeout_s":        "120",
	"recall_max":            "1",
	"idle_window_timeout_s": "300",
	"requeue_offset":        "3",
	"number_width":          "3",
	"business_hours":        "00:00-24:00",
	"day_start":             "00:00", // local time the business day (and numbering) starts
	"notice":                "",
	"colors":                "", // the branch's screen colours, see ParseLook; "": each screen's own
	"vip_enabled":           "true",
	"ticket_footer":         "请留意叫号，过号请到窗口咨询",
	"voice_template":        "请 {number} 号到 {window} 号窗口办理",
	"voice_template_en":     "Number {number}, please go to window {window}",
	// A requeued ticket (重叫) is called with its own words, so the
	// customer who came back hears that it is their second turn.
	"voice_template_requeue":    "请 {number} 号重新到 {window} 号窗口",
	"voice_template_requeue_en": "Number {number}, please return to window {window}",
	"voice_repeat":              "2",
	"voice_engine":              "auto", // auto, espeak-ng, sapi, say
	"voice_chime":               "true",
	"printer":                   "",
	"led_format":                "encoding=gb2312", // the branch's LED bars; see LEDFormat
	"customer_url":              "",
	"avg_service_s":             "300",
	// Alert thresholds (seed 002 §4.1 and §5.2); see AlertRules.
	"alert_passed_ratio_pct": "15",  // the day's passed share of a service, percent; 0: off
	"alert_passed_min":       "20",  // tickets of the day before the passed share counts
	"alert_waiting":          "20",  // waiting while a window serving them is idle; 0: off
	"alert_idle_s":           "60",  // how long a window is idle before that counts
	"alert_clear_s":          "60",  // how long a condition stays false before its alert ends
	"alert_device_gone_s":    "600", // how long a PC goes unseen before its device alerts end; 0: off
	// The daily health check (seed 002 §5.2): local time it runs on the
	// host, after closing ("" turns the automatic run off), and the folder
	// under the host's data folder it writes to (see CheckHealthDir).
	"health_check_time": "20:00",
	"health_check_dir":  "health",
	// How the hall screens fill their display (HallLayout); a PC's setup
	// may choose its own.
	"hall_layout": string(HallList),
	// Whether the hall screen's rows name the clerk at each window (the
	// window screen always does).
	"show_staff": "false",
	// Whether the kiosk offers identification of a registered customer
	// (a card, ID or phone number) for the level's priority.
	"customer_ident": "false",
	// How long after a finish its customer may rate the service, and
	// whether the evaluator pad's card shows the clerk's stars (today's
	// average rating).
	"rating_window_s": "120",
	"evaluator_stars": "true",
}

// Settings is the typed view of the setting table.
type Settings struct {
	Raw                map[string]string
	CallTimeout        time.Duration
	RecallMax          int
	IdleWindowTimeout  time.Duration
	RequeueOffset      int
	NumberWidth        int
	BusinessOpen       time.Duration // since local midnight
	BusinessClose      time.Duration
	DayStart           time.Duration // since local midnight: see Calendar
	Notice             string
	Look               Look // from "colors"
	VIPEnabled         bool
	DefaultServiceTime time.Duration
	Alerts             AlertRules
	// HealthCheckAt is health_check_time since local midnight; HealthCheckOn
	// is false when it is "" (no automatic check).
	HealthCheckAt  time.Duration
	HealthCheckOn  bool
	HealthCheckDir string
	HallLayout     HallLayout
	ShowStaff      bool
	CustomerIdent  bool
	RatingWindow   time.Duration
	EvaluatorStars bool
}

type intRange struct{ min, max int }

var intSettings = map[string]intRange{
	"call_timeout_s":         {5, 3600},
	"recall_max":             {0, 10},
	"idle_window_timeout_s":  {0, 86400}, // 0 disables the idle pause
	"requeue_offset":         {0, 100},
	"number_width":           {1, 8},
	"voice_repeat":           {1, 5},
	"avg_service_s":          {10, 7200},
	"alert_passed_ratio_pct": {0, 100},
	"alert_passed_min":       {1, 100000},
	"alert_waiting":          {0, 100000},
	"alert_idle_s":           {0, 86400},
	"alert_clear_s":          {0, 86400},
	"alert_device_gone_s":    {0, 604800},
	"rating_window_s":        {10, 3600},
}

// ValidateSetting checks one key and value; it says what is wrong in one
// sentence.
func ValidateSetting(key, value string) error {
	if _, ok := DefaultSettings[key]; !ok {
		return Errorf(EInvalidInput, "未知的设置项 %q", key)
	}
	if err := CheckText("设置项 "+key+" ", "setting "+key, value, multilineSettings[key]); err != nil {
		return err
	}
	if r, ok := intSettings[key]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < r.min || n > r.max {
			return Errorf(EInvalidInput, "设置项 %s 须为 %d 到 %d 之间的整数，收到 %q", key, r.min, r.max, value)
		}
	}
	switch key {
	case "business_hours":
		if _, _, err := parseHours(value); err != nil {
			return err
		}
	case "day_start":
		if _, err := parseDayStart(value); err != nil {
			return err
		}
	case "health_check_time":
		if _, _, err := parseCheckTime(value); err != nil {
			return err
		}
	case "health_check_dir":
		if err := CheckHealthDir(value); err != nil {
			return err
		}
	case "vip_enabled", "voice_chime", "show_staff", "customer_ident", "evaluator_stars":
		if _, err := strconv.ParseBool(value); err != nil {
			return Errorf(EInvalidInput, "设置项 %s 须为 true 或 false", key)
		}
	case "colors":
		if _, err := ParseLook(value); err != nil {
			return err
		}
	case "led_format":
		if _, err := ParseLEDFormat(value); err != nil {
			return err
		}
	case "printer":
		if err := checkBranchPrinter(value); err != nil {
			return err
		}
	case "customer_url":
		if err := checkCustomerURL(value); err != nil {
			return err
		}
	case "hall_layout":
		if _, err := ParseHallLayout(value); err != nil {
			return err
		}
	case "voice_engine":
		switch value {
		case "auto", "espeak-ng", "sapi", "say":
		default:
			return Errorf(EInvalidInput, "语音引擎须为 auto、espeak-ng、sapi 或 say，收到 %q", value)
		}
	}
	if len(value) > MaxSettingLen {
		return Errorf(EInvalidInput, "设置项 %s 过长", key)
	}
	return nil
}

// multilineSettings are the texts where a line break is meant.
var multilineSettings = map[string]bool{"notice": true, "ticket_footer": true}

// BranchPrinterSchemes are the printer addresses a branch-wide setting may
// name: devices only. Every kiosk that follows the branch opens the address,
// so a "file:" path there would let one manager token make every kiosk
// append to any file it can write (a Windows Startup script, say). A file
// printer is for a PC's own setup or print-test, typed on that PC.
var BranchPrinterSchemes = []string{"escpos+serial", "escpos+tcp", "spool"}

func checkBranchPrinter(v string) error {
	if v == "" {
		return nil
	}
	scheme, rest, _ := strings.Cut(strings.TrimSpace(v), ":")
	for _, s := range BranchPrinterSchemes {
		if strings.EqualFold(scheme, s) && strings.Trim(rest, "/") != "" {
			return nil
		}
	}
	return Errorf(EInvalidInput, "网点打印机须为 escpos+serial://端口、escpos+tcp://主机:端口 或 spool:打印机名；file: 只能在本机设置中使用，收到 %q (the branch printer must be a device address; file: is for one PC's own setup)", v)
}

// checkCustomerURL accepts the base of the customer page an http(s)
// address: the QR code on every ticket opens it on a customer's phone.
func checkCustomerURL(v string) error {
	if v == "" {
		return nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return Errorf(EInvalidInput, "顾客页面地址须以 http:// 或 https:// 开头并写明主机，例如 http://192.168.1.10:8520，收到 %q (customer_url must be an http(s) address)", v)
	}
	return nil
}

func parseHours(v string) (time.Duration, time.Duration, error) {
	bad := Errorf(EInvalidInput, "营业时间格式应为 HH:MM-HH:MM，收到 %q", v)
	a, b, ok := strings.Cut(strings.TrimSpace(v), "-")
	if !ok {
		return 0, 0, bad
	}
	open, err1 := parseClock(a)
	closeAt, err2 := parseClock(b)
	if err1 != nil || err2 != nil || closeAt <= open {
		return 0, 0, bad
	}
	return open, closeAt, nil
}

// parseDayStart reads day_start: a clock time before 24:00.
func parseDayStart(v string) (time.Duration, error) {
	d, err := parseClock(v)
	if err != nil || d >= 24*time.Hour {
		return 0, Errorf(EInvalidInput, "营业日开始时间须为 00:00 到 23:59 之间的 HH:MM，收到 %q (day_start must be HH:MM before 24:00)", v)
	}
	return d, nil
}

// Calendar is the branch's business-day calendar in loc.
func (s Settings) Calendar(loc *time.Location) Calendar {
	return Calendar{Loc: loc, DayStart: s.DayStart}
}

func parseClock(v string) (time.Duration, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(v), ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || hh < 0 || hh > 24 || mm < 0 || mm > 59 || (hh == 24 && mm != 0) {
		return 0, Errorf(EInvalidInput, "时间格式应为 HH:MM")
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// ParseSettings fills the typed view from stored values, falling back to
// the defaults for anything missing or unreadable.
func ParseSettings(raw map[string]string) Settings {
	all := make(map[string]string, len(DefaultSettings))
	for k, v := range DefaultSettings {
		all[k] = v
	}
	for k, v := range raw {
		if ValidateSetting(k, v) == nil {
			all[k] = v
		}
	}
	num := func(k string) int { n, _ := strconv.Atoi(all[k]); return n }
	s := Settings{
		Raw:                all,
		CallTimeout:        time.Duration(num("call_timeout_s")) * time.Second,
		RecallMax:          num("recall_max"),
		IdleWindowTimeout:  time.Duration(num("idle_window_timeout_s")) * time.Second,
		RequeueOffset:      num("requeue_offset"),
		NumberWidth:        num("number_width"),
		Notice:             all["notice"],
		DefaultServiceTime: time.Duration(num("avg_service_s")) * time.Second,
		Alerts: AlertRules{
			PassedPct:  num("alert_passed_ratio_pct"),
			PassedMin:  num("alert_passed_min"),
			Waiting:    num("alert_waiting"),
			IdleFor:    time.Duration(num("alert_idle_s")) * time.Second,
			ClearAfter: time.Duration(num("alert_clear_s")) * time.Second,
			DeviceGone: time.Duration(num("alert_device_gone_s")) * time.Second,
		},
	}
	s.Look, _ = ParseLook(all["colors"])
	s.VIPEnabled, _ = strconv.ParseBool(all["vip_enabled"])
	s.CustomerIdent, _ = strconv.ParseBool(all["customer_ident"])
	s.BusinessOpen, s.BusinessClose, _ = parseHours(all["business_hours"])
	s.DayStart, _ = parseDayStart(all["day_start"])
	s.HealthCheckAt, s.HealthCheckOn, _ = parseCheckTime(all["health_check_time"])
	s.HealthCheckDir = all["health_check_dir"]
	s.HallLayout, _ = ParseHallLayout(all["hall_layout"])
	s.ShowStaff, _ = strconv.ParseBool(all["show_staff"])
	s.RatingWindow = time.Duration(num("rating_window_s")) * time.Second
	s.EvaluatorStars, _ = strconv.ParseBool(all["evaluator_stars"])
	return s
}

// InBusinessHours reports whether local (branch time) is within the
// configured hours.
func (s Settings) InBusinessHours(local time.Time) bool {
	y, m, d := local.Date()
	since := local.Sub(time.Date(y, m, d, 0, 0, 0, 0, local.Location()))
	return since >= s.BusinessOpen && since < s.BusinessClose
}

// FormatNumber renders prefix + zero-padded sequence; past the width the
// number simply grows (A999, A1000), it never wraps.
func FormatNumber(prefix string, seq, width int) string {
	if width < 1 {
		width = 3
	}
	s := strconv.Itoa(seq)
	for len(s) < width {
		s = "0" + s
	}
	return prefix + s
}
