package reports_test

import (
	"crypto/sha256"
	"strings"
	"sync"
	"testing"

	"jiaohao/assets"
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

// TestPDFLeavesTheEmbeddedFontAlone: the PDF writer wrote into the font
// bytes it was given while cutting the subset (an append onto a slice of
// them), and it was given the program's one embedded copy, which the
// screens draw with too. Two reports at once, as a host serving head
// office while writing its day's report does, raced on it. Every document
// now cuts from its own copy: drawing several at once leaves the embedded
// font as it was.
func TestPDFLeavesTheEmbeddedFontAlone(t *testing.T) {
	before := sha256.Sum256(assets.CJKFont)
	r := reports.Report{Branch: "城东支行", Services: []reports.ServiceStats{{Code: "A", Name: "个人业务 ABC 123", Count: 3}}}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			_, err := reports.PDF(r, reports.LangZH)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if sha256.Sum256(assets.CJKFont) != before {
		t.Fatal("drawing reports changed the embedded font's bytes")
	}
}
