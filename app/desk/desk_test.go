package desk

import (
	"errors"
	"testing"
)

func TestParseKey(t *testing.T) {
	for text, want := range map[string]string{
		"F8": "F8", " f08 ": "F8", "Ctrl+Alt+k": "ctrl+alt+K", "alt + ctrl+shift + 5": "ctrl+alt+shift+5",
		"super+F24": "super+F24", "control+F1": "ctrl+F1", "win+ctrl+alt+Z": "ctrl+alt+super+Z", "ctrl+F4": "ctrl+F4",
	} {
		k, err := ParseKey(text)
		if err != nil || k.String() != want {
			t.Errorf("ParseKey(%q) = %v, %v; want %s", text, k, err, want)
		}
	}
	for text, want := range map[string]Problem{
		"": ProblemEmpty, "ctrl+": ProblemEmpty, "F0": ProblemUnknownKey, "F25": ProblemUnknownKey,
		"ctrl+Tab": ProblemUnknownKey, "hyper+F1": ProblemUnknownMod, "K": ProblemNeedsCtrlAlt, "shift+super+7": ProblemNeedsCtrlAlt,
		"ctrl+C": ProblemNeedsCtrlAlt, "alt+F": ProblemNeedsCtrlAlt, "ctrl+shift+V": ProblemNeedsCtrlAlt, "alt+F4": ProblemSystemKey, "ctrl+alt+F4": ProblemSystemKey,
	} {
		_, err := ParseKey(text)
		var ke *KeyError
		if !errors.As(err, &ke) || ke.Problem != want || ke.Text != text {
			t.Errorf("ParseKey(%q) = %v, want problem %d", text, err, want)
		}
	}
}
