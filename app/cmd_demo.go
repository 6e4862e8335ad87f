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

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/screens"
)

func init() {
	register("demo", "try it on this PC: kiosk, two callers, hall screen and manager live on one embedded database [--db DSN] [--lang en]", runDemo)
}

func runDemo(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := newFlags("demo", stderr)
	dsn := fs.String("db", "", "database (default: a fresh one in a temporary folder, removed at exit)")
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
	l.startDemo(*dsn)
	stop := context.AfterFunc(ctx, func() { fyne.Do(a.Quit) })
	defer stop()
	a.Run()
	l.stop()
	return nil
}

// demo is a whole branch on one PC: the embedded database, the peer
// server on a loopback port, and one peer client per terminal role, so the
// demo runs the same paths as a real branch.
type demo struct {
	gs      *sqlstore.GormStore
	clients map[string]model.Store // kiosk, caller1, caller2, screen
	ann     *printing.Announcer
	closers []func()
}

// startDemo opens a "starting" window at once and the branch off the UI
// goroutine, then the five windows.
func (l *launcher) startDemo(dsn string) {
	w := l.app.NewWindow(screens.Text("title.demo"))
	w.SetContent(container.NewCenter(widget.NewLabel(screens.Text("app.connecting"))))
	w.Resize(fyne.NewSize(480, 200))
	w.Show()
	l.stopRole()
	ctx, cancel := context.WithCancel(context.Background())
	l.cancel = cancel
	go func() {
		d, err := openDemo(ctx, dsn, l.logf)
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

func openDemo(ctx context.Context, dsn string, logf func(string, ...any)) (d *demo, err error) {
	d = &demo{clients: map[string]model.Store{}}
	defer func() {
		if err != nil {
			d.close()
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
	if d.gs, err = sqlstore.Open(ctx, dsn); err != nil {
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
	srv := peer.NewServer(d.gs, d.gs, peer.Options{SweepEvery: time.Second, TakePerMinute: -1, Report: hostReport(d.gs)})
	sctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); srv.Serve(sctx, ln) }()
	d.closers = append(d.closers, func() { stop(); <-done })
	base := "http://" + ln.Addr().String()
	for _, t := range []model.Terminal{{Name: "demo kiosk", Role: "kiosk"}, {Name: "demo caller1", Role: "caller", Window: 1},
		{Name: "demo caller2", Role: "caller", Window: 2}, {Name: "demo screen", Role: "screen"}} {
		token, hash, err := peer.NewToken()
		if err != nil {
			return nil, err
		}
		t.TokenHash = hash
		if _, err := d.gs.AddTerminal(ctx, t); err != nil {
			return nil, err
		}
		c, err := peer.NewClient(base, token, nil)
		if err != nil {
			return nil, err
		}
		d.clients[t.Name[len("demo "):]] = c
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
	return screens.SeedDemo(ctx, gs)
}

// windows opens the five terminals; it runs on the UI goroutine.
func (d *demo) windows(ctx context.Context, a fyne.App) {
	open := func(title string, w, h float32, build func(fyne.Window)) {
		win := a.NewWindow(title)
		win.Resize(fyne.NewSize(w, h))
		build(win)
		win.Show()
	}
	open(screens.Title("screen", 0), 1100, 620, func(w fyne.Window) { screens.NewHall(ctx, w, d.clients["screen"], d.ann) })
	open(screens.Title("kiosk", 0), 900, 560, func(w fyne.Window) { screens.NewKiosk(ctx, w, d.clients["kiosk"], screens.LogPrinter{}) })
	for _, n := range []int{1, 2} {
		open(screens.Title("caller", n), 520, 640, func(w fyne.Window) {
			screens.NewCaller(ctx, w, d.clients[fmt.Sprintf("caller%d", n)], n, nil)
		})
	}
	be := &backend{st: d.gs, gorm: d.gs}
	open(screens.Title("manager", 0), 1000, 700, func(w fyne.Window) { screens.NewManager(ctx, w, d.gs, be.managerDeps(a, "zh")) })
}

func (d *demo) close() {
	for i := len(d.closers) - 1; i >= 0; i-- {
		d.closers[i]()
	}
	d.closers = nil
}
