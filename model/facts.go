package model

import (
	"context"
	"time"
)

// TicketFact is the part of a ticket (live or archived) a report reads.
type TicketFact struct {
	ID             int64
	IssueServiceID int64
	ServiceID      int64
	BusinessDate   string
	Number         string
	Source         string // where the number was taken: SourceKiosk, SourceWindow, …
	Status         int
	WindowNo       *int
	CallCount      int
	Requeued       int // times put back in line after a pass (重叫)
	IssuedAt       time.Time
	CalledAt       *time.Time
	ServeStartedAt *time.Time
	FinishedAt     *time.Time
	// EstimateS is the wait estimated when the number was taken, in
	// seconds; nil where none was kept.
	EstimateS *int
	// Level is the registered customer's level the ticket was taken at;
	// "" for a ticket taken without identification.
	Level string
}

// WindowChange is a window's status from one window event on.
type WindowChange struct {
	Window int
	At     time.Time
	Status WindowStatus
}

// ReportFacts is what a report reads over a period [start, end): a scan by
// range, not a queue operation. The SQL adapter runs the queries; a report
// through a peer is made by the host, which has them.
type ReportFacts interface {
	BranchName(ctx context.Context) (string, error)
	// Location is the branch's time zone: business dates and the
	// report's hours are in it.
	Location() *time.Location
	Now(ctx context.Context) (time.Time, error)
	Services(ctx context.Context) ([]Service, error)
	Windows(ctx context.Context) ([]Window, error)
	Settings(ctx context.Context) (Settings, error)
	// EachTicket streams the tickets issued in [start, end), live and
	// archived, each once, to fn; fn must not keep the pointer nor any
	// pointer in the fact (the next row reuses them).
	EachTicket(ctx context.Context, start, end time.Time, fn func(*TicketFact)) error
	// FirstCalls gives the first call of the period's tickets that were
	// called more than once; a ticket called once has it in CalledAt.
	FirstCalls(ctx context.Context, start, end time.Time) (map[int64]time.Time, error)
	// WindowChanges gives each window's status at start (where an earlier
	// event says it) and the window changes of the period, in order.
	WindowChanges(ctx context.Context, windows []int, start, end time.Time) (initial map[int]WindowStatus, changes []WindowChange, err error)
}

// StaffFacts is the report's per-staff part, where the store keeps staff
// accounts (the SQL adapter does); a report from a store without it has
// no per-staff table.
type StaffFacts interface {
	StaffList(ctx context.Context) ([]Staff, error)
	// StaffActs names, for the tickets issued in [start, end), the clerk
	// of each one's finish event and of its last pass (a pass, or a
	// timeout that passed it), by ticket id; tickets no clerk acted on
	// are absent.
	StaffActs(ctx context.Context, start, end time.Time) (finished, passed map[int64]int64, err error)
}
