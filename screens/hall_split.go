package screens

import (
	"context"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"jiaohao/model"
)

const (
	mediaEvery  = 10 // seconds each picture stays
	noticeLines = 4  // lines of the notice the media area shows
)

// pictureTypes are the still images the media area shows.
var pictureTypes = []string{".png", ".jpg", ".jpeg"}

// hallMedia is the split layouts' media area: the branch's logo and the
// clock, a still image from the PC's folder (HallOptions.Media) in turn,
// and the notice's lines, for halls that show information between calls.
type hallMedia struct {
	box    *fyne.Container
	logo   *logoView
	clock  *canvas.Text
	pic    *canvas.Image
	file   string // pic's file
	notice [noticeLines]*canvas.Text
}

func newHallMedia(h *Hall) *hallMedia {
	m := &hallMedia{pic: canvas.NewImageFromResource(nil)}
	m.pic.FillMode = canvas.ImageFillContain
	var cb *fyne.Container
	m.clock, cb = fitText(fyne.TextAlignCenter, 0.8, h.pal.text)
	m.clock.TextStyle.Bold = true
	m.logo = newLogoView(m.clock)
	m.logo.set(h.logoData)
	top := withLayout(shares{parts: []float32{35, 65}}, m.logo.box, cb)
	text := newTextLines(func() float32 { return min(h.screen.Width, h.screen.Height) * 0.07 })
	for i := range m.notice {
		m.notice[i] = text.line(h.pal.num)
		m.notice[i].Alignment = fyne.TextAlignCenter
		m.notice[i].Hide()
	}
	m.pic.Hide()
	body := withLayout(shares{down: true, parts: []float32{22, 50, 28}}, top, m.pic, text.box)
	m.box = container.NewStack(canvas.NewRectangle(h.pal.row), withLayout(inset{0.04}, body))
	m.showPicture(h.picture)
	m.showClock(h.clock.now())
	return m
}

// show takes the notice from s, and the branch's logo.
func (m *hallMedia) show(s model.Snapshot, logo []byte) {
	m.drawLogo(logo)
	fillLines(m.notice[:], func(add func(string)) {
		for _, l := range sentences(s.Notice) {
			add(l)
		}
	})
}

// sentences cuts a notice into its lines and sentences, so a long notice
// reads as several lines instead of one line too small to read.
func sentences(notice string) []string {
	var out []string
	for _, l := range strings.Split(notice, "\n") {
		start := 0
		for i, r := range l {
			if strings.ContainsRune("。！？；!?;", r) || (r == '.' && i+1 < len(l) && l[i+1] == ' ') {
				out = append(out, l[start:i+len(string(r))])
				start = i + len(string(r))
			}
		}
		out = append(out, l[start:])
	}
	kept := out[:0]
	for _, l := range out {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return kept
}

// drawLogo draws the branch's logo beside the clock; without one the
// clock takes the whole top of the area.
func (m *hallMedia) drawLogo(logo []byte) { m.logo.set(logo) }

func (m *hallMedia) showClock(now time.Time) { setText(m.clock, now.Format("15:04")) }

// shownPicture is a picture of the media folder as loaded: its file and
// its decoded image (nil: none).
type shownPicture struct {
	file string
	img  image.Image
}

// showPicture shows p, decoded already: the UI goroutine never reads
// nor decodes a file.
func (m *hallMedia) showPicture(p shownPicture) {
	m.file = p.file
	if p.img == nil {
		m.pic.Hide()
		return
	}
	if m.pic.Image != p.img {
		m.pic.Image = p.img
		m.pic.Refresh()
	}
	m.pic.Show()
}

// turnPictures turns the media's pictures every mediaEvery seconds until
// ctx ends, in a goroutine of its own: a picture slow to read or decode (a
// share that stopped answering, a large photo) holds up the pictures
// only, never the clock.
func (h *Hall) turnPictures(ctx context.Context) {
	t := time.NewTicker(mediaEvery * time.Second)
	defer t.Stop()
	for {
		h.turnPicture()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// turnPicture moves to the next picture of the media folder that loads,
// read and decoded off the UI goroutine: a folder on a slow share or a
// large photo does not freeze the clock. The picture shown is not decoded
// again when it comes round next (a folder of one good picture); a file
// that does not load is logged once and passed over.
func (h *Hall) turnPicture() {
	pics := pictures(h.opt.Media)
	shown := h.lastPic
	var next shownPicture
	for range pics {
		file := nextPicture(pics, h.lastPic.file)
		if file == shown.file && shown.img != nil {
			next = shown
			break
		}
		h.lastPic = shownPicture{file: file}
		img, err := loadPicture(file)
		if err == nil {
			next = shownPicture{file, img}
			break
		}
		if !h.badPics[file] {
			h.badPics[file] = true
			logf(nil, "hall media: %v", err)
		}
	}
	h.lastPic = next
	onUI(func() {
		h.picture = next
		if h.media != nil {
			h.media.showPicture(next)
		}
	})
}

// nextPicture is the picture after last in pics, the first when last is
// "" or went away, and "" when there are none.
func nextPicture(pics []string, last string) string {
	if len(pics) == 0 {
		return ""
	}
	return pics[(slices.Index(pics, last)+1)%len(pics)]
}

// pictures lists the still images of dir by name; none when dir is ""
// or cannot be read.
func pictures(dir string) []string {
	if dir == "" {
		return nil
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range es {
		if !e.IsDir() && slices.Contains(pictureTypes, strings.ToLower(filepath.Ext(e.Name()))) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(out)
	return out
}

// splitLayout puts the main body beside the media area in landscape and
// above it in portrait.
type splitLayout struct{}

func (splitLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	main, media := objs[0], objs[1]
	gap := min(size.Width, size.Height) * 0.015
	main.Move(fyne.NewPos(0, 0))
	if landscape(size) {
		w := size.Width * 0.62
		main.Resize(fyne.NewSize(w, size.Height))
		media.Move(fyne.NewPos(w+gap, 0))
		media.Resize(fyne.NewSize(size.Width-w-gap, size.Height))
		return
	}
	h := size.Height * 0.62
	main.Resize(fyne.NewSize(size.Width, h))
	media.Move(fyne.NewPos(0, h+gap))
	media.Resize(fyne.NewSize(size.Width, size.Height-h-gap))
}

func (splitLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(0, 0) }
