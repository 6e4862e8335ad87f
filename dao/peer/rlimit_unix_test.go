//go:build unix

package peer

import (
	"syscall"
	"testing"
)

// raiseFileLimit lifts the soft open-file limit to at least n (up to the
// hard limit) for tests that hold thousands of loopback sockets.
func raiseFileLimit(tb testing.TB, n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		tb.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	lim.Cur = min(n, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < n {
		tb.Fatalf("need %d open files, the hard limit is %d: %v", n, lim.Max, err)
	}
}
