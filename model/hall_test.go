package model

import "testing"

// The branch's hall layout is one of the four names; anything else is
// refused in one sentence, and a PC's own choice wins over it.
func TestHallLayoutSetting(t *testing.T) {
	for _, l := range HallLayouts {
		if err := ValidateSetting("hall_layout", string(l)); err != nil {
			t.Errorf("%s refused: %v", l, err)
		}
		if got := ParseSettings(map[string]string{"hall_layout": string(l)}).HallLayout; got != l {
			t.Errorf("parsed %q as %q", l, got)
		}
	}
	for _, v := range []string{"", "grid", "List", "split"} {
		err := ValidateSetting("hall_layout", v)
		if ErrorCode(err) != EInvalidInput || ErrorMessage(err) == "" {
			t.Errorf("%q: %v, want a sentence", v, err)
		}
	}
	if got := ParseSettings(nil).HallLayout; got != HallList {
		t.Errorf("default layout %q, want list", got)
	}
	if HallLayout("").Or(HallTiles) != HallTiles || HallSplitList.Or(HallTiles) != HallSplitList {
		t.Error("Or does not let the PC's choice win over the branch's")
	}
	if !HallSplitTiles.Tiles() || !HallSplitTiles.Split() || HallList.Tiles() || HallTiles.Split() {
		t.Error("Tiles/Split do not follow the names")
	}
}
