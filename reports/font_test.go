package reports_test

import (
	"strings"
	"testing"

	"jiaohao/reports"
)

// TestPDFDrawsNamesBeyondTheBasicPlane: a name with a rare character of
// the supplementary planes (𠮷, U+20BB7, common in names) made the PDF
// writer panic, so one branch, service or clerk so named stopped every
// report. Such a character is drawn as a box; the rest of the name reads.
func TestPDFDrawsNamesBeyondTheBasicPlane(t *testing.T) {
	tool := requireTool(t, "pdftotext")
	one := reports.Report{Branch: "𠮷野分行", Services: []reports.ServiceStats{{Code: "A", Name: "𠀀对公业务", Count: 1}}}
	many := reports.BranchesReport{First: "2026-03-02", Last: "2026-03-02",
		Branches: []reports.BranchRow{{Code: "BJ001", Name: "𠮷野家", Report: one}}, Total: one}
	for _, c := range []struct {
		name  string
		draw  func() ([]byte, error)
		words []string
	}{
		{"one branch", func() ([]byte, error) { return reports.PDF(one, reports.LangZH) }, []string{"□野分行", "□对公业务"}},
		{"several branches", func() ([]byte, error) { return reports.BranchesPDF(many, reports.LangZH) }, []string{"BJ001 □野家", "□对公业务"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b []byte
			var err error
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("the PDF writer panicked: %v", p)
					}
				}()
				b, err = c.draw()
			}()
			if err != nil {
				t.Fatal(err)
			}
			out := readPDF(t, tool, b, "-layout")
			for _, w := range c.words {
				if !strings.Contains(out, w) {
					t.Errorf("the PDF text lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
