package screens

import (
	"testing"
	"time"
)

// The hall clock and the kiosk's opening hours use the branch's zone from
// the snapshot, whatever zone the PC is set to.
func TestServerClockUsesBranchZone(t *testing.T) {
	serverTime = runningClock // this test needs the running clock
	defer func() { serverTime = frozenClock }()
	var c serverClock
	c.set(time.Now().Add(time.Hour)) // the server runs an hour ahead of this PC
	c.setZone("Asia/Shanghai")
	got := c.now()
	if got.Location().String() != "Asia/Shanghai" {
		t.Fatalf("zone %s", got.Location())
	}
	want := time.Now().Add(time.Hour)
	if d := got.Sub(want); d > time.Minute || d < -time.Minute {
		t.Fatalf("server time %v, want about %v", got, want)
	}
	c.setZone("Nowhere/Atlantis") // unknown: keep the last good zone
	if c.now().Location().String() != "Asia/Shanghai" {
		t.Fatal("an unknown zone replaced the branch's")
	}
}
