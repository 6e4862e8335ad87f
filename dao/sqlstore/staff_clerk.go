package sqlstore

import (
	"context"

	"jiaohao/model"
)

// Who is signed in at the windows, as the snapshot, the events and
// call-next read it. A sign-in counts for its business day only.

// today is the business date by the database clock.
func (s *GormStore) today(ctx context.Context) (string, error) {
	now, err := s.Now(ctx)
	if err != nil {
		return "", err
	}
	return s.calendar(ctx).Date(now), nil
}

// windowClerks names the clerk signed in today at each of the windows.
func (s *GormStore) windowClerks(r *txn, rows []windowRow) (map[int]*model.Clerk, error) {
	at := map[int64][]int{}
	var ids []int64
	for _, w := range rows {
		if w.StaffID != nil && w.StaffDate != nil && *w.StaffDate == r.date {
			if at[*w.StaffID] == nil {
				ids = append(ids, *w.StaffID)
			}
			at[*w.StaffID] = append(at[*w.StaffID], w.Number)
		}
	}
	out := map[int]*model.Clerk{}
	if len(ids) == 0 {
		return out, nil
	}
	var staff []staffRow
	if err := r.Where("branch_id = ? AND id IN ?", s.branchID, ids).Find(&staff).Error; err != nil {
		return nil, err
	}
	for _, st := range staff {
		for _, n := range at[st.ID] {
			out[n] = &model.Clerk{ID: st.ID, Number: st.Number, Name: st.Name}
		}
	}
	return out, nil
}

// eventStaff is the clerk an event names: the one signed in today at the
// acting window, or at the event's own window when no window acts (a
// timer passing the ticket a window called); nil: nobody.
func (t *txn) eventStaff(windowNo int) (*int64, error) {
	if t.acting > 0 {
		windowNo = t.acting
	}
	if windowNo <= 0 {
		return nil, nil
	}
	if id, ok := t.clerks[windowNo]; ok {
		return id, nil
	}
	var rows []windowRow
	if err := t.Select("staff_id", "staff_date").Where("branch_id = ? AND number = ?", t.s.branchID, windowNo).
		Limit(1).Find(&rows).Error; err != nil {
		return nil, err
	}
	var id *int64
	if len(rows) == 1 {
		id = t.clerkOf(rows[0].StaffID, rows[0].StaffDate)
	}
	t.remember(windowNo, id)
	return id, nil
}

// clerkOf is the clerk a window's staff columns name for today: a sign-in
// counts for its business day only.
func (t *txn) clerkOf(staffID *int64, staffDate *string) *int64 {
	if staffID != nil && staffDate != nil && *staffDate == t.date {
		return staffID
	}
	return nil
}

func (t *txn) remember(windowNo int, id *int64) {
	if t.clerks == nil {
		t.clerks = map[int]*int64{}
	}
	t.clerks[windowNo] = id
}

// knowClerk keeps the clerk of window w, read with it, for the
// transaction's events, so call-next reads the window row once. Only a
// write that changes no sign-in may use it: a sign-in changes the clerk
// after its window is read.
func (t *txn) knowClerk(w heldWindow) {
	t.remember(w.Number, t.clerkOf(w.StaffID, w.StaffDate))
}

// clerkServiceIDs narrows the services a window calls for to those its
// clerk may handle (model.ClerkMayHandle); none left is refused.
func (t *txn) clerkServiceIDs(window int, ids []int64) ([]int64, error) {
	staff, err := t.eventStaff(window)
	if err != nil || staff == nil {
		return ids, err
	}
	var st staffRow
	if err := t.Where("branch_id = ? AND id = ?", t.s.branchID, *staff).Take(&st).Error; err != nil {
		return nil, err
	}
	may := splitCodes(st.Services)
	if len(may) == 0 {
		return ids, nil
	}
	c, err := t.codes(ids...)
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, id := range ids {
		if len(model.ClerkMayHandle([]string{c[id]}, may)) == 1 {
			out = append(out, id)
		}
	}
	if len(out) == 0 {
		return nil, model.Errorf(model.EWindowNotServing, "%s 不办理 %d 号窗口的这些业务 (the signed-in clerk may not handle these services)", st.Name, window)
	}
	return out, nil
}

// nameCaller makes the events of a timer acting on a called ticket name
// the clerk of the call it acts on (the latest event that left the ticket
// called), not whoever signed in at the window since: a change of shift
// must not hand the last clerk's passes to the next.
func (t *txn) nameCaller(c model.Ticket) error {
	// Rows of a struct, not of *int64: a call nobody was signed in for
	// has a NULL staff_id, which a bare pointer slice cannot scan.
	var rows []struct{ StaffID *int64 }
	if err := t.Model(&eventRow{}).Select("staff_id").
		Where("branch_id = ? AND ticket_id = ? AND to_status = ?", t.s.branchID, c.ID, int(model.Called)).
		Order("version DESC").Limit(1).Scan(&rows).Error; err != nil {
		return err
	}
	if t.clerks == nil {
		t.clerks = map[int]*int64{}
	}
	t.clerks[c.Window] = nil
	if len(rows) == 1 {
		t.clerks[c.Window] = rows[0].StaffID
	}
	return nil
}
