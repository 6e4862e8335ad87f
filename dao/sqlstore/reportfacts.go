package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

var _ model.ReportFacts = (*GormStore)(nil)

const ticketColumns = "id, issue_service_id, service_id, business_date, number, source, status, window_no, call_count, requeued, issued_at, called_at, serve_started_at, finished_at, estimate_s, customer_level"

// issuedIn is the range filter every ticket query uses: a plain range on
// the indexed column (ix_ticket_issued / ix_history_issued), never a
// function of it, so a month is an index range scan even after a year.
const issuedIn = "branch_id = ? AND issued_at >= ? AND issued_at < ?"

// EachTicket streams the period's tickets from the live table, then from
// the archive, to fn. A ticket moved by a concurrent archive run may be in
// both tables for a moment: the archive read skips ids still live, so it is
// counted once.
func (s *GormStore) EachTicket(ctx context.Context, start, end time.Time, fn func(*model.TicketFact)) error {
	for _, q := range []struct{ table, extra string }{
		{"ticket", ""},
		{"ticket_history", " AND NOT EXISTS (SELECT 1 FROM ticket live WHERE live.id = ticket_history.id)"},
	} {
		cols, scan := ticketColumns, scanTickets
		if p, ok := s.d.(rowPacker); ok {
			cols, scan = p.packedTicketColumns(), scanPackedTickets
		}
		rows, err := s.db.WithContext(ctx).Table(q.table).Select(cols).
			Where(issuedIn+q.extra, s.branchID, start, end).Rows()
		if err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
		err = scan(rows, fn)
		rows.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", q.table, err)
		}
	}
	return nil
}

// scanTickets scans each row into one reused model.TicketFact, column by column
// in ticketColumns' order: no reflection and no allocation per row.
func scanTickets(rows *sql.Rows, fn func(*model.TicketFact)) error {
	var t model.TicketFact
	var h optionals
	var window, estimate sql.NullInt64
	var issued, called, started, finished sql.NullTime
	var level sql.NullString
	for rows.Next() {
		if err := rows.Scan(&t.ID, &t.IssueServiceID, &t.ServiceID, &t.BusinessDate, &t.Number, &t.Source, &t.Status, &window,
			&t.CallCount, &t.Requeued, &issued, &called, &started, &finished, &estimate, &level); err != nil {
			return err
		}
		if !issued.Valid {
			return fmt.Errorf("ticket %d has no issue time", t.ID)
		}
		t.IssuedAt = issued.Time
		t.WindowNo = nullInt(window, &h.window)
		t.CalledAt = nullTime(called, &h.called)
		t.ServeStartedAt = nullTime(started, &h.started)
		t.FinishedAt = nullTime(finished, &h.finished)
		t.EstimateS = nullInt(estimate, &h.estimate)
		t.Level = level.String
		fn(&t)
	}
	return rows.Err()
}

// optionals hold a row's values that may be NULL, for the row's fact to
// point to: one set reused for every row, as fn sees one row at a time.
type optionals struct {
	window, estimate          int
	called, started, finished time.Time
}

// nullInt is v in into, or nil for NULL.
func nullInt(v sql.NullInt64, into *int) *int {
	if !v.Valid {
		return nil
	}
	*into = int(v.Int64)
	return into
}

// nullTime is v in into, or nil for NULL.
func nullTime(v sql.NullTime, into *time.Time) *time.Time {
	if !v.Valid {
		return nil
	}
	*into = v.Time
	return into
}

// FirstCalls finds the first call of the period's tickets that were
// called more than once (recall, undo-pass, recall pool, transfer): their
// called_at holds the last call. A ticket called once has its first call in
// called_at already, so the event log is read only for the few that need it.
func (s *GormStore) FirstCalls(ctx context.Context, start, end time.Time) (map[int64]time.Time, error) {
	db, branch := s.db, s.branchID
	first := map[int64]time.Time{}
	for _, table := range []string{"ticket", "ticket_history"} {
		recalled := db.Table(table).Select("id").Where(issuedIn+" AND call_count > 1", branch, start, end)
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

type eventFact struct {
	Version  int64
	WindowNo *int
	At       time.Time
	Detail   string
}

// WindowChanges reads the window events of the period and, per window,
// the last one before it (the status the period starts with). The event
// detail is the window as it was after the change.
func (s *GormStore) WindowChanges(ctx context.Context, windows []int, start, end time.Time) (initial map[int]model.WindowStatus, changes []model.WindowChange, err error) {
	db, branch := s.db, s.branchID
	q := func() *gorm.DB {
		return db.WithContext(ctx).Table("queue_event").Select("version, window_no, at, detail").
			Where("branch_id = ? AND kind = ?", branch, model.EvWindow)
	}
	initial = map[int]model.WindowStatus{}
	for _, w := range windows {
		var before []eventFact
		if err := q().Where("window_no = ? AND at < ?", w, start).Order("at DESC, version DESC").Limit(1).Find(&before).Error; err != nil {
			return nil, nil, fmt.Errorf("read window events: %w", err)
		}
		if c, ok := parseWindowEvent(before); ok {
			initial[w] = c.Status
		}
	}
	var rows []eventFact
	if err := q().Where("at >= ? AND at < ?", start, end).Order("version").Find(&rows).Error; err != nil {
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
func parseWindowEvent(rows []eventFact) (model.WindowChange, bool) {
	if len(rows) == 0 {
		return model.WindowChange{}, false
	}
	// The store writes {"window": {...}}; a bare window is read as well.
	var d struct {
		Window *model.Window `json:"window"`
	}
	if err := json.Unmarshal([]byte(rows[0].Detail), &d); err != nil {
		return model.WindowChange{}, false
	}
	if d.Window == nil {
		d.Window = &model.Window{}
		if json.Unmarshal([]byte(rows[0].Detail), d.Window) != nil {
			return model.WindowChange{}, false
		}
	}
	w := *d.Window
	if w.Status == 0 {
		return model.WindowChange{}, false
	}
	if w.Number == 0 && rows[0].WindowNo != nil {
		w.Number = *rows[0].WindowNo
	}
	return model.WindowChange{Window: w.Number, At: rows[0].At, Status: w.Status}, true
}

// BranchName reads the branch row's name.
func (s *GormStore) BranchName(ctx context.Context) (string, error) {
	var names []string
	if err := s.db.WithContext(ctx).Table("branch").Where("id = ?", s.branchID).Pluck("name", &names).Error; err != nil {
		return "", fmt.Errorf("read branch: %w", err)
	}
	if len(names) == 0 {
		return "", model.Errorf(model.ENotFound, "branch %d does not exist", s.branchID)
	}
	return names[0], nil
}
