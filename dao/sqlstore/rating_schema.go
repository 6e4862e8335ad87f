package sqlstore

import (
	"strings"
	"time"

	"jiaohao/model"
)

// ratingRow is a customer's rating of one done ticket (model.Rating).
// The unique key on the ticket is what makes a rating once per ticket:
// two pads or a pad and a phone rating at once both pass every check,
// and the second insert is refused by the database. Window, service and
// clerk are those of the finish, kept here so the report groups ratings
// without reading the event log; the business date is the ticket's, so
// a day's count is one index range.
type ratingRow struct {
	ID           int64     `gorm:"primaryKey"`
	BranchID     int64     `gorm:"not null;uniqueIndex:ux_rating_ticket,priority:1;index:ix_rating_day,priority:1"`
	TicketID     int64     `gorm:"not null;uniqueIndex:ux_rating_ticket,priority:2"`
	BusinessDate string    `gorm:"size:10;not null;index:ix_rating_day,priority:2"`
	ServiceID    int64     `gorm:"not null"`
	WindowNo     int       `gorm:"not null"`
	StaffID      *int64    `gorm:"index:ix_rating_staff"` // the clerk of the finish; NULL: nobody signed in
	Score        int       `gorm:"not null"`
	Tags         string    `gorm:"size:200;not null"` // model.RatingTags codes, comma separated
	Comment      string    `gorm:"size:400;not null"`
	At           time.Time `gorm:"precision:6;not null"`
}

func (ratingRow) TableName() string { return "rating" }

func (r ratingRow) toModel(c codes) model.Rating {
	out := model.Rating{TicketID: r.TicketID, Service: c[r.ServiceID], Window: r.WindowNo, StaffID: r.StaffID,
		Score: model.Score(r.Score), Comment: r.Comment, At: r.At.UTC()}
	if r.Tags != "" {
		out.Tags = strings.Split(r.Tags, ",")
	}
	return out
}
