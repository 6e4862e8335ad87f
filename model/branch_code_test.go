package model

import (
	"strings"
	"testing"
)

// A branch code is ASCII letters, digits, '-' and '_', any case, trimmed;
// anything else is one sentence and EInvalidInput, never a code the input
// only looks like once upper-cased (ſ is not S, ı is not I), and never ALL,
// which `serve --branch all` means.
func TestNormalBranchCode(t *testing.T) {
	for in, want := range map[string]string{"bj001": "BJ001", " SH-PD_01 ": "SH-PD_01", "0": "0", strings.Repeat("a", MaxBranchCode): strings.Repeat("A", MaxBranchCode)} {
		if got, err := NormalBranchCode(in); err != nil || got != want {
			t.Errorf("NormalBranchCode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", " ", "-BJ", "_1", "北京", "bjſ01", "bıj01", "ＢＪ001", "BJ 001", "BJ\n001", "B001' OR '1'='1", "B001;--",
		strings.Repeat("A", MaxBranchCode+1), "all", "ALL", " All "} {
		_, err := NormalBranchCode(in)
		if ErrorCode(err) != EInvalidInput || strings.Contains(ErrorMessage(err), "\n") {
			t.Errorf("NormalBranchCode(%q): %v, want one sentence of invalid input", in, err)
		}
	}
}
