package screens

import (
	"context"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// callerClerk is who works at the window (个人中心, seed 002): the PC's
// token says which window this is, the clerk's sign-in says who serves
// there, so the events, the screens and the report name the person. The
// clerk's own day (served, average service time, rating, passed) is one
// tap away. A store that keeps no staff accounts shows none of it.
type callerClerk struct {
	c        *Caller
	who      *widget.Label
	btn, day *widget.Button
}

func newCallerClerk(c *Caller) *callerClerk {
	k := &callerClerk{c: c, who: widget.NewLabel("")}
	k.btn = widget.NewButton(tr("clerk.sign_in"), k.toggle)
	k.day = widget.NewButton(tr("clerk.my_day"), k.showDay)
	return k
}

func (k *callerClerk) desk() (model.StaffDesk, bool) {
	d, ok := k.c.st.(model.StaffDesk)
	return d, ok
}

// clerk is who the live state says is signed in here.
func (k *callerClerk) clerk() *model.Clerk {
	ws, _ := findWindow(k.c.snap, k.c.window)
	return ws.Clerk
}

// refresh shows the signed-in clerk; ok is false while an action runs.
func (k *callerClerk) refresh(ok bool) {
	_, has := k.desk()
	if !has {
		k.who.Hide()
		k.btn.Hide()
		k.day.Hide()
		return
	}
	if cl := k.clerk(); cl != nil {
		k.who.SetText(clerkText(cl))
		k.btn.SetText(tr("clerk.sign_out"))
		enable(k.day, ok)
	} else {
		k.who.SetText(tr("clerk.nobody"))
		k.btn.SetText(tr("clerk.sign_in"))
		enable(k.day, false)
	}
	enable(k.btn, ok)
}

func (k *callerClerk) toggle() {
	if k.clerk() != nil {
		k.run(func(ctx context.Context, d model.StaffDesk) error {
			_, err := d.SignOut(ctx, k.c.window)
			return err
		})
		return
	}
	number := widget.NewEntry()
	pass := widget.NewPasswordEntry()
	items := []*widget.FormItem{widget.NewFormItem(tr("clerk.number"), number), widget.NewFormItem(tr("clerk.password"), pass)}
	dialog.ShowForm(tr("clerk.sign_in_title"), tr("clerk.sign_in"), tr("common.cancel"), items, func(ok bool) {
		if ok {
			k.signIn(number.Text, pass.Text)
		}
	}, k.c.w)
}

// signIn signs the clerk in; the window's state comes back through the
// live events like any other change.
func (k *callerClerk) signIn(number, password string) {
	k.run(func(ctx context.Context, d model.StaffDesk) error {
		_, err := d.SignIn(ctx, k.c.window, number, password)
		return err
	})
}

func (k *callerClerk) run(fn func(context.Context, model.StaffDesk) error) {
	d, ok := k.desk()
	if !ok {
		return
	}
	c := k.c
	c.busy = true
	c.msg.SetText("")
	c.refresh()
	c.async(func(ctx context.Context) error { return fn(ctx, d) }, func(err error) {
		c.busy = false
		c.refresh()
		if err != nil {
			c.msg.SetText(errText(err))
		}
	})
}

// showDay is the clerk's own page: today's figures from the store.
func (k *callerClerk) showDay() {
	d, ok := k.desk()
	if !ok {
		return
	}
	c := k.c
	var f model.StaffFigures
	c.async(func(ctx context.Context) error {
		var err error
		f, err = d.StaffToday(ctx, c.window)
		return err
	}, func(err error) {
		if err != nil {
			c.msg.SetText(errText(err))
			return
		}
		dialog.ShowCustom(tr("clerk.my_day_title", kv("Number", f.Staff.Number, "Name", f.Staff.Name)), tr("common.ok"),
			container.NewGridWithColumns(2, dayCells(f)...), c.w)
	})
}

// dayCells are the clerk's figures as label pairs. The rating is the
// average level (4 非常满意 … 1 不满意) with the count of ratings, a dash
// before the day's first.
func dayCells(f model.StaffFigures) []fyne.CanvasObject {
	rating := "—"
	if f.AvgRating != nil {
		rating = tr("clerk.rating_value", kv("Avg", strconv.FormatFloat(*f.AvgRating, 'f', 1, 64), "N", f.RatingCount))
	}
	avg := "—"
	if f.Served > 0 {
		avg = model.ClockText(f.AvgService)
	}
	var out []fyne.CanvasObject
	for _, p := range [][2]string{{tr("clerk.served"), strconv.Itoa(f.Served)}, {tr("clerk.avg_service"), avg},
		{tr("clerk.avg_rating"), rating}, {tr("clerk.passed"), strconv.Itoa(f.Passed)}} {
		out = append(out, widget.NewLabel(p[0]), widget.NewLabel(p[1]))
	}
	return out
}
