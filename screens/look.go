package screens

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"jiaohao/model"
)

// palette is one screen's colours: the branch's look (the "colors"
// setting) when it chose one, else the role's own. Every colour a screen
// draws with that the branch may choose comes from here, so a new layout
// follows the branch by asking its palette.
type palette struct {
	bg   color.Color // the screen's background
	row  color.Color // a call row that is not the newest
	num  color.Color // the called numbers
	hot  color.Color // the newest call's row
	text color.Color // names, windows, the clock
	sub  color.Color // captions and secondary lines
	// warn is what staff or customers must notice (the link lost, the
	// kiosk closed). The branch's look has no warning colour, and red is
	// unreadable on many backgrounds: there it is the checked text colour.
	warn color.Color
	// ok is what went well (the kiosk's "printing"): green of its own,
	// the checked text colour on the branch's background for the same
	// reason.
	ok color.Color
}

// hallPalette is the hall screen's: dark for contrast at a distance.
func hallPalette(l model.Look) palette {
	if !l.Set {
		return palette{bg: colHallBg, row: colHallRow, num: colHallNum, hot: colHallHot, text: colHallText, sub: colDim, warn: colHallWarn, ok: colOK}
	}
	return lookPalette(l)
}

// kioskPalette is the kiosk's: light paper with the brand colour. Its
// service tiles are buttons of the program's theme and keep their own
// colours, readable on either.
func kioskPalette(l model.Look) palette {
	if !l.Set {
		return palette{bg: colPaper, row: colPaper, num: colBrand, hot: colBrand, text: colBrand, sub: colHallRow, warn: colWarn, ok: colOK}
	}
	return lookPalette(l)
}

// lookPalette is every screen's palette in the branch's look: one text
// colour on one background, the pairs CheckContrast passed.
func lookPalette(l model.Look) palette {
	return palette{bg: l.Background, row: l.Background, num: l.Number, hot: l.Highlight, text: l.Text, sub: l.Text, warn: l.Text, ok: l.Text}
}

// loadLook reads the branch settings and logo off the UI goroutine after
// a reload (a configuration change always causes one) and hands them to
// apply on it. A store without a logo leaves logo nil; a logo that cannot
// be read now is the one shown so far, so a failed read does not take the
// branch's logo off the screen until the next reload. An answer older
// than the last read asked is dropped: two colour changes in a row end in
// the second.
func (b *base) loadLook(apply func(st model.Settings, logo []byte)) {
	b.looks++
	read, logo := b.looks, b.lookLogo
	var st model.Settings
	b.async(func(ctx context.Context) error {
		var err error
		if st, err = b.st.Settings(ctx); err != nil {
			return err
		}
		if l, ok := b.st.(model.BranchLogo); ok {
			if got, err := l.Logo(ctx); err == nil {
				logo = got
			}
		}
		return nil
	}, func(err error) {
		if err == nil && read == b.looks {
			b.lookLogo = logo
			apply(st, logo)
		}
	})
}

// maxLogoAspect bounds the logo's width in a header to this many times its
// height: the store accepts a 2048×1 banner, which at the name's height
// would push the name and the clock off the screen. A wider logo is drawn
// smaller, whole (ImageFillContain).
const maxLogoAspect = 4

// logoView is the branch logo in a header, as tall as a text beside it,
// so it scales with the screen as the text does; hidden without a logo.
type logoView struct {
	img    *canvas.Image
	ref    *canvas.Text
	aspect float32
	sum    string // of the image shown, to redraw only on change
	box    *fyne.Container
}

func newLogoView(ref *canvas.Text) *logoView {
	l := &logoView{img: &canvas.Image{FillMode: canvas.ImageFillContain}, ref: ref, aspect: 1}
	l.box = withLayout(l, l.img)
	l.box.Hide()
	return l
}

// set shows data (a PNG or JPEG the store checked), or hides the logo.
func (l *logoView) set(data []byte) {
	sum := ""
	if len(data) > 0 {
		h := sha256.Sum256(data)
		sum = hex.EncodeToString(h[:8])
	}
	if sum == l.sum {
		return
	}
	l.sum = sum
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if sum == "" || err != nil || cfg.Height == 0 {
		l.img.Resource = nil
		l.box.Hide()
		return
	}
	l.aspect = min(float32(cfg.Width)/float32(cfg.Height), maxLogoAspect)
	l.img.Resource = fyne.NewStaticResource("logo-"+sum, data)
	l.img.Refresh()
	l.box.Show()
	l.box.Refresh()
}

func (l *logoView) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(size)
}

func (l *logoView) MinSize([]fyne.CanvasObject) fyne.Size {
	h := l.ref.MinSize().Height
	return fyne.NewSize(h*l.aspect, h)
}
