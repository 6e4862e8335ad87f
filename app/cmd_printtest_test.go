package app

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrintTestToFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ticket.escpos")
	var out, errb bytes.Buffer
	if code := run([]string{"print-test", "--printer", "file:" + path, "--number", "B042"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b, []byte{0x1B, 0x40}) || !bytes.Contains(b, []byte("B042")) || !bytes.HasSuffix(b, []byte{0x1D, 0x56, 0x01}) {
		t.Errorf("not a sample ticket: % X", b)
	}
	if !strings.Contains(out.String(), "B042") {
		t.Errorf("stdout: %q", out.String())
	}
}

func TestPrintTestBadInput(t *testing.T) {
	for _, args := range [][]string{{"print-test"}, {"print-test", "--printer", "lpt1"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errb.String())
		}
		if strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%q: more than one line: %q", args, errb.String())
		}
	}
}
