package app

import (
	"context"
	"time"

	"jiaohao/model"
	"jiaohao/printing"
)

// A PC's devices follow branch settings (the kiosk's printer, the LED
// bars' format, the hall's voice) so the manager changes them without visiting each PC. A
// setting change is a configuration event, and the model's follower loads
// a fresh snapshot for every one of them: a setting is read again then,
// and only then.

// unreachableRetry is how often a setting is read again while the queue
// is out of reach (a PC started before its host).
const unreachableRetry = 2 * time.Second

// followSettings calls use with the branch settings once they can be read
// and again after each configuration change, until ctx ends. use runs on
// the follower's goroutine.
func followSettings(ctx context.Context, st model.Store, what string, logf func(string, ...any), use func(model.Settings)) {
	f := model.NewFollower(st, func(c model.Change) {
		if !c.Reloaded {
			return // only a reload can follow a configuration change
		}
		if set, ok := readSettings(ctx, st, what, logf); ok {
			use(set)
		}
	})
	f.Link = func(err error) {
		if err != nil {
			logf("waiting for the branch setting %s: %s", what, model.ErrorMessage(err))
		}
	}
	f.Run(ctx)
}

// followSetting calls use with the branch setting key once it can be read
// and again after each configuration change that alters it.
func followSetting(ctx context.Context, st model.Store, key string, logf func(string, ...any), use func(value string)) {
	have, known := "", false
	followSettings(ctx, st, key, logf, func(set model.Settings) {
		if v := set.Raw[key]; !known || v != have {
			have, known = v, true
			use(v)
		}
	})
}

// readSettings reads the branch settings, retrying while the queue is out
// of reach and saying why once per reason; ok is false when ctx ends
// first.
func readSettings(ctx context.Context, st model.Store, what string, logf func(string, ...any)) (model.Settings, bool) {
	said := ""
	for {
		set, err := st.Settings(ctx)
		if err == nil {
			return set, true
		}
		if msg := model.ErrorMessage(err); msg != said && ctx.Err() == nil {
			logf("waiting for the branch setting %s: %s", what, msg)
			said = msg
		}
		if !sleepCtx(ctx, unreachableRetry) {
			return model.Settings{}, false
		}
	}
}

// followPrinter points the kiosk's print queue at the configured printer
// and keeps it there while the setting changes. Until the setting is read
// the queue holds its jobs.
func followPrinter(ctx context.Context, st model.Store, q *printing.PrintQueue, logf func(string, ...any)) {
	followSetting(ctx, st, "printer", logf, func(addr string) { usePrinter(q, addr, logf) })
}

// sleepCtx waits d; false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}
