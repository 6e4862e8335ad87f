package screens

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// The manager's monitor follows today's ratings live: none at first, then
// each rating as it is given, in the satisfaction card and the dashboard's
// tile.
func TestManagerShowsTodaysSatisfaction(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	w := newTestWindow(t, 1024, 768)
	m := build(t, func(ctx context.Context) *Manager { return NewManager(ctx, w, st, ManagerDeps{}) })
	waitLoaded(t, m.Loaded())
	first := func() string { return m.mon.sat.box.Objects[0].(*widget.Label).Text }
	waitFor(t, "no ratings yet", func() bool { return first() == "今日暂无评价" && m.mon.dash.values["satisfied"].Text == "—" })
	for _, s := range []model.Score{model.ScoreVerySatisfied, model.ScoreSatisfied, model.ScoreFair, model.ScoreVerySatisfied} {
		tk := serveAt(t, st, 1)
		if _, err := st.Rate(ctx, tk.ID, 1, model.RatingInput{Score: s}); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "four ratings", func() bool {
		lines := m.mon.sat.box.Objects
		return len(lines) == 2 && first() == "今日满意度 75.0%（4 次评价）" &&
			lines[1].(*widget.Label).Text == "非常满意 2 · 满意 1 · 一般 1 · 不满意 0" &&
			m.mon.dash.values["satisfied"].Text == "75.0%"
	})
	if m.Reloads() != 1 {
		t.Errorf("the ratings reloaded the snapshot %d times: they should follow as events", m.Reloads()-1)
	}
}
