package screens

import (
	"context"
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// displayKeys are the settings the display page (显示管理) owns; the
// general settings page leaves them out, so each has one place.
var displayKeys = []string{"hall_layout", "colors", "notice"}

// displayPage is the branch's defaults for every screen: the hall's
// layout, the colours with a preview that says before saving whether a
// pair is readable, the notice and the logo. A hall PC's own setup may
// still choose another layout.
type displayPage struct {
	m       *Manager
	loaded  map[string]string
	layout  *widget.Select
	own     *widget.Check // no branch colours: each screen keeps its own
	colour  [4]*widget.Entry
	preview lookPreview
	verdict *widget.Label
	notice  *widget.Entry
	logo    *logoForm
	msg     *widget.Label
	saveBtn *widget.Button
	content fyne.CanvasObject
}

// colourKeys name the four colours of a look, in the form's order.
var colourKeys = [4]string{"background", "number", "highlight", "text"}

func newDisplayPage(m *Manager) *displayPage {
	p := &displayPage{m: m, verdict: widget.NewLabel(""), msg: widget.NewLabel("")}
	p.verdict.Wrapping, p.msg.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	p.layout = widget.NewSelect(texts(layoutLabels()[1:]), nil) // the branch's own choice: no "as the branch"
	p.own = widget.NewCheck(tr("display.own_colours"), func(bool) { p.check() })
	form := widget.NewForm(widget.NewFormItem(tr("setup.hall_layout"), p.layout), widget.NewFormItem("", p.own))
	for i, k := range colourKeys {
		e := widget.NewEntry()
		e.SetPlaceHolder(model.HexColor(lookPart(model.DefaultLook, i)))
		e.OnChanged = func(string) { p.check() }
		p.colour[i] = e
		form.Append(tr("display."+k), e)
	}
	p.preview = newLookPreview()
	p.notice = widget.NewMultiLineEntry()
	p.notice.SetMinRowsVisible(3)
	form.Append(tr("setting.notice"), p.notice)
	p.saveBtn = widget.NewButton(tr("common.save"), p.save)
	p.saveBtn.Importance = widget.HighImportance
	p.logo = newLogoForm(m)
	p.content = container.NewVScroll(container.NewVBox(form, p.preview.box, p.verdict, p.saveBtn, p.msg, p.logo.content))
	p.check()
	return p
}

// layoutName is a layout's name in the page's language.
func layoutName(l model.HallLayout) string {
	switch l {
	case model.HallTiles:
		return tr("hall.layout_tiles")
	case model.HallSplitList:
		return tr("hall.layout_split_list")
	case model.HallSplitTiles:
		return tr("hall.layout_split_tiles")
	}
	return tr("hall.layout_list")
}

func lookPart(l model.Look, i int) color.NRGBA {
	return [4]color.NRGBA{l.Background, l.Number, l.Highlight, l.Text}[i]
}

// show takes the branch's settings as the manager loaded them, and
// loads the logo.
func (p *displayPage) show(got model.Settings, err error) {
	p.logo.load()
	if err != nil {
		p.msg.SetText(errText(err))
		return
	}
	p.loaded = got.Raw
	p.layout.SetSelected(layoutName(got.HallLayout))
	p.notice.SetText(got.Raw["notice"])
	p.own.SetChecked(!got.Look.Set)
	for i, e := range p.colour {
		e.SetText(model.HexColor(lookPart(got.Look, i)))
	}
	p.check()
}

// values are the form's settings as the store keeps them.
func (p *displayPage) values() map[string]string {
	v := map[string]string{"notice": p.notice.Text, "colors": ""}
	for _, l := range model.HallLayouts {
		if layoutName(l) == p.layout.Selected {
			v["hall_layout"] = string(l)
		}
	}
	if !p.own.Checked {
		s := ""
		for i, k := range colourKeys {
			if s != "" {
				s += "&"
			}
			s += k + "=" + p.colour[i].Text
		}
		v["colors"] = s
	}
	return v
}

// check redraws the preview and says whether the colours can be saved:
// the sentence the store would refuse them with, or the lowest ratio.
func (p *displayPage) check() {
	for _, e := range p.colour {
		if p.own.Checked {
			e.Disable()
		} else {
			e.Enable()
		}
	}
	look, err := model.ParseLook(p.values()["colors"])
	p.preview.show(hallPalette(look))
	switch {
	case err != nil:
		p.verdict.Importance = widget.DangerImportance
		p.verdict.SetText(errText(err))
	case !look.Set:
		p.verdict.Importance = widget.MediumImportance
		p.verdict.SetText(tr("display.own_colours_note"))
	default:
		p.verdict.Importance = widget.SuccessImportance
		p.verdict.SetText(tr("display.contrast_ok", kv("R", fmt.Sprintf("%.1f", lowestContrast(look)))))
	}
}

// lowestContrast is the least readable of the pairs CheckContrast tests.
func lowestContrast(l model.Look) float64 {
	return min(model.ContrastRatio(l.Number, l.Background), model.ContrastRatio(l.Text, l.Background),
		model.ContrastRatio(l.Number, l.Highlight), model.ContrastRatio(l.Text, l.Highlight))
}

// save checks every changed value, then writes them: a refused colour
// leaves the layout and the notice unsaved too, as the page shows.
func (p *displayPage) save() {
	changed := map[string]string{}
	for k, v := range p.values() {
		if v != p.loaded[k] {
			if err := model.ValidateSetting(k, v); err != nil {
				note(p.msg, err, "")
				return
			}
			changed[k] = v
		}
	}
	p.m.async(func(ctx context.Context) error {
		for _, k := range displayKeys {
			if v, ok := changed[k]; ok {
				if err := p.m.st.SetSetting(ctx, k, v); err != nil {
					return err
				}
			}
		}
		return nil
	}, func(err error) { note(p.msg, err, "common.saved") })
}

// lookPreview is a call row of the hall in the chosen colours: the plain
// row and the newest call's highlighted one.
type lookPreview struct {
	bg, row, hot     *canvas.Rectangle
	num, win, hotNum *canvas.Text
	hotWin, caption  *canvas.Text
	box              *fyne.Container
}

func newLookPreview() lookPreview {
	p := lookPreview{bg: canvas.NewRectangle(nil), row: canvas.NewRectangle(nil), hot: canvas.NewRectangle(nil)}
	text := func(s string, size float32) *canvas.Text {
		t := canvas.NewText(s, nil)
		t.TextSize, t.TextStyle.Bold = size, true
		return t
	}
	p.caption = canvas.NewText(tr("hall.now_calling"), nil)
	p.hotNum, p.hotWin = text("A012", 36), text(tr("hall.to_window", kv("N", 3)), 28)
	p.num, p.win = text("A011", 36), text(tr("hall.to_window", kv("N", 1)), 28)
	line := func(bg *canvas.Rectangle, a, b *canvas.Text) fyne.CanvasObject {
		return container.NewStack(bg, container.NewPadded(container.NewGridWithColumns(2, container.NewCenter(a), container.NewCenter(b))))
	}
	p.box = container.NewStack(p.bg, container.NewPadded(container.NewVBox(p.caption, line(p.hot, p.hotNum, p.hotWin), line(p.row, p.num, p.win))))
	return p
}

func (p lookPreview) show(pal palette) {
	p.bg.FillColor, p.row.FillColor, p.hot.FillColor = pal.bg, pal.row, pal.hot
	p.num.Color, p.hotNum.Color, p.win.Color, p.hotWin.Color, p.caption.Color = pal.num, pal.num, pal.text, pal.text, pal.sub
	p.box.Refresh()
}
