package sqlstore_test

import (
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// served takes a number of service A and serves it to the end at window.
func served(t *testing.T, s model.Store, window int) model.Ticket {
	t.Helper()
	tk := take(t, s, "A", 0)
	called := ok(t)(s.CallNext(bg, window, "A"))
	if called.ID != tk.ID {
		t.Fatalf("window %d called %s, not %s", window, called.Number, tk.Number)
	}
	ok(t)(s.StartServing(bg, tk.ID, window))
	return ok(t)(s.Finish(bg, tk.ID, window))
}

// A customer rates a done ticket once, at the window that served it or
// on its phone page, within the rating window: the rating names the
// clerk of the finish, logs one rate event and leaves the ticket as it
// was; a second, late, early or foreign rating is refused with its code
// and changes nothing.
func TestRateOnceWithinTheWindow(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		okAny(t, s.SetSetting(bg, "rating_window_s", "60"))
		li := addStaff(t, s, "1001", "李娜")
		_, err := s.SignIn(bg, 1, "1001", staffPass)
		okAny(t, err)
		waiting := take(t, s, "B", 0)
		done := served(t, s, 1)
		before := countEvents(t, s)
		followed, err := s.Snapshot(bg) // followed by its events to the end, as a screen does
		okAny(t, err)
		good := model.RatingInput{Score: model.ScoreVerySatisfied, Tags: []string{"friendly", "skilled"}, Comment: "谢谢"}

		_, err = s.Rate(bg, waiting.ID, 1, good)
		wantCode(t, err, model.ETicketNotDone)
		_, err = s.Rate(bg, done.ID, 2, good)
		wantCode(t, err, model.EForbidden)
		_, err = s.Rate(bg, done.ID, 1, model.RatingInput{Score: 7})
		wantCode(t, err, model.EInvalidInput)
		if n := countEvents(t, s); n != before {
			t.Fatalf("refused ratings logged %d events", n-before)
		}

		r, err := s.Rate(bg, done.ID, 1, good)
		okAny(t, err)
		if r.TicketID != done.ID || r.Number != done.Number || r.Window != 1 || r.Service != "A" || r.StaffID == nil || *r.StaffID != li.ID ||
			r.Score != model.ScoreVerySatisfied || len(r.Tags) != 2 || r.Comment != "谢谢" || r.At.IsZero() {
			t.Fatalf("rating %+v", r)
		}
		evs, err := s.EventsSince(bg, 0, 1000)
		okAny(t, err)
		last := evs[len(evs)-1]
		if last.Kind != model.EvRate || last.TicketID != done.ID || last.Window != 1 || last.StaffID != li.ID ||
			last.Ticket != nil || model.RatedScore(last) != model.ScoreVerySatisfied {
			t.Fatalf("rate event %+v", last)
		}
		if after := ok(t)(s.Ticket(bg, done.ID)); after.Status != model.Done || !after.FinishedAt.Equal(*done.FinishedAt) {
			t.Fatalf("the rating changed the ticket: %+v", after)
		}

		_, err = s.Rate(bg, done.ID, 1, model.RatingInput{Score: model.ScoreUnsatisfied})
		wantCode(t, err, model.EAlreadyRated)
		_, err = s.RateByPublicID(bg, done.PublicID, model.RatingInput{Score: model.ScoreUnsatisfied})
		wantCode(t, err, model.EAlreadyRated)
		if got, err := s.RatingOf(bg, done.ID); err != nil || got.Score != model.ScoreVerySatisfied {
			t.Fatalf("the first rating stays: %+v, %v", got, err)
		}

		// Late: finished longer ago than rating_window_s, by the database clock.
		late := served(t, s, 1)
		// The pad rates its window's last finish only: with the next one
		// finished, the one before is the phone's to rate.
		_, err = s.Rate(bg, r.TicketID, 1, good)
		wantCode(t, err, model.ERatingExpired)
		now, err := s.Now(bg)
		okAny(t, err)
		okAny(t, s.DB().Exec("UPDATE ticket SET finished_at = ? WHERE id = ?", now.Add(-61*time.Second), late.ID).Error)
		_, err = s.RateByPublicID(bg, late.PublicID, good)
		wantCode(t, err, model.ERatingExpired)
		_, err = s.Rate(bg, late.ID, 1, good)
		wantCode(t, err, model.ERatingExpired)
		okAny(t, s.DB().Exec("UPDATE ticket SET finished_at = ? WHERE id = ?", now.Add(-50*time.Second), late.ID).Error)
		phone, err := s.RateByPublicID(bg, late.PublicID, model.RatingInput{Score: model.ScoreFair, Tags: []string{"wait_long"}})
		okAny(t, err)
		if phone.Window != 1 || phone.Score != model.ScoreFair {
			t.Fatalf("phone rating %+v", phone)
		}

		// Nobody signed in at the finish: the rating names nobody, even
		// with a clerk signed in by the time the customer rates.
		_, err = s.SignOut(bg, 1)
		okAny(t, err)
		nobody := served(t, s, 1)
		_, err = s.SignIn(bg, 1, "1001", staffPass)
		okAny(t, err)
		r, err = s.Rate(bg, nobody.ID, 1, model.RatingInput{Score: model.ScoreSatisfied})
		okAny(t, err)
		if r.StaffID != nil {
			t.Fatalf("a finish nobody was signed in for is rated as clerk %d's", *r.StaffID)
		}

		branch, err := s.SatisfactionToday(bg, 0)
		okAny(t, err)
		clerk, err := s.SatisfactionToday(bg, 1)
		okAny(t, err)
		if branch.Levels != [4]int{0, 1, 1, 1} || clerk.Levels != [4]int{0, 1, 0, 1} {
			t.Fatalf("today: branch %v, clerk %v", branch.Levels, clerk.Levels)
		}
		snap, err := s.Snapshot(bg)
		okAny(t, err)
		if snap.Rated != branch {
			t.Fatalf("snapshot counts %v, store %v", snap.Rated.Levels, branch.Levels)
		}
		evs, err = s.EventsSince(bg, followed.Version, 1000)
		okAny(t, err)
		for _, ev := range evs {
			if !followed.Apply(ev) {
				t.Fatalf("event %d (%s) did not apply", ev.Version, ev.Kind)
			}
		}
		if followed.Rated != snap.Rated {
			t.Fatalf("followed by events %v, fresh snapshot %v", followed.Rated.Levels, snap.Rated.Levels)
		}
		fig, err := s.StaffToday(bg, 1)
		okAny(t, err)
		if fig.RatingCount != 2 || fig.AvgRating == nil || *fig.AvgRating != 3 {
			t.Fatalf("clerk's figures %+v", fig)
		}
	})
}

// Pads and phones rating one ticket at once, each from its own PC: on
// every engine exactly one rating is stored and every other is told the
// ticket is rated, never a database error.
func TestRateConcurrentOnce(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 4)
		for round := range 3 {
			tk := served(t, stores[0], 1)
			var wg sync.WaitGroup
			errs := make([]error, len(stores))
			start := make(chan struct{})
			for i, st := range stores {
				wg.Go(func() {
					<-start
					in := model.RatingInput{Score: model.Score(i%4 + 1)}
					if i%2 == 0 {
						_, errs[i] = st.Rate(bg, tk.ID, 1, in)
					} else {
						_, errs[i] = st.RateByPublicID(bg, tk.PublicID, in)
					}
				})
			}
			close(start)
			wg.Wait()
			wins := 0
			for i, err := range errs {
				switch model.ErrorCode(err) {
				case "":
					wins++
				case model.EAlreadyRated:
				default:
					t.Fatalf("round %d, rater %d: %v", round, i, err)
				}
			}
			var n int64
			okAny(t, stores[0].DB().Raw("SELECT COUNT(*) FROM rating WHERE ticket_id = ?", tk.ID).Scan(&n).Error)
			if wins != 1 || n != 1 {
				t.Fatalf("round %d: %d raters succeeded, %d rows stored", round, wins, n)
			}
		}
	})
}

// A ticket of a business day that is over is not rated, even within
// rating_window_s of its finish (finished at 23:59, rated after the
// day's end): the day's counts, the live state followed by the rate
// events and its report would each tell another story.
func TestRateRefusesYesterdaysTicket(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		done := served(t, s, 1)
		followed, err := s.Snapshot(bg)
		okAny(t, err)
		okAny(t, s.DB().Exec("UPDATE ticket SET business_date = ? WHERE id = ?", "2000-01-01", done.ID).Error)
		before := countEvents(t, s)
		_, err = s.RateByPublicID(bg, done.PublicID, model.RatingInput{Score: model.ScoreSatisfied})
		wantCode(t, err, model.ERatingExpired)
		_, err = s.Rate(bg, done.ID, 1, model.RatingInput{Score: model.ScoreSatisfied})
		wantCode(t, err, model.ERatingExpired)
		if n := countEvents(t, s); n != before {
			t.Fatalf("refused ratings logged %d events", n-before)
		}
		evs, err := s.EventsSince(bg, followed.Version, 1000)
		okAny(t, err)
		for _, ev := range evs {
			followed.Apply(ev)
		}
		snap, err := s.Snapshot(bg)
		okAny(t, err)
		if followed.Rated != snap.Rated {
			t.Fatalf("followed by events %v, fresh snapshot %v", followed.Rated.Levels, snap.Rated.Levels)
		}
	})
}
