package model

import (
	"slices"
	"strconv"
	"time"
)

// Alerts tell the manager about a condition that needs a person (seed 002
// §4.1): a window the idle sweeper paused, too many passed numbers, people
// waiting while a window that could serve them sits idle, a failing
// device. Each occurrence of a condition is one alert: it starts when the
// condition becomes true and ends when the condition has cleared; only
// then can the same condition raise a new one.
const (
	AlertIdlePause   = "idle_pause"   // the idle sweeper paused a window
	AlertPassedRatio = "passed_ratio" // the day's passed share of a service over its threshold
	AlertWaitingIdle = "waiting_idle" // many waiting while a window serving them is idle or paused
	AlertDevice      = "device"       // a PC's printer, voice or LED bar failed
)

// Alert is one occurrence of a condition. Kind and Subject name the
// condition (Subject: a window number, a service code, or "PC/device");
// the other facts are as seen when it was raised.
type Alert struct {
	ID       int64      `json:"id"`
	Kind     string     `json:"kind"`
	Subject  string     `json:"subject"`
	Window   int        `json:"window,omitempty"`
	Service  string     `json:"service,omitempty"`
	Terminal string     `json:"terminal,omitempty"`
	Device   string     `json:"device,omitempty"` // printer, voice or led
	Fault    string     `json:"fault,omitempty"`
	Count    int        `json:"count,omitempty"`   // waiting, or passed, when raised
	Total    int        `json:"total,omitempty"`   // the day's tickets (passed ratio)
	Windows  []int      `json:"windows,omitempty"` // windows idle or paused (waiting_idle)
	Since    time.Time  `json:"since"`
	Cleared  *time.Time `json:"cleared,omitempty"`
	AckBy    string     `json:"ack_by,omitempty"`
	AckAt    *time.Time `json:"ack_at,omitempty"`
}

// Live says whether the manager still sees the alert: its condition holds,
// or nobody acknowledged it yet. A snapshot carries every live alert,
// however many: one it dropped could never be acknowledged. They stay
// few because a condition has one open alert at a time, and a device
// that fails again within alert_clear_s of recovering goes on with the
// same occurrence.
func (a Alert) Live() bool { return a.Cleared == nil || a.AckAt == nil }

// ToAnswer says whether the manager has yet to acknowledge the alert. An
// acknowledged alert whose condition still holds is only shown as going on,
// so the list to answer empties once everything was answered.
func (a Alert) ToAnswer() bool { return a.AckAt == nil }

// WindowSubject and DeviceSubject name a condition's subject.
func WindowSubject(n int) string { return strconv.Itoa(n) }

// DeviceSubject names one device of one PC.
func DeviceSubject(terminal, kind string) string { return terminal + "/" + kind }

// AlertRules are the thresholds of the alert settings.
type AlertRules struct {
	PassedPct  int           // alert_passed_ratio_pct; 0: off
	PassedMin  int           // alert_passed_min: tickets of the day before the ratio counts
	Waiting    int           // alert_waiting; 0: off
	IdleFor    time.Duration // alert_idle_s: how long a window sits idle before it counts
	ClearAfter time.Duration // alert_clear_s: how long a condition stays false before its alert ends
	// DeviceGone is alert_device_gone_s: how long a registered PC goes
	// unseen before its device alerts end; 0: only revoking it ends them.
	DeviceGone time.Duration
}

// TerminalGone says whether the PC the event log names name will not
// report its devices again: every registered terminal of that name is
// revoked, or unseen for DeviceGone. A PC that is not registered (one
// writing to the database itself) or never seen yet is not gone by this
// rule: nothing says so.
func (r AlertRules) TerminalGone(terms []Terminal, name string, now time.Time) bool {
	found := false
	for _, t := range terms {
		if t.ActorName() != name {
			continue
		}
		found = true
		stale := r.DeviceGone > 0 && t.LastSeen != nil && !t.LastSeen.After(now.Add(-r.DeviceGone))
		if !t.Revoked && !stale {
			return false
		}
	}
	return found
}

// PassedHigh says whether passed out of taken is over the threshold, once
// the day has enough tickets that the first pass of the morning is not
// a 100 % ratio.
func (r AlertRules) PassedHigh(taken, passed int) bool {
	return r.PassedPct > 0 && taken > 0 && taken >= r.PassedMin && passed*100 > r.PassedPct*taken
}

// LeftIdle says whether w could call but does not: open with no ticket,
// or paused, for at least IdleFor. A window between two calls has just
// acted, so it does not count; lunch and closing are planned.
func (r AlertRules) LeftIdle(w Window, now time.Time) bool {
	idle := (w.Status == WindowOpen && w.CurrentID == 0) || w.Status == WindowPaused
	return idle && w.LastActionAt != nil && !w.LastActionAt.After(now.Add(-r.IdleFor))
}

// Conditions are the sweeper's conditions that hold now, from the day's
// counts and the windows: one alert each, without id or time. A paused
// window is listed too: its idle-pause alert lasts while it stays paused,
// though only the sweeper pausing it raises one.
func (r AlertRules) Conditions(counts []ServiceCount, windows []Window, now time.Time) []Alert {
	var out []Alert
	for _, w := range windows {
		if w.Status == WindowPaused {
			out = append(out, Alert{Kind: AlertIdlePause, Subject: WindowSubject(w.Number), Window: w.Number})
		}
	}
	for _, c := range counts {
		if r.PassedHigh(c.Taken, c.Passed) {
			out = append(out, Alert{Kind: AlertPassedRatio, Subject: c.Code, Service: c.Code, Count: c.Passed, Total: c.Taken})
		}
	}
	for _, c := range counts {
		if r.Waiting <= 0 || c.Waiting <= r.Waiting {
			continue
		}
		var idle []int
		for _, w := range windows {
			if w.Serves(c.Code) && r.LeftIdle(w, now) {
				idle = append(idle, w.Number)
			}
		}
		if len(idle) > 0 {
			out = append(out, Alert{Kind: AlertWaitingIdle, Subject: c.Code, Service: c.Code, Count: c.Waiting, Windows: idle})
		}
	}
	return out
}

// AckAlert is the rule of acknowledging: once, by someone, at now.
func AckAlert(a Alert, by string, now time.Time) (Alert, error) {
	if a.AckAt != nil {
		return a, Errorf(EInvalidTransition, "这条告警已于 %s 由 %s 确认 (alert already acknowledged)", a.AckAt.Format("15:04:05"), a.AckBy)
	}
	a.AckBy, a.AckAt = by, &now
	return a, nil
}

// putAlert keeps the live alerts, newest first, as the store lists them:
// all of them (see Live).
func (s *Snapshot) putAlert(a Alert) {
	s.Alerts = slices.DeleteFunc(s.Alerts, func(x Alert) bool { return x.ID == a.ID })
	if !a.Live() {
		return
	}
	i := 0
	for i < len(s.Alerts) && s.Alerts[i].ID > a.ID {
		i++
	}
	s.Alerts = slices.Insert(s.Alerts, i, a)
}
