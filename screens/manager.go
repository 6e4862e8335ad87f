package screens

import (
	"context"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"jiaohao/model"
)

// ReportFunc writes the report of the business days from..to
// ("YYYY-MM-DD") and returns the file it wrote.
type ReportFunc func(ctx context.Context, from, to string) (path string, err error)

// ManagerDeps are the manager's optional powers; a nil one hides or
// disables its page with a sentence saying why.
type ManagerDeps struct {
	// Terminals manages the PCs allowed to reach this branch's peer
	// server, on the database or through the peer server.
	Terminals model.TerminalAdmin
	// NewToken makes a bearer token and the hash the server stores.
	NewToken func() (token, hash string, err error)
	// Report writes a daily report.
	Report ReportFunc
	// Open shows a written file (the report) to the user.
	Open func(path string) error
	// Sound plays the alert sound once, without blocking: the monitor
	// calls it on the UI goroutine when new alerts arrive, once however
	// many came together, and never again for the same alert.
	Sound func()
	// Health is the daily health check on the host: the last one, and one
	// now.
	Health model.HealthDesk
}

// Manager is the branch manager's console: a live monitor with the health
// warnings, services, windows, settings, terminals and reports.
type Manager struct {
	base
	w    fyne.Window
	deps ManagerDeps

	snap  model.Snapshot
	rules model.AlertRules // the branch's thresholds, from the settings

	mon      *monitor
	services *servicesPage
	areas    *areasPage
	windows  *windowsPage
	settings *settingsPage
	display  *displayPage
	terms    *terminalsPage
	staff    *staffPage
	custs    *customersPage
	reports  *reportsPage
	linkLbl  *widget.Label
	tabs     *container.AppTabs
	content  fyne.CanvasObject
}

// NewManager builds the manager in w and follows the store until ctx ends.
func NewManager(ctx context.Context, w fyne.Window, st model.Store, deps ManagerDeps) *Manager {
	m := &Manager{w: w, deps: deps}
	m.base.ctx, m.base.st = ctx, st
	m.rules = model.ParseSettings(nil).Alerts
	m.mon = newMonitor(newAlertList(m), newDashboard(m))
	m.services = newServicesPage(m)
	m.areas = newAreasPage(m)
	m.windows = newWindowsPage(m)
	m.settings = newSettingsPage(m)
	m.display = newDisplayPage(m)
	m.terms = newTerminalsPage(m)
	m.staff = newStaffPage(m)
	m.custs = newCustomersPage(m)
	m.reports = newReportsPage(m)
	m.linkLbl = widget.NewLabel("")
	m.linkLbl.Importance = widget.DangerImportance
	m.linkLbl.Hide()
	m.tabs = container.NewAppTabs(
		container.NewTabItem(tr("manager.monitor"), m.mon.content),
		container.NewTabItem(tr("manager.services"), m.services.content),
		container.NewTabItem(tr("manager.areas"), m.areas.content),
		container.NewTabItem(tr("manager.windows"), m.windows.content),
		container.NewTabItem(tr("manager.settings"), m.settings.content),
		container.NewTabItem(tr("manager.display"), m.display.content),
		container.NewTabItem(tr("manager.terminals"), m.terms.content),
		container.NewTabItem(tr("manager.staff"), m.staff.content),
		container.NewTabItem(tr("manager.customers"), m.custs.content),
		container.NewTabItem(tr("manager.reports"), m.reports.content),
	)
	// The health banner is hidden unless the last daily check was flagged.
	m.content = container.NewBorder(m.linkLbl, nil, nil, nil, container.NewBorder(m.reports.health.banner, nil, nil, nil, m.tabs))
	w.SetContent(m.content)
	m.start(ctx, st, m)
	m.wg.Go(func() { m.mon.dash.tick(ctx) })
	return m
}

// Content is the manager's root object.
func (m *Manager) Content() fyne.CanvasObject { return m.content }

// show takes a new live state on the UI goroutine. The configuration
// pages reload from the store after each snapshot: configuration changes
// always cause one.
func (m *Manager) show(u model.Change) {
	m.snap = u.Snapshot
	fresh := m.mon.alerts.show(m.snap, m.clock.in)
	m.mon.show(m.snap, healthWarnings(m.snap, m.rules))
	m.mon.dash.show(u)
	if fresh > 0 && m.deps.Sound != nil {
		m.deps.Sound() // once for the alerts this change brought, however many
	}
	m.windows.show(m.snap)
	m.areas.show(m.snap)
	m.services.showAreas(m.snap)
	if u.Reloaded || slices.ContainsFunc(u.Events, func(ev model.Event) bool { return ev.Kind == model.EvHealth }) {
		m.reports.health.load() // a check was recorded: the morning's verdict may have changed
	}
	if u.Reloaded {
		m.services.load()
		m.loadSettings()
		m.terms.load()
		m.staff.load()
		m.custs.load()
		m.reports.setDate(m.snap.BusinessDate)
	}
}

// loadInto reads a page's list off the UI goroutine and shows it, or
// puts why it could not be read in msg.
func loadInto[T any](m *Manager, msg *widget.Label, fetch func(context.Context) (T, error), show func(T)) {
	var got T
	m.async(func(ctx context.Context) error {
		var err error
		got, err = fetch(ctx)
		return err
	}, func(err error) {
		if err != nil {
			msg.SetText(errText(err))
			return
		}
		show(got)
	})
}

// loadSettings reads the branch settings once for the two pages that
// show them.
func (m *Manager) loadSettings() {
	var got model.Settings
	m.async(func(ctx context.Context) error {
		var err error
		got, err = m.st.Settings(ctx)
		return err
	}, func(err error) {
		m.settings.show(got, err)
		m.display.show(got, err)
		m.staff.show(got, err)
		m.custs.show(got, err)
	})
}

func (m *Manager) link(up bool) {
	m.linkLbl.SetText(tr("common.reconnecting"))
	m.linkLbl.Hidden = up
	m.content.Refresh()
}

// note shows the result of a configuration action as a dialog-free line
// on the page that made it.
func note(l *widget.Label, err error, okKey string) {
	if err != nil {
		l.Importance = widget.DangerImportance
		l.SetText(errText(err))
		return
	}
	l.Importance = widget.SuccessImportance
	l.SetText(tr(okKey))
}
