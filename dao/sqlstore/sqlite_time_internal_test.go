package sqlstore

import (
	"database/sql"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/glebarez/sqlite"
)

// The report reads SQLite's times as their stored text and decodes them
// itself: every time the driver writes must come back as the instant, and
// in the zone offset, the driver's own decoding gives.
func TestStoredTimeReadsWhatTheDriverWrote(t *testing.T) {
	db, err := sql.Open(sqlite.DriverName, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE tt (id INTEGER PRIMARY KEY, at DATETIME)"); err != nil {
		t.Fatal(err)
	}
	shanghai, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	zones := []*time.Location{time.UTC, shanghai, time.FixedZone("", -5*3600-30*60), time.FixedZone("X", 8*3600), time.Local}
	fractions := []int{0, 1, 1e3, 123e3, 5e5, 999999999, 100}
	rng := rand.New(rand.NewPCG(1, 2))
	var want []*time.Time
	for i := range 400 {
		at := time.Unix(rng.Int64N(4e9), int64(fractions[i%len(fractions)])).In(zones[i%len(zones)])
		if i%7 == 0 {
			at = at.Truncate(time.Second)
		}
		w := &at
		if i%50 == 0 {
			w = nil // a ticket never called
		}
		want = append(want, w)
		var v any
		if w != nil {
			v = *w
		}
		if _, err := db.Exec("INSERT INTO tt (id, at) VALUES (?, ?)", i, v); err != nil {
			t.Fatal(err)
		}
	}
	// The time as the packed report row holds it.
	rows, err := db.Query("SELECT at, PRINTF('%s', at) FROM tt ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	i := 0
	for ; rows.Next(); i++ {
		var driver sql.NullTime
		var text string
		if err := rows.Scan(&driver, &text); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
		var held time.Time
		p := fieldParser{row: text}
		raw := p.optTime(text, &held)
		if p.err != nil {
			t.Fatalf("row %d: %v", i, p.err)
		}
		if (raw != nil) != driver.Valid || driver.Valid != (want[i] != nil) {
			t.Fatalf("row %d: read %v, the driver valid %v, want valid %v", i, raw, driver.Valid, want[i] != nil)
		}
		if raw == nil {
			continue
		}
		_, off := raw.Zone()
		_, driverOff := driver.Time.Zone()
		if !raw.Equal(driver.Time) || off != driverOff || !raw.Equal(*want[i]) {
			t.Fatalf("row %d: read %v, the driver read %v, written %v", i, *raw, driver.Time, *want[i])
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if i != len(want) {
		t.Fatalf("%d rows read, want %d", i, len(want))
	}
}

// Text in another layout the driver reads goes the slow way and gives the
// same time; text that is no time is an error, not a zero time.
func TestStoredTimeOtherLayouts(t *testing.T) {
	for s, want := range map[string]time.Time{
		"2026-12-04":                                      time.Date(2026, 12, 4, 0, 0, 0, 0, time.UTC),
		"2026-12-04T08:30":                                time.Date(2026, 12, 4, 8, 30, 0, 0, time.UTC),
		"2026-12-04 08:30:05Z":                            time.Date(2026, 12, 4, 8, 30, 5, 0, time.UTC),
		"2026-12-04T08:30:05.5+08:00":                     time.Date(2026, 12, 4, 0, 30, 5, 5e8, time.UTC),
		"2026-12-04 08:30:05.1234567891":                  time.Date(2026, 12, 4, 8, 30, 5, 123456789, time.UTC),
		"2026-12-04 08:30:05.25 +0800 CST m=+0.000000001": time.Date(2026, 12, 4, 0, 30, 5, 25e7, time.UTC),
	} {
		if got, err := parseStoredTime(s); err != nil || !got.Equal(want) {
			t.Errorf("%q: read %v (%v), want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "yesterday", "2026-04-31 10:00:00", "2026-12-04 25:00:00", "2026-12-04 08:30:05+8"} {
		if got, err := parseStoredTime(s); err == nil {
			t.Errorf("%q: read %v, want an error", s, got)
		}
	}
}
