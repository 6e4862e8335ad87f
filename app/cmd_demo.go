package app

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/app/demodata"
	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/screens"
)

func init() {
	register("demo", "try it on this PC: kiosk, two callers, hall screen and manager live on one embedded database [--db DSN [--branch CODE]] [--lang en]", runDemo)
}

func runDemo(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("demo", stderr)
	dsn := fs.String("db", "", "database (default: a fresh one in a temporary folder, removed at exit)")
	branch := branchFlag(fs)
	lang := fs.String("lang", "zh", "zh or en")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := screens.SetLanguage(*lang); err != nil {
		return err
	}
	a, err := newFyneApp()
	if err != nil {
		return err
	}
	l := &launcher{app: a, windowed: true, logf: log.New(stderr, "jiaohao: ", log.LstdFlags).Printf}
	l.startDemo(*dsn, *branch)
	stop := context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	defer stop()
	a.Run()
	l.stop()
	return nil
}

// demo is a whole branch on one PC: the embedded database, the peer
// server on a loopback port, and one peer client per terminal, so the demo
// runs the same paths as a real branch.
type demo struct {
	gs      *sqlstore.GormStore
	clients []model.Store // by demoTerminals; nil for the one on the database
	ann     *printing.Announcer
	closers []func()
}

// demoTerminals are the demo's windows in the order they open, sized to
// share one display. The manager works on the database itself, as on the
// hosting PC; the others reach it through the peer server with tokens of
// their own.
var demoTerminals = []struct {
	role   model.Role
	window int
	size   fyne.Size
	onDB   bool
}{
	{model.RoleScreen, 0, fyne.NewSize(1100, 620), false},
	{model.RoleKiosk, 0, fyne.NewSize(900, 560), false},
	{model.RoleCaller, 1, fyne.NewSize(520, 640), false},
	{model.RoleCaller, 2, fyne.NewSize(520, 640), false},
	{model.RoleManager, 0, fyne.NewSize(1000, 700), true},
}

// startDemo opens a "starting" window at once and the branch off the UI
// goroutine, then the five windows.
func (l *launcher) startDemo(dsn, branch string) {
	w := l.app.NewWindow(screens.Text("title.demo"))
	w.SetContent(container.NewCenter(widget.NewLabel(screens.Text("app.connecting"))))
	w.Resize(fyne.NewSize(480, 200))
	w.Show()
	l.stopRole()
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	go func() {
		d, err := openDemo(ctx, dsn, branch, l.logf)
		fyne.Do(func() {
			if err != nil {
				l.showFailure(w, err)
				return
			}
			l.demo = d
			d.windows(ctx, l.app)
			w.Close()
		})
	}()
}

func openDemo(ctx context.Context, dsn, branch string, logf func(string, ...any)) (d *demo, err error) {
	d = &demo{}
	// Each failure returns nil for d: what was opened is closed through
	// its own name, or a demo that could not start panicked instead.
	opened := d
	defer func() {
		if err != nil {
			opened.close()
		}
	}()
	if dsn == "" {
		dir, err := os.MkdirTemp("", "jiaohao-demo-")
		if err != nil {
			return nil, fmt.Errorf("demo folder: %w", err)
		}
		d.closers = append(d.closers, func() { os.RemoveAll(dir) })
		dsn = "sqlite:" + filepath.Join(dir, "demo.db")
	}
	// A database of several branches names the one the demo fills, as
	// for every command: the demo customers go to no branch unasked.
	if d.gs, err = sqlstore.OpenBranch(ctx, dsn, branch); err != nil {
		return nil, err
	}
	d.closers = append(d.closers, func() { d.gs.Close() })
	if err := seedIfEmpty(ctx, d.gs); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("demo server: %w", err)
	}
	// The demo's manager checks a day on demand; the files go beside the demo database.
	health := newHealthHost(d.gs, "", "zh", func(string, ...any) {})
	srv := peer.NewServer(d.gs, d.gs, peer.Options{SweepEvery: time.Second, TakePerMinute: -1, Report: hostReport(d.gs), Health: health})
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(sctx, ln) }()
	d.closers = append(d.closers, func() { stop(); <-done })
	base := "http://" + ln.Addr().String()
	for _, dt := range demoTerminals {
		if dt.onDB {
			d.clients = append(d.clients, nil)
			continue
		}
		token, hash, err := peer.NewToken()
		if err != nil {
			return nil, err
		}
		name := "demo " + string(dt.role)
		if dt.window > 0 {
			name += fmt.Sprint(dt.window)
		}
		if _, err := d.gs.AddTerminal(ctx, model.Terminal{Name: name, Role: dt.role, Window: dt.window, TokenHash: hash}); err != nil {
			return nil, err
		}
		c, err := peer.NewClient(base, token, nil)
		if err != nil {
			return nil, err
		}
		d.clients = append(d.clients, c)
		d.closers = append(d.closers, func() { c.Close() })
	}
	d.ann = printing.NewAnnouncer(printing.AnnouncerConfig{Logf: logf})
	d.closers = append(d.closers, func() { d.ann.Close() })
	logf("demo branch served on %s", base)
	return d, nil
}

// seedIfEmpty gives a new database the demo morning, and leaves one that
// already has a day's queue alone.
func seedIfEmpty(ctx context.Context, gs *sqlstore.GormStore) error {
	snap, err := gs.Snapshot(ctx)
	if err != nil {
		return err
	}
	for _, s := range snap.Services {
		if s.Waiting > 0 {
			return nil
		}
	}
	if len(snap.RecentCalls) > 0 {
		return nil
	}
	return demodata.Morning(ctx, gs)
}

// windows opens the demo's terminals; it runs on the UI goroutine. The
// kiosk logs its tickets and the hall speaks through the demo's announcer.
func (d *demo) windows(ctx context.Context, a fyne.App) {
	for i, dt := range demoTerminals {
		be := &backend{st: d.clients[i]}
		if be.st == nil {
			be.st, be.gorm = d.gs, d.gs
		}
		if roleSpec(dt.role).Printer {
			be.printer = screens.LogPrinter{}
		}
		if roleSpec(dt.role).Voice {
			be.ann = d.ann
		}
		w := a.NewWindow(screens.Title(dt.role, dt.window))
		w.Resize(dt.size)
		roleScreens[dt.role].build(ctx, a, w, be, Config{Role: dt.role, Window: dt.window, Lang: "zh"})
		w.Show()
	}
}

func (d *demo) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
	d.closers = nil
}
