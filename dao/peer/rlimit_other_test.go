//go:build !unix

package peer

import "testing"

// raiseFileLimit does nothing where open files are not limited per process.
func raiseFileLimit(testing.TB, uint64) {}
