package screens

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// marquee is the hall's notice line: centred when it fits, otherwise
// scrolling right to left at a steady reading speed. It must span the full
// width of the window, whose edges clip it.
type marquee struct {
	text  *canvas.Text
	box   *fyne.Container
	anim  *fyne.Animation
	width float32
	pos   float32 // 0..1 through one pass
}

const marqueeSpeed = 120 // points per second at design height

func newMarquee(sc *scaler, size float32, c color.Color) *marquee {
	m := &marquee{text: sc.add(canvas.NewText("", c), size)}
	m.box = withLayout(m, m.text)
	return m
}

// set changes the notice; it runs on the UI goroutine.
func (m *marquee) set(s string) {
	if m.text.Text == s {
		return
	}
	m.text.Text = s
	m.text.Refresh()
	m.width = -1 // restart on the next layout
	m.box.Refresh()
}

func (m *marquee) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	tw := m.text.MinSize().Width
	y := (size.Height - m.text.MinSize().Height) / 2
	m.text.Resize(m.text.MinSize())
	if tw <= size.Width || m.text.Text == "" {
		m.stop()
		m.text.Move(fyne.NewPos((size.Width-tw)/2, y))
		return
	}
	if size.Width != m.width || m.anim == nil {
		m.stop()
		m.width = size.Width
		span := size.Width + tw
		m.anim = fyne.NewAnimation(time.Duration(float64(span)/marqueeSpeed*float64(time.Second)), func(p float32) {
			m.pos = p
			m.text.Move(fyne.NewPos(m.x(p, size.Width, tw), y))
		})
		m.anim.Curve = fyne.AnimationLinear
		m.anim.RepeatCount = fyne.AnimationRepeatForever
		m.anim.Start()
	}
	m.text.Move(fyne.NewPos(m.x(m.pos, size.Width, tw), y))
}

// x is where the text starts at point p of a pass: a pass begins and ends
// with the text at the left edge, fully readable, and in between it scrolls
// out to the left and comes back in from the right.
func (m *marquee) x(p, width, tw float32) float32 {
	span := width + tw
	o := p*span + width
	for o >= span {
		o -= span
	}
	return width - o
}

func (m *marquee) stop() {
	if m.anim != nil {
		m.anim.Stop()
		m.anim = nil
	}
}

func (m *marquee) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, m.text.MinSize().Height)
}

// withLayout builds a container with a custom layout.
func withLayout(l fyne.Layout, objs ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: l, Objects: objs}
}
