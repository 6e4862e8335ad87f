package sqlstore

import (
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// A month's report reads a million tickets. On SQLite every column of
// every row costs the driver three to five calls into the engine (the
// value's type, its length, the value, and for text the declared type),
// each taking and releasing the connection's mutex through a pool guarded
// by one more lock: with sixteen columns that was half the report's time.
// So the report reads the numbers, the business day and the times of a
// SQLite row as one text the process splits at '|', which none of them
// holds, and only the free texts (number, source, level) as columns of
// their own, which nothing inside them can upset.

// rowPacker is a dialect whose report rows read cheaper packed (see
// packedTicketColumns).
type rowPacker interface {
	packedTicketColumns() string
}

// packedFields are the packed column's fields, in order.
var packedFields = [...]string{"id", "issue_service_id", "service_id", "business_date", "status", "window_no",
	"call_count", "requeued", "issued_at", "called_at", "serve_started_at", "finished_at", "estimate_s"}

// packedTicketColumns builds the packed column in one printf, which
// copies each part once (a chain of || copies the text so far at every
// step). printf writes a NULL as nothing, so an empty field is NULL; an
// empty text typed by hand into a nullable column reads as NULL too, where
// the column-by-column read refused it.
func (sqliteDialect) packedTicketColumns() string {
	format := strings.Repeat("%s|", len(packedFields)-1) + "%s"
	return "PRINTF('" + format + "', " + strings.Join(packedFields[:], ", ") + "), number, source, customer_level"
}

// scanPackedTickets is scanTickets for rows of packedTicketColumns.
func scanPackedTickets(rows *sql.Rows, fn func(*model.TicketFact)) error {
	var t model.TicketFact
	var h optionals
	var packed string
	var level sql.NullString
	for rows.Next() {
		if err := rows.Scan(&packed, &t.Number, &t.Source, &level); err != nil {
			return err
		}
		if err := unpackTicket(packed, &t, &h); err != nil {
			return err
		}
		t.Level = level.String
		fn(&t)
	}
	return rows.Err()
}

// unpackTicket fills t's packed fields from one packed column.
func unpackTicket(packed string, t *model.TicketFact, h *optionals) error {
	var f [len(packedFields)]string
	if n := strings.Count(packed, "|") + 1; n != len(f) {
		return fmt.Errorf("a report row with %d fields, want %d: %q", n, len(f), packed)
	}
	rest := packed
	for i := range f[:len(f)-1] {
		j := strings.IndexByte(rest, '|')
		f[i], rest = rest[:j], rest[j+1:]
	}
	f[len(f)-1] = rest
	if f[8] == "" {
		return fmt.Errorf("ticket %s has no issue time", f[0])
	}
	p := fieldParser{row: packed}
	t.ID = p.int64(f[0])
	t.IssueServiceID = p.int64(f[1])
	t.ServiceID = p.int64(f[2])
	t.BusinessDate = f[3]
	t.Status = p.int(f[4])
	t.WindowNo = p.optInt(f[5], &h.window)
	t.CallCount = p.int(f[6])
	t.Requeued = p.int(f[7])
	t.IssuedAt = p.time(f[8])
	t.CalledAt = p.optTime(f[9], &h.called)
	t.ServeStartedAt = p.optTime(f[10], &h.started)
	t.FinishedAt = p.optTime(f[11], &h.finished)
	t.EstimateS = p.optInt(f[12], &h.estimate)
	return p.err
}

// fieldParser keeps the first field that does not parse.
type fieldParser struct {
	row string
	err error
}

func (p *fieldParser) fail(field string, err error) {
	if p.err == nil {
		p.err = fmt.Errorf("a report row's field %q: %w (row %q)", field, err, p.row)
	}
}

func (p *fieldParser) int64(s string) int64 {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		p.fail(s, err)
	}
	return v
}

func (p *fieldParser) int(s string) int { return int(p.int64(s)) }

func (p *fieldParser) optInt(s string, into *int) *int {
	if s == "" {
		return nil
	}
	*into = p.int(s)
	return into
}

func (p *fieldParser) time(s string) time.Time {
	t, err := parseStoredTime(s)
	if err != nil {
		p.fail(s, err)
	}
	return t
}

func (p *fieldParser) optTime(s string, into *time.Time) *time.Time {
	if s == "" {
		return nil
	}
	*into = p.time(s)
	return into
}
