package app

import (
	"context"
	"time"

	"jiaohao/model"
)

// A PC's devices follow branch settings (the kiosk's printer, the LED
// bars' format) so the manager changes them without visiting each PC.

// unreachableRetry is how often a setting is read again while the queue
// is out of reach (a PC started before its host).
const unreachableRetry = 2 * time.Second

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

// nextValue waits until the branch setting key is no longer have, looking
// every interval; a failed read changes nothing. ok is false when ctx ends
// first.
func nextValue(ctx context.Context, st model.Store, key, have string, every time.Duration) (value string, ok bool) {
	for sleepCtx(ctx, every) {
		if set, err := st.Settings(ctx); err == nil && set.Raw[key] != have {
			return set.Raw[key], true
		}
	}
	return "", false
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
