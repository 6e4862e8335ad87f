package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// The daily health check runs on the PC that holds the database: `jiaohao
// serve` and the desktop PC that hosts the branch. Every minute it looks
// for business days whose check time has passed and that no PC checked
// yet, claims each in the database (one row per day, so a second host or
// a restart does not write it again) and writes the day's files.

const (
	// healthEvery is how often the host looks for a day to check.
	healthEvery = time.Minute
	// healthCatchUp is how many days back a host that was off catches up.
	healthCatchUp = 7
	// healthLease is how long a claim stands before another PC may take the
	// day over: its holder died mid-check.
	healthLease = 10 * time.Minute
)

// healthHost runs the checks of one database on this PC.
type healthHost struct {
	gs *sqlstore.GormStore
	// fixed is the folder the person at the host chose (serve
	// --health-dir); "" means the health_check_dir setting under the
	// host's data folder.
	fixed  string
	lang   reports.Lang
	host   string // this PC, recorded with the check
	holder string // this process, for the claims
	logf   func(string, ...any)
	// days holds one lock per business date: two checks of one day on
	// this PC (the automatic run and "check now", or two managers) run one
	// after the other, so the day's files and its record are one run's.
	days sync.Map // date -> *sync.Mutex; one entry a day, a few hundred a year
	// waiting, in tests, hears that a check waits for another of its day.
	waiting func(date string)
	// saving, in tests, runs between a check's figures and its files.
	saving func(date string)
}

var _ model.HealthDesk = (*healthHost)(nil)

func newHealthHost(gs *sqlstore.GormStore, fixed, lang string, logf func(string, ...any)) *healthHost {
	host, _ := os.Hostname()
	host = model.HealthHost(host) // a long FQDN still fits the claim's column
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return &healthHost{gs: gs, fixed: fixed, lang: reports.Lang(reportLang(lang)), host: host,
		holder: host + "/" + hex.EncodeToString(b), logf: logf}
}

// folder is where the files go: the fixed folder, else the setting's
// relative name (model.CheckHealthDir) under the data folder: beside the
// embedded database, or this PC's jiaohao config folder on a server. The
// database's first branch (a one-branch site's) writes there; any other
// branch in a folder of its code below it, so the hosts of several
// branches on one PC (one serve for all, or one each) never write over
// one another's files of a day.
func (h *healthHost) folder(ctx context.Context, set model.Settings) (string, error) {
	base := h.folderOfAll(set)
	if h.gs.BranchID() == 1 {
		return base, nil
	}
	code, err := h.gs.BranchCode(ctx)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, code), nil
}

// folderOfAll is folder before the branch's own.
func (h *healthHost) folderOfAll(set model.Settings) string {
	if h.fixed != "" {
		return h.fixed
	}
	base := filepath.Dir(h.gs.File())
	if h.gs.File() == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			dir = "."
		}
		base = filepath.Join(dir, "jiaohao")
	}
	return filepath.Join(base, filepath.FromSlash(set.HealthCheckDir))
}

// LastHealthCheck is the manager's morning look.
func (h *healthHost) LastHealthCheck(ctx context.Context) (model.HealthCheck, error) {
	return h.gs.LastHealthCheck(ctx)
}

// RunHealthCheck checks date now and rewrites its files, whatever ran
// before. "" is the last closed business day: the newest whose check time
// (Settings.HealthCheckDue) has passed. A day still open is refused: its
// figures would flag tickets still being served and replace the last
// closed day's verdict on the manager's screen.
func (h *healthHost) RunHealthCheck(ctx context.Context, date string) (model.HealthCheck, error) {
	set, err := h.gs.Settings(ctx)
	if err != nil {
		return model.HealthCheck{}, err
	}
	now, err := h.gs.Now(ctx)
	if err != nil {
		return model.HealthCheck{}, err
	}
	cal := h.gs.Calendar(ctx)
	if date == "" {
		days := model.HealthDays(cal, set, now, 1)
		date = days[len(days)-1] // yesterday's time has always passed
	}
	due, err := set.HealthCheckDue(cal, date)
	if err != nil {
		return model.HealthCheck{}, err
	}
	if now.Before(due) {
		return model.HealthCheck{}, model.Errorf(model.EInvalidInput, "%s 的营业尚未结束，%s 之后才能检查 (the business day %s is open until its check time %s)",
			date, due.In(cal.Loc).Format("01-02 15:04"), date, due.In(cal.Loc).Format("01-02 15:04"))
	}
	return h.run(ctx, date, "", true)
}

// run checks one day; holder is the claim of its automatic run ("" for
// none). Unless always (a check on demand), a day without tickets is
// recorded and writes nothing: a closed day leaves no files.
func (h *healthHost) run(ctx context.Context, date, holder string, always bool) (model.HealthCheck, error) {
	defer h.lockDay(date)()
	set, err := h.gs.Settings(ctx)
	if err != nil {
		return model.HealthCheck{}, err
	}
	d, err := reports.NewDaily(ctx, h.gs, date, reports.Options{})
	if err != nil {
		return model.HealthCheck{}, err
	}
	c := d.Health.Check()
	c.Host = h.host
	if always || c.Taken > 0 {
		if h.saving != nil {
			h.saving(date)
		}
		dir, err := h.folder(ctx, set)
		if err != nil {
			return c, err
		}
		if err := d.Save(dir, h.lang); err != nil {
			return c, err
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		c.Dir, c.Files = dir, model.HealthFiles(date)
	}
	return c, h.gs.RecordHealthCheck(ctx, c, holder)
}

// lockDay takes the day's lock and returns its release.
func (h *healthHost) lockDay(date string) func() {
	v, _ := h.days.LoadOrStore(date, &sync.Mutex{})
	mu := v.(*sync.Mutex)
	if !mu.TryLock() {
		if h.waiting != nil {
			h.waiting(date)
		}
		mu.Lock()
	}
	return mu.Unlock
}

// tick runs every check that is due and not done, oldest first; it
// returns the checks it ran.
func (h *healthHost) tick(ctx context.Context) ([]model.HealthCheck, error) {
	set, err := h.gs.Settings(ctx)
	if err != nil || !set.HealthCheckOn {
		return nil, err
	}
	now, err := h.gs.Now(ctx)
	if err != nil {
		return nil, err
	}
	days := model.HealthDays(h.gs.Calendar(ctx), set, now, healthCatchUp)
	done, err := h.gs.HealthChecksDone(ctx, days)
	if err != nil {
		return nil, err
	}
	var ran []model.HealthCheck
	for _, day := range days {
		if done[day] {
			// Checked before the day ended: tickets called or served after
			// the check change its figures, so once the day is over it is
			// checked once more (the next morning's catch-up at the latest).
			if _, end, err := h.gs.Calendar(ctx).Bounds(day); err == nil {
				won, err := h.gs.ClaimHealthRecheck(ctx, day, end)
				if err != nil {
					return ran, err
				}
				if won {
					c, err := h.run(ctx, day, "", false)
					if err != nil {
						return ran, err
					}
					ran = append(ran, c)
				}
			}
			continue
		}
		won, err := h.gs.ClaimHealthCheck(ctx, day, h.holder, healthLease)
		if err != nil {
			return ran, err
		}
		if !won {
			continue // another PC has it
		}
		c, err := h.run(ctx, day, h.holder, false)
		if err != nil {
			return ran, err
		}
		ran = append(ran, c)
	}
	return ran, nil
}

// loop ticks until ctx ends; a failure is logged and tried again on the
// next tick (the claim expires after healthLease).
func (h *healthHost) loop(ctx context.Context) {
	t := time.NewTicker(healthEvery)
	defer t.Stop()
	for {
		tctx, cancel := context.WithTimeout(ctx, healthLease/2)
		ran, err := h.tick(tctx)
		cancel()
		for _, c := range ran {
			h.logf("%s", healthLine(c))
		}
		if err != nil && ctx.Err() == nil && !storeDown(h.gs) { // an outage is logged once by the store
			h.logf("health check: %s", model.ErrorMessage(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
