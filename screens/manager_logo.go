package screens

import (
	"context"
	"fmt"
	"io"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// logoForm sets the branch logo from an image file the manager picks;
// the store checks it (a whole PNG or JPEG, at most 256 KB) and every
// screen shows it in its header from the next reload. It is hidden for a
// store that keeps no logo.
type logoForm struct {
	m       *Manager
	logos   model.BranchLogo
	preview *canvas.Image
	state   *widget.Label
	msg     *widget.Label
	content fyne.CanvasObject
}

func newLogoForm(m *Manager) *logoForm {
	f := &logoForm{m: m, preview: &canvas.Image{FillMode: canvas.ImageFillContain}, state: widget.NewLabel(""), msg: widget.NewLabel("")}
	f.logos, _ = m.st.(model.BranchLogo)
	f.preview.SetMinSize(fyne.NewSize(180, 60))
	pick := widget.NewButton(tr("settings.logo_pick"), f.pick)
	remove := widget.NewButton(tr("settings.logo_clear"), func() { f.save(nil) })
	f.content = widget.NewCard(tr("settings.logo"), "", container.NewVBox(
		container.NewBorder(nil, nil, f.preview, nil, f.state), container.NewGridWithColumns(2, pick, remove), f.msg))
	if f.logos == nil {
		f.content.Hide()
	}
	return f
}

// load shows the stored logo.
func (f *logoForm) load() {
	if f.logos == nil {
		return
	}
	var data []byte
	f.m.async(func(ctx context.Context) error {
		var err error
		data, err = f.logos.Logo(ctx)
		return err
	}, func(err error) {
		if err != nil {
			f.msg.SetText(errText(err))
			return
		}
		f.show(data)
	})
}

func (f *logoForm) show(data []byte) {
	f.preview.Resource = nil
	f.state.SetText(tr("settings.logo_none"))
	if len(data) > 0 {
		f.preview.Resource = fyne.NewStaticResource("logo", data)
		f.state.SetText(tr("settings.logo_has", kv("KB", (len(data)+1023)>>10)))
	}
	f.preview.Refresh()
}

func (f *logoForm) pick() {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			return // cancelled
		}
		defer rc.Close()
		f.saveFrom(rc)
	}, f.m.w)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".png", ".jpg", ".jpeg"}))
	d.Show()
}

// saveFrom reads an image file (a little past the bound, so an oversized
// one is refused by the store's own sentence) and stores it.
func (f *logoForm) saveFrom(r io.Reader) {
	data, err := io.ReadAll(io.LimitReader(r, model.MaxLogoBytes+1))
	if err != nil {
		note(f.msg, fmt.Errorf("读取图片失败 (cannot read the image): %w", err), "")
		return
	}
	f.save(data)
}

func (f *logoForm) save(data []byte) {
	f.m.async(func(ctx context.Context) error { return f.logos.SetLogo(ctx, data) }, func(err error) {
		note(f.msg, err, "settings.logo_saved")
		if err == nil {
			f.show(data)
		}
	})
}
