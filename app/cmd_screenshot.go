package app

import (
	"context"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/test"

	"jiaohao/app/demodata"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens"
	"jiaohao/screens/offscreen"
)

func init() {
	register("screenshot", "render a role on demo data to a PNG, no display needed: --role "+model.DesktopRoleNames("|", "|")+" --out FILE.png [--width W --height H] [--lang en]", runScreenshot)
}

// runScreenshot builds the role on a fresh demo branch with Fyne's
// software renderer, so the README pictures come from the real screens
// on any machine, display or not.
func runScreenshot(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("screenshot", stderr)
	role := fs.String("role", "", model.DesktopRoleNames(", ", " or "))
	out := fs.String("out", "", "PNG file to write")
	width := fs.Int("width", 0, "width in pixels (default: the role's usual size)")
	height := fs.Int("height", 0, "height in pixels")
	lang := fs.String("lang", "zh", "zh or en")
	layout := fs.String("layout", "", "the hall screen's layout: list, tiles, split-list or split-tiles (default: the branch's)")
	media := fs.String("media", "", "the hall screen's folder of still images, for the split layouts")
	compact := fs.Bool("compact", false, "the caller as its compact strip (虚拟呼叫器)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *layout != "" {
		if _, err := model.ParseHallLayout(*layout); err != nil {
			return err
		}
	}
	rs, ok := roleScreens[model.Role(*role)]
	size := rs.shot
	if *compact {
		size = screens.CompactSize
	}
	switch {
	case !ok:
		return model.Errorf(model.EInvalidInput, "--role 须为 %s，收到 %q (--role must be %s)", model.DesktopRoleNames("、", " 或 "), *role, model.DesktopRoleNames(", ", " or "))
	case *compact && model.Role(*role) != model.RoleCaller:
		return model.Errorf(model.EInvalidInput, "--compact 只用于 caller (--compact is for the caller only)")
	case !strings.HasSuffix(strings.ToLower(*out), ".png"):
		return model.Errorf(model.EInvalidInput, "--out 须为 .png 文件 (--out must name a .png file)")
	case *width < 0 || *height < 0 || *width > 7680 || *height > 4320:
		return model.Errorf(model.EInvalidInput, "--width 与 --height 须在 7680×4320 以内 (size out of range)")
	}
	if *width > 0 {
		size.Width = float32(*width)
	}
	if *height > 0 {
		size.Height = float32(*height)
	}
	if err := screens.SetLanguage(*lang); err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return model.Errorf(model.EInvalidInput, "无法写入 %s (cannot write the output file)", *out)
	}
	defer f.Close()
	// Off the main goroutine: Fyne's test driver runs fyne.Do in place
	// everywhere else, which keeps the render synchronous.
	done := make(chan error, 1)
	go func() {
		done <- renderRole(ctx, Config{Role: model.Role(*role), Window: 2, Lang: *lang, HallLayout: model.HallLayout(*layout), Media: *media}, size, *compact, f)
	}()
	if err := <-done; err != nil {
		f.Close()
		os.Remove(*out)
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", *out, err)
	}
	fmt.Fprintf(stdout, "%s: %s\n", *role, *out)
	return nil
}

// renderRole writes role's PNG, rendered on a fresh demo branch in a
// temporary folder; compact shows the caller as its strip.
func renderRole(ctx context.Context, cfg Config, size fyne.Size, compact bool, out io.Writer) error {
	role := cfg.Role
	dir, err := os.MkdirTemp("", "jiaohao-shot-")
	if err != nil {
		return fmt.Errorf("temporary folder: %w", err)
	}
	defer os.RemoveAll(dir)
	gs, err := sqlstore.Open(ctx, "sqlite:"+filepath.Join(dir, "shot.db"))
	if err != nil {
		return err
	}
	defer gs.Close()
	if err := demodata.Morning(ctx, gs); err != nil {
		return err
	}

	offscreen.NewApp().Settings().SetTheme(screens.Theme{})
	w := test.NewWindow(nil)
	w.Resize(size)
	sctx, cancel := context.WithCancel(ctx)
	// The demo's devices: a caller shows window 2, and nothing prints or
	// speaks.
	be := &backend{st: gs, gorm: gs, hq: overviewOnce{gs}, printer: screens.LogPrinter{}, ann: screens.LogAnnouncer{}}
	var s roleView
	offscreen.Do(func() { s = roleScreens[role].build(sctx, fyne.CurrentApp(), w, be, cfg) })
	defer func() { cancel(); s.Wait() }()
	select {
	case <-s.Loaded():
	case <-time.After(30 * time.Second):
		return model.Errorf(model.EUnavailable, "the %s screen did not load its data", role)
	case <-ctx.Done():
		return ctx.Err()
	}
	if c, ok := s.(*screens.Caller); ok && compact {
		offscreen.Do(func() { c.SetCompact(true) })
	}
	qctx, qcancel := context.WithTimeout(ctx, 30*time.Second)
	defer qcancel()
	if err := offscreen.Quiet(qctx, 300*time.Millisecond); err != nil {
		return err
	}
	offscreen.Do(func() {
		c := software.NewCanvas()
		c.SetPadded(w.Padded())
		c.SetContent(w.Content())
		c.Resize(size)
		offscreen.Settle(c)
		err = png.Encode(out, software.RenderCanvas(c, screens.Theme{}))
	})
	return err
}
