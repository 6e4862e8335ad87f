package model

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Customer evaluation (客户评价, seed 002): after a finish the customer
// rates the service once, within rating_window_s, on the pad facing them
// at the window (the evaluator role) or on their phone's ticket page.

// Score is a rating's level. Higher is better, so an average reads the
// way people expect (3.6 of 4); the four levels are the seed's.
type Score int

// The four levels, from worst to best.
const (
	ScoreUnsatisfied   Score = 1 // 不满意
	ScoreFair          Score = 2 // 一般
	ScoreSatisfied     Score = 3 // 满意
	ScoreVerySatisfied Score = 4 // 非常满意
)

// Scores are the levels in the order the rating buttons and the report's
// columns show them: best first.
var Scores = []Score{ScoreVerySatisfied, ScoreSatisfied, ScoreFair, ScoreUnsatisfied}

// Valid reports whether s is one of the four levels.
func (s Score) Valid() bool { return s >= ScoreUnsatisfied && s <= ScoreVerySatisfied }

// Label is the level's translation key (assets/lang): rating.score.4 is
// 非常满意.
func (s Score) Label() string { return fmt.Sprintf("rating.score.%d", int(s)) }

// RatingTags are the reasons a customer may tick beside the level: codes
// stored as they are, each shown through its key rating.tag.<code>.
var RatingTags = []string{"friendly", "skilled", "fast", "clear", "wait_long", "slow", "unclear", "unfriendly"}

const (
	// MaxRatingComment is the length of a comment, in characters: a
	// sentence typed on a pad, not a letter.
	MaxRatingComment = 100
	// DefaultRatingWindow is rating_window_s's default.
	DefaultRatingWindow = 120 * time.Second
)

// RatingInput is what the customer gives: a level, optional reason tags
// and an optional short comment.
type RatingInput struct {
	Score   Score    `json:"score"`
	Tags    []string `json:"tags,omitempty"`
	Comment string   `json:"comment,omitempty"`
}

// Check accepts a level of the four, known tags each at most once and a
// comment of plain text within MaxRatingComment; it returns the input
// with the comment trimmed.
func (in RatingInput) Check() (RatingInput, error) {
	if !in.Score.Valid() {
		return in, Errorf(EInvalidInput, "评价须为 1 到 4 之一（4 非常满意、3 满意、2 一般、1 不满意），收到 %d (the score must be 1-4)", int(in.Score))
	}
	for i, tag := range in.Tags {
		if !slices.Contains(RatingTags, tag) {
			return in, Errorf(EInvalidInput, "没有评价原因 %q (unknown reason tag)", tag)
		}
		if slices.Contains(in.Tags[:i], tag) {
			return in, Errorf(EInvalidInput, "评价原因 %q 重复 (reason tag given twice)", tag)
		}
	}
	in.Comment = strings.TrimSpace(in.Comment)
	if utf8.RuneCountInString(in.Comment) > MaxRatingComment {
		return in, Errorf(EInvalidInput, "留言须不超过 %d 个字 (the comment must be at most %d characters)", MaxRatingComment, MaxRatingComment)
	}
	if err := CheckText("留言", "the comment", in.Comment, false); err != nil {
		return in, err
	}
	return in, nil
}

// Rating is one customer's evaluation of one done ticket.
type Rating struct {
	TicketID int64  `json:"ticket_id"`
	Number   string `json:"number"`
	Service  string `json:"service"` // the service it was finished under
	Window   int    `json:"window"`  // where it was finished
	// StaffID is the clerk of its finish; nil when nobody was signed in.
	StaffID *int64    `json:"staff_id,omitempty"`
	Score   Score     `json:"score"`
	Tags    []string  `json:"tags,omitempty"`
	Comment string    `json:"comment,omitempty"`
	At      time.Time `json:"at"` // database clock
}

// Satisfaction counts ratings by level: Levels[s-1] is the count of
// score s.
type Satisfaction struct {
	Levels [4]int `json:"levels"`
}

// Add counts one rating of score s; a level outside the four is ignored.
func (m *Satisfaction) Add(s Score) {
	if s.Valid() {
		m.Levels[s-1]++
	}
}

// Count is the number of ratings.
func (m Satisfaction) Count() int {
	n := 0
	for _, c := range m.Levels {
		n += c
	}
	return n
}

// Of is the count of score s.
func (m Satisfaction) Of(s Score) int {
	if !s.Valid() {
		return 0
	}
	return m.Levels[s-1]
}

// Share is score s's part of the ratings, 0 to 1 (0 with none).
func (m Satisfaction) Share(s Score) float64 {
	if n := m.Count(); n > 0 {
		return float64(m.Of(s)) / float64(n)
	}
	return 0
}

// Average is the mean score, 1 to 4; ok is false with no rating.
func (m Satisfaction) Average() (avg float64, ok bool) {
	n := m.Count()
	if n == 0 {
		return 0, false
	}
	sum := 0
	for i, c := range m.Levels {
		sum += (i + 1) * c
	}
	return float64(sum) / float64(n), true
}

// Satisfied is the share of 满意 and 非常满意, 0 to 1: the one figure a
// tile shows.
func (m Satisfaction) Satisfied() float64 {
	return m.Share(ScoreSatisfied) + m.Share(ScoreVerySatisfied)
}

// Ratings is the customers' evaluation. Both adapters have it.
type Ratings interface {
	// Rate records the rating of ticket id from the pad at window: the
	// ticket must be done, finished at that window, not rated yet and
	// finished no longer than rating_window_s ago by the database clock
	// (ETicketNotDone, EForbidden, EAlreadyRated, ERatingExpired). It
	// changes no ticket and logs one EvRate event.
	Rate(ctx context.Context, id int64, window int, in RatingInput) (Rating, error)
	// RateByPublicID is the same from the customer's phone page, by the
	// ticket's public id.
	RateByPublicID(ctx context.Context, publicID string, in RatingInput) (Rating, error)
	// RatingOf is ticket id's rating, ENotFound while it has none.
	RatingOf(ctx context.Context, id int64) (Rating, error)
	// SatisfactionToday counts the business day's ratings: of the whole
	// branch with window 0, else of the clerk signed in at that window
	// (none signed in: an empty count).
	SatisfactionToday(ctx context.Context, window int) (Satisfaction, error)
}

// RatingFacts is the report's satisfaction part, where the store keeps
// ratings (the SQL adapter does).
type RatingFacts interface {
	// RatingsOf gives the ratings of the tickets issued in [start, end),
	// live and archived, by ticket id.
	RatingsOf(ctx context.Context, start, end time.Time) (map[int64]Rating, error)
}

// RatingOpen reports whether a ticket finished at finished may still be
// rated at now, within window.
func RatingOpen(finished, now time.Time, window time.Duration) bool {
	return !now.After(finished.Add(window))
}

// The refusals of a rating, one sentence each.
var (
	ErrAlreadyRated  = Errorf(EAlreadyRated, "这个号码已经评价过了，每个号码只能评价一次 (this ticket has been rated already; a ticket is rated once)")
	ErrRatingExpired = Errorf(ERatingExpired, "评价时间已过，办理结束后须在规定时间内评价 (the time to rate this ticket has passed)")
	ErrNotDone       = Errorf(ETicketNotDone, "这个号码还没有办理完成，办理完成后才能评价 (this ticket is not done yet; rate it once it is served)")
)

// RatedScore is the score an EvRate event records (in its Detail); 0
// for any other event.
func RatedScore(ev Event) Score {
	if ev.Kind != EvRate || len(ev.Detail) != 1 {
		return 0
	}
	return Score(ev.Detail[0] - '0')
}
