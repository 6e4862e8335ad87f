package printing

import (
	"context"
	"fmt"
	"log"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// defaultLEDTemplate fits a 16-character window bar.
const defaultLEDTemplate = "请 {number} 号到 {window} 号窗口"

// Display is what an LED board writes to; *LED is one.
type Display interface{ Show(text string) }

// LEDBoard turns calls into the text of one bar: a window's bar shows the
// number called there, a hall bar (Window 0) the last Lines calls.
type LEDBoard struct {
	Display  Display
	Window   int    // 0: hall bar
	Lines    int    // calls a hall bar shows; default 1
	Template string // window bar; default "请 {number} 号到 {window} 号窗口"
	recent   []model.Ticket
}

// Apply updates the bar for one committed event.
func (b *LEDBoard) Apply(ev model.Event) {
	if ev.Ticket == nil || (ev.Kind != model.EvCall && ev.Kind != model.EvRecall) {
		return
	}
	if b.Window != 0 && ev.Ticket.Window != b.Window {
		return
	}
	b.push(*ev.Ticket)
	b.Display.Show(b.text())
}

// Reset shows the state of a snapshot: after start-up or missed events.
func (b *LEDBoard) Reset(s model.Snapshot) {
	b.recent = b.recent[:0]
	for i := len(s.RecentCalls) - 1; i >= 0; i-- { // oldest first
		t := s.RecentCalls[i]
		if t.Status == model.Called && (b.Window == 0 || t.Window == b.Window) {
			b.push(t)
		}
	}
	b.Display.Show(b.text())
}

func (b *LEDBoard) push(t model.Ticket) {
	keep := max(b.Lines, 1)
	if b.Window != 0 {
		keep = 1
	}
	for i, r := range b.recent { // a recall moves the number to the front
		if r.ID == t.ID {
			b.recent = append(b.recent[:i], b.recent[i+1:]...)
			break
		}
	}
	b.recent = append(b.recent, t)
	if len(b.recent) > keep {
		b.recent = b.recent[len(b.recent)-keep:]
	}
}

func (b *LEDBoard) text() string {
	if len(b.recent) == 0 {
		return ""
	}
	if b.Window != 0 {
		tmpl := b.Template
		if tmpl == "" {
			tmpl = defaultLEDTemplate
		}
		t := b.recent[0]
		return strings.NewReplacer("{number}", t.Number, "{window}", strconv.Itoa(t.Window)).Replace(tmpl)
	}
	parts := make([]string, 0, len(b.recent))
	for i := len(b.recent) - 1; i >= 0; i-- { // newest first
		parts = append(parts, fmt.Sprintf("%s→%d号窗口", b.recent[i].Number, b.recent[i].Window))
	}
	return strings.Join(parts, "  ")
}

// RunLEDBoards drives boards from the store's event stream until ctx ends,
// reloading the snapshot whenever events were missed or the stream broke.
func RunLEDBoards(ctx context.Context, st model.Store, boards ...*LEDBoard) error {
	failures := 0
	for {
		err := feedBoards(ctx, st, boards)
		if ctx.Err() != nil {
			return nil
		}
		failures++
		if failures == 1 {
			log.Printf("printing: LED event stream: %v", err)
		}
		if !sleepCtx(ctx, backoff(failures, time.Second, 30*time.Second)) {
			return nil
		}
	}
}

func feedBoards(ctx context.Context, st model.Store, boards []*LEDBoard) error {
	snap, err := st.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("load snapshot: %w", err)
	}
	for _, b := range boards {
		b.Reset(snap)
	}
	events, err := st.Watch(ctx, snap.Version)
	if err != nil {
		return fmt.Errorf("watch events: %w", err)
	}
	for ev := range events {
		if ev.Kind != model.EvResync && ev.Version <= snap.Version {
			continue // already in the snapshot
		}
		if ev.Kind == model.EvResync {
			if snap, err = st.Snapshot(ctx); err != nil {
				return fmt.Errorf("reload snapshot: %w", err)
			}
			for _, b := range boards {
				b.Reset(snap)
			}
			continue
		}
		for _, b := range boards {
			b.Apply(ev)
		}
	}
	return fmt.Errorf("event stream closed")
}
