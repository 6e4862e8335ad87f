package demodata

import (
	"math/rand/v2"
	"time"

	"jiaohao/model"
)

// Simulated ratings (客户评价): a share of the customers served rates the
// service soon after the finish, on the window's pad or on their phone,
// most of them well and a few badly, with reasons that fit the level. The
// ratings draw from a generator of their own, so the rest of a seeded day
// replays exactly as it did before they existed.

const (
	pRate  = 0.7  // of the finished tickets, those rated
	pPhone = 0.15 // of those, rated on the customer's phone
)

// levelWeights is the spread of levels, best first (model.Scores): what a
// branch sees, most customers content and a few not.
var levelWeights = []float64{55, 30, 10, 5}

var (
	goodTags  = []string{"friendly", "skilled", "fast", "clear"}
	badTags   = []string{"wait_long", "slow", "unclear", "unfriendly"}
	goodNotes = []string{"", "", "", "谢谢", "很耐心", "办得很快"}
	badNotes  = []string{"", "", "等了太久", "窗口太少"}
)

// rater is the day's rating side; nil rs: the store keeps no ratings.
type rater struct {
	rs  model.Ratings
	rng *rand.Rand
	n   int
}

func newRater(st DayStore, seed uint64) rater {
	rs, _ := st.(model.Ratings)
	return rater{rs: rs, rng: rand.New(rand.NewPCG(seed^0x5a71, seed>>3|1))}
}

// afterFinish schedules the rating of c, finished at window w at at,
// within the default time to rate.
func (s *sim) afterFinish(at time.Time, w int, c *customer) {
	r := &s.rater
	if r.rs == nil || r.rng.Float64() >= pRate {
		return
	}
	d := time.Duration(5+r.rng.Float64()*90) * time.Second
	s.schedule(&step{at: at.Add(d), kind: stRate, window: w, t: c})
}

// rate is the stRate step. A customer whose window has served the next
// one meanwhile (a busy day's quick service) rates on the phone instead:
// the pad is the next customer's by then.
func (s *sim) rate(p *step) error {
	r := &s.rater
	in := r.input()
	var err error
	phone := r.rng.Float64() < pPhone
	if !phone {
		_, err = r.rs.Rate(s.ctx, p.t.id, p.window, in)
		phone = model.IsCode(err, model.ERatingExpired)
	}
	if phone {
		var tk model.Ticket
		if tk, err = s.st.Ticket(s.ctx, p.t.id); err == nil {
			_, err = r.rs.RateByPublicID(s.ctx, tk.PublicID, in)
		}
	}
	if err == nil {
		p.t.steps++ // the rating's event
		r.n++
	}
	return err
}

// input draws a level and reasons that fit it.
func (r *rater) input() model.RatingInput {
	x := r.rng.Float64() * 100
	i := 0
	for ; i < len(levelWeights)-1 && x >= levelWeights[i]; i++ {
		x -= levelWeights[i]
	}
	in := model.RatingInput{Score: model.Scores[i]}
	tags, notes := goodTags, goodNotes
	if in.Score <= model.ScoreFair {
		tags, notes = badTags, badNotes
	}
	for _, t := range tags {
		if r.rng.Float64() < 0.25 {
			in.Tags = append(in.Tags, t)
		}
	}
	in.Comment = notes[r.rng.IntN(len(notes))]
	return in
}
