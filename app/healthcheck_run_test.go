package app

import (
	"bytes"
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens"
)

// yesterdayTicket opens dsn, takes one number on the previous business day
// (its check is due whatever the time of day now) and closes it again.
func yesterdayTicket(t *testing.T, dsn string) string {
	t.Helper()
	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	st.ShiftClock(-24 * time.Hour)
	tk, err := st.TakeTicket(context.Background(), "A", 0, model.SourceKiosk)
	if err != nil {
		t.Fatal(err)
	}
	return tk.BusinessDate
}

// waitFiles waits until dir holds the day's four files. The deadline only
// turns a hang into a failure; nothing is timed.
func waitFiles(t *testing.T, dir, day string) {
	t.Helper()
	want := model.HealthFiles(day)
	slices.Sort(want)
	deadline := time.Now().Add(60 * time.Second)
	for !slices.Equal(files(t, dir), want) {
		if time.Now().After(deadline) {
			t.Fatalf("no health check files in %s: %v", dir, files(t, dir))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// `jiaohao serve` checks the day it missed by itself, into --health-dir,
// with nobody asking.
func TestServeRunsTheHealthCheckByItself(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	day := yesterdayTicket(t, dsn)
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr daotest.LogBuffer
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, []string{"--db", dsn, "--listen", "127.0.0.1:0", "--health-dir", dir}, &bytes.Buffer{}, &stderr)
	}()
	waitFiles(t, dir, day)
	// The files are in place before the check is recorded and logged.
	for deadline := time.Now().Add(60 * time.Second); !strings.Contains(stderr.String(), day+" 健康检查"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log does not say the check ran:\n%s", stderr.String())
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v\n%s", err, stderr.String())
	}
}

// The desktop PC that hosts the branch does too, into the setting's folder
// beside its database.
func TestHostingPCRunsTheHealthCheckByItself(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	day := yesterdayTicket(t, dsn)
	old := hostListen
	hostListen = "127.0.0.1:0"
	t.Cleanup(func() { hostListen = old })
	be, err := connect(context.Background(), Config{Role: model.RoleManager, Mode: screens.ModeHost, DSN: dsn}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	waitFiles(t, filepath.Join(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), "health"), day)
}

// On a shared database server (every PC in ModeDB, no host PC) the
// manager's PC runs the daily check by itself; a kiosk or caller on the
// same database does not (the claim row would keep it to one PC anyway,
// but a kiosk has no manager to read it).
func TestManagerOnSharedDatabaseRunsTheHealthCheck(t *testing.T) {
	dsn := daotest.SQLiteDSN(t)
	day := yesterdayTicket(t, dsn)
	kiosk, err := connect(context.Background(), Config{Role: model.RoleKiosk, Mode: screens.ModeDB, DSN: dsn}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer kiosk.close()
	if kiosk.checking {
		t.Fatal("a kiosk on the shared database runs the daily check")
	}
	be, err := connect(context.Background(), Config{Role: model.RoleManager, Mode: screens.ModeDB, DSN: dsn}, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	if !be.checking {
		t.Fatal("the manager on the shared database does not run the daily check")
	}
	waitFiles(t, filepath.Join(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), "health"), day)
}
