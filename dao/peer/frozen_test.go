//go:build unix

package peer

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A database that freezes in the middle of a take (every process of the
// server stopped with SIGSTOP): the request ends at the server's deadline
// with 503, well before the kiosk's own 10 s, and once the server runs
// again the ticket is not there: the transaction rolled back instead of
// committing after the kiosk gave up (a "ghost" number).
func TestFrozenDatabaseRollsBack(t *testing.T) {
	db := daotest.PrivatePostgres(t)
	ctx := context.Background()
	st, err := sqlstore.Open(ctx, db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	e := newEnvOn(t, st, Options{TakePerMinute: -1})
	kiosk := e.tokens[model.RoleKiosk]
	first := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)

	// Hold the branch row so the next take stops inside its transaction,
	// after it numbered and inserted its ticket, at its last statement.
	holder, err := sql.Open("pgx", db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	lock, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Rollback()
	var version int64
	if err := lock.QueryRow("SELECT version FROM branch WHERE id = 1 FOR UPDATE").Scan(&version); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		status int
		body   []byte
		took   time.Duration
	}
	done := make(chan answer, 1)
	go func() {
		start := time.Now()
		status, body := e.call(t, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)
		done <- answer{status, body, time.Since(start)}
	}()
	waitFor(t, func() bool {
		var n int
		err := lock.QueryRow("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").Scan(&n)
		return err == nil && n > 0
	})
	db.Freeze()
	var a answer
	select {
	case a = <-done:
	case <-time.After(9 * time.Second): // the kiosk would give up at 10 s
		db.Thaw()
		t.Fatal("the take did not end at the server's deadline while the database was frozen")
	}
	db.Thaw()
	if a.status != http.StatusServiceUnavailable || errCode(t, a.body) != model.EUnavailable {
		t.Fatalf("a take on a frozen database: %d %s", a.status, a.body)
	}
	t.Logf("the take ended after %v: %d %s", a.took.Round(time.Millisecond), a.status, a.body)
	if err := lock.Rollback(); err != nil {
		t.Fatal(err)
	}
	// The frozen take's backend now gets the row, finds its client gone
	// and rolls back; a committed ghost would show up here.
	time.Sleep(time.Second)
	var tickets, head int64
	if err := holder.QueryRow("SELECT COUNT(*) FROM ticket").Scan(&tickets); err != nil {
		t.Fatal(err)
	}
	if err := holder.QueryRow("SELECT version FROM branch WHERE id = 1").Scan(&head); err != nil {
		t.Fatal(err)
	}
	if tickets != 1 || head != version {
		t.Fatalf("after the frozen take: %d tickets, version %d; want 1 and %d", tickets, head, version)
	}
	next := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)
	if next.SeqNo != first.SeqNo+1 {
		t.Fatalf("the number after the frozen take is %s, want the one right after %s", next.Number, first.Number)
	}
	daotest.CheckQueue(t, st)
}

// SQLite on a full disk: a take answers 503 "磁盘已满", health reports
// the database down, and when space returns everything works again with
// the database intact.
func TestSQLiteDiskFull(t *testing.T) {
	dir := smallDisk(t, "4m")
	st, err := sqlstore.Open(context.Background(), "sqlite:"+filepath.Join(dir, "jiaohao.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var logs syncBuffer
	st.SetLogger(slog.New(slog.NewTextHandler(&logs, nil)))
	e := newEnvOn(t, st, Options{TakePerMinute: -1})
	kiosk := e.tokens[model.RoleKiosk]
	taken := map[int64]string{}
	for i := 0; i < 5; i++ {
		tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)
		taken[tk.ID] = tk.Number
	}
	filler := fill(t, dir)

	// The write-ahead log may still have room for a few takes; past it
	// every take is refused, none with a 500.
	var status int
	var body []byte
	for i := 0; i < 2000; i++ {
		status, body = e.call(t, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)
		if status != http.StatusCreated {
			break
		}
		var tk Ticket
		if err := json.Unmarshal(body, &tk); err != nil {
			t.Fatal(err)
		}
		taken[tk.ID] = tk.Number
	}
	if status != http.StatusServiceUnavailable || !strings.Contains(string(body), "磁盘已满") {
		t.Fatalf("a take on a full disk: %d %s", status, body)
	}
	time.Sleep(1100 * time.Millisecond) // past the probe's one-second cache
	if status, b := e.call(t, "GET", "/api/v1/health", "", ""); status != http.StatusServiceUnavailable || !strings.Contains(string(b), "磁盘已满") {
		t.Fatalf("health on a full disk: %d %s", status, b)
	}
	if status, b := e.call(t, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`); status != http.StatusServiceUnavailable {
		t.Fatalf("a second take on a full disk: %d %s", status, b)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { s, _ := e.call(t, "GET", "/api/v1/health", "", ""); return s == http.StatusOK })
	tk := must[Ticket](t, e, http.StatusCreated, "POST", "/api/v1/tickets", kiosk, `{"service":"A"}`)
	taken[tk.ID] = tk.Number
	var check string
	if err := st.DB().Raw("PRAGMA integrity_check").Scan(&check).Error; err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	stored := daotest.CheckQueue(t, st)
	for id, number := range taken {
		if stored[id] != number {
			t.Fatalf("ticket %d answered as %s, stored as %q", id, number, stored[id])
		}
	}
	if text := logs.String(); strings.Count(text, "database unavailable") != 1 || strings.Count(text, "database available again") != 1 {
		t.Fatalf("log:\n%s", text)
	}
}

// smallDisk mounts a tmpfs of the given size for the test; it needs root.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatalf("cannot mount a small tmpfs (needs root): %v %s", err, out)
		}
		t.Skipf("cannot mount a small tmpfs (needs root): %v %s", err, out)
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes a file until the disk has no room left.
func fill(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !strings.Contains(err.Error(), "no space") {
				t.Fatal(err)
			}
			return path
		}
	}
}
