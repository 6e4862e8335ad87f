package app

import (
	"context"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A PC reports its device state when it starts and each time it changes,
// not at every check.
func TestReportFaultsOnChange(t *testing.T) {
	st := daotest.SQLite(t)
	var mu sync.Mutex
	state := "打印机无响应 (printer not answering)"
	fault := func() string { mu.Lock(); defer mu.Unlock(); return state }
	ctx, cancel := context.WithCancel(model.WithActor(context.Background(), "kiosk@test"))
	done := make(chan struct{})
	go func() { defer close(done); reportFaults(ctx, st, "printer", fault, t.Logf) }()
	// Only the device reports: a fault also raises and ends an alert.
	devices := func() []model.Event {
		evs, err := st.EventsSince(context.Background(), 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		var out []model.Event
		for _, e := range evs {
			if e.Kind == model.EvDevice {
				out = append(out, e)
			}
		}
		return out
	}
	waitUntil(t, func() bool { return len(devices()) == 1 })
	mu.Lock()
	state = ""
	mu.Unlock()
	waitUntil(t, func() bool { return len(devices()) == 2 })
	cancel()
	<-done
	evs := devices()
	if evs[0].Device.Fault == "" || evs[1].Device.Fault != "" || evs[1].Device.Terminal != "kiosk@test" {
		t.Fatalf("reports %+v %+v", evs[0].Device, evs[1].Device)
	}
}

// waitUntil polls cond; the deadline only turns a hang into a failure.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition never held")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
