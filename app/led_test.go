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
	"jiaohao/screens"
)

// --led drives a real serial port: a caller's bar receives its window's
// call, framed as the branch's led_format says and encoded as the PC's
// address overrides.
func TestLEDFlagDrivesCallerBar(t *testing.T) {
	if _, err := exec.LookPath("socat"); err != nil {
		if os.Getenv("JIAOHAO_TEST_REQUIRE_DEVICES") == "1" {
			t.Fatal("socat is not installed but JIAOHAO_TEST_REQUIRE_DEVICES=1")
		}
		t.Skip("socat not installed: no virtual serial port")
	}
	dir := t.TempDir()
	bar, reader := filepath.Join(dir, "bar"), filepath.Join(dir, "reader")
	socat := exec.Command("socat", "pty,raw,echo=0,link="+bar, "pty,raw,echo=0,link="+reader)
	if err := socat.Start(); err != nil {
		t.Fatal(err)
	}
	defer socat.Process.Kill()
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
	defer in.Close()

	st := daotest.SQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	be := &backend{st: st}
	// The framing comes from the branch's setting, the encoding from the
	// PC's own address.
	if err := st.SetSetting(ctx, "led_format", "encoding=gb2312&prefix=02&suffix=03"); err != nil {
		t.Fatal(err)
	}
	be.startLED(ctx, "led+serial://"+bar+"?encoding=utf-8", screens.Config{Role: "caller", Window: 3}, t.Logf)
	defer be.close()
	defer cancel()
	if _, err := st.TakeTicket(ctx, "A", 0, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CallNext(ctx, 3, ""); err != nil {
		t.Fatal(err)
	}
	// The bar is blanked when the board starts (its window holds nothing
	// yet), so frames are read until the call arrives.
	frames := make(chan string, 16)
	go func() {
		r := bufio.NewReader(in)
		for {
			s, err := r.ReadString(0x03)
			if err != nil {
				close(frames)
				return
			}
			frames <- s
		}
	}()
	timeout := time.After(30 * time.Second)
	var seen []string
	for {
		select {
		case got, ok := <-frames:
			if !ok {
				t.Fatalf("serial port closed; bar received %q", seen)
			}
			seen = append(seen, got)
			if !strings.HasPrefix(got, "\x02") {
				t.Fatalf("frame without the configured prefix: %q", got)
			}
			if strings.Contains(got, "A001") {
				// "号窗口" in UTF-8: the PC's encoding won over the branch's GB2312.
				if !strings.Contains(got, "3 号窗口") {
					t.Fatalf("call frame does not name window 3 in UTF-8: %q", got)
				}
				return
			}
		case <-timeout:
			t.Fatalf("the call never reached the LED bar; it received %q", seen)
		}
	}
}
