package app

import (
	"context"
	"flag"
	"io"
	"log"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"jiaohao/app/desk"
	"jiaohao/assets"
	"jiaohao/model"
	"jiaohao/screens"
)

// appID keys the Fyne preferences where each PC keeps its setup.
const appID = "cn.jiaohao.app"

// runGUI is the desktop program: the saved setup (or the setup window on a
// first start), overridden by flags, runs one role until its window closes
// or the process is told to stop.
func runGUI(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("", stderr)
	var f Config
	fs.StringVar((*string)(&f.Role), "role", "", model.DesktopRoleNames(", ", " or "))
	fs.IntVar(&f.Window, "window", 0, "the window number a caller acts for, or a window screen shows")
	fs.StringVar(&f.DSN, "db", "", "connect straight to a database: sqlite:PATH, postgres://…, mysql://…, sqlserver://…")
	fs.StringVar(&f.Branch, "branch", "", "the branch's code on a database of several (with --db or the host's own); default: its only branch")
	fs.StringVar(&f.Peer, "peer", "", "connect to a hosting PC: http://host:8520 (with --token)")
	fs.StringVar(&f.Token, "token", "", "this PC's terminal token for --peer")
	fs.StringVar(&f.PeerFingerprint, "peer-fingerprint", "", "trust an https:// host's own certificate by its SHA-256 (printed by jiaohao serve --tls-cert)")
	fs.StringVar(&f.Lang, "lang", "", "zh or en")
	fs.StringVar(&f.Printer, "printer", "", "this kiosk's own ticket printer, over the branch's setting: escpos+serial://COM3, escpos+tcp://192.168.1.50:9100, spool:NAME")
	fs.StringVar(&f.LED, "led", "", "an LED bar on this PC's serial port: led+serial:///dev/ttyUSB1?baud=9600&encoding=gb2312&prefix=AA55&suffix=0D0A&lines=3")
	fs.StringVar(&f.Hotkeys, "hotkeys", "", "a caller's global hotkeys: call=F8,recall=F9,pass=F10,start=F11,finish=F12 (the default), ctrl+alt+letter too, or off")
	windowed := fs.Bool("windowed", false, "keep the kiosk, the hall screen and the window screen out of full screen")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	// Check the flags on their own before any window opens.
	flagged := overrideConfig(Config{Role: model.RoleKiosk, Window: 1}, set, f)
	if err := flagged.Validate(); err != nil {
		return err
	}
	a, err := newFyneApp()
	if err != nil {
		return err
	}
	logf := log.New(stderr, "jiaohao: ", log.LstdFlags).Printf
	// What the installer was told for this PC becomes its setup.
	applyMachineSetup(a.Preferences(), readMachineSetup(), logf)
	cfg, saved := LoadConfig(a.Preferences())
	cfg = overrideConfig(cfg, set, f)
	forced := set["role"]
	if err := cfg.Validate(); err != nil {
		if forced {
			return err
		}
		saved = false // a saved setup that no longer holds: ask again
	}
	if err := screens.SetLanguage(cfg.Lang); err != nil {
		cfg.Lang = "zh"
		_ = screens.SetLanguage(cfg.Lang) // zh always loads
	}
	l := &launcher{app: a, windowed: *windowed, logf: logf,
		override: func(c Config) Config { return overrideConfig(c, set, f) }}
	if saved || forced {
		l.start(cfg)
	} else {
		l.setup()
	}
	// `jiaohao settings import` rewrites the preferences of a running
	// program: follow it.
	a.Preferences().AddChangeListener(func() { fyne.Do(l.prefsChanged) })
	stop := context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	defer stop()
	a.Run()
	l.stop()
	return nil
}

// newFyneApp makes the Fyne app with the metadata FyneApp.toml describes,
// set in code so a plain `go build` binary behaves like a packaged one, or
// says in one sentence why this PC has no screen for it.
func newFyneApp() (fyne.App, error) {
	if err := checkDisplay(); err != nil {
		return nil, err
	}
	icon := fyne.NewStaticResource("icon.png", assets.Icon)
	fyneapp.SetMetadata(fyne.AppMetadata{ID: appID, Name: "叫号 Jiaohao", Version: Version, Icon: icon,
		Migrations: map[string]bool{"fyneDo": true}})
	a := fyneapp.NewWithID(appID)
	a.SetIcon(icon)
	a.Settings().SetTheme(screens.Theme{})
	avoidQuitRace(a.Lifecycle())
	return a, nil
}

// avoidQuitRace drops Fyne's stop hook. Fyne 2.7.1 hands that hook (a last
// save of the preferences) to its lifecycle goroutine while the main loop
// closes its queue; the goroutine can then send on the closed queue and the
// program panics as it quits (seen in about one quit in thirty under load).
// Preferences are already written on every change, so nothing is lost.
func avoidQuitRace(l fyne.Lifecycle) {
	if h, ok := l.(interface{ SetOnStoppedHookExecuted(func()) }); ok {
		h.SetOnStoppedHookExecuted(nil)
	}
}

// launcher runs one role at a time and swaps it when the setup changes.
// Its methods run on the UI goroutine.
type launcher struct {
	app      fyne.App
	windowed bool
	logf     func(format string, args ...any)

	override func(Config) Config // the command line's flags
	cfg      Config              // what runs now

	cancel context.CancelFunc
	be     *backend
	win    fyne.Window
	demo   *demo
}

// prefsChanged restarts the role when the saved setup now says something
// else (flags still win).
func (l *launcher) prefsChanged() {
	c, ok := LoadConfig(l.app.Preferences())
	if !ok || l.override == nil || l.demo != nil {
		return
	}
	if c = l.override(c); c == l.cfg || c.Validate() != nil {
		return
	}
	if err := screens.SetLanguage(c.Lang); err != nil {
		return
	}
	l.start(c)
}

// start opens the role's window at once with a "connecting" line, and
// connects off the UI goroutine.
func (l *launcher) start(cfg Config) {
	ctx, cancel := context.WithCancel(context.Background())
	w := l.app.NewWindow(screens.Title(cfg.Role, cfg.Window))
	w.SetContent(container.NewCenter(widget.NewLabel(screens.Text("app.connecting"))))
	l.place(w, cfg.Role)
	w.Show()
	// The new window opens before the old one closes: closing the last
	// window would end the program.
	l.stopRole()
	l.cancel, l.win, l.cfg = cancel, w, cfg
	go func() {
		be, err := connect(ctx, cfg, l.logf)
		if err == nil && cfg.LED != "" && be.st != nil { // head office has no branch to show
			be.startLED(ctx, cfg.LED, cfg, l.logf)
		}
		fyne.Do(func() {
			if ctx.Err() != nil {
				if be != nil {
					go be.close()
				}
				return
			}
			if err != nil {
				l.showFailure(w, err)
				return
			}
			l.be = be
			if c, ok := be.build(ctx, l.app, w, cfg).(*screens.Caller); ok {
				callerDesk(ctx, l.app.Preferences(), w, c, cfg, desk.OpenHotkeys, l.logf)
			}
		})
	}()
}

// place sizes the window for its role: a role customers face fills its
// display, the others open at a working size with a menu.
func (l *launcher) place(w fyne.Window, role model.Role) {
	rs, spec := roleScreens[role], roleSpec(role)
	if rs.public && !l.windowed {
		w.SetFullScreen(true)
	}
	w.Resize(rs.size)
	if !rs.public {
		w.SetMainMenu(fyne.NewMainMenu(fyne.NewMenu(screens.Text("menu.app"),
			fyne.NewMenuItem(screens.Text("menu.setup"), l.setup))))
	}
	// Staff reprint a kiosk's last ticket (a jammed or torn slip).
	if spec.Printer {
		w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyP, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift},
			func(fyne.Shortcut) { l.reprint() })
	}
	// Staff reach the setup of a kiosk or hall screen from its keyboard.
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift},
		func(fyne.Shortcut) { l.setup() })
}

// reprint hands the print queue its last ticket again, if this kiosk has a
// real printer queue.
func (l *launcher) reprint() {
	if l.be == nil {
		return
	}
	if r, ok := l.be.printer.(interface{ ReprintLast() }); ok {
		r.ReprintLast()
	}
}

func (l *launcher) showFailure(w fyne.Window, err error) {
	msg := widget.NewLabel(screens.Text("app.failed", "Err", model.ErrorMessage(err)))
	msg.Wrapping = fyne.TextWrapWord
	again := widget.NewButton(screens.Text("menu.setup"), l.setup)
	w.SetContent(container.NewVBox(msg, again))
}

// setup shows the setup form; saving it restarts the role in place.
func (l *launcher) setup() {
	w := l.app.NewWindow(screens.Text("title.setup"))
	w.Resize(fyne.NewSize(640, 720))
	screens.NewSetup(w, prefsSetup{l.app.Preferences()}, func(v screens.SetupValues) {
		cfg := Config(v)
		if err := screens.SetLanguage(cfg.Lang); err != nil {
			l.logf("%s", model.ErrorMessage(err))
		}
		l.start(cfg)
		w.Close()
	}, func() {
		l.startDemo("", "")
		w.Close()
	})
	w.Show()
}

// stopRole closes the running role, if any, without blocking the UI.
func (l *launcher) stopRole() {
	if l.cancel != nil {
		l.cancel()
	}
	if be := l.be; be != nil {
		go be.close()
	}
	if l.win != nil {
		l.win.Close()
	}
	l.cancel, l.be, l.win = nil, nil, nil
}

// stop ends everything after the event loop has finished.
func (l *launcher) stop() {
	if l.cancel != nil {
		l.cancel()
	}
	if l.be != nil {
		l.be.close()
	}
	if l.demo != nil {
		l.demo.close()
	}
}
