//go:build (linux || freebsd || openbsd || netbsd) && !android

package app

import (
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// checkDisplay tells, before any window is made, whether this PC has a
// screen to draw on. Without one the windowing library panics with a stack
// trace, which is no answer for the person who typed the command: often an
// installer on a server that should run `jiaohao serve`.
func checkDisplay() error {
	display := os.Getenv("DISPLAY")
	if display == "" {
		return noDisplay("DISPLAY is not set")
	}
	if !reachableX(display) {
		return noDisplay("cannot open display " + display)
	}
	return nil
}

func noDisplay(why string) error {
	return model.Errorf(model.EInvalidInput,
		"没有可用的显示器 (no display: %s)：没有屏幕的主机请运行 `jiaohao serve` (run `jiaohao serve` for a host without a screen)", why)
}

// reachableX dials the X server that DISPLAY names ("[host]:N[.screen]"
// or a socket path), the way the X library will.
func reachableX(display string) bool {
	const wait = 2 * time.Second
	if strings.HasPrefix(display, "/") { // a socket path (XQuartz style)
		c, err := net.DialTimeout("unix", display, wait)
		if err == nil {
			c.Close()
		}
		return err == nil
	}
	i := strings.LastIndexByte(display, ':')
	if i < 0 {
		return false
	}
	host := display[:i]
	num, _, _ := strings.Cut(display[i+1:], ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return false
	}
	host = strings.TrimPrefix(host, "unix")
	if host == "" {
		sock := filepath.Join("/tmp/.X11-unix", "X"+num)
		for _, addr := range []string{sock, "@" + sock} { // file socket, then Linux's abstract one
			if c, err := net.DialTimeout("unix", addr, wait); err == nil {
				c.Close()
				return true
			}
		}
		host = "localhost"
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(strings.Trim(host, "[]"), strconv.Itoa(6000+n)), wait)
	if err == nil {
		c.Close()
	}
	return err == nil
}
