package sqlstore

import (
	"slices"
	"testing"
	"time"

	"jiaohao/model"
)

// A kept reading is brought up to date only by the events right after it:
// a read that skipped a version (a commit its statement missed, see
// EventsSince) makes the take read everything again, as the skipped take
// would otherwise never be counted.
func TestReplayNeedsEveryVersion(t *testing.T) {
	date := "2026-12-07"
	id, svc, lane, prio, key, status := int64(7), int64(1), int(model.LaneNormal), 0, int64(100), int(model.Waiting)
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	take := func(v int64) replayRow {
		return replayRow{Version: v, Kind: model.EvTake, ID: &id, ServiceID: &svc, Lane: &lane, Priority: &prio,
			SortKey: &key, Status: &status, BusinessDate: &date, IssuedAt: &at}
	}
	printed := func(v int64) replayRow { return replayRow{Version: v, Kind: model.EvPrinted} }
	r := &takeReading{date: date, version: 10, walks: map[walkKey]aheadWalk{{svc, 0}: {count: 3, version: 10}}}

	got, ok := r.replay([]replayRow{printed(11), take(12)})
	if !ok || got.version != 12 || got.walks[walkKey{svc, 0}].count != 4 {
		t.Fatalf("events 11 and 12 after 10: ok %v, %+v", ok, got)
	}
	for _, evs := range [][]replayRow{{take(12)}, {printed(11), take(13)}, {take(11), take(11)}} {
		if got, ok := r.replay(evs); ok {
			t.Fatalf("events %v after 10 were added, to version %d", []int64{evs[0].Version, evs[len(evs)-1].Version}, got.version)
		}
	}
	if r.version != 10 || r.walks[walkKey{svc, 0}].count != 3 {
		t.Fatalf("the kept reading itself changed: %+v", r)
	}
}

// Numbers taken in the same microsecond (two PCs, two kiosks) are kept
// in the order the base reads them (issued_at, then id, newest first),
// whatever order their events come in, and each only once.
func TestAddArrivalOrdersTiesByID(t *testing.T) {
	at := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	row := func(id int64, later time.Duration) arrivalRow { return arrivalRow{ID: id, IssuedAt: at.Add(later)} }
	var as []arrivalRow
	for _, a := range []arrivalRow{row(593, 0), row(598, 0), row(590, -time.Microsecond), row(600, time.Microsecond), row(595, 0), row(598, 0)} {
		as = addArrival(as, a)
	}
	var ids []int64
	for _, a := range as {
		ids = append(ids, a.ID)
	}
	if want := []int64{600, 598, 595, 593, 590}; !slices.Equal(ids, want) {
		t.Fatalf("kept %v, want %v", ids, want)
	}
}
