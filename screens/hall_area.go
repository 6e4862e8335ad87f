package screens

import (
	"strings"

	"jiaohao/model"
)

// The hall of one waiting area (HallOptions.Area): a branch with a VIP
// room upstairs hangs a screen there that shows and says only the VIP
// calls, while the ground floor's shows its own, or every area.

// area is the id of the PC's area in the branch's snapshot, 0 for every
// area; a name the branch does not have shows every area and says so in
// the header, since a blank hall would hide the calls.
func (h *Hall) area(s model.Snapshot) int64 {
	name := strings.TrimSpace(h.opt.Area)
	h.areaFault = ""
	if name == "" {
		return 0
	}
	for _, a := range s.Areas {
		if a.Name == name {
			return a.ID
		}
	}
	h.areaFault = tr("hall.area_unknown", kv("Area", name))
	return 0
}

// callFor is the call as this hall announces it: false when the ticket
// waits in another area than the hall's; with its area named when the
// branch has several and the hall is not that area's own (a hall of
// every area), so the voice tells the customer which floor to go to.
func callFor(s model.Snapshot, area int64, t model.Ticket) (model.Ticket, bool) {
	a, known := s.AreaOf(t.Service)
	if area != 0 && (!known || a.ID != area) {
		return t, false
	}
	if known && len(s.Areas) > 1 && a.ID != area {
		t.Area = &a
	}
	return t, true
}
