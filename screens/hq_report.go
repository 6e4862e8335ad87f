package screens

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// HQReportFunc writes head office's report over the branches of codes
// (nil: every branch) and the business days from..to on this PC, the PDF
// with the CSV beside it, and returns the PDF's path.
type HQReportFunc func(ctx context.Context, codes []string, from, to string) (path string, err error)

// hqReport is head office's form for the report over branches: the days,
// the branches (empty: every one) and a button that writes the files and
// opens the PDF. It lives in a dialog opened from the overview's title row.
type hqReport struct {
	h        *HQ
	write    HQReportFunc
	open     func(path string) error
	from, to *widget.DateEntry
	branches *widget.Entry
	run      *widget.Button
	msg      *widget.Label
	content  fyne.CanvasObject
}

// AddReport puts head office's report in the overview's title row: a
// button opening its form over w. open shows the written PDF (nil: the
// path is only said). Call it on the UI goroutine.
func (h *HQ) AddReport(w fyne.Window, write HQReportFunc, open func(path string) error) {
	r := &hqReport{h: h, write: write, open: open, from: widget.NewDateEntry(), to: widget.NewDateEntry(),
		branches: widget.NewEntry(), msg: widget.NewLabel("")}
	r.branches.SetPlaceHolder(tr("hq.report_all"))
	r.msg.Wrapping = fyne.TextWrapWord
	r.run = widget.NewButton(tr("reports.generate"), r.generate)
	r.run.Importance = widget.HighImportance
	form := widget.NewForm(widget.NewFormItem(tr("reports.from"), r.from), widget.NewFormItem(tr("reports.to"), r.to),
		widget.NewFormItem(tr("hq.report_branches"), r.branches))
	hint := widget.NewLabel(tr("hq.report_hint"))
	hint.Wrapping = fyne.TextWrapWord
	r.content = container.NewVBox(hint, form, r.run, r.msg)
	h.report = r
	h.AddTool(widget.NewButton(tr("hq.report"), func() {
		d := dialog.NewCustom(tr("hq.report"), tr("hq.report_close"), r.content, w)
		d.Resize(fyne.NewSize(560, 0))
		d.Show()
	}))
}

// generate checks the form on this PC, then has the host render the
// report; the button stays off until the answer, so one tap is one report.
func (r *hqReport) generate() {
	if r.from.Date == nil || r.to.Date == nil {
		r.msg.SetText(tr("reports.pick_dates"))
		return
	}
	from, to := r.from.Date.Format(time.DateOnly), r.to.Date.Format(time.DateOnly)
	if to < from {
		r.msg.SetText(tr("hq.report_order"))
		return
	}
	codes, err := model.BranchCodes(r.branches.Text)
	if err != nil {
		r.msg.SetText(errText(err))
		return
	}
	r.run.Disable()
	r.msg.SetText(tr("reports.working"))
	r.h.wg.Go(func() {
		ctx, cancel := context.WithTimeout(r.h.ctx, reportTimeout)
		defer cancel()
		path, err := r.write(ctx, codes, from, to)
		if err == nil && r.open != nil {
			err = r.open(path)
		}
		onUI(func() {
			r.run.Enable()
			if err != nil {
				r.msg.SetText(errText(err))
				return
			}
			r.msg.SetText(tr("reports.done", kv("Path", path)))
		})
	})
}
