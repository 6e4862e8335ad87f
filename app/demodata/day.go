// Package demodata fills a branch with believable traffic for demos,
// screenshots and tests, through the ordinary queue operations only. It
// writes the queue (which the reports then read); it is not a report.
//
// Morning is the demo's morning: people waiting, windows busy, a number
// passed and a notice. Day plays a whole business day (09:00–17:00, a
// morning peak, a mix of services, priorities and outcomes) while moving
// the database clock across it. Because every ticket goes through
// TakeTicket, CallNext and the other operations, the traffic has exactly
// the invariants of real traffic: unique contiguous numbers per service,
// legal status histories and one event per transition.
package demodata

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"time"

	"jiaohao/model"
)

// DayStore is the queue plus the test clock; *sqlstore.GormStore is one.
type DayStore interface {
	model.Store
	// ShiftClock moves the store's database clock by d.
	ShiftClock(d time.Duration)
	Location() *time.Location
	// Calendar says which business date a moment belongs to.
	Calendar(ctx context.Context) model.Calendar
}

// MaxTickets bounds one generated day.
const MaxTickets = 20000

// DayConfig says which day to play and how busy it is.
type DayConfig struct {
	Date    string // YYYY-MM-DD, a day with no tickets yet
	Tickets int    // how many customers take a number
	// Seed makes the day reproducible; 0 derives it from the date.
	Seed uint64
	// Customers is the size of the demo customer register to use: one
	// kiosk customer in four identifies (patrons.go); 0: no register.
	Customers int
}

// DaySummary is what the generator did, counted on its side of the Store:
// tests compare it with what the database recorded.
type DaySummary struct {
	Tickets  int
	ByStatus map[model.Status]int
	// Transitions counts the successful operations per ticket id, the take
	// included: the event log must hold exactly this many events for it.
	Transitions map[int64]int
	// WindowChanges counts pause and open operations.
	WindowChanges int
	// Ratings counts the customers' ratings given.
	Ratings int
}

// Business day shape (branch local time).
const (
	openAt  = 9 * time.Hour
	closeAt = 17 * time.Hour
	// drainFor lets customers already at a window finish after closing.
	drainFor = 30 * time.Minute
)

// halfHourWeights is the arrival profile from 09:00 in half-hour slots: a
// morning peak around 10:00 and a smaller one after lunch.
var halfHourWeights = []float64{6, 9, 12, 12, 11, 9, 7, 5, 4, 5, 6, 7, 6, 5, 4, 3}

// serviceMix weights the default services; others get weight 10.
var serviceMix = map[string]float64{"A": 60, "B": 25, "V": 15}

// Day plays the day. The store's clock is shifted to each moment of the
// day as the operations happen and shifted back before Day returns.
func Day(ctx context.Context, st DayStore, cfg DayConfig) (DaySummary, error) {
	if cfg.Tickets < 1 || cfg.Tickets > MaxTickets {
		return DaySummary{}, model.Errorf(model.EInvalidInput, "号码数量须在 1 到 %d 之间 (tickets out of range)", MaxTickets)
	}
	day, err := time.ParseInLocation("2006-01-02", cfg.Date, st.Location())
	if err != nil {
		return DaySummary{}, model.Errorf(model.EInvalidInput, "日期 %q 无效，应为 YYYY-MM-DD (invalid date)", cfg.Date)
	}
	if cfg.Seed == 0 {
		h := fnv.New64a()
		h.Write([]byte(cfg.Date))
		cfg.Seed = h.Sum64()
	}
	if err := checkEmptyDay(ctx, st, cfg.Date); err != nil {
		return DaySummary{}, err
	}
	s, err := newSim(ctx, st, day, cfg)
	if err != nil {
		return DaySummary{}, err
	}
	defer s.restoreClock()
	if err := s.run(); err != nil {
		return DaySummary{}, err
	}
	return s.summary(), nil
}

// checkEmptyDay refuses a day that already has tickets: the generator
// tracks every ticket it makes, and strangers in the queue would be called
// without it knowing.
func checkEmptyDay(ctx context.Context, st DayStore, date string) error {
	counter, ok := st.(interface {
		CountIssued(ctx context.Context, from, to time.Time) (int64, error)
	})
	if !ok {
		return nil
	}
	from, to, err := st.Calendar(ctx).Bounds(date)
	if err != nil {
		return err
	}
	n, err := counter.CountIssued(ctx, from.UTC(), to.UTC())
	if err != nil {
		return fmt.Errorf("check the day is empty: %w", err)
	}
	if n > 0 {
		return model.Errorf(model.EInvalidInput, "%s 已有 %d 个号码，seed-day 只填充空白的日子 (day not empty)", date, n)
	}
	return nil
}

// arrival is one customer taking a number.
type arrival struct {
	at       time.Time
	service  string
	priority int // 0: the service's own
	source   string
	customer int64 // a registered customer identified at the kiosk; 0: none
}

// planArrivals draws n arrival times from the day profile, whole seconds,
// in order, each with a service and priority.
func planArrivals(rng *rand.Rand, day time.Time, n int, services []model.Service) []arrival {
	var total float64
	for _, w := range halfHourWeights {
		total += w
	}
	weights := make([]float64, len(services))
	var wsum float64
	for i, s := range services {
		weights[i] = 10
		if w, ok := serviceMix[s.Code]; ok {
			weights[i] = w
		}
		wsum += weights[i]
	}
	out := make([]arrival, n)
	for i := range out {
		slot := pick(rng, halfHourWeights, total)
		sec := slot*1800 + rng.IntN(1800)
		svc := services[pick(rng, weights, wsum)]
		a := arrival{at: atClock(day, openAt).Add(time.Duration(sec) * time.Second), service: svc.Code}
		if svc.Priority >= model.DefaultPriority && rng.Float64() < 0.05 {
			a.priority = 3 // elderly or disabled customers are called sooner
		}
		out[i] = a
	}
	slices.SortStableFunc(out, func(a, b arrival) int { return a.at.Compare(b.at) })
	// One customer in twenty is given a number by a clerk at a window
	// (窗口代取); by position, so the random draws stay as they were.
	for i := range out {
		out[i].source = model.SourceKiosk
		if i%20 == 19 {
			out[i].source = model.SourceWindow
		}
	}
	return out
}

func pick(rng *rand.Rand, weights []float64, total float64) int {
	x := rng.Float64() * total
	for i, w := range weights {
		if x < w {
			return i
		}
		x -= w
	}
	return len(weights) - 1
}

// atClock is local wall-clock time since midnight on day.
func atClock(day time.Time, since time.Duration) time.Time {
	y, m, d := day.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, day.Location()).Add(since)
}
