package demodata_test

import (
	"context"
	"testing"

	"jiaohao/app/demodata"
	"jiaohao/dao/daotest"
	"jiaohao/model"
)

// A seeded day has ratings for most of its done tickets, never for
// another, with most customers content and some not: the demo's and the
// report's satisfaction figures are real ones.
func TestSeedDayRates(t *testing.T) {
	st := daotest.SQLite(t)
	ctx := context.Background()
	sum, err := demodata.Day(ctx, st, demodata.DayConfig{Date: "2026-03-02", Tickets: 300})
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		Score  int
		Status int
	}
	if err := st.DB().Raw("SELECT r.score, t.status FROM rating r JOIN ticket t ON t.id = r.ticket_id").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	var m model.Satisfaction
	for _, r := range rows {
		if model.Status(r.Status) != model.Done {
			t.Fatalf("a rated ticket in status %d", r.Status)
		}
		m.Add(model.Score(r.Score))
	}
	done := sum.ByStatus[model.Done]
	if m.Count() != sum.Ratings || m.Count() < done/2 || m.Count() > done {
		t.Fatalf("%d ratings (generator %d) for %d done", m.Count(), sum.Ratings, done)
	}
	if m.Share(model.ScoreVerySatisfied) < 0.35 || m.Of(model.ScoreUnsatisfied)+m.Of(model.ScoreFair) == 0 {
		t.Fatalf("an unlikely spread: %v", m.Levels)
	}
}
