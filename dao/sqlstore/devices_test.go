package sqlstore_test

import (
	"slices"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A PC's device fault is one device event (and its alert's, see
// alerts_test.go); the snapshot lists faults still open, the newest report
// per PC and device deciding.
func TestDeviceFaults(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		kiosk, hall := model.WithActor(bg, "kiosk@pc1"), model.WithActor(bg, "screen@pc9")
		okAny(t, s.ReportDevice(kiosk, "printer", "缺纸 (out of paper)"))
		okAny(t, s.ReportDevice(hall, "voice", "未找到语音引擎"))
		okAny(t, s.ReportDevice(kiosk, "printer", "")) // recovered
		snap, err := s.Snapshot(bg)
		okAny(t, err)
		if len(snap.Faults) != 1 || snap.Faults[0].Terminal != "screen@pc9" || snap.Faults[0].Kind != "voice" {
			t.Fatalf("faults %+v", snap.Faults)
		}
		evs, _ := s.EventsSince(bg, 0, 10)
		evs = slices.DeleteFunc(evs, func(e model.Event) bool { return e.Alert != nil })
		if len(evs) != 3 || evs[0].Kind != model.EvDevice || evs[0].Device == nil || evs[0].Device.Fault == "" || evs[0].Device.Terminal != "kiosk@pc1" {
			t.Fatalf("events %+v", evs)
		}
		before := countEvents(t, s)
		if err := s.ReportDevice(kiosk, "fax", "x"); !model.IsCode(err, model.EInvalidInput) {
			t.Fatalf("unknown device: %v", err)
		}
		if countEvents(t, s) != before {
			t.Fatal("a refused report wrote an event")
		}
	})
}
