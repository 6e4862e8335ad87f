package screens

import (
	"context"
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// A branch with many services keeps the chart's legend inside the chart:
// it wraps to more lines rather than running past the card.
func TestDashboardLegendStaysInsideTheChart(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	for i := range 6 {
		code := string(rune('C' + i))
		if _, err := st.SaveService(ctx, model.Service{Code: code, Name: fmt.Sprintf("理财业务%d", i), Priority: 5, StartNo: 1, Enabled: true}); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	chart := m.mon.dash.chart
	waitFor(t, "every service in the legend", func() bool { return len(chart.lines) >= 8 && m.mon.dash.board != nil })
	WithUI(func() {
		r := test.WidgetRenderer(chart).(*chartRenderer)
		size := chart.Size()
		for i := range chart.lines {
			lg := r.legend[i]
			if lg.Position().X+lg.MinSize().Width > size.Width || lg.Position().Y+lg.MinSize().Height > size.Height {
				t.Errorf("legend %q at %v (%v) leaves the chart of %v", lg.Text, lg.Position(), lg.MinSize(), size)
			}
		}
	})
}
