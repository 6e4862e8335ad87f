package printing

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"

	"jiaohao/model"
)

func TestEncodeLED(t *testing.T) {
	for _, tc := range []struct{ text, enc, want string }{
		{"请 A012", "GB2312", "C7 EB 20 41 30 31 32"},
		{"请 A012", "", "C7 EB 20 41 30 31 32"},
		{"A→3号", "gbk", "41 A1 FA 33 BA C5"},
		{"请", "UTF-8", "E8 AF B7"},
		{"請", "GBK", "D5 88"},     // traditional: in GBK ...
		{"請A", "GB2312", "3F 41"}, // ... but not in GB2312: '?' instead of garbage
	} {
		got, err := EncodeLED(tc.text, tc.enc)
		if err != nil || !bytes.Equal(got, unhex(t, tc.want)) {
			t.Errorf("EncodeLED(%q, %q) = % X, %v; want %s", tc.text, tc.enc, got, err, tc.want)
		}
	}
	if _, err := EncodeLED("x", "Big5"); model.ErrorCode(err) != model.EInvalidInput {
		t.Errorf("Big5 accepted: %v", err)
	}
}

type flakyPort struct {
	mu    sync.Mutex
	opens int
	buf   bytes.Buffer
}

func (p *flakyPort) open() (io.WriteCloser, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.opens++
	if p.opens <= 2 {
		return nil, errors.New("no such port")
	}
	return p, nil
}

func (p *flakyPort) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.Write(b)
}

func (p *flakyPort) Close() error { return nil }

// A dead port is retried until it works; only the newest text is written.
func TestLEDRetriesDeadPort(t *testing.T) {
	port := &flakyPort{}
	led, err := NewLED(LEDConfig{Port: "COM4", Encoding: "UTF-8", Suffix: []byte{'\n'}, Open: port.open, MinBackoff: 1, MaxBackoff: 2, Logf: quietLog})
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	led.Show("A001")
	led.Show("A002")
	if err := led.Flush(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	port.mu.Lock()
	defer port.mu.Unlock()
	if port.opens != 3 || port.buf.String() != "A002\n" {
		t.Errorf("opens %d, wrote %q", port.opens, port.buf.String())
	}
	if f := led.Fault(); f != "" {
		t.Errorf("fault after recovery: %s", f)
	}
}

type lastShown struct{ text string }

func (l *lastShown) Show(s string) { l.text = s }

// The bars read their text off the followed state, step by step.
func TestLEDBoards(t *testing.T) {
	snap := model.Snapshot{}
	step := func(kind string, tk model.Ticket) model.Change {
		ev := model.Event{Version: snap.Version + 1, Kind: kind, TicketID: tk.ID, Window: tk.Window, ToStatus: tk.Status, Ticket: &tk}
		if !snap.Apply(ev) {
			t.Fatalf("event %d refused", ev.Version)
		}
		return model.Change{Snapshot: snap.Clone(), Events: []model.Event{ev}}
	}
	call := func(id int64, num string, win int) model.Change {
		return step(model.EvCall, model.Ticket{ID: id, Number: num, Window: win, Status: model.Called})
	}
	win3, hall := &lastShown{}, &lastShown{}
	w := &LEDBoard{Display: win3, Window: 3}
	h := &LEDBoard{Display: hall, Lines: 2}
	for _, c := range []model.Change{call(1, "A001", 3), call(2, "B001", 1), call(3, "A002", 2),
		step(model.EvFinish, model.Ticket{ID: 1, Number: "A001", Window: 3, Status: model.Done})} {
		w.Update(c)
		h.Update(c)
	}
	if win3.text != "请 A001 号到 3 号窗口" {
		t.Errorf("window bar: %q", win3.text)
	}
	if hall.text != "A002→2号窗口  B001→1号窗口" {
		t.Errorf("hall bar: %q", hall.text)
	}
	h.Update(step(model.EvRecall, model.Ticket{ID: 2, Number: "B001", Window: 1, Status: model.Called}))
	if hall.text != "B001→1号窗口  A002→2号窗口" {
		t.Errorf("hall bar after recall: %q", hall.text)
	}
	h.Update(model.Change{Reloaded: true, Snapshot: model.Snapshot{RecentCalls: []model.Ticket{{ID: 9, Number: "V001", Window: 4, Status: model.Called}}}})
	if hall.text != "V001→4号窗口" {
		t.Errorf("hall bar after reset: %q", hall.text)
	}
	// Window 3 calls A003, which times out back into line: its bar goes
	// blank rather than showing A001 again, whom it served before.
	w.Update(call(4, "A003", 3))
	if win3.text != "请 A003 号到 3 号窗口" {
		t.Errorf("window bar after the next call: %q", win3.text)
	}
	w.Update(step(model.EvTimeout, model.Ticket{ID: 4, Number: "A003", Status: model.Waiting, Lane: model.LaneRecall}))
	if win3.text != "" {
		t.Errorf("window bar after its call timed out: %q, want blank", win3.text)
	}
}

// A window's bar names the clerk signed in there only when its format
// says staff=true; the hall's bar never does.
func TestLEDBoardNamesTheClerk(t *testing.T) {
	a, err := ParseLEDAddressOver("led+serial:///dev/ttyUSB1?staff=true", "encoding=gb2312")
	if err != nil || !a.Staff {
		t.Fatalf("staff=true: %+v, %v", a, err)
	}
	if _, err := ParseLEDAddress("led+serial://COM4?staff=maybe"); model.ErrorCode(err) != model.EInvalidInput {
		t.Fatalf("staff=maybe: %v", err)
	}
	tk := model.Ticket{ID: 1, Number: "A001", Window: 3, Status: model.Called}
	snap := model.Snapshot{RecentCalls: []model.Ticket{tk},
		Windows: []model.WindowState{{Window: model.Window{Number: 3, Status: model.WindowOpen, Clerk: &model.Clerk{ID: 7, Number: "1001", Name: "李娜"}}}}}
	change := model.Change{Reloaded: true, Snapshot: snap}
	named, plain, hall := &lastShown{}, &lastShown{}, &lastShown{}
	(&LEDBoard{Display: named, Window: 3, Staff: true}).Update(change)
	(&LEDBoard{Display: plain, Window: 3}).Update(change)
	(&LEDBoard{Display: hall, Staff: true}).Update(change)
	if named.text != "请 A001 号到 3 号窗口 1001 李娜" || plain.text != "请 A001 号到 3 号窗口" || hall.text != "A001→3号窗口" {
		t.Fatalf("bars: %q, %q, %q", named.text, plain.text, hall.text)
	}
}
