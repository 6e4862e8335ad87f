package model

import (
	"context"
	"time"
)

// The ports below are the queue as the roles see it, split by who needs
// what. The SQL adapter (dao/sqlstore) implements all of them on a
// database; the peer adapter (dao/peer) implements them over HTTP to the
// PC that hosts the branch. Window arguments are the acting window; 0
// means the manager acting on behalf of any window.

// Queue takes numbers and moves tickets through the state machine.
type Queue interface {
	// TakeTicket issues the next number of a service. priority 0 means the
	// service's own priority.
	TakeTicket(ctx context.Context, service string, priority int, source string) (Ticket, error)
	// CallNext claims the next ticket for a window: recall pool first, then
	// priority, then issue order. service "" means any service the window
	// serves.
	CallNext(ctx context.Context, window int, service string) (Ticket, error)
	Recall(ctx context.Context, id int64, window int) (Ticket, error)
	Pass(ctx context.Context, id int64, window int) (Ticket, error)
	UndoPass(ctx context.Context, id int64, window int) (Ticket, error)
	Requeue(ctx context.Context, id int64, window int) (Ticket, error)
	StartServing(ctx context.Context, id int64, window int) (Ticket, error)
	Finish(ctx context.Context, id int64, window int) (Ticket, error)
	Cancel(ctx context.Context, id int64, window int) (Ticket, error)
	Transfer(ctx context.Context, id int64, window int, to TransferTarget) (Ticket, error)

	Ticket(ctx context.Context, id int64) (Ticket, error)
	TicketByPublicID(ctx context.Context, publicID string) (Ticket, error)
	// Position says how many tickets will be called before this waiting one
	// and a rough wait estimate.
	Position(ctx context.Context, id int64) (Position, error)

	SetWindowStatus(ctx context.Context, window int, status WindowStatus) (Window, error)
	// SetWindowServices is the manager giving a window services: any,
	// and the window is allowed them from then on.
	SetWindowServices(ctx context.Context, window int, services []string) (Window, error)
	// SwitchServices is the window's clerk switching the services it
	// serves, among those the manager allowed it (Window.Allowed);
	// another service is EForbidden.
	SwitchServices(ctx context.Context, window int, services []string) (Window, error)
}

// Live is the state every screen follows: a snapshot, then the events on
// top of it (Snapshot.Apply).
type Live interface {
	// Snapshot is the live state with the version it includes; apply events
	// with a larger version on top of it.
	Snapshot(ctx context.Context) (Snapshot, error)
	// EventsSince returns up to limit events with version > since, in order.
	EventsSince(ctx context.Context, since int64, limit int) ([]Event, error)
	// Watch streams committed events with version > since, in order, until
	// ctx ends. An event of kind EvResync means events were missed (gap,
	// slow reader, reconnect): reload the Snapshot and continue from its
	// version. One tail loop per Store serves every watcher.
	Watch(ctx context.Context, since int64) (<-chan Event, error)
	// Now is the database clock.
	Now(ctx context.Context) (time.Time, error)
}

// NextPositions is where a number taken now would stand in each enabled
// service (normal priority): the wait the kiosk's tiles promise before
// the customer taps, from the same estimate the ticket then gets. Both
// adapters have it; a Store without it leaves the kiosk to its rough
// figure.
type NextPositions interface {
	NextPositions(ctx context.Context) (map[string]Position, error)
}

// Config is the branch's services, windows and settings.
type Config interface {
	Windows(ctx context.Context) ([]Window, error)
	SaveWindow(ctx context.Context, w Window) (Window, error)
	Services(ctx context.Context) ([]Service, error)
	SaveService(ctx context.Context, s Service) (Service, error)
	Settings(ctx context.Context) (Settings, error)
	SetSetting(ctx context.Context, key, value string) error
	// SetBranch renames the branch and sets its time zone (CheckBranch);
	// every PC follows at once through a configuration event.
	SetBranch(ctx context.Context, name, zone string) error
}

// BranchLogo is the branch's logo image, shown in the screens' headers.
// It lives in the database, so every PC follows it: the peer clients and
// the PCs on the database alike. Both adapters have it.
type BranchLogo interface {
	// Logo is the image file (PNG or JPEG), nil when none is set.
	Logo(ctx context.Context) ([]byte, error)
	// SetLogo stores an image CheckLogo accepts, or removes the logo
	// (nil); a refused image is one sentence and changes nothing. Every
	// PC reloads through a configuration event.
	SetLogo(ctx context.Context, data []byte) error
}

// Alerts is the manager acknowledging alerts (Alert); raising and
// ending them is the store's own work, in Sweep and ReportDevice.
type Alerts interface {
	// AckAlert records that the manager (the actor of ctx) saw the alert,
	// at the database clock. An unknown alert is ENotFound, one already
	// acknowledged EInvalidTransition.
	AckAlert(ctx context.Context, id int64) (Alert, error)
}

// Store is the whole queue of one branch, whether the database is local,
// shared, or behind a peer server.
type Store interface {
	Queue
	Live
	Config
	Alerts
	// Sweep applies the timers: call timeout, recall pool, idle windows,
	// and raises and ends the alerts whose conditions it decides. Safe to
	// run from several PCs at once.
	Sweep(ctx context.Context) (SweepResult, error)
	// ReportDevice records that one of this PC's devices (printer, voice,
	// led) failed, or recovered when fault is "", so the manager sees it.
	// The PC is the actor of ctx.
	ReportDevice(ctx context.Context, kind, fault string) error
	// Engine names the database: sqlite, postgres, mysql or sqlserver (or
	// the host's engine for a peer client).
	Engine() string
	Close() error
}

type actorKey struct{}

// WithActor names the terminal acting, for the event log.
func WithActor(ctx context.Context, actor string) context.Context {
	return context.WithValue(ctx, actorKey{}, actor)
}

// ActorFrom returns the actor set by WithActor, or "".
func ActorFrom(ctx context.Context) string {
	s, _ := ctx.Value(actorKey{}).(string)
	return s
}

// TicketFinder finds a ticket by the number a customer holds: floor staff
// look it up for a customer who asks where they stand. The SQL adapter
// has it; the peer server offers it on the staff page.
type TicketFinder interface {
	// TicketByNumber is the newest ticket with that number (its issue
	// service and sequence); the caller checks its business date.
	TicketByNumber(ctx context.Context, number string) (Ticket, error)
}

// KioskPrintRequests takes a number on one device to be printed at a
// kiosk: floor staff take it on a handheld and the customer picks the
// ticket up at the kiosk printer. The request is stored with the ticket,
// so it outlives a restart of the kiosk or the host. The SQL adapter has
// it; the peer server offers it on the staff page.
type KioskPrintRequests interface {
	// TakeTicketPrintAt takes a number as TakeTicket does and, in the same
	// transaction, asks the kiosk terminal of id kiosk to print it; an id
	// that is no kiosk allowed in is EInvalidInput and takes nothing.
	TakeTicketPrintAt(ctx context.Context, service string, priority int, source string, kiosk int64) (Ticket, error)
}

// KioskPrints is the kiosk's side: it claims a print before printing, so
// however many PCs try, one ticket is printed once. Both adapters have it
// (the peer client for a kiosk that reaches the host over the LAN).
type KioskPrints interface {
	// ClaimPrint claims the print of ticket id for the kiosk terminal of
	// id kiosk in one conditional update that writes claim (a random
	// value of the claimer's) with it: of any number of claimers exactly
	// one gets the ticket and no error, and only it prints; a claimer
	// whose answer was lost reads the ticket and finds its own claim
	// there or not. A ticket that asks no print of that kiosk is
	// ENotFound; one already claimed EConflict; one no longer in line
	// (served, cancelled) EInvalidTransition, never to be printed.
	ClaimPrint(ctx context.Context, id, kiosk int64, claim string) (Ticket, error)
	// PendingPrints are today's tickets still in line that ask kiosk (a
	// terminal id) to print and are not claimed yet, in issue order: what
	// a kiosk checks at start and after a reconnect.
	PendingPrints(ctx context.Context, kiosk int64) ([]Ticket, error)
}
