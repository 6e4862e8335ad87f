package screens

import (
	"context"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// rowButton is the button labelled text in list row i; it reads the
// widgets on the UI goroutine, so it is called outside WithUI.
func rowButton(t *testing.T, rows *fyne.Container, i int, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	WithUI(func() {
		for _, o := range rows.Objects[i].(*fyne.Container).Objects {
			if box, ok := o.(*fyne.Container); ok {
				for _, b := range box.Objects {
					if btn, ok := b.(*widget.Button); ok && btn.Text == text {
						found = btn
					}
				}
			}
		}
	})
	if found == nil {
		t.Fatalf("row %d has no %q button", i, text)
	}
	return found
}

// The manager adds an area, moves a service into it on the services
// page, is told in a sentence that the area cannot go while the service
// is there, and deletes it once it is empty.
func TestManagerAreasPage(t *testing.T) {
	st := newStore(t)
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	p := m.areas
	waitFor(t, "the default area", func() bool { return len(p.rows.Objects) == 1 })

	WithUI(func() {
		p.edit(model.Area{})
		p.name.SetText("二楼贵宾区")
		p.where.SetText("二楼")
		p.save()
	})
	waitFor(t, "the new area listed", func() bool {
		return len(p.rows.Objects) == 2 && len(m.services.area.Options) == 2 && p.msg.Text == tr("common.saved")
	})

	sp := m.services
	WithUI(func() {
		for _, s := range sp.list {
			if s.Code == "V" {
				sp.edit(s)
			}
		}
		sp.area.SetSelected("二楼贵宾区")
		sp.save()
	})
	waitFor(t, "V in the VIP area", func() bool {
		return strings.Contains(p.rows.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).Text, "V")
	})

	del := rowButton(t, p.rows, 1, tr("areas.delete"))
	WithUI(func() { test.Tap(del) })
	waitFor(t, "the refusal", func() bool {
		return strings.Contains(p.msg.Text, "二楼贵宾区") && p.msg.Text != tr("areas.deleted")
	})
	if got, _ := st.Areas(context.Background()); len(got) != 2 {
		t.Fatalf("the refused delete changed the areas: %+v", got)
	}

	WithUI(func() {
		sp.area.SetSelected(sp.areaName(0))
		sp.save()
	})
	waitFor(t, "the VIP area empty", func() bool {
		return len(p.rows.Objects) == 2 && strings.Contains(p.rows.Objects[1].(*fyne.Container).Objects[0].(*widget.Label).Text, tr("areas.empty"))
	})
	del = rowButton(t, p.rows, 1, tr("areas.delete"))
	WithUI(func() { test.Tap(del) })
	waitFor(t, "deleted", func() bool { return len(p.rows.Objects) == 1 && p.msg.Text == tr("areas.deleted") })
}

// A service open in the editor keeps its area when that area is renamed
// meanwhile (on this PC or another): saving it then must not move the
// service to the default area.
func TestServiceEditorFollowsARenamedArea(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	vip, err := st.SaveArea(ctx, model.Area{Name: "二楼贵宾区", Where: "二楼"})
	if err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	sp := m.services
	waitFor(t, "both areas offered", func() bool { return len(sp.area.Options) == 2 && len(sp.list) > 0 })
	WithUI(func() {
		for _, s := range sp.list {
			if s.Code == "V" {
				s.Area = vip.ID
				sp.edit(s)
			}
		}
	})
	vip.Name = "贵宾室"
	if _, err := st.SaveArea(ctx, vip); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the new name offered", func() bool { return slices.Contains(sp.area.Options, "贵宾室") })
	var sel string
	WithUI(func() { sel = sp.area.Selected })
	if sel != "贵宾室" {
		t.Fatalf("the editor's area after the rename = %q, want the renamed area", sel)
	}
}
