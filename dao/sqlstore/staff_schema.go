package sqlstore

import "time"

// staffRow is a clerk's account (model.Staff). Services holds the codes
// the clerk may handle, comma separated: codes never change once created
// (services are saved by code, never deleted) and a list of a few short
// codes is read whole, never searched.
type staffRow struct {
	ID          int64      `gorm:"primaryKey"`
	BranchID    int64      `gorm:"not null;uniqueIndex:ux_staff_no,priority:1"`
	Number      string     `gorm:"size:16;not null;uniqueIndex:ux_staff_no,priority:2"`
	Name        string     `gorm:"size:40;not null"`
	PassHash    string     `gorm:"size:100;not null"` // bcrypt; the password itself is never stored
	Enabled     bool       `gorm:"not null"`
	Services    string     `gorm:"size:400;not null"`
	FailCount   int        `gorm:"not null;default:0"` // wrong passwords since the last sign-in or lock
	LockedUntil *time.Time `gorm:"precision:6"`
}

func (staffRow) TableName() string { return "staff" }
