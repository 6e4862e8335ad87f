package sqlstore

import "time"

// Table rows. Every table carries branch_id so one database can hold several
// branches. Timestamps are UTC from the database clock; business_date is the
// date in the branch's time zone, as YYYY-MM-DD.

type branchRow struct {
	ID int64 `gorm:"primaryKey"`
	// Code addresses the branch (--branch, the PC's setup); added later,
	// so a database from before reads '' until migrate gives it B001.
	Code     string `gorm:"size:16;not null;default:'';uniqueIndex:ux_branch_code"`
	Name     string `gorm:"size:100;not null"`
	TimeZone string `gorm:"size:64;not null"`
	Version  int64  `gorm:"not null;default:0"`
}

func (branchRow) TableName() string { return "branch" }

type serviceRow struct {
	ID        int64  `gorm:"primaryKey"`
	BranchID  int64  `gorm:"not null;uniqueIndex:ux_service_code,priority:1"`
	Code      string `gorm:"size:4;not null;uniqueIndex:ux_service_code,priority:2"`
	Name      string `gorm:"size:40;not null"`
	Priority  int    `gorm:"not null"`
	StartNo   int    `gorm:"not null"`
	Width     int    `gorm:"not null"`
	Enabled   bool   `gorm:"not null"`
	SortOrder int    `gorm:"not null"`
	// AreaID is the waiting area (areaRow); added later, so old rows
	// read 0 until the migration puts them in the default area.
	AreaID int64 `gorm:"not null;default:0"`
}

func (serviceRow) TableName() string { return "service" }

type windowRow struct {
	ID              int64      `gorm:"primaryKey"`
	BranchID        int64      `gorm:"not null;uniqueIndex:ux_window_no,priority:1"`
	Number          int        `gorm:"not null;uniqueIndex:ux_window_no,priority:2"`
	Name            string     `gorm:"size:40;not null"`
	Status          int        `gorm:"not null"`
	CurrentTicketID *int64     ``
	LastActionAt    *time.Time `gorm:"precision:6"`
	// StaffID is the clerk signed in, for StaffDate's business day only:
	// the next day finds the window signed out with nothing to sweep.
	StaffID   *int64  ``
	StaffDate *string `gorm:"size:10"`
}

func (windowRow) TableName() string { return "service_window" }

type windowServiceRow struct {
	BranchID  int64 `gorm:"primaryKey;autoIncrement:false"`
	WindowNo  int   `gorm:"primaryKey;autoIncrement:false"`
	ServiceID int64 `gorm:"primaryKey;autoIncrement:false"`
}

func (windowServiceRow) TableName() string { return "window_service" }

// windowAllowedRow is a service the manager allows a window beyond those
// it serves now; its clerk may switch to it. What a window allows is these
// rows and the services it serves, so a database from before the table
// existed allows each window exactly what it serves, with no data to move.
type windowAllowedRow struct {
	BranchID  int64 `gorm:"primaryKey;autoIncrement:false"`
	WindowNo  int   `gorm:"primaryKey;autoIncrement:false"`
	ServiceID int64 `gorm:"primaryKey;autoIncrement:false"`
}

func (windowAllowedRow) TableName() string { return "window_allowed" }

type sequenceRow struct {
	BranchID     int64  `gorm:"primaryKey;autoIncrement:false"`
	ServiceID    int64  `gorm:"primaryKey;autoIncrement:false"`
	BusinessDate string `gorm:"primaryKey;size:10"`
	LastNo       int    `gorm:"not null"`
	// LastKey is the sort key of number KeyNo where the engine keeps it
	// (seqKeyer); both are 0 where it does not, and on rows from before.
	LastKey int64 `gorm:"not null;default:0"`
	KeyNo   int   `gorm:"not null;default:0"`
}

func (sequenceRow) TableName() string { return "ticket_sequence" }

// ticketRow is shared by ticket and ticket_history (archived days).
type ticketRow struct {
	ID             int64      `gorm:"primaryKey;index:ix_ticket_call,priority:7;index:ix_ticket_wait,priority:8"`
	BranchID       int64      `gorm:"not null;uniqueIndex:ux_ticket_seq,priority:1;index:ix_ticket_call,priority:1;index:ix_ticket_wait,priority:1;index:ix_ticket_issued,priority:1;index:ix_ticket_print,priority:1;index:ix_ticket_print_kiosk,priority:1"`
	IssueServiceID int64      `gorm:"not null;uniqueIndex:ux_ticket_seq,priority:2"`
	BusinessDate   string     `gorm:"size:10;not null;uniqueIndex:ux_ticket_seq,priority:3;index:ix_ticket_call,priority:3;index:ix_ticket_wait,priority:3"`
	SeqNo          int        `gorm:"not null;uniqueIndex:ux_ticket_seq,priority:4"`
	ServiceID      int64      `gorm:"not null;index:ix_ticket_call,priority:8;index:ix_ticket_wait,priority:4"`
	Number         string     `gorm:"size:16;not null"`
	Priority       int        `gorm:"not null;index:ix_ticket_call,priority:5;index:ix_ticket_wait,priority:6"`
	Status         int        `gorm:"not null;index:ix_ticket_call,priority:2;index:ix_ticket_wait,priority:2"`
	Lane           int        `gorm:"not null;index:ix_ticket_call,priority:4;index:ix_ticket_wait,priority:5"`
	SortKey        int64      `gorm:"not null;index:ix_ticket_call,priority:6;index:ix_ticket_wait,priority:7"`
	WindowNo       *int       ``
	CallCount      int        `gorm:"not null"`
	Requeued       int        `gorm:"not null;default:0"` // added later: the default keeps old rows valid
	PublicID       string     `gorm:"size:40;not null;uniqueIndex:ux_ticket_public"`
	Source         string     `gorm:"size:20;not null"`
	IssuedAt       time.Time  `gorm:"precision:6;not null;index:ix_ticket_issued,priority:2"`
	CalledAt       *time.Time `gorm:"precision:6"`
	ServeStartedAt *time.Time `gorm:"precision:6"`
	FinishedAt     *time.Time `gorm:"precision:6"`
	// PrintAt is the name of the kiosk terminal asked to print the
	// ticket, PrintedAt when it accepted the print (added later: both NULL
	// on old rows). PrintKioskID is that terminal's id, what the kiosk
	// claims by (names need not be unique), and PrintClaim the random
	// value its winning claim wrote, by which a kiosk whose answer was
	// lost knows the claim was its own (added later again: NULL on rows
	// from before).
	PrintAt      *string    `gorm:"size:60;index:ix_ticket_print,priority:2"`
	PrintedAt    *time.Time `gorm:"precision:6"`
	PrintKioskID *int64     `gorm:"index:ix_ticket_print_kiosk,priority:2"`
	PrintClaim   *string    `gorm:"size:40"`
	// EstimateS is the wait estimated when the number was taken, in
	// seconds: the report sets it beside the real wait. Null on tickets
	// from before it was kept.
	EstimateS *int
	// CustomerID is the registered customer the ticket was taken for and
	// CustomerLevel their level's name then, so the report counts by the
	// level the ticket was served at (NULL: taken without, or from
	// before the register). Outside every index: the call-next walk
	// never reads them.
	CustomerID    *int64
	CustomerLevel *string `gorm:"size:40"`
}

func (ticketRow) TableName() string { return "ticket" }

// historyRow is an archived ticket; same columns, its own indexes.
type historyRow struct {
	ID             int64      `gorm:"primaryKey;autoIncrement:false"`
	BranchID       int64      `gorm:"not null;index:ix_history_issued,priority:1"`
	IssueServiceID int64      `gorm:"not null"`
	BusinessDate   string     `gorm:"size:10;not null"`
	SeqNo          int        `gorm:"not null"`
	ServiceID      int64      `gorm:"not null"`
	Number         string     `gorm:"size:16;not null"`
	Priority       int        `gorm:"not null"`
	Status         int        `gorm:"not null"`
	Lane           int        `gorm:"not null"`
	SortKey        int64      `gorm:"not null"`
	WindowNo       *int       ``
	CallCount      int        `gorm:"not null"`
	Requeued       int        `gorm:"not null;default:0"`
	PublicID       string     `gorm:"size:40;not null"`
	Source         string     `gorm:"size:20;not null"`
	IssuedAt       time.Time  `gorm:"precision:6;not null;index:ix_history_issued,priority:2"`
	CalledAt       *time.Time `gorm:"precision:6"`
	ServeStartedAt *time.Time `gorm:"precision:6"`
	FinishedAt     *time.Time `gorm:"precision:6"`
	PrintAt        *string    `gorm:"size:60"`
	PrintedAt      *time.Time `gorm:"precision:6"`
	PrintKioskID   *int64     ``
	PrintClaim     *string    `gorm:"size:40"`
	EstimateS      *int
	CustomerID     *int64
	CustomerLevel  *string `gorm:"size:40"`
}

func (historyRow) TableName() string { return "ticket_history" }

type eventRow struct {
	BranchID int64     `gorm:"primaryKey;autoIncrement:false;index:ix_event_kind,priority:1;index:ix_event_window,priority:1"`
	Version  int64     `gorm:"primaryKey;autoIncrement:false;index:ix_event_kind,priority:3;index:ix_event_window,priority:5"`
	At       time.Time `gorm:"precision:6;not null;index:ix_event_at;index:ix_event_window,priority:4"`
	Kind     string    `gorm:"size:20;not null;index:ix_event_kind,priority:2;index:ix_event_window,priority:2"`
	TicketID *int64    `gorm:"index:ix_event_ticket"`
	// ix_event_window finds a window's last change before a report's
	// period within its own branch: on ix_event_at alone the walk back
	// stepped over every branch's events (added later; the migration
	// builds it once on an existing log).
	WindowNo   *int   `gorm:"index:ix_event_window,priority:3"`
	FromStatus int    `gorm:"not null"`
	ToStatus   int    `gorm:"not null"`
	Actor      string `gorm:"size:60;not null"`
	StaffID    *int64 `gorm:"index:ix_event_staff"` // the acting window's clerk; added later, NULL on old rows
	Detail     string `gorm:"size:4000;not null"`   // JSON: the ticket or window after the change
}

func (eventRow) TableName() string { return "queue_event" }

// eventColumns are queue_event's columns in the order the event's last
// statement (PostgreSQL's and MySQL's) writes them: the branch, the
// version and the time, which each engine gives in its own way, then
// rest's.
const eventColumns = "branch_id, version, at, kind, ticket_id, window_no, from_status, to_status, actor, staff_id, detail"

// rest is e's values of eventColumns after the time.
func (e eventRow) rest() []any {
	return []any{e.Kind, e.TicketID, e.WindowNo, e.FromStatus, e.ToStatus, e.Actor, e.StaffID, e.Detail}
}

type settingRow struct {
	BranchID int64  `gorm:"primaryKey;autoIncrement:false"`
	Key      string `gorm:"primaryKey;size:40;column:skey"`
	Value    string `gorm:"size:1000;not null;column:svalue"`
}

func (settingRow) TableName() string { return "setting" }

type terminalRow struct {
	ID        int64      `gorm:"primaryKey"`
	BranchID  int64      `gorm:"not null"`
	Name      string     `gorm:"size:60;not null"`
	Role      string     `gorm:"size:10;not null"`
	WindowNo  int        `gorm:"not null"`
	TokenHash string     `gorm:"size:64;not null;uniqueIndex:ux_terminal_token"`
	CreatedAt time.Time  `gorm:"precision:6;not null"`
	LastSeen  *time.Time `gorm:"precision:6"`
	Revoked   bool       `gorm:"not null"`
}

func (terminalRow) TableName() string { return "terminal" }

func allTables() []any {
	return []any{&branchRow{}, &serviceRow{}, &windowRow{}, &windowServiceRow{}, &windowAllowedRow{}, &sequenceRow{},
		&ticketRow{}, &historyRow{}, &eventRow{}, &settingRow{}, &terminalRow{}, &alertRow{}, &healthCheckRow{}, &logoRow{}, &staffRow{}, &areaRow{},
		&customerLevelRow{}, &customerRow{}, &customerKeyRow{}, &branchSecretRow{}, &ratingRow{}}
}
