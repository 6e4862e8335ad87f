package app

import (
	"context"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/printing"
	"jiaohao/reports"
	"jiaohao/screens"
)

// managerDeps gives the manager what this PC can do. On the database it
// manages terminals and renders reports itself; through a peer server
// the host does both and the report's files are written here.
func (be *backend) managerDeps(a fyne.App, lang string) screens.ManagerDeps {
	deps := screens.ManagerDeps{Open: openFile(a)}
	deps.Sound = be.alertSound()
	render := renderer(be.st, be.gorm)
	if render == nil {
		return deps
	}
	deps.NewToken = peer.NewToken
	if be.gorm != nil {
		h := be.health
		if h == nil { // a backend made without one (a tool, a test): checks on demand only
			h = newHealthHost(be.gorm, "", lang, func(string, ...any) {})
		}
		deps.Terminals, deps.Health = be.gorm, h
	} else if c, ok := be.st.(*peer.Client); ok {
		deps.Terminals, deps.Health = c, c
	}
	deps.Report = func(ctx context.Context, from, to string) (string, error) {
		f, err := render(ctx, from, to, reportLang(lang))
		if err != nil {
			return "", err
		}
		// The CSV is written next to the PDF, for the spreadsheet. The
		// name is made here, never taken from the host's answer, so no
		// answer can write outside the folder.
		return reports.Files{Name: reports.FileStem(from, to), PDF: f.PDF, CSV: f.CSV}.SaveInDir(reportDir())
	}
	return deps
}

// openFile opens a written report with the PC's own viewer.
func openFile(a fyne.App) func(path string) error {
	return func(path string) error {
		var err error
		fyne.DoAndWait(func() { err = a.OpenURL(&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}) })
		return err
	}
}

// hqReportHere has the host render head office's report over branches
// and writes it into this PC's report folder. As for a branch's report,
// the name is made here, never taken from the host's answer.
func hqReportHere(c *peer.Client, lang string) screens.HQReportFunc {
	return func(ctx context.Context, codes []string, from, to string) (string, error) {
		rep, err := c.HQReport(ctx, codes, from, to, reportLang(lang))
		if err != nil {
			return "", err
		}
		return reports.Files{Name: reports.BranchesFileStem(from, to), PDF: rep.PDF, CSV: rep.CSV}.SaveInDir(reportDir())
	}
}

// renderer renders reports on the database when this PC has it, else on
// the host through the peer link; nil when neither can.
func renderer(st model.Store, gs *sqlstore.GormStore) peer.ReportFunc {
	if gs != nil {
		return hostReport(gs)
	}
	if c, ok := st.(*peer.Client); ok {
		return c.Report
	}
	return nil
}

// hostReport renders reports for the manager PCs a peer server serves.
func hostReport(gs *sqlstore.GormStore) peer.ReportFunc {
	return func(ctx context.Context, from, to, lang string) (peer.Report, error) {
		l, err := reports.ParseLang(lang)
		if err != nil {
			return peer.Report{}, err
		}
		f, err := reports.Render(ctx, gs, from, to, l)
		return peer.Report{Name: f.Name, PDF: f.PDF, CSV: f.CSV}, err
	}
}

func reportLang(lang string) string {
	if lang == "en" {
		return "en"
	}
	return "zh"
}

// reportDir is where a manager's reports go: the home folder, where a
// manager looks first.
func reportDir() string {
	if dir, err := os.UserHomeDir(); err == nil {
		return dir
	}
	return os.TempDir()
}

// alertSound plays the chime for a new alert on this PC's speakers, with
// the branch's voice engine. The engine is looked up at the first alert,
// off the UI goroutine, so a manager that never gets one never looks.
func (be *backend) alertSound() func() {
	chime := sync.OnceValue(func() *printing.AlertChime {
		name := "auto"
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if set, err := be.st.Settings(ctx); err == nil && set.Raw["voice_engine"] != "" {
			name = set.Raw["voice_engine"]
		}
		return printing.NewAlertChime(nil, name, log.Printf)
	})
	return func() { go chime().Play() }
}
