package app

import (
	"os"
	"os/exec"
	"testing"
)

// needTool returns the path of a program a test needs. Missing, it skips
// the test, or fails it when the CI variable env is "1", so CI cannot pass
// by skipping.
func needTool(t *testing.T, name, env string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err == nil {
		return path
	}
	missing(t, name+" is not installed", env)
	return ""
}

// missing skips the test for want of what, or fails it when the CI
// variable env is "1".
func missing(t *testing.T, what, env string) {
	t.Helper()
	if os.Getenv(env) == "1" {
		t.Fatalf("%s but %s=1", what, env)
	}
	t.Skip(what)
}
