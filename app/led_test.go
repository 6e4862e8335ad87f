package app

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"jiaohao/dao/daotest"
)

// serialBar is a virtual LED bar: one end of a socat pty pair for the
// program, and the frames (up to the suffix byte end) read at the other.
func serialBar(t *testing.T, end byte) (string, <-chan string) {
	t.Helper()
	path := needTool(t, "socat", "JIAOHAO_TEST_REQUIRE_DEVICES")
	dir := t.TempDir()
	bar, reader := filepath.Join(dir, "bar"), filepath.Join(dir, "reader")
	socat := exec.Command(path, "pty,raw,echo=0,link="+bar, "pty,raw,echo=0,link="+reader)
	if err := socat.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { socat.Process.Kill(); socat.Wait() })
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(reader); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	in, err := os.Open(reader)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	frames := make(chan string, 64)
	go func() {
		r := bufio.NewReader(in)
		for {
			s, err := r.ReadString(end)
			if err != nil {
				close(frames)
				return
			}
			frames <- s
		}
	}()
	return bar, frames
}

// waitFrame reads frames until one satisfies ok; the bar is blanked when
// its board starts, so the first frame may be empty.
func waitFrame(t *testing.T, frames <-chan string, ok func(string) bool) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	var seen []string
	for {
		select {
		case got, open := <-frames:
			if !open {
				t.Fatalf("serial port closed; bar received %q", seen)
			}
			seen = append(seen, got)
			if ok(got) {
				return got
			}
		case <-timeout:
			t.Fatalf("the expected frame never reached the LED bar; it received %q", seen)
		}
	}
}

// --led drives a real serial port: a caller's bar receives its window's
// call, framed as the branch's led_format says and encoded as the PC's
// address overrides.
func TestLEDFlagDrivesCallerBar(t *testing.T) {
	bar, frames := serialBar(t, 0x03)
	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	if err := st.SetSetting(ctx, "led_format", "encoding=gb2312&prefix=02&suffix=03"); err != nil {
		t.Fatal(err)
	}
	be := &backend{st: st}
	be.startLED(ctx, "led+serial://"+bar+"?encoding=utf-8", Config{Role: "caller", Window: 3}, t.Logf)
	defer be.close()
	defer cancel()
	if _, err := st.TakeTicket(ctx, "A", 0, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CallNext(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	got := waitFrame(t, frames, func(s string) bool {
		if !strings.HasPrefix(s, "\x02") {
			t.Fatalf("frame without the branch's prefix: %q", s)
		}
		return strings.Contains(s, "A001")
	})
	// "号窗口" in UTF-8: the PC's encoding won over the branch's GB2312.
	if !strings.Contains(got, "3 号窗口") {
		t.Fatalf("call frame does not name window 3 in UTF-8: %q", got)
	}
}

// A manager who changes led_format changes the bars without touching their
// PCs: the bar reopens with the new framing and shows the current call.
func TestLEDFollowsBranchFormat(t *testing.T) {
	bar, frames := serialBar(t, 0x03)
	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	if err := st.SetSetting(ctx, "led_format", "encoding=utf-8&prefix=02&suffix=03"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.TakeTicket(ctx, "A", 0, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CallNext(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	be := &backend{st: st}
	be.startLED(ctx, "led+serial://"+bar, Config{Role: "caller", Window: 3}, t.Logf)
	defer be.close()
	defer cancel()
	waitFrame(t, frames, func(s string) bool { return strings.HasPrefix(s, "\x02") && strings.Contains(s, "A001") })
	if err := st.SetSetting(ctx, "led_format", "encoding=utf-8&prefix=04&suffix=03"); err != nil {
		t.Fatal(err)
	}
	waitFrame(t, frames, func(s string) bool { return strings.HasPrefix(s, "\x04") && strings.Contains(s, "A001") })
}
