package app

import (
	"context"
	"time"

	"jiaohao/model"
	"jiaohao/printing"
)

// A PC's devices follow branch settings (the kiosk's printer, the LED
// bars' format) so the manager changes them without visiting each PC. A
// setting change is a configuration event, and the model's follower loads
// a fresh snapshot for every one of them: a setting is read again then,
// and only then.

// unreachableRetry is how often a setting is read again while the queue
// is out of reach (a PC started before its host).
const unreachableRetry = 2 * time.Second

// followSetting calls use with the branch setting key once it can be read
// and again after each configuration change that alters it, until ctx
// ends. use runs on the follower's goroutine.
func followSetting(ctx context.Context, st model.Store, key string, logf func(string, ...any), use func(value string)) {
	have, known := "", false
	f := model.NewFollower(st, func(c model.Change) {
		if !c.Reloaded {
			return // only a reload can follow a configuration change
		}
		if v, ok := settingValue(ctx, st, key, logf); ok && (!known || v != have) {
			have, known = v, true
			use(v)
		}
	})
	f.Link = func(err error) {
		if err != nil {
			logf("waiting for the branch setting %s: %s", key, model.ErrorMessage(err))
		}
	}
	f.Run(ctx)
}

// settingValue reads one branch setting, retrying while the queue is out
// of reach and saying why once per reason; ok is false when ctx ends
// first.
func settingValue(ctx context.Context, st model.Store, key string, logf func(string, ...any)) (value string, ok bool) {
	said := ""
	for {
		set, err := st.Settings(ctx)
		if err == nil {
			return set.Raw[key], true
		}
		if msg := model.ErrorMessage(err); msg != said && ctx.Err() == nil {
			logf("waiting for the branch setting %s: %s", key, msg)
			said = msg
		}
		if !sleepCtx(ctx, unreachableRetry) {
			return "", false
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
