package app

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// The stop hook that makes Fyne 2.7.1 panic at quit is removed: with no
// stop hook the lifecycle has nothing to hand over while the loop closes.
func TestQuitRaceHookRemoved(t *testing.T) {
	a := test.NewTempApp(t)
	l := a.Lifecycle()
	stopped, ok := l.(interface{ OnStopped() func() })
	if !ok {
		t.Fatal("Fyne's lifecycle no longer exposes OnStopped: recheck avoidQuitRace against this Fyne version")
	}
	// The test driver's app has no preferences file, so install the hook a
	// real app has, through the same method Fyne uses.
	hook, ok := l.(interface{ SetOnStoppedHookExecuted(func()) })
	if !ok {
		t.Fatal("Fyne's lifecycle no longer has SetOnStoppedHookExecuted: recheck avoidQuitRace")
	}
	hook.SetOnStoppedHookExecuted(func() {})
	if stopped.OnStopped() == nil {
		t.Fatal("the stop hook did not take")
	}
	avoidQuitRace(l)
	if stopped.OnStopped() != nil {
		t.Fatal("a stop hook is still queued at quit")
	}
}
