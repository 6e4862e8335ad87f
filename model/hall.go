package model

// HallLayout is how a hall screen fills its display: the branch's default
// is the hall_layout setting, and a PC's setup may pick its own.
type HallLayout string

// The hall layouts.
const (
	// HallList: the calls in progress as large rows, newest first, with
	// waiting counts and passed numbers in a band beside or below them.
	HallList HallLayout = "list"
	// HallTiles: one tile per open window with its number and status,
	// the classic frmScreen wall.
	HallTiles HallLayout = "tiles"
	// HallSplitList and HallSplitTiles put either beside a media area:
	// still images, the notice and the clock.
	HallSplitList  HallLayout = "split-list"
	HallSplitTiles HallLayout = "split-tiles"
)

// HallLayouts lists the layouts in the order a form offers them.
var HallLayouts = []HallLayout{HallList, HallTiles, HallSplitList, HallSplitTiles}

// ParseHallLayout accepts a layout's name; "" is no choice (the PC
// follows the branch, the branch shows the list).
func ParseHallLayout(v string) (HallLayout, error) {
	for _, l := range HallLayouts {
		if string(l) == v {
			return l, nil
		}
	}
	return "", Errorf(EInvalidInput, "大厅屏布局须为 list、tiles、split-list 或 split-tiles，收到 %q (hall_layout must be list, tiles, split-list or split-tiles)", v)
}

// Tiles reports whether the layout shows window tiles rather than rows.
func (l HallLayout) Tiles() bool { return l == HallTiles || l == HallSplitTiles }

// Split reports whether the layout has a media area.
func (l HallLayout) Split() bool { return l == HallSplitList || l == HallSplitTiles }

// Or is l, or def when l is no choice: a PC's own layout over the
// branch's.
func (l HallLayout) Or(def HallLayout) HallLayout {
	if l == "" {
		return def
	}
	return l
}
