// Package dao owns the authoritative queue: the Store interface every role
// talks to, and its GORM implementation on SQLite, PostgreSQL, MariaDB/MySQL
// and SQL Server. Every state change happens in one transaction, validated by
// the model state machine, and writes exactly one queue_event whose version
// is gap-free per branch.
package dao

import (
	"context"
	"time"

	"jiaohao/model"
)

// Store is the queue as every terminal sees it, whether the database is
// local, shared, or behind a peer server. window arguments are the acting
// window; 0 means the manager acting on behalf of any window.
type Store interface {
	// TakeTicket issues the next number of a service. priority 0 means the
	// service's own priority.
	TakeTicket(ctx context.Context, service string, priority int, source string) (model.Ticket, error)
	// CallNext claims the next ticket for a window: recall pool first, then
	// priority, then issue order. service "" means any service the window
	// serves.
	CallNext(ctx context.Context, window int, service string) (model.Ticket, error)
	Recall(ctx context.Context, id int64, window int) (model.Ticket, error)
	Pass(ctx context.Context, id int64, window int) (model.Ticket, error)
	UndoPass(ctx context.Context, id int64, window int) (model.Ticket, error)
	Requeue(ctx context.Context, id int64, window int) (model.Ticket, error)
	StartServing(ctx context.Context, id int64, window int) (model.Ticket, error)
	Finish(ctx context.Context, id int64, window int) (model.Ticket, error)
	Cancel(ctx context.Context, id int64, window int) (model.Ticket, error)
	Transfer(ctx context.Context, id int64, window int, to model.TransferTarget) (model.Ticket, error)

	Ticket(ctx context.Context, id int64) (model.Ticket, error)
	TicketByPublicID(ctx context.Context, publicID string) (model.Ticket, error)
	// Position says how many tickets will be called before this waiting one
	// and a rough wait estimate.
	Position(ctx context.Context, id int64) (model.Position, error)

	SetWindowStatus(ctx context.Context, window int, status model.WindowStatus) (model.Window, error)
	SetWindowServices(ctx context.Context, window int, services []string) (model.Window, error)
	Windows(ctx context.Context) ([]model.Window, error)
	SaveWindow(ctx context.Context, w model.Window) (model.Window, error)
	Services(ctx context.Context) ([]model.Service, error)
	SaveService(ctx context.Context, s model.Service) (model.Service, error)
	Settings(ctx context.Context) (model.Settings, error)
	SetSetting(ctx context.Context, key, value string) error

	// Snapshot is the live state with the version it includes; apply events
	// with a larger version on top of it.
	Snapshot(ctx context.Context) (model.Snapshot, error)
	// EventsSince returns up to limit events with version > since, in order.
	EventsSince(ctx context.Context, since int64, limit int) ([]model.Event, error)
	// Sweep applies the timers: call timeout, recall pool, idle windows.
	// Safe to run from several PCs at once.
	Sweep(ctx context.Context) (model.SweepResult, error)
	// Watch streams committed events with version > since, in order, until
	// ctx ends. An event of kind model.EvResync means events were missed
	// (gap, slow reader, reconnect): reload the Snapshot and continue from
	// its version. One tail loop per Store serves every watcher.
	Watch(ctx context.Context, since int64) (<-chan model.Event, error)
	// ReportDevice records that one of this PC's devices (printer, voice,
	// led) failed, or recovered when fault is "", so the manager sees it.
	// The PC is the actor of ctx.
	ReportDevice(ctx context.Context, kind, fault string) error
	// Now is the database clock.
	Now(ctx context.Context) (time.Time, error)
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
