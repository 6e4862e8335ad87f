package app

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/screens"
)

// peerManager serves gs with the given report renderer and returns the
// manager deps of a manager PC connected to it, with its home folder.
func peerManager(t *testing.T, gs *sqlstore.GormStore, report peer.ReportFunc) (screens.ManagerDeps, string) {
	t.Helper()
	ctx := context.Background()
	srv := peer.NewServer(gs, gs, peer.Options{Report: report})
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); srv.Close() })
	tok, hash, err := peer.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gs.AddTerminal(ctx, model.Terminal{Name: "manager", Role: "manager", TokenHash: hash}); err != nil {
		t.Fatal(err)
	}
	c, err := peer.Dial(ctx, ts.URL, tok)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	return (&backend{st: c}).managerDeps(test.NewTempApp(t), "en"), home
}

// A manager PC connected through the host registers PCs there: only the
// hash reaches the host.
func TestManagerThroughPeerRegistersTerminals(t *testing.T) {
	gs := daotest.SQLite(t)
	deps, _ := peerManager(t, gs, hostReport(gs))
	if deps.Terminals == nil || deps.NewToken == nil {
		t.Fatal("a manager through a peer has no terminals page")
	}
	ctx := context.Background()
	_, hash, _ := peer.NewToken()
	if _, err := deps.Terminals.AddTerminal(ctx, model.Terminal{Name: "hall", Role: "screen", TokenHash: hash}); err != nil {
		t.Fatalf("register through the host: %v", err)
	}
	terms, err := gs.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last := terms[len(terms)-1]; last.Name != "hall" || last.TokenHash != hash {
		t.Fatalf("the host holds %+v", last)
	}
}

// A manager PC connected through the host gets the same report as one on
// the database: the host renders it, this PC writes the PDF and the CSV to
// the manager's home folder.
func TestManagerThroughPeerMakesReport(t *testing.T) {
	pdftotext := needTool(t, "pdftotext", "JIAOHAO_TEST_REQUIRE_TOOLS")
	dsn := daotest.SQLiteDSN(t)
	if code, out, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "40"); code != 0 {
		t.Fatalf("seed-day: %d %s %s", code, out, errs)
	}
	gs, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	deps, home := peerManager(t, gs, hostReport(gs))
	if deps.Report == nil {
		t.Fatal("a manager through a peer has no reports page")
	}
	path, err := deps.Report(context.Background(), "2026-03-02", "2026-03-02")
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	if want := filepath.Join(home, "jiaohao-report-2026-03-02.pdf"); path != want {
		t.Fatalf("report written to %s, want %s", path, want)
	}
	out, err := exec.Command(pdftotext, "-layout", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	if !strings.Contains(string(out), "Branch service report") || !strings.Contains(string(out), "2026-03-02") {
		t.Fatalf("the PDF does not read as the day's report:\n%s", out)
	}
	csv, err := os.ReadFile(strings.TrimSuffix(path, ".pdf") + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(csv), "\ntotals,40,") {
		t.Fatalf("the CSV does not count the day's 40 tickets:\n%s", csv)
	}
}

// The manager's PC names the files itself: a host answering with a path
// cannot make it write outside the manager's folder.
func TestManagerNamesReportFilesItself(t *testing.T) {
	gs := daotest.SQLite(t)
	evil := func(context.Context, string, string, string) (peer.Report, error) {
		return peer.Report{Name: "../escaped", PDF: []byte("%PDF-1.7\n"), CSV: []byte("x\n")}, nil
	}
	deps, home := peerManager(t, gs, evil)
	path, err := deps.Report(context.Background(), "2026-03-01", "2026-03-31")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(home, "jiaohao-report-2026-03-01_2026-03-31.pdf"); path != want {
		t.Fatalf("report written to %s, want %s", path, want)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(home), "escaped.pdf")); !os.IsNotExist(err) {
		t.Fatalf("a file was written outside the manager's folder (%v)", err)
	}
}
