package printing

import (
	"bytes"
	"strings"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/width"

	"jiaohao/model"
)

// Paper is the roll width in millimetres: 58 or 80.
type Paper int

const (
	Paper58 Paper = 58
	Paper80 Paper = 80
)

// columns is the line length in Font A (12 dots per half-width character):
// 384 dots on 58 mm paper, 576 on 80 mm.
func (p Paper) columns() int {
	if p == Paper58 {
		return 32
	}
	return 48
}

// qrModule is the QR module size in dots: large enough to scan from a
// phone held at arm's length, small enough for a long URL on 58 mm.
func (p Paper) qrModule() byte {
	if p == Paper58 {
		return 5
	}
	return 7
}

// ESC/POS commands used by RenderESCPOS. Kept as named byte strings so the
// tests and the layout read the same.
var (
	escInit        = []byte{0x1B, 0x40}       // ESC @: reset
	escChinese     = []byte{0x1C, 0x26}       // FS &: two-byte (Chinese) mode
	escCenter      = []byte{0x1B, 0x61, 0x01} // ESC a 1
	escBoldOn      = []byte{0x1B, 0x45, 0x01} // ESC E 1
	escBoldOff     = []byte{0x1B, 0x45, 0x00}
	escSizeNormal  = []byte{0x1D, 0x21, 0x00} // GS ! 0
	escSizeTall    = []byte{0x1D, 0x21, 0x01} // double height
	escSizeDouble  = []byte{0x1D, 0x21, 0x11} // double width and height
	escFeed4       = []byte{0x1B, 0x64, 0x04} // ESC d 4: clear the cutter
	escPartialCut  = []byte{0x1D, 0x56, 0x01} // GS V 1
	escQRModel2    = []byte{0x1D, 0x28, 0x6B, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00}
	escQRErrM      = []byte{0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x45, 0x31}
	escQRPrint     = []byte{0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x51, 0x30}
	escQRSizeStart = []byte{0x1D, 0x28, 0x6B, 0x03, 0x00, 0x31, 0x43}
)

// qrBlock is the GS ( k sequence that prints data as a QR code (model 2,
// error correction M).
func qrBlock(data string, module byte) []byte {
	var b bytes.Buffer
	b.Write(escQRModel2)
	b.Write(escQRSizeStart)
	b.WriteByte(module)
	b.Write(escQRErrM)
	n := len(data) + 3
	b.Write([]byte{0x1D, 0x28, 0x6B, byte(n), byte(n >> 8), 0x31, 0x50, 0x30})
	b.WriteString(data)
	b.Write(escQRPrint)
	return b.Bytes()
}

// RenderESCPOS lays a slip out as the bytes an ESC/POS thermal printer
// expects. Text is GB18030, the encoding Chinese printers use in two-byte
// mode; every rune has a GB18030 form, so nothing is ever dropped.
func RenderESCPOS(s Slip, p Paper) []byte {
	r := escRenderer{enc: simplifiedchinese.GB18030.NewEncoder().Bytes}
	r.cmd(escInit, escChinese, escCenter)
	cols := p.columns()
	if s.Branch != "" {
		r.cmd(escBoldOn, escSizeTall)
		r.lines(s.Branch, cols)
		r.cmd(escSizeNormal, escBoldOff)
	}
	r.cmd(escBoldOn)
	r.lines(s.Service, cols)
	r.cmd(escBoldOff, escSizeDouble)
	r.lines(s.Number, cols/2)
	r.cmd(escSizeNormal)
	if s.Area != "" {
		r.cmd(escBoldOn)
		r.lines(s.Area, cols)
		r.cmd(escBoldOff)
	}
	if s.Level != "" {
		r.lines(s.Level, cols)
	}
	r.lines(s.aheadLine(), cols)
	r.lines(s.issuedLine(), cols)
	if s.URL != "" {
		r.cmd(qrBlock(s.URL, p.qrModule()))
		r.lines("扫码查看排队进度", cols)
	}
	if s.Footer != "" {
		r.lines(strings.Repeat("-", cols), cols)
		r.lines(s.Footer, cols)
	}
	r.cmd(escFeed4, escPartialCut)
	return r.b.Bytes()
}

type escRenderer struct {
	b   bytes.Buffer
	enc func([]byte) ([]byte, error)
}

func (r *escRenderer) cmd(cmds ...[]byte) {
	for _, c := range cmds {
		r.b.Write(c)
	}
}

// lines prints text wrapped to cols half-width columns, one LF per line.
// Control characters are dropped first: what comes from settings and names
// is printed as text, never sent to the printer as a command.
func (r *escRenderer) lines(text string, cols int) {
	for _, l := range wrap(model.StripUnsafe(text), cols) {
		b, err := r.enc([]byte(l))
		if err != nil {
			// GB18030 encodes all of Unicode; only invalid UTF-8 lands here.
			b = []byte(strings.ToValidUTF8(l, "?"))
		}
		r.b.Write(b)
		r.b.WriteByte('\n')
	}
}

// wrap splits text into lines of at most cols columns, counting wide (CJK)
// runes as two. Existing newlines are kept; "" gives no line.
func wrap(text string, cols int) []string {
	if text == "" {
		return nil
	}
	var out []string
	for _, para := range strings.Split(text, "\n") {
		var line strings.Builder
		used := 0
		for _, r := range para {
			w := runeWidth(r)
			if used+w > cols && used > 0 {
				out = append(out, line.String())
				line.Reset()
				used = 0
			}
			line.WriteRune(r)
			used += w
		}
		out = append(out, line.String())
	}
	return out
}

func runeWidth(r rune) int {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}
