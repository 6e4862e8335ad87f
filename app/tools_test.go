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
	if os.Getenv(env) == "1" {
		t.Fatalf("%s is not installed but %s=1", name, env)
	}
	t.Skipf("%s not installed", name)
	return ""
}
