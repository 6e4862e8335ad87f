package model

import (
	"strings"
	"testing"
	"time"
)

// A rating is one of the four levels, known tags once each and a short
// plain comment; anything else is one sentence.
func TestRatingInputCheck(t *testing.T) {
	good := RatingInput{Score: ScoreVerySatisfied, Tags: []string{"friendly", "fast"}, Comment: "  很好  "}
	in, err := good.Check()
	if err != nil || in.Comment != "很好" {
		t.Fatalf("good input: %+v, %v", in, err)
	}
	for name, bad := range map[string]RatingInput{
		"score 0":      {Score: 0},
		"score 5":      {Score: 5},
		"unknown tag":  {Score: 3, Tags: []string{"cheap"}},
		"tag twice":    {Score: 3, Tags: []string{"fast", "fast"}},
		"long comment": {Score: 2, Comment: strings.Repeat("字", MaxRatingComment+1)},
		"control":      {Score: 2, Comment: "a\x1bb"},
		"line break":   {Score: 2, Comment: "a\nb"},
	} {
		if _, err := bad.Check(); !IsCode(err, EInvalidInput) {
			t.Errorf("%s: %v, want invalid input", name, err)
		}
	}
	if _, err := (RatingInput{Score: 1, Comment: strings.Repeat("字", MaxRatingComment)}).Check(); err != nil {
		t.Errorf("a comment of exactly %d characters: %v", MaxRatingComment, err)
	}
}

// The levels count, share and average as the report and the tiles read
// them, and a live state counts each rate event once.
func TestSatisfactionAndApply(t *testing.T) {
	var m Satisfaction
	for _, s := range []Score{4, 4, 3, 1, 0, 5} {
		m.Add(s)
	}
	if m.Count() != 4 || m.Of(ScoreVerySatisfied) != 2 || m.Share(ScoreUnsatisfied) != 0.25 || m.Satisfied() != 0.75 {
		t.Fatalf("counts %+v", m)
	}
	if avg, ok := m.Average(); !ok || avg != 3 {
		t.Fatalf("average %v %v", avg, ok)
	}
	if _, ok := (Satisfaction{}).Average(); ok {
		t.Fatal("an average of no rating")
	}
	s := Snapshot{Version: 7}
	ev := Event{Version: 8, Kind: EvRate, TicketID: 3, Detail: "2"}
	if !s.Apply(ev) || !s.Apply(ev) || s.Rated.Of(ScoreFair) != 1 || s.Rated.Count() != 1 {
		t.Fatalf("applied rate twice: %+v", s.Rated)
	}
	if RatedScore(Event{Kind: EvFinish, Detail: "2"}) != 0 {
		t.Fatal("a finish read as a rating")
	}
}

func TestRatingOpen(t *testing.T) {
	fin := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	if !RatingOpen(fin, fin.Add(DefaultRatingWindow), DefaultRatingWindow) || RatingOpen(fin, fin.Add(DefaultRatingWindow+time.Millisecond), DefaultRatingWindow) {
		t.Fatal("the window's edge")
	}
	if ParseSettings(nil).RatingWindow != DefaultRatingWindow || ValidateSetting("rating_window_s", "5") == nil || ValidateSetting("evaluator_stars", "maybe") == nil {
		t.Fatal("rating settings")
	}
}
