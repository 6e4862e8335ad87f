package screens

import (
	"context"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"jiaohao/model"
)

// serveAt takes a number of A and serves it to the end at window.
func serveAt(t *testing.T, st model.Store, window int) model.Ticket {
	t.Helper()
	ctx := context.Background()
	tk := take(t, st, "A", 1)[0]
	if _, err := st.CallNext(ctx, window, "A"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.StartServing(ctx, tk.ID, window); err != nil {
		t.Fatal(err)
	}
	tk, err := st.Finish(ctx, tk.ID, window)
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// The rating pad at window 1: idle it shows the clerk's card; a finish
// there switches it to the rating buttons, and a tap on a chip and a
// level (with a typed comment) rates that ticket, thanks and returns to
// the card, whose stars then count the rating. Unrated, it returns by
// itself when the time to rate is over; a rating on the customer's phone
// ends the question too; another window's finish leaves it alone.
func TestEvaluatorSwitchesOnFinish(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if _, err := st.AddStaff(ctx, model.Staff{Number: "1001", Name: "李娜"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SignIn(ctx, 1, "1001", "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1280, 800)
	e := build(t, func(ctx context.Context) *Evaluator { return NewEvaluator(ctx, w, st, 1) })
	waitLoaded(t, e.Loaded())
	idle := func(what string) {
		t.Helper()
		waitFor(t, what, func() bool {
			return e.idle.Visible() && !e.ask.Visible() && !e.thanks.Visible() && e.Asking() == 0
		})
	}
	waitFor(t, "the clerk's card", func() bool {
		return e.settings > 0 && e.clerkName.Text == "李娜" && e.clerkNo.Text == "工号 1001" && e.starsT.Text == ""
	})
	idle("idle before any finish")
	WithUI(func() { e.thanksFor = 50 * time.Millisecond })

	tk := serveAt(t, st, 1)
	waitFor(t, "asking after the finish", func() bool {
		return e.ask.Visible() && !e.idle.Visible() && e.Asking() == tk.ID && e.prompt.Text == tk.Number+" 号，请您为本次服务评价"
	})
	WithUI(func() {
		test.Tap(e.tagBtn["friendly"])
		test.Tap(e.tagBtn["fast"])
		test.Tap(e.tagBtn["fast"]) // a second tap takes the chip back
		test.Type(e.comment, "很好")
		test.Tap(e.scoreBtn[model.ScoreVerySatisfied])
	})
	waitFor(t, "thanks or back at the card", func() bool { return e.Asking() == 0 })
	r, err := st.RatingOf(ctx, tk.ID)
	if err != nil || r.Score != model.ScoreVerySatisfied || !slices.Equal(r.Tags, []string{"friendly"}) || r.Comment != "很好" || r.Window != 1 {
		t.Fatalf("the pad's rating: %+v, %v", r, err)
	}
	idle("back at the card after thanking")
	waitFor(t, "the clerk's stars", func() bool { return e.starsT.Text == "今日评价 ★★★★ 4.0（1 次）" })

	// Another window's finish is not this pad's customer.
	applied := e.Applied()
	serveAt(t, st, 2)
	waitFor(t, "window 2's finish seen", func() bool { return e.Applied() > applied })
	idle("idle after window 2's finish")

	// Nobody rates: back at the card once the time is over, nothing stored.
	WithUI(func() { e.timeout = 100 * time.Millisecond })
	unrated := serveAt(t, st, 1)
	waitFor(t, "asking about the next ticket", func() bool { return e.Asking() == unrated.ID })
	idle("back at the card after the timeout")
	if _, err := st.RatingOf(ctx, unrated.ID); !model.IsCode(err, model.ENotFound) {
		t.Fatalf("an unrated ticket has a rating: %v", err)
	}

	// Rated on the customer's phone while the pad asks.
	WithUI(func() { e.timeout = time.Minute })
	phone := serveAt(t, st, 1)
	waitFor(t, "asking about the phone's ticket", func() bool { return e.Asking() == phone.ID })
	if _, err := st.RateByPublicID(ctx, phone.PublicID, model.RatingInput{Score: model.ScoreFair}); err != nil {
		t.Fatal(err)
	}
	idle("back at the card after the phone's rating")
	waitFor(t, "the stars count both", func() bool { return e.starsT.Text == "今日评价 ★★★☆ 3.0（2 次）" })
}

// A pad whose branch shows no stars keeps the card to the name and
// number, and one of a window nobody is signed in at welcomes.
func TestEvaluatorCardWithoutStars(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if err := st.SetSetting(ctx, "evaluator_stars", "false"); err != nil {
		t.Fatal(err)
	}
	w := newTestWindow(t, 1024, 600)
	e := build(t, func(ctx context.Context) *Evaluator { return NewEvaluator(ctx, w, st, 2) })
	waitLoaded(t, e.Loaded())
	waitFor(t, "welcome", func() bool { return e.settings > 0 && e.clerkName.Text == "欢迎光临" && e.clerkNo.Text == "" })
	tk := serveAt(t, st, 2)
	if _, err := st.Rate(ctx, tk.ID, 2, model.RatingInput{Score: 4}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddStaff(ctx, model.Staff{Number: "1002", Name: "王强"}, "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.SignIn(ctx, 2, "1002", "clerk-pass"); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the clerk without stars", func() bool { return e.clerkName.Text == "王强" && e.starsT.Text == "" })
}

// The pad draws in the branch's colours from a change made while it
// asks, keeping the question, the chips chosen and the comment typed.
func TestEvaluatorFollowsTheBranchLook(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	w := newTestWindow(t, 1280, 800)
	e := build(t, func(ctx context.Context) *Evaluator { return NewEvaluator(ctx, w, st, 1) })
	waitLoaded(t, e.Loaded())
	waitFor(t, "the pad's own colours", func() bool { return e.settings > 0 && e.bg.FillColor == colHallBg })
	tk := serveAt(t, st, 1)
	waitFor(t, "asking", func() bool { return e.Asking() == tk.ID })
	WithUI(func() {
		test.Tap(e.tagBtn["clear"])
		test.Type(e.comment, "好")
	})
	if err := st.SetSetting(ctx, "colors", lightLook); err != nil {
		t.Fatal(err)
	}
	look, _ := model.ParseLook(lightLook)
	waitFor(t, "the branch's colours, the question kept", func() bool {
		return e.bg.FillColor == look.Background && e.clerkName.Color == look.Number && w.Content() == e.content &&
			e.Asking() == tk.ID && e.ask.Visible() && e.Chosen("clear") && e.tagBg["clear"].FillColor == look.Highlight &&
			e.comment.Text == "好" && e.prompt.Text == tk.Number+" 号，请您为本次服务评价"
	})
}

// ratingFlaky is a flaky link to a store that keeps ratings, as the
// pad's peer client is.
type ratingFlaky struct {
	*flaky
	model.Ratings
}

// A finish at the pad's window while its link is down still asks that
// customer once the link is back: the reload brings no events, so the
// pad reads what it missed.
func TestEvaluatorAsksAfterReconnect(t *testing.T) {
	st := newStore(t)
	f := &flaky{Store: st}
	w := newTestWindow(t, 1280, 800)
	e := build(t, func(ctx context.Context) *Evaluator {
		return NewEvaluator(ctx, w, ratingFlaky{f, st}, 1)
	})
	waitLoaded(t, e.Loaded())
	reloads := e.Reloads()
	f.cut(true)
	tk := serveAt(t, st, 1)
	f.cut(false)
	waitFor(t, "reloaded", func() bool { return e.Reloads() > reloads })
	waitFor(t, "asking about the ticket finished while the link was down", func() bool {
		return e.ask.Visible() && e.Asking() == tk.ID
	})
	WithUI(func() { test.Tap(e.scoreBtn[model.ScoreSatisfied]) })
	waitFor(t, "rated", func() bool { return e.Asking() == 0 })
	if r, err := st.RatingOf(context.Background(), tk.ID); err != nil || r.Score != model.ScoreSatisfied {
		t.Fatalf("the pad's rating after the reconnect: %+v, %v", r, err)
	}
}

// A rating on the customer's phone while the pad's link is down ends the
// pad's question once the link is back, as it does live.
func TestEvaluatorSeesPhoneRatingAfterReconnect(t *testing.T) {
	st := newStore(t)
	f := &flaky{Store: st}
	w := newTestWindow(t, 1280, 800)
	e := build(t, func(ctx context.Context) *Evaluator { return NewEvaluator(ctx, w, ratingFlaky{f, st}, 1) })
	waitLoaded(t, e.Loaded())
	WithUI(func() { e.thanksFor = 50 * time.Millisecond })
	tk := serveAt(t, st, 1)
	waitFor(t, "asking", func() bool { return e.Asking() == tk.ID })
	reloads := e.Reloads()
	f.cut(true)
	if _, err := st.RateByPublicID(context.Background(), tk.PublicID, model.RatingInput{Score: model.ScoreFair}); err != nil {
		t.Fatal(err)
	}
	f.cut(false)
	waitFor(t, "reloaded", func() bool { return e.Reloads() > reloads })
	waitFor(t, "back at the card after the phone's rating", func() bool {
		return e.Asking() == 0 && e.idle.Visible() && !e.ask.Visible()
	})
}
