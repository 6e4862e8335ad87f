package screens

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The manager renames the branch and moves its zone from the settings
// page; a bad zone is one sentence and changes nothing; the manager's own
// follower shows the new name and zone without a restart (the other roles
// follow the same way: dao/sqlstore and dao/peer test a second PC).
func TestManagerEditsBranch(t *testing.T) {
	st := newStore(t)
	m := build(t, func(ctx context.Context) *Manager {
		return NewManager(ctx, newTestWindow(t, 1024, 768), st, ManagerDeps{})
	})
	waitLoaded(t, m.Loaded())
	waitFor(t, "branch loaded", func() bool { return m.settings.branch.zone.Text != "" })

	WithUI(func() {
		m.settings.branch.zone.SetText("Mars/Olympus")
		test.Tap(m.settings.branch.saveBtn)
	})
	waitFor(t, "refusal", func() bool { return strings.Contains(m.settings.branch.msg.Text, "Mars/Olympus") })
	if snap, _ := st.Snapshot(context.Background()); snap.TimeZone == "Mars/Olympus" {
		t.Fatal("a bad zone was saved")
	}

	WithUI(func() {
		m.settings.branch.name.SetText("城东支行")
		m.settings.branch.zone.SetText("Asia/Urumqi")
		test.Tap(m.settings.branch.saveBtn)
	})
	waitFor(t, "branch saved", func() bool { return m.settings.branch.msg.Text == tr("common.saved") })
	if st.Location().String() != "Asia/Urumqi" {
		t.Fatalf("store zone %s after the change", st.Location())
	}
	waitFor(t, "manager follows", func() bool {
		return m.snap.Branch == "城东支行" && m.snap.TimeZone == "Asia/Urumqi" &&
			m.settings.branch.zone.Text == "Asia/Urumqi"
	})
}
