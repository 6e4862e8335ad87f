package app

import (
	"context"

	"fyne.io/fyne/v2"

	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// roleScreen is how the program shows one role of the model's table: the
// screen it builds and the window that screen opens in. The desktop
// program, the demo and the screenshot command all pick a role's screen
// here; every desktop role of the table has one, and a role that runs in a
// browser (RoleSpec.Page: the staff handheld) has none (roles_test.go).
type roleScreen struct {
	// build puts the role's screen in w, on be's queue and devices; it
	// runs on the UI goroutine.
	build func(ctx context.Context, a fyne.App, w fyne.Window, be *backend, cfg Config) roleView
	// size is the desktop window's; shot is the screenshot's default.
	size, shot fyne.Size
	// public: customers face it, so it fills its display and has no menu
	// (staff reach the setup by the keyboard shortcut).
	public bool
}

// roleView is what every role's screen offers its program: when its data
// is first on screen, and the end of its goroutines once its context ends.
type roleView interface {
	Loaded() <-chan struct{}
	Wait()
}

var roleScreens = map[model.Role]roleScreen{
	model.RoleKiosk: {
		build: func(ctx context.Context, _ fyne.App, w fyne.Window, be *backend, _ Config) roleView {
			return screens.NewKiosk(ctx, w, be.st, be.printer)
		},
		size: fyne.NewSize(1280, 720), shot: fyne.NewSize(1280, 720), public: true,
	},
	model.RoleCaller: {
		build: func(ctx context.Context, _ fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			c := screens.NewCaller(ctx, w, be.st, cfg.Window, be.ann)
			if be.printer != nil { // the window's own printer, for numbers taken there
				c.SetPrinter(be.printer)
			}
			return c
		},
		size: fyne.NewSize(560, 680), shot: fyne.NewSize(560, 640),
	},
	model.RoleScreen: {
		build: func(ctx context.Context, _ fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			return screens.NewHallWith(ctx, w, be.st, be.ann, screens.HallOptions{Layout: cfg.HallLayout, Media: cfg.Media, Area: cfg.HallArea})
		},
		size: fyne.NewSize(1280, 720), shot: fyne.NewSize(1280, 720), public: true,
	},
	// The window screen: a second instance on a caller PC may open it on
	// the clerk's second monitor (README).
	model.RoleCounter: {
		build: func(ctx context.Context, _ fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			return screens.NewCounter(ctx, w, be.st, cfg.Window)
		},
		size: fyne.NewSize(800, 480), shot: fyne.NewSize(800, 480), public: true,
	},
	// The rating pad: a 7 to 10 inch touch screen facing the customer at
	// its window.
	model.RoleEvaluator: {
		build: func(ctx context.Context, _ fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			return screens.NewEvaluator(ctx, w, be.st, cfg.Window)
		},
		size: fyne.NewSize(1024, 600), shot: fyne.NewSize(1280, 800), public: true,
	},
	model.RoleManager: {
		build: func(ctx context.Context, a fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			// Named for the event log: an acknowledged alert says who.
			return screens.NewManager(model.WithActor(ctx, terminalName(cfg)), w, be.st, be.managerDeps(a, cfg.Lang))
		},
		size: fyne.NewSize(1024, 768), shot: fyne.NewSize(1024, 700),
	},
	// Head office's overview of every branch, through the host serving
	// them all; it has no branch Store (backend.hq).
	model.RoleHQ: {
		build: func(ctx context.Context, a fyne.App, w fyne.Window, be *backend, cfg Config) roleView {
			h := screens.NewHQ(ctx, w, be.hq)
			if c, ok := be.hq.(*peer.Client); ok {
				h.AddReport(w, hqReportHere(c, cfg.Lang), openFile(a))
			}
			return h
		},
		size: fyne.NewSize(1024, 700), shot: fyne.NewSize(1024, 600),
	},
}

// roleSpec is role's row of the table; a role outside it has none of the
// table's devices.
func roleSpec(role model.Role) model.RoleSpec {
	spec, _ := role.Spec()
	return spec
}
