package app

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/screens"
)

// defaultPort is the peer server's port unless told otherwise: the
// firewall rule, the installer's HOST property and serve all assume it.
const defaultPort = "8520"

// hostListen is where "this PC hosts the branch" serves the other PCs.
var hostListen = ":" + defaultPort

// backend is what a role runs on: the Store (a database or a peer client)
// and the devices of its role, with what to close at the end.
type backend struct {
	st     model.Store
	hq     model.HeadOffice    // head office's overview (the hq role), which has no branch Store
	gorm   *sqlstore.GormStore // nil through a peer: reports and terminals go through the host
	health *healthHost         // the daily health check on this PC's database; nil through a peer
	// checking is true when this PC runs the daily check by itself: the
	// host, and a manager PC on a shared database server.
	checking bool
	printer  screens.PrintQueue
	ann      screens.Announcer
	closers  []func()
}

// connect opens the queue the way cfg says. It runs off the UI goroutine.
func connect(ctx context.Context, cfg Config, logf func(string, ...any)) (*backend, error) {
	be := &backend{}
	if roleSpec(cfg.Role).HeadOffice {
		return connectHQ(ctx, cfg)
	}
	switch cfg.Mode {
	case screens.ModePeer:
		hc, err := peerHTTP(cfg)
		if err != nil {
			return nil, err
		}
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		c, err := peer.DialWith(dctx, cfg.Peer, cfg.Token, hc)
		cancel()
		if model.IsCode(err, model.EUnavailable) {
			// The host, or its database, is not up yet: start anyway and
			// show "reconnecting" until it is.
			c, err = peer.NewClient(cfg.Peer, cfg.Token, hc)
		}
		if err != nil {
			return nil, err
		}
		if roleSpec(cfg.Role).Window {
			if err := checkTokenWindow(ctx, c, cfg.Window); err != nil {
				c.Close()
				return nil, err
			}
		}
		be.st = c
		be.closers = append(be.closers, func() { c.Close() })
	default:
		dsn := cfg.DSN
		if dsn == "" {
			dsn = sqlstore.DefaultDSN()
		}
		gs, err := sqlstore.OpenBranch(ctx, dsn, cfg.Branch)
		if err != nil {
			return nil, err
		}
		be.st, be.gorm = gs, gs
		gs.SetLogger(slog.New(slog.NewTextHandler(logfWriter(logf), nil))) // an outage's start and end, once each
		be.closers = append(be.closers, func() { gs.Close() })
		be.health = newHealthHost(gs, "", cfg.Lang, logf)
		if cfg.Mode != screens.ModeHost || !be.host(ctx, gs, hostListen, logf) {
			be.sweep(ctx, gs, logf)
		}
		if cfg.Mode == screens.ModeDB && cfg.Role == model.RoleManager {
			// A shared database server has no host PC: the manager's PC
			// writes the daily check (the claim row keeps it to one PC a day).
			be.checkHealth(ctx)
		}
	}
	be.devices(ctx, cfg, logf)
	return be, nil
}

// connectHQ connects head office's PC to the host serving every branch
// with its hq token; it has no branch, so no Store and no devices.
func connectHQ(ctx context.Context, cfg Config) (*backend, error) {
	hc, err := peerHTTP(cfg)
	if err != nil {
		return nil, err
	}
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	c, err := peer.DialHQ(dctx, cfg.Peer, cfg.Token, hc)
	cancel()
	if model.IsCode(err, model.EUnavailable) {
		// The host is not up yet: start anyway and show the link down.
		c, err = peer.NewClient(cfg.Peer, cfg.Token, hc)
	}
	if err != nil {
		return nil, err
	}
	return &backend{hq: c, closers: []func(){func() { c.Close() }}}, nil
}

// checkTokenWindow refuses a token bound to another window than the one
// this PC is set up for: a window screen would show another window's
// number above this one, sending customers to the wrong desk, and a
// caller would have every action refused. A host that is not up yet is
// asked nothing; the PC starts and the host's own checks still hold.
func checkTokenWindow(ctx context.Context, c *peer.Client, window int) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	who, err := c.Whoami(ctx)
	if model.IsCode(err, model.EUnavailable) {
		return nil
	}
	if err != nil {
		return err
	}
	if who.Window > 0 && who.Window != window {
		return model.Errorf(model.EInvalidInput, "这个令牌属于 %d 号窗口，不能用于 %d 号窗口 (the token belongs to window %d, not window %d)", who.Window, window, who.Window, window)
	}
	return nil
}

// peerHTTP is the HTTP client for the host: one that trusts the pinned
// certificate when the setup has a fingerprint, else the default.
func peerHTTP(cfg Config) (*http.Client, error) {
	if cfg.PeerFingerprint == "" {
		return nil, nil
	}
	return peer.PinnedClient(cfg.PeerFingerprint)
}

// host serves the branch to the other PCs; the server also runs the
// timers. It reports false when the port is taken (another role on this
// PC already hosts), leaving the timers to the caller.
func (be *backend) host(ctx context.Context, gs *sqlstore.GormStore, addr string, logf func(string, ...any)) bool {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		logf("not hosting on %s: %v", addr, err)
		return false
	}
	srv := peer.NewServer(gs, gs, peer.Options{SweepEvery: time.Second, Report: hostReport(gs), Health: be.health})
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{}, 1)
	go func() {
		defer func() { done <- struct{}{} }()
		if err := srv.Serve(sctx, ln); err != nil {
			logf("peer server: %v", err)
		}
	}()
	be.closers = append(be.closers, func() { cancel(); <-done })
	be.checkHealth(ctx) // the host writes the daily health check
	logf("hosting the branch for other PCs on %s", ln.Addr())
	return true
}

// checkHealth runs the daily health check's loop on this PC until the
// backend closes.
func (be *backend) checkHealth(ctx context.Context) {
	hctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); be.health.loop(hctx) }()
	be.checking = true
	be.closers = append(be.closers, func() { cancel(); <-done })
}

// storeDown reports whether st knows its database is down (it has logged
// that once already).
func storeDown(st model.Store) bool {
	d, ok := st.(interface{ Down() bool })
	return ok && d.Down()
}

// logfWriter turns a log function into the writer a slog handler needs.
type logfWriter func(string, ...any)

func (f logfWriter) Write(p []byte) (int, error) {
	f("%s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// sweep runs the store's timers; several PCs doing so at once is safe.
func (be *backend) sweep(ctx context.Context, st model.Store, logf func(string, ...any)) {
	sctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-sctx.Done():
				return
			case <-t.C:
				// Bounded: a frozen database must not stop the timers for good.
				tctx, cancel := context.WithTimeout(sctx, 5*time.Second)
				if _, err := st.Sweep(tctx); err != nil && sctx.Err() == nil && !storeDown(st) {
					logf("sweep: %s", model.ErrorMessage(err))
				}
				cancel()
			}
		}
	}()
	be.closers = append(be.closers, cancel)
}

// devices starts the kiosk's printer (its own, else the branch's setting)
// with the numbers handhelds send it, a window's printer when its PC has
// one of its own, and the hall's voice from the branch settings; without
// a configured printer a kiosk logs its tickets. The role table says
// which role has which.
func (be *backend) devices(ctx context.Context, cfg Config, logf func(string, ...any)) {
	spec := roleSpec(cfg.Role)
	printer := spec.Printer || spec.OwnPrinter && cfg.Printer != ""
	if !printer && !spec.Voice {
		return
	}
	set, err := be.st.Settings(ctx)
	if err != nil {
		set = model.ParseSettings(nil) // the link is down; defaults until a restart
	}
	if printer {
		var loc *time.Location
		if be.gorm != nil {
			loc = be.gorm.Location()
		}
		q := printing.NewPrintQueue(printing.QueueConfig{Printer: unknownPrinter{}, Header: printing.StoreHeader(be.st, loc), Logf: logf})
		be.printer = q
		qctx, cancel := context.WithCancel(ctx)
		be.closers = append(be.closers, func() { cancel(); q.Close() })
		if cfg.Printer != "" {
			usePrinter(q, cfg.Printer, logf) // this kiosk's own, over the branch's setting
		} else {
			go followPrinter(qctx, be.st, q, logf)
		}
		go reportFaults(model.WithActor(qctx, terminalName(cfg)), be.st, "printer", q.Fault, logf)
		if spec.Role.May(model.PermPrint) {
			go startKioskPrints(qctx, be.st, q, logf) // the numbers a handheld sends here
		}
	}
	if spec.Voice {
		ac := voiceConfig(set, cfg.Lang)
		ac.Logf = logf
		a := printing.NewAnnouncer(ac)
		be.ann = a
		actx, cancel := context.WithCancel(ctx)
		be.closers = append(be.closers, func() { cancel(); a.Close() })
		// The voice engine is chosen once; what is said follows the branch.
		go followSettings(actx, be.st, "voice", logf, func(set model.Settings) { a.Retune(voiceConfig(set, cfg.Lang)) })
		go reportFaults(model.WithActor(actx, terminalName(cfg)), be.st, "voice", a.Fault, logf)
	}
}

// voiceConfig is what the branch settings ask the hall's voice to say;
// English follows the Chinese only on a PC set to English.
func voiceConfig(set model.Settings, lang string) printing.AnnouncerConfig {
	chime := ""
	if on, _ := strconv.ParseBool(set.Raw["voice_chime"]); on {
		chime = printing.ChimeDefault
	}
	ac := printing.AnnouncerSettings(set, set.Raw["voice_engine"], chime)
	ac.English = ac.English && lang == "en"
	return ac
}

// faultCheck is how often a PC looks at its devices' state.
const faultCheck = 5 * time.Second

// reportFaults tells the branch when a device of this PC fails or recovers,
// so the manager's console shows it; it reports changes only.
func reportFaults(ctx context.Context, st model.Store, kind string, fault func() string, logf func(string, ...any)) {
	reported, known := "", false
	for {
		if f := fault(); !known || f != reported {
			if err := st.ReportDevice(ctx, kind, f); err == nil {
				reported, known = f, true
			} else if ctx.Err() == nil {
				logf("%s state not reported: %s", kind, model.ErrorMessage(err))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(faultCheck):
		}
	}
}

// terminalName names this PC in the event log when it writes to the
// database directly (a peer server names it by its token instead).
func terminalName(cfg Config) string {
	host, _ := os.Hostname()
	return string(cfg.Role) + "@" + host
}

// usePrinter points q at the printer at addr; none or a wrong address
// leaves the number on screen and in the log.
func usePrinter(q *printing.PrintQueue, addr string, logf func(string, ...any)) {
	if addr == "" {
		q.SetPrinter(noPrinter{logf})
	} else if p, err := printing.OpenPrinter(addr); err != nil {
		logf("printer: %s", model.ErrorMessage(err))
		q.SetPrinter(noPrinter{logf})
	} else {
		q.SetPrinter(p)
	}
}

// unknownPrinter holds jobs (the queue retries them) until the kiosk has
// read which printer it has.
type unknownPrinter struct{}

func (unknownPrinter) Print(context.Context, printing.Slip) error {
	return model.Errorf(model.EUnavailable, "打印机设置尚未读取 (printer settings not loaded yet)")
}

func (unknownPrinter) String() string { return "not yet known" }

// noPrinter stands in while no printer is configured: the ticket number is
// on screen and in the log, nothing waits for paper.
type noPrinter struct{ logf func(string, ...any) }

func (n noPrinter) Print(_ context.Context, s printing.Slip) error {
	n.logf("no printer configured: ticket not printed")
	return nil
}

func (noPrinter) String() string { return "none" }

// build puts the role's screen in w; it runs on the UI goroutine.
func (be *backend) build(ctx context.Context, a fyne.App, w fyne.Window, cfg Config) roleView {
	return roleScreens[cfg.Role].build(ctx, a, w, be, cfg)
}

// close releases everything in reverse order of opening.
func (be *backend) close() {
	for i := len(be.closers) - 1; i >= 0; i-- {
		be.closers[i]()
	}
	be.closers = nil
}

// overrideConfig applies the flags given on the command line (their values
// in f) over the saved configuration. --peer or --db choose how to connect; a --role
// alone on a fresh PC hosts the branch on the embedded database.
func overrideConfig(c Config, set map[string]bool, f Config) Config {
	if c.Lang == "" {
		c.Lang = "zh"
	}
	if c.Mode == "" {
		c.Mode = screens.ModeHost
	}
	if set["role"] {
		if f.Role != c.Role {
			// The saved devices and hall options are the saved role's: a
			// window screen run beside the PC's caller (README) must not
			// drive the caller's LED bar too (--led gives it one).
			c.Printer, c.LED, c.HallLayout, c.Media = "", "", "", ""
		}
		c.Role = f.Role
	}
	if set["window"] {
		c.Window = f.Window
	}
	if set["db"] {
		c.Mode, c.DSN = screens.ModeDB, f.DSN
	}
	if set["peer"] {
		c.Mode, c.Peer = screens.ModePeer, f.Peer
	}
	if set["branch"] {
		c.Branch = strings.ToUpper(strings.TrimSpace(f.Branch))
	}
	if set["token"] {
		c.Token = f.Token
	}
	if set["peer-fingerprint"] {
		c.PeerFingerprint = f.PeerFingerprint
	}
	if set["lang"] {
		c.Lang = f.Lang
	}
	if set["printer"] {
		c.Printer = f.Printer
	}
	if set["led"] {
		c.LED = f.LED
	}
	if set["hotkeys"] {
		c.Hotkeys = f.Hotkeys
	}
	return c
}
