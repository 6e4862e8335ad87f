package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"jiaohao/model"
)

// alertRow is one occurrence of an alert condition. OpenKey is 0 while the
// condition holds and the row's own id once it ended, so the unique index
// ux_alert_open admits one open alert per condition: two PCs sweeping at
// once cannot both raise it, whatever the engine.
type alertRow struct {
	ID       int64  `gorm:"primaryKey"`
	BranchID int64  `gorm:"not null;uniqueIndex:ux_alert_open,priority:1;index:ix_alert_live,priority:1"`
	Kind     string `gorm:"size:20;not null;uniqueIndex:ux_alert_open,priority:2"`
	Subject  string `gorm:"size:80;not null;uniqueIndex:ux_alert_open,priority:3"`
	OpenKey  int64  `gorm:"not null;uniqueIndex:ux_alert_open,priority:4"`
	// Done: ended and acknowledged; the snapshot reads the others.
	Done     bool      `gorm:"not null;index:ix_alert_live,priority:2"`
	RaisedAt time.Time `gorm:"precision:6;not null"`
	// ClearSeen is when a sweep first found the condition false; the alert
	// ends once it stays false for alert_clear_s.
	ClearSeen *time.Time `gorm:"precision:6"`
	ClearedAt *time.Time `gorm:"precision:6"`
	AckAt     *time.Time `gorm:"precision:6"`
	AckBy     string     `gorm:"size:60;not null"`
	Detail    string     `gorm:"size:2000;not null"` // JSON: the alert's facts when raised
}

func (alertRow) TableName() string { return "queue_alert" }

func (r alertRow) toModel() model.Alert {
	var a model.Alert
	_ = json.Unmarshal([]byte(r.Detail), &a)
	a.ID, a.Kind, a.Subject, a.Since = r.ID, r.Kind, r.Subject, r.RaisedAt
	a.Cleared, a.AckAt, a.AckBy = r.ClearedAt, r.AckAt, r.AckBy
	return a
}

// raiseAlert opens an alert for a's condition unless one is open, and
// logs it; it reports whether it raised one. When another PC raises the
// same condition meanwhile, the unique index refuses the second row and
// the retry finds the first.
func (t *txn) raiseAlert(a model.Alert) (bool, error) {
	var n int64
	if err := t.Model(&alertRow{}).Where("branch_id = ? AND kind = ? AND subject = ? AND open_key = 0",
		t.s.branchID, a.Kind, a.Subject).Count(&n).Error; err != nil || n > 0 {
		return false, err
	}
	a.ID, a.Since = 0, t.now
	detail, _ := json.Marshal(a)
	row := alertRow{BranchID: t.s.branchID, Kind: a.Kind, Subject: a.Subject, RaisedAt: t.now, Detail: string(detail)}
	if err := t.Create(&row).Error; err != nil {
		if t.s.d.errorKind(err) == errUnique {
			return false, errConflict
		}
		return false, err
	}
	out := row.toModel()
	t.emit(pendingEvent{kind: model.EvAlert, alert: &out, windowNo: out.Window})
	return true, nil
}

// endAlert ends an open alert and logs it; false when it had ended. With
// clearedBy, only if its condition was still seen false at or before
// clearedBy: a condition found true again meanwhile (clear_seen back to
// NULL, or later) keeps the alert open, whichever PC committed first.
func (t *txn) endAlert(id int64, clearedBy *time.Time) (bool, error) {
	q := "UPDATE queue_alert SET open_key = id, cleared_at = ? WHERE id = ? AND branch_id = ? AND open_key = 0"
	args := []any{t.now, id, t.s.branchID}
	if clearedBy != nil {
		q += " AND clear_seen IS NOT NULL AND clear_seen <= ?"
		args = append(args, *clearedBy)
	}
	res := t.Exec(q, args...)
	if res.Error != nil || res.RowsAffected == 0 {
		return false, res.Error
	}
	if err := t.Exec("UPDATE queue_alert SET done = ? WHERE id = ? AND ack_at IS NOT NULL", true, id).Error; err != nil {
		return false, err
	}
	row, err := t.alert(id)
	if err != nil {
		return false, err
	}
	out := row.toModel()
	t.emit(pendingEvent{kind: model.EvAlertClear, alert: &out, windowNo: out.Window})
	return true, nil
}

// endOpenAlert ends the open alert of a condition, if any.
func (t *txn) endOpenAlert(kind, subject string) error {
	var ids []int64
	if err := t.Model(&alertRow{}).Where("branch_id = ? AND kind = ? AND subject = ? AND open_key = 0",
		t.s.branchID, kind, subject).Pluck("id", &ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := t.endAlert(id, nil); err != nil {
			return err
		}
	}
	return nil
}

func (t *txn) alert(id int64) (alertRow, error) {
	var rows []alertRow
	if err := t.Where("id = ? AND branch_id = ?", id, t.s.branchID).Limit(1).Find(&rows).Error; err != nil {
		return alertRow{}, err
	}
	if len(rows) == 0 {
		return alertRow{}, model.Errorf(model.ENotFound, "没有编号为 %d 的告警 (no such alert)", id)
	}
	return rows[0], nil
}

// AckAlert records the manager's acknowledgement, once, at the database
// clock, and logs it. Whether the alert is done (ended and acknowledged)
// is decided on the row as updated, and the event carries the row as it
// is then, so an alert ending on another PC at the same moment is never
// left half done.
func (s *GormStore) AckAlert(ctx context.Context, id int64) (model.Alert, error) {
	var out model.Alert
	err := s.write(ctx, func(t *txn) error {
		row, err := t.alert(id)
		if err != nil {
			return err
		}
		a, err := model.AckAlert(row.toModel(), actorOf(ctx), t.now)
		if err != nil {
			return err
		}
		res := t.Exec("UPDATE queue_alert SET ack_at = ?, ack_by = ? WHERE id = ? AND ack_at IS NULL", a.AckAt, a.AckBy, id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errConflict // acknowledged meanwhile: the retry says by whom
		}
		if err := t.Exec("UPDATE queue_alert SET done = ? WHERE id = ? AND open_key <> 0", true, id).Error; err != nil {
			return err
		}
		if row, err = t.alert(id); err != nil {
			return err
		}
		out = row.toModel()
		t.emit(pendingEvent{kind: model.EvAlertAck, alert: &out, windowNo: out.Window})
		return nil
	})
	return out, err
}

// liveAlerts are the alerts the manager still sees, newest first: every
// one (model.Alert.Live says why they stay few).
func (s *GormStore) liveAlerts(r *txn) ([]model.Alert, error) {
	var rows []alertRow
	if err := r.Where("branch_id = ? AND done = ?", s.branchID, false).Order("id DESC").Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make([]model.Alert, len(rows))
	for i, row := range rows {
		out[i] = row.toModel()
	}
	return out, nil
}

// actorOf is the actor of ctx as the event log stores it.
func actorOf(ctx context.Context) string {
	actor := model.ActorFrom(ctx)
	if r := []rune(actor); len(r) > 60 {
		actor = string(r[:60]) // by characters: a cut UTF-8 sequence is refused by the server
	}
	return actor
}
