//go:build unix

package screens

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"jiaohao/model"
)

// A picture that hangs (a file on a share that stopped answering; here a
// pipe nobody writes to) holds up only the pictures: the hall's clock
// keeps running meanwhile.
func TestHallClockRunsWhilePictureHangs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "a.png")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	serverTime = runningClock // this test needs the clock to run
	t.Cleanup(func() { serverTime = frozenClock })
	st := demoStore(t)
	h := build(t, func(ctx context.Context) *Hall {
		return NewHallWith(ctx, newTestWindow(t, 1280, 720), st, nil, HallOptions{Layout: model.HallSplitList, Media: dir})
	})
	// Before the hall stops: open the pipe's other end, so the picture's
	// read ends (empty, no picture) and the hall's goroutines can return.
	t.Cleanup(func() {
		go func() {
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		}()
	})
	waitLoaded(t, h.Loaded())
	var first string
	WithUI(func() { first = h.clockT.Text })
	waitFor(t, "the clock to move on while the picture hangs", func() bool { return h.clockT.Text != first })
}
