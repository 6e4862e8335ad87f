package reports

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// Source is what a report reads: the GORM store (*dao.GormStore) gives all
// of it. The tables are read directly because a report is a scan by range,
// not a queue operation.
type Source interface {
	DB() *gorm.DB
	BranchID() int64
	Location() *time.Location
	Now(ctx context.Context) (time.Time, error)
	Services(ctx context.Context) ([]model.Service, error)
	Windows(ctx context.Context) ([]model.Window, error)
	Settings(ctx context.Context) (model.Settings, error)
}

// ticketFact is the part of a ticket row (live or archived) a report needs.
type ticketFact struct {
	ID             int64
	IssueServiceID int64
	ServiceID      int64
	BusinessDate   string
	Number         string
	Status         int
	WindowNo       *int
	CallCount      int
	IssuedAt       time.Time
	CalledAt       *time.Time
	ServeStartedAt *time.Time
	FinishedAt     *time.Time
}

const ticketColumns = "id, issue_service_id, service_id, business_date, number, status, window_no, call_count, issued_at, called_at, serve_started_at, finished_at"

// issuedIn is the range filter every ticket query uses: a plain range on
// the indexed column (ix_ticket_issued / ix_history_issued), never a
// function of it, so a month is an index range scan even after a year.
const issuedIn = "branch_id = ? AND issued_at >= ? AND issued_at < ?"

// eachTicket streams the period's tickets from the live table, then from
// the archive, to fn; fn must not keep the pointer. A ticket moved by a
// concurrent archive run may be in both tables for a moment: the archive
// read skips ids still live, so it is counted once.
func eachTicket(ctx context.Context, db *gorm.DB, branch int64, p Period, fn func(*ticketFact)) error {
	for _, q := range []struct{ table, extra string }{
		{"ticket", ""},
		{"ticket_history", " AND NOT EXISTS (SELECT 1 FROM ticket live WHERE live.id = ticket_history.id)"},
	} {
		rows, err := db.WithContext(ctx).Table(q.table).Select(ticketColumns).
			Where(issuedIn+q.extra, branch, p.Start(), p.End()).Rows()
		if err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
		err = scanTickets(rows, fn)
		rows.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
	}
	return nil
}

// scanTickets scans each row into one reused ticketFact, column by column
// in ticketColumns' order: no reflection and no allocation per row.
func scanTickets(rows *sql.Rows, fn func(*ticketFact)) error {
	var t ticketFact
	var window sql.NullInt64
	var called, started, finished sql.NullTime
	for rows.Next() {
		if err := rows.Scan(&t.ID, &t.IssueServiceID, &t.ServiceID, &t.BusinessDate, &t.Number, &t.Status, &window,
			&t.CallCount, &t.IssuedAt, &called, &started, &finished); err != nil {
			return err
		}
		t.WindowNo = nil
		if window.Valid {
			n := int(window.Int64)
			t.WindowNo = &n
		}
		t.CalledAt, t.ServeStartedAt, t.FinishedAt = timePtr(called), timePtr(started), timePtr(finished)
		fn(&t)
	}
	return rows.Err()
}

func timePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	return &t.Time
}

// loadFirstCalls finds the first call of the period's tickets that were
// called more than once (recall, undo-pass, recall pool, transfer): their
// called_at holds the last call. A ticket called once has its first call in
// called_at already, so the event log is read only for the few that need it.
func loadFirstCalls(ctx context.Context, db *gorm.DB, branch int64, p Period) (map[int64]time.Time, error) {
	first := map[int64]time.Time{}
	for _, table := range []string{"ticket", "ticket_history"} {
		recalled := db.Table(table).Select("id").Where(issuedIn+" AND call_count > 1", branch, p.Start(), p.End())
		var rows []struct {
			TicketID int64
			At       time.Time
		}
		err := db.WithContext(ctx).Table("queue_event").Select("ticket_id, at").
			Where("branch_id = ? AND kind = ? AND ticket_id IN (?)", branch, model.EvCall, recalled).Find(&rows).Error
		if err != nil {
			return nil, fmt.Errorf("read call events: %w", err)
		}
		for _, r := range rows {
			if f, ok := first[r.TicketID]; !ok || r.At.Before(f) {
				first[r.TicketID] = r.At
			}
		}
	}
	return first, nil
}

// windowChange is a window's status from a "window" event on.
type windowChange struct {
	Window int
	At     time.Time
	Status model.WindowStatus
}

type eventFact struct {
	Version  int64
	WindowNo *int
	At       time.Time
	Detail   string
}

// loadWindowChanges reads the window events of the period and, per window,
// the last one before it (the status the period starts with). The event
// detail is the window as it was after the change.
func loadWindowChanges(ctx context.Context, db *gorm.DB, branch int64, windows []int, p Period) (initial map[int]model.WindowStatus, changes []windowChange, err error) {
	q := func() *gorm.DB {
		return db.WithContext(ctx).Table("queue_event").Select("version, window_no, at, detail").
			Where("branch_id = ? AND kind = ?", branch, model.EvWindow)
	}
	initial = map[int]model.WindowStatus{}
	for _, w := range windows {
		var before []eventFact
		if err := q().Where("window_no = ? AND at < ?", w, p.Start()).Order("at DESC, version DESC").Limit(1).Find(&before).Error; err != nil {
			return nil, nil, fmt.Errorf("read window events: %w", err)
		}
		if c, ok := parseWindowEvent(before); ok {
			initial[w] = c.Status
		}
	}
	var rows []eventFact
	if err := q().Where("at >= ? AND at < ?", p.Start(), p.End()).Order("version").Find(&rows).Error; err != nil {
		return nil, nil, fmt.Errorf("read window events: %w", err)
	}
	for i := range rows {
		if c, ok := parseWindowEvent(rows[i : i+1]); ok {
			changes = append(changes, c)
		}
	}
	return initial, changes, nil
}

// parseWindowEvent reads the first event's detail; events whose detail is
// not a window with a known status are skipped rather than guessed at.
func parseWindowEvent(rows []eventFact) (windowChange, bool) {
	if len(rows) == 0 {
		return windowChange{}, false
	}
	// The store writes {"window": {...}}; a bare window is read as well.
	var d struct {
		Window *model.Window `json:"window"`
	}
	if err := json.Unmarshal([]byte(rows[0].Detail), &d); err != nil {
		return windowChange{}, false
	}
	if d.Window == nil {
		d.Window = &model.Window{}
		if json.Unmarshal([]byte(rows[0].Detail), d.Window) != nil {
			return windowChange{}, false
		}
	}
	w := *d.Window
	if w.Status == 0 {
		return windowChange{}, false
	}
	if w.Number == 0 && rows[0].WindowNo != nil {
		w.Number = *rows[0].WindowNo
	}
	return windowChange{Window: w.Number, At: rows[0].At, Status: w.Status}, true
}

// loadBranchName reads the branch row's name.
func loadBranchName(ctx context.Context, db *gorm.DB, branch int64) (string, error) {
	var names []string
	if err := db.WithContext(ctx).Table("branch").Where("id = ?", branch).Pluck("name", &names).Error; err != nil {
		return "", fmt.Errorf("read branch: %w", err)
	}
	if len(names) == 0 {
		return "", model.Errorf(model.ENotFound, "branch %d does not exist", branch)
	}
	return names[0], nil
}
