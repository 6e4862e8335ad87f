package screens

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// A value the store refuses, saved with other changes on the settings
// page, leaves every setting as it was: the page shows the refusal, and
// the hours typed with it are not half applied.
func TestManagerRefusedSettingChangesNoOther(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	waitFor(t, "settings loaded", func() bool { return m.settings.entries["business_hours"].Text != "" })
	before, err := st.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	WithUI(func() {
		m.settings.entries["business_hours"].SetText("08:00-18:00")
		m.settings.entries["vip_enabled"].SetText("maybe")
		test.Tap(m.settings.saveBtn)
	})
	waitFor(t, "the refusal", func() bool {
		return m.settings.msg.Importance == widget.DangerImportance && m.settings.msg.Text != ""
	})
	got, err := st.Settings(context.Background())
	if err != nil || got.Raw["business_hours"] != before.Raw["business_hours"] || got.VIPEnabled != before.VIPEnabled {
		t.Fatalf("after a refused save: hours %q, vip %v (%v); want %q and %v unchanged",
			got.Raw["business_hours"], got.VIPEnabled, err, before.Raw["business_hours"], before.VIPEnabled)
	}
}
