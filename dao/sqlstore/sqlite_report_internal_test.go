package sqlstore

import (
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/glebarez/sqlite"

	"jiaohao/model"
)

// SQLite's report rows are read packed: every field must come back as the
// columns read one by one give it, with NULLs as nil and free texts that
// hold the separator whole, in the order the columns are listed.
func TestPackedReportRowsReadAsTheColumns(t *testing.T) {
	db, err := sql.Open(sqlite.DriverName, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE ticket (id INTEGER PRIMARY KEY, issue_service_id INTEGER, service_id INTEGER,
		business_date VARCHAR(10), number VARCHAR(16), source VARCHAR(20), status INTEGER, window_no INTEGER,
		call_count INTEGER, requeued INTEGER, issued_at DATETIME, called_at DATETIME, serve_started_at DATETIME,
		finished_at DATETIME, estimate_s INTEGER, customer_level VARCHAR(40))`)
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) *time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return &v
	}
	seven, twelve, w3, w41 := 7, 12, 3, 41
	want := []model.TicketFact{
		{ID: 1, IssueServiceID: 11, ServiceID: 12, BusinessDate: "2026-03-01", Number: "A001", Source: "kiosk",
			Status: 3, WindowNo: &w3, CallCount: 1, IssuedAt: *at("2026-03-01T08:00:00.123456+08:00"),
			CalledAt: at("2026-03-01T08:05:00+08:00"), ServeStartedAt: at("2026-03-01T08:05:30.5+08:00"),
			FinishedAt: at("2026-03-01T08:09:00+08:00"), EstimateS: &seven, Level: "金卡|VIP"},
		// Every column that may be NULL is, and the texts hold the separator.
		{ID: 2, IssueServiceID: 11, ServiceID: 11, BusinessDate: "2026-03-01", Number: "挂号|002", Source: "we|b",
			Status: 1, IssuedAt: *at("2026-03-01T00:00:00Z"), Level: "|gold|"},
		{ID: 9_000_000_001, IssueServiceID: 2, ServiceID: 5, BusinessDate: "2026-03-31", Number: "", Source: "window",
			Status: 5, WindowNo: &w41, CallCount: 4, Requeued: 2, IssuedAt: *at("2026-03-31T23:59:59.999999+08:00"),
			CalledAt: at("2026-04-01T00:10:00+08:00"), EstimateS: &twelve},
	}
	for _, tk := range want {
		var level any
		if tk.Level != "" {
			level = tk.Level
		}
		_, err := db.Exec("INSERT INTO ticket ("+ticketColumns+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			tk.ID, tk.IssueServiceID, tk.ServiceID, tk.BusinessDate, tk.Number, tk.Source, tk.Status, tk.WindowNo,
			tk.CallCount, tk.Requeued, tk.IssuedAt, tk.CalledAt, tk.ServeStartedAt, tk.FinishedAt, tk.EstimateS, level)
		if err != nil {
			t.Fatal(err)
		}
	}
	read := func(cols string, scan func(*sql.Rows, func(*model.TicketFact)) error) []model.TicketFact {
		rows, err := db.Query("SELECT " + cols + " FROM ticket ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var got []model.TicketFact
		err = scan(rows, func(f *model.TicketFact) { got = append(got, deepCopyFact(*f)) })
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	packed := read(sqliteDialect{}.packedTicketColumns(), scanPackedTickets)
	columns := read(ticketColumns, scanTickets)
	if len(packed) != len(want) {
		t.Fatalf("%d rows read packed, want %d", len(packed), len(want))
	}
	for i := range want {
		if !sameFact(packed[i], want[i]) {
			t.Errorf("row %d packed: %+v\nwant %+v", i, packed[i], want[i])
		}
		if !sameFact(packed[i], columns[i]) {
			t.Errorf("row %d: packed %+v\ncolumns %+v", i, packed[i], columns[i])
		}
	}
}

// A packed column that does not split into its fields, or holds a field
// that is no number or time, is an error, not a zero.
func TestPackedReportRowBadFieldsAreErrors(t *testing.T) {
	good := "1|2|3|2026-03-01|3|4|1|0|2026-03-01 08:00:00+08:00||||"
	var tk model.TicketFact
	var h optionals
	if err := unpackTicket(good, &tk, &h); err != nil || tk.ID != 1 || *tk.WindowNo != 4 || tk.CalledAt != nil || tk.EstimateS != nil {
		t.Fatalf("a good row: %+v, %v", tk, err)
	}
	for _, bad := range []string{
		strings.TrimSuffix(good, "|"),                             // a field short
		good + "|",                                                // a field over
		"2026-03|01|" + good[2:],                                  // a '|' in a field
		strings.Replace(good, "1|2|3", "x|2|3", 1),                // no number
		strings.Replace(good, "|4|", "|4.5|", 1),                  // no integer
		strings.Replace(good, "08:00:00", "08:00:61", 1),          // no time
		strings.Replace(good, "2026-03-01 08:00:00+08:00", "", 1), // no issue time
	} {
		if err := unpackTicket(bad, &tk, &h); err == nil {
			t.Errorf("%q read as %+v, want an error", bad, tk)
		}
	}
}

// deepCopyFact copies the values f points to, which the scan reuses.
func deepCopyFact(f model.TicketFact) model.TicketFact {
	cp := func(p *time.Time) *time.Time {
		if p == nil {
			return nil
		}
		v := *p
		return &v
	}
	f.CalledAt, f.ServeStartedAt, f.FinishedAt = cp(f.CalledAt), cp(f.ServeStartedAt), cp(f.FinishedAt)
	if f.WindowNo != nil {
		v := *f.WindowNo
		f.WindowNo = &v
	}
	if f.EstimateS != nil {
		v := *f.EstimateS
		f.EstimateS = &v
	}
	return f
}

// sameFact compares times as instants: the zone a time comes back in is
// the driver's business, checked by TestStoredTimeReadsWhatTheDriverWrote.
func sameFact(a, b model.TicketFact) bool {
	norm := func(f model.TicketFact) model.TicketFact {
		f = deepCopyFact(f)
		f.IssuedAt = f.IssuedAt.UTC()
		for _, p := range []*time.Time{f.CalledAt, f.ServeStartedAt, f.FinishedAt} {
			if p != nil {
				*p = p.UTC()
			}
		}
		return f
	}
	return reflect.DeepEqual(norm(a), norm(b))
}
