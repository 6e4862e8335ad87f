// Package reports owns the manager's statistics: it reads a period's facts
// through model.ReportFacts (the SQL adapter runs the queries over the live
// and archived tables), turns them into a Report value, and
// renders that value as an A4 PDF or a CSV file. Every figure is computed
// from the raw tickets in one place (Build) so the PDF, the CSV and the
// manager screen can never disagree.
package reports

import (
	"time"

	"jiaohao/model"
)

// PassedWarnRatio is the share of passed tickets above which the report
// warns when the branch sets no other (alert_passed_ratio_pct): the call
// timeout is too short or the announcements cannot be heard (seed 002 §5.2).
const PassedWarnRatio = 0.15

// Report is everything the daily (or period) report shows.
type Report struct {
	Branch      string
	Period      Period
	GeneratedAt time.Time // database clock, in the branch time zone
	Totals      Totals
	Services    []ServiceStats
	Windows     []WindowStats
	// Staff is the clerks who served or passed a ticket, by staff number,
	// then a row with no number for what nobody signed in did.
	Staff []StaffStats
	// Levels counts the tickets by the level of the registered customer
	// they were taken for, the levels by name, then a row with no level
	// for tickets taken without identification; none when no ticket of the
	// period was taken for a customer.
	Levels []LevelStats
	// Satisfaction is the customers' ratings per service, window and
	// clerk (satisfaction.go).
	Satisfaction Satisfaction
	// Sources counts the tickets by where they were taken: the kiosk, then
	// the window (窗口代取), then any other source by name.
	Sources []SourceCount
	// ArrivalsByHour counts tickets by the local hour they were issued.
	ArrivalsByHour [24]int
	// WaitHistogram counts called tickets by their wait to the first call.
	WaitHistogram []Bucket
	// PassedRatio is Totals.Passed / Totals.Taken (0 when nothing was taken).
	PassedRatio   float64
	PassedWarning bool
	// PassedThreshold is the share PassedWarning compares with: the
	// branch's alert_passed_ratio_pct.
	PassedThreshold float64
	// Estimate is how close the wait estimated at each take came to the
	// wait the customer really had.
	Estimate EstimateAccuracy
	// PassedRules decide PassedWarning and each service's flag in the
	// health summary: alert_passed_ratio_pct with alert_passed_min, the
	// alerts' and the monitor's rule, so a day's first passes are not a
	// warning here and silence there.
	PassedRules model.AlertRules
	// Stuck lists tickets still called or serving when the report was made
	// (seed 003 §5.4: a finish that never reached the database).
	Stuck []StuckTicket
}

// EstimateAccuracy compares, for every called ticket that kept the wait
// estimated when it was taken, that estimate with its real wait (issue to
// first call).
type EstimateAccuracy struct {
	Compared    int           // called tickets with an estimate
	MedianError time.Duration // nearest-rank median of |real wait - estimate|
	Within      int           // of Compared, those off by at most EstimateTolerance
	WithinShare float64       // Within / Compared (0 when none)
}

// EstimateTolerance is how far off an estimate may be and still count as
// right: a customer told "about 10 minutes" is served well at 7 or 13.
const EstimateTolerance = 3 * time.Minute

// Totals counts the period's tickets by their status now.
type Totals struct {
	Taken     int
	Done      int
	Passed    int
	Cancelled int
	Waiting   int
	Called    int
	Serving   int
}

// WaitingOrCalled is how many tickets were still waiting or called when the
// report was made: customers the branch never finished with.
func (t Totals) WaitingOrCalled() int { return t.Waiting + t.Called }

// ServiceStats is one service. Count and the waits are by the service the
// number was issued under (its queue and numbering); the service time is by
// the service the ticket was finally served as, since a transfer moves the
// work there.
type ServiceStats struct {
	Code       string
	Name       string
	Count      int
	Called     int // tickets with a first call: the sample of the waits
	AvgWait    time.Duration
	MedianWait time.Duration
	P90Wait    time.Duration
	Served     int // done tickets served as this service: the sample of AvgService
	AvgService time.Duration
	Requeued   int // tickets put back in line after a pass (重叫)
	// Statuses counts the service's tickets by their status now, by the
	// service they were issued under like Count (Statuses.Taken == Count):
	// the health summary's figures (seed 002 §5.2).
	Statuses Totals
}

// PassedRatio is the service's passed share of its tickets.
func (s ServiceStats) PassedRatio() float64 {
	if s.Count == 0 {
		return 0
	}
	return float64(s.Statuses.Passed) / float64(s.Count)
}

// WindowStats is one window: the done tickets it finished and the time it
// spent paused, and apart from that at lunch, within the period's business
// hours.
type WindowStats struct {
	Number     int
	Name       string
	Served     int
	AvgService time.Duration
	Paused     time.Duration
	Lunch      time.Duration
}

// SourceCount is how many of the period's tickets were taken at one
// source.
type SourceCount struct {
	Source string
	Count  int
}

// Bucket is one bar of the wait histogram: [From, To); To 0 means open-ended.
type Bucket struct {
	From, To time.Duration
	Count    int
}

// StuckTicket is a ticket left called or serving.
type StuckTicket struct {
	Number       string
	Service      string
	BusinessDate string
	Status       model.Status
	Window       int
	IssuedAt     time.Time
	CalledAt     *time.Time
	ServeStarted *time.Time
}

// Since is when the ticket entered the status it was left in: its serving
// start, else its (last) call.
func (s StuckTicket) Since() *time.Time {
	if s.Status == model.Serving && s.ServeStarted != nil {
		return s.ServeStarted
	}
	return s.CalledAt
}

// waitBounds are the histogram's bucket edges; the last bucket is open.
var waitBounds = []time.Duration{0, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute,
	20 * time.Minute, 30 * time.Minute, 45 * time.Minute, 60 * time.Minute}

// Percentile is the nearest-rank percentile of sorted values (p in (0,1]):
// the smallest value with at least p of the sample at or below it. It is
// always a real observed wait, never an interpolation.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[rank(len(sorted), p)-1]
}

// rank is the 1-based nearest rank of percentile p in a sample of n > 0.
func rank(n int, p float64) int {
	// Integer arithmetic on per-mille keeps ceil exact (0.9*10 is not 9 in floats).
	k := (int(p*1000+0.5)*n + 999) / 1000
	return max(k, 1)
}

// Average is the mean rounded down to the millisecond, 0 for no values.
func Average(values []time.Duration) time.Duration {
	var s sum
	for _, v := range values {
		s.add(v)
	}
	return s.mean()
}

// sum adds durations exactly: a year of a busy branch's waits is more than
// a Duration holds (292 years), so it keeps whole seconds and the
// nanoseconds below them apart.
type sum struct {
	n   int
	sec int64
	ns  int64
}

func (s *sum) add(v time.Duration) {
	s.n++
	s.sec += int64(v / time.Second)
	s.ns += int64(v % time.Second)
	if s.ns >= int64(time.Second) {
		s.sec, s.ns = s.sec+1, s.ns-int64(time.Second)
	} else if s.ns < 0 {
		s.sec, s.ns = s.sec-1, s.ns+int64(time.Second)
	}
}

// mean is the sum's floor over n, to the millisecond (0 for no values).
func (s sum) mean() time.Duration {
	if s.n == 0 {
		return 0
	}
	n := int64(s.n)
	q, r := s.sec/n, s.sec%n
	return (time.Duration(q)*time.Second + time.Duration((r*int64(time.Second)+s.ns)/n)).Truncate(time.Millisecond)
}
