package reports

import (
	"time"

	"jiaohao/model"
)

// Health is a business day's health summary (seed 002 §5.2): per service,
// the tickets taken, done, still waiting, passed and its share, left called
// or serving, and cancelled. It is read off the day's Report, never queried
// apart, so the summary and the report can never disagree.
type Health struct {
	Branch    string
	Date      string
	CheckedAt time.Time
	// Threshold is the passed share above which a service is flagged
	// (alert_passed_ratio_pct).
	Threshold float64
	Services  []HealthRow
	Total     HealthRow
	// Stuck are the tickets left called or serving at the check (seed 003
	// §5.4: finishes that never reached the database shorten the report).
	Stuck []StuckTicket
	// PassedOver are the codes of the services over Threshold.
	PassedOver []string
	Flagged    bool
}

// HealthRow is one service's figures, or the day's total (Code "").
type HealthRow struct {
	Code, Name string
	Totals
	PassedRatio float64
	Over        bool // passed over the threshold, with enough tickets (model.AlertRules.PassedHigh)
}

// Stuck is how many were left called or serving.
func (h HealthRow) Stuck() int { return h.Called + h.Serving }

// HealthOf reads the health summary off a one-day report. The day is
// flagged when a ticket was left called or serving, or a service (or the
// day) passed more than the threshold of its tickets once it had
// alert_passed_min of them: the alerts' rule, so the morning's verdict and
// the day's alerts agree.
func HealthOf(r Report) Health {
	h := Health{Branch: r.Branch, Date: r.Period.From.Format(DateLayout), CheckedAt: r.GeneratedAt,
		Threshold: r.PassedThreshold, Stuck: r.Stuck}
	for _, s := range r.Services {
		row := HealthRow{Code: s.Code, Name: s.Name, Totals: s.Statuses, PassedRatio: s.PassedRatio()}
		row.Over = r.PassedRules.PassedHigh(s.Count, s.Statuses.Passed)
		if row.Over {
			h.PassedOver = append(h.PassedOver, s.Code)
		}
		h.Services = append(h.Services, row)
	}
	h.Total = HealthRow{Totals: r.Totals, PassedRatio: r.PassedRatio, Over: r.PassedWarning}
	h.Flagged = len(h.Stuck) > 0 || len(h.PassedOver) > 0 || h.Total.Over
	return h
}

// Check is the record of the summary: what the manager's screen shows.
func (h Health) Check() model.HealthCheck {
	return model.HealthCheck{Date: h.Date, At: h.CheckedAt.UTC(), Taken: h.Total.Taken, Stuck: len(h.Stuck),
		PassedOver: h.PassedOver, Flagged: h.Flagged}
}
