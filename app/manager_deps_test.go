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

	"jiaohao/dao"
	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
)

// A manager PC connected through the host gets the same report as one on
// the database: the host renders it, this PC writes the PDF and the CSV to
// the manager's home folder. It registers PCs through the host too.
func TestManagerThroughPeerMakesReportAndTokens(t *testing.T) {
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_TOOLS") == "1" {
			t.Fatal("pdftotext is not installed but JIAOHAO_TEST_REQUIRE_TOOLS=1")
		}
		t.Skip("pdftotext not installed")
	}
	dsn := daotest.SQLiteDSN(t)
	if code, out, errs := cli("seed-day", "--db", dsn, "--date", "2026-03-02", "--tickets", "40"); code != 0 {
		t.Fatalf("seed-day: %d %s %s", code, out, errs)
	}
	ctx := context.Background()
	gs, err := dao.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer gs.Close()
	srv := peer.NewServer(gs, gs, peer.Options{Report: hostReport(gs)})
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	defer srv.Close()
	tok, hash, err := peer.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gs.AddTerminal(ctx, dao.Terminal{Name: "manager", Role: "manager", TokenHash: hash}); err != nil {
		t.Fatal(err)
	}
	c, err := peer.Dial(ctx, ts.URL, tok)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	deps := (&backend{st: c}).managerDeps(test.NewTempApp(t), "en")
	if deps.Report == nil || deps.Terminals == nil || deps.NewToken == nil {
		t.Fatalf("a manager through a peer lacks pages: report %v, terminals %v", deps.Report != nil, deps.Terminals != nil)
	}
	path, err := deps.Report(ctx, "2026-03-02", "2026-03-02")
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

	_, h2, _ := peer.NewToken()
	if _, err := deps.Terminals.AddTerminal(ctx, dao.Terminal{Name: "hall", Role: "screen", TokenHash: h2}); err != nil {
		t.Fatalf("register through the host: %v", err)
	}
	terms, err := gs.Terminals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if last := terms[len(terms)-1]; last.Name != "hall" || last.TokenHash != h2 {
		t.Fatalf("the host holds %+v", last)
	}
}
