package model

import (
	"strconv"
	"time"
)

// Priority bounds: smaller is served first (VIP 1, normal 5).
const (
	MinPriority     = 1
	MaxPriority     = 9
	DefaultPriority = 5
)

// Ticket is one number taken by one customer on one business day.
type Ticket struct {
	ID           int64  `json:"id"`
	Number       string `json:"number"`
	Service      string `json:"service"`       // code of the queue it waits in now
	IssueService string `json:"issue_service"` // code it was issued under (keeps the number)
	BusinessDate string `json:"business_date"`
	SeqNo        int    `json:"seq_no"`
	Priority     int    `json:"priority"`
	Status       Status `json:"status"`
	Lane         Lane   `json:"lane"`
	Window       int    `json:"window"` // 0: none
	CallCount    int    `json:"call_count"`
	// Requeued counts the times the ticket was put back in line after it
	// was passed (重叫, seed 000 §6). The mark stays for the ticket's life:
	// each call of it says 重叫, and the report counts it.
	Requeued     int        `json:"requeued,omitempty"`
	SortKey      int64      `json:"sort_key"`
	PublicID     string     `json:"public_id"`
	Source       string     `json:"source"`
	IssuedAt     time.Time  `json:"issued_at"`
	CalledAt     *time.Time `json:"called_at"`
	ServeStartAt *time.Time `json:"serve_started_at"`
	FinishedAt   *time.Time `json:"finished_at"`
	// PrintAt names the kiosk terminal asked to print the ticket (a number
	// taken on a handheld for a customer) and PrintKiosk is its terminal
	// id, the kiosk's identity (names may repeat); PrintedAt is when that
	// kiosk accepted the print (its claim won), nil while it is still to
	// come: accepted, not surely on paper. PrintClaim is the random value
	// the winning claim wrote. A ticket printed where it was taken has
	// none of them.
	PrintAt    string     `json:"print_at,omitempty"`
	PrintKiosk int64      `json:"print_kiosk,omitempty"`
	PrintedAt  *time.Time `json:"printed_at,omitempty"`
	PrintClaim string     `json:"print_claim,omitempty"`
	// Area is the waiting area the ticket's service belongs to, set by the
	// screen that prints or announces it (from the snapshot) when the
	// branch has several, so the ticket and the voice name it. The stores
	// never set it.
	Area *Area `json:"area,omitempty"`
	// CustomerID is the registered customer the ticket was taken for
	// (0: none) and Level their level's name when it was taken; the
	// customer's name travels only to the window that serves them
	// (WindowCustomers), never with the ticket to every screen.
	CustomerID int64  `json:"customer_id,omitempty"`
	Level      string `json:"level,omitempty"`
}

// Service is a business type (业务类型) with its own numbering.
type Service struct {
	ID        int64  `json:"id"`
	Code      string `json:"code"` // prefix on the ticket: A, B, V
	Name      string `json:"name"`
	Priority  int    `json:"priority"`
	StartNo   int    `json:"start_no"`
	Width     int    `json:"width"` // zero-padding of the number; 0: the branch setting
	Enabled   bool   `json:"enabled"`
	SortOrder int    `json:"sort_order"`
	// Area is the id of the waiting area the service belongs to; saving 0
	// keeps the area it has (a new service: the default area).
	Area int64 `json:"area,omitempty"`
}

// Window is a service counter (窗口), known to people by its number.
type Window struct {
	Number   int          `json:"number"`
	Name     string       `json:"name"`
	Status   WindowStatus `json:"status"`
	Services []string     `json:"services"` // served now
	// Allowed are the services the manager allows the window; its clerk
	// switches Services among them (seed 003 §3.2). It always holds
	// Services; a window the manager never narrowed allows what it serves.
	Allowed      []string   `json:"allowed,omitempty"`
	CurrentID    int64      `json:"current_id"` // 0: none
	LastActionAt *time.Time `json:"last_action_at"`
	// Clerk is who is signed in at the window today; nil: nobody.
	Clerk *Clerk `json:"clerk,omitempty"`
}

// Serves reports whether the window serves the service code.
func (w Window) Serves(code string) bool {
	for _, s := range w.Services {
		if s == code {
			return true
		}
	}
	return false
}

// Allows reports whether the manager allows the window the service code.
func (w Window) Allows(code string) bool {
	for _, s := range w.Allowed {
		if s == code {
			return true
		}
	}
	return w.Serves(code)
}

// Event kinds written to the queue_event log.
const (
	EvTake        = "take"
	EvCall        = "call"
	EvRecall      = "recall"
	EvTimeout     = "timeout" // called -> waiting in the recall pool
	EvPass        = "pass"
	EvUndoPass    = "undo_pass"
	EvRequeue     = "requeue"
	EvStart       = "start"
	EvFinish      = "finish"
	EvCancel      = "cancel"
	EvTransfer    = "transfer"
	EvWindow      = "window" // window status or services changed
	EvConfig      = "config" // services or settings changed: reload the snapshot
	EvWindowSaved = "window_saved"
	EvResync      = "resync"      // not stored: tells a watcher to reload the snapshot
	EvDevice      = "device"      // a PC's printer, voice or LED bar failed or recovered
	EvAlert       = "alert"       // an alert was raised for the manager
	EvAlertClear  = "alert_clear" // an alert's condition ended
	EvAlertAck    = "alert_ack"   // the manager acknowledged an alert
	EvPrinted     = "printed"     // the kiosk a ticket asked accepted its print (claimed it; the wire name predates the distinction)
	EvSignIn      = "sign_in"     // a clerk signed in at a window
	EvSignOut     = "sign_out"    // a clerk signed out (or was, by the manager disabling them)
	EvHealth      = "health"      // a daily health check was recorded (Detail: its business date)
	EvRate        = "rate"        // a customer rated a done ticket (Detail: the score); the ticket is unchanged
)

// Event is one committed change. Version is per branch, gap-free and in
// commit order. Ticket or Window carries the state after the change, so
// applying an event twice is harmless.
type Event struct {
	Version    int64     `json:"version"`
	At         time.Time `json:"at"`
	Kind       string    `json:"kind"`
	TicketID   int64     `json:"ticket_id,omitempty"`
	Window     int       `json:"window,omitempty"`
	FromStatus Status    `json:"from_status,omitempty"`
	ToStatus   Status    `json:"to_status,omitempty"`
	Actor      string    `json:"actor,omitempty"`
	// StaffID is the clerk signed in at the event's window when it
	// happened (0: none), beside the terminal in Actor.
	StaffID    int64   `json:"staff_id,omitempty"`
	Detail     string  `json:"detail,omitempty"`
	Ticket     *Ticket `json:"ticket,omitempty"`
	WindowInfo *Window `json:"window_info,omitempty"`
	Device     *Device `json:"device,omitempty"`
	Alert      *Alert  `json:"alert,omitempty"` // the alert after the change
}

// Devices a PC reports on.
var DeviceKinds = map[string]bool{"printer": true, "voice": true, "led": true}

// Device is the state of one device of one PC (terminal): Fault is one
// sentence, "" when it works.
type Device struct {
	Terminal string    `json:"terminal"`
	Kind     string    `json:"kind"`
	Fault    string    `json:"fault"`
	At       time.Time `json:"at"`
}

// ServiceCount is the live load of one service. Taken and Passed count the
// business day's tickets by the service they were issued under (the health
// check's passed ratio, seed 002 §5.2).
type ServiceCount struct {
	Code    string `json:"code"`
	Name    string `json:"name"`
	Waiting int    `json:"waiting"`
	Taken   int    `json:"taken"`
	Passed  int    `json:"passed"`
	Enabled bool   `json:"enabled"`
	Area    int64  `json:"area,omitempty"` // the service's waiting area (Area.ID)
}

// WindowState is a window with the ticket it holds now.
type WindowState struct {
	Window
	Current *Ticket `json:"current,omitempty"`
}

// Snapshot is the whole live queue at Version: a terminal that loads it and
// then applies events with a larger version is exactly up to date.
type Snapshot struct {
	Version      int64          `json:"version"`
	BusinessDate string         `json:"business_date"`
	DayEnds      time.Time      `json:"day_ends,omitzero"` // when the next business date starts: followers reload then
	TimeZone     string         `json:"time_zone"`         // the branch's, e.g. Asia/Shanghai
	Now          time.Time      `json:"now"`
	Branch       string         `json:"branch"`
	Services     []ServiceCount `json:"services"`
	Areas        []Area         `json:"areas,omitempty"` // the default first
	Windows      []WindowState  `json:"windows"`
	RecentCalls  []Ticket       `json:"recent_calls"` // called or serving, newest call first
	Passed       []Ticket       `json:"passed"`
	Notice       string         `json:"notice"`
	// HallLayout is the branch's hall_layout setting, so a hall follows a
	// change of it like one of the notice.
	HallLayout HallLayout `json:"hall_layout,omitempty"`
	// ShowStaff is the branch's show_staff setting: the hall's rows name
	// the clerk at each window.
	ShowStaff bool     `json:"show_staff,omitempty"`
	Faults    []Device `json:"faults"` // devices failing now, by PC
	// Alerts are those the manager still sees (Alert.Live), newest first.
	Alerts []Alert `json:"alerts"`
	// Rated counts the business day's ratings by level: the manager's
	// monitor follows it with the EvRate events.
	Rated Satisfaction `json:"rated,omitzero"`
}

// Position is where a waiting ticket stands.
type Position struct {
	Ahead      int `json:"ahead"` // at most MaxAhead
	ETASeconds int `json:"eta_s"`
	// NoWindow: no open window serves the ticket's service now (lunch,
	// paused, closed, none set up). ETASeconds is then when the windows
	// that serve it would reach it once back, not a wait to show.
	NoWindow bool `json:"no_window,omitempty"`
}

// MaxAhead is where counting the people ahead stops: a count that walks the
// whole queue would make every take slower as the hall fills. A hall that
// has more waiting for one service is told "999+".
const MaxAhead = 999

// AheadText is Ahead as shown to a customer: "999+" once the count stopped.
func (p Position) AheadText() string {
	if p.Ahead >= MaxAhead {
		return strconv.Itoa(MaxAhead) + "+"
	}
	return strconv.Itoa(p.Ahead)
}

// SweepResult counts what one sweep changed.
type SweepResult struct {
	Recalled int `json:"recalled"` // called -> recall pool
	Passed   int `json:"passed"`   // called -> passed
	Paused   int `json:"paused"`   // idle windows paused
	Alerts   int `json:"alerts"`   // alerts raised
}

// TransferTarget is where a transfer sends a ticket: a window (same status
// there) or a service (waiting in that queue, keeping its number).
type TransferTarget struct {
	Window  int    `json:"window,omitempty"`
	Service string `json:"service,omitempty"`
}
