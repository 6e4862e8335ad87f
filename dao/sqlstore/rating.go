package sqlstore

import (
	"context"
	"strconv"
	"strings"
	"time"

	"jiaohao/model"
)

// Customers rating a done ticket (model.Ratings). A rating changes no
// ticket: it is a row of its own and one EvRate event, so the live
// screens and the monitor follow it while the ticket's state and the
// event versions stay as every other write keeps them.

var (
	errNotItsWindow = model.Errorf(model.EForbidden, "这个号码不是在本窗口办理的，不能在这里评价 (this ticket was not served at this window)")
	// errWindowMovedOn: the pad rates its window's last finished ticket
	// only; once the window finished the next, the customer before has
	// left the pad.
	errWindowMovedOn = model.Errorf(model.ERatingExpired, "本窗口已办结下一位客户，这个号码已不能在这里评价 (the window has served the next customer since)")
)

// Rate records the pad's rating of a ticket finished at window.
func (s *GormStore) Rate(ctx context.Context, id int64, window int, in model.RatingInput) (model.Rating, error) {
	if window <= 0 {
		return model.Rating{}, errNotItsWindow
	}
	return s.rate(ctx, id, window, in)
}

// RateByPublicID records the rating from the customer's phone page.
func (s *GormStore) RateByPublicID(ctx context.Context, publicID string, in model.RatingInput) (model.Rating, error) {
	t, err := s.TicketByPublicID(ctx, publicID)
	if err != nil {
		return model.Rating{}, err
	}
	return s.rate(ctx, t.ID, 0, in)
}

// rate checks and stores a rating; window 0 is the customer's own page,
// which may rate wherever the ticket was served.
func (s *GormStore) rate(ctx context.Context, id int64, window int, in model.RatingInput) (model.Rating, error) {
	in, err := in.Check()
	if err != nil {
		return model.Rating{}, err
	}
	var out model.Rating
	err = s.write(ctx, func(t *txn) error {
		row, err := t.ticket(id)
		if err != nil {
			return err
		}
		if model.Status(row.Status) != model.Done || row.FinishedAt == nil {
			return model.ErrNotDone
		}
		at := derefInt(row.WindowNo)
		if window != 0 && at != window {
			return errNotItsWindow
		}
		if window != 0 {
			last, err := t.lastFinished(window)
			if err != nil {
				return err
			}
			if last != id {
				return errWindowMovedOn
			}
		}
		st, err := t.settings()
		if err != nil {
			return err
		}
		// A ticket of a day that is over is past rating even within the
		// window (finished at 23:59): the new day's counts start empty, and
		// the old day's report may be out already.
		if !model.RatingOpen(*row.FinishedAt, t.now, st.RatingWindow) || row.BusinessDate != t.date {
			return model.ErrRatingExpired
		}
		// Checked before the insert for the plain case; two raters at once
		// both pass here and the unique key refuses the second below.
		var n int64
		if err := t.Model(&ratingRow{}).Where("branch_id = ? AND ticket_id = ?", t.s.branchID, id).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return model.ErrAlreadyRated
		}
		staff, err := t.finishStaff(id)
		if err != nil {
			return err
		}
		r := ratingRow{BranchID: t.s.branchID, TicketID: id, BusinessDate: row.BusinessDate, ServiceID: row.ServiceID,
			WindowNo: at, StaffID: staff, Score: int(in.Score), Tags: strings.Join(in.Tags, ","), Comment: in.Comment, At: t.now}
		if err := t.Create(&r).Error; err != nil {
			if t.s.d.errorKind(err) == errUnique {
				return model.ErrAlreadyRated
			}
			return err
		}
		c, err := t.codes(row.ServiceID)
		if err != nil {
			return err
		}
		out = r.toModel(c)
		out.Number = row.Number
		t.emit(pendingEvent{kind: model.EvRate, ticketID: id, windowNo: at, from: model.Done, to: model.Done,
			note: strconv.Itoa(int(in.Score)), staffID: staff, ownStaff: true})
		return nil
	})
	return out, err
}

// finishStaff is the clerk the ticket's last finish event names.
func (t *txn) finishStaff(id int64) (*int64, error) {
	var rows []eventRow
	if err := t.Select("staff_id").Where("branch_id = ? AND ticket_id = ? AND kind = ?", t.s.branchID, id, model.EvFinish).
		Order("version DESC").Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0].StaffID, nil
}

// lastFinished is the ticket the window finished last (0: none).
func (t *txn) lastFinished(window int) (int64, error) {
	var rows []eventRow
	if err := t.Select("ticket_id").Where("branch_id = ? AND kind = ? AND window_no = ?", t.s.branchID, model.EvFinish, window).
		Order("version DESC").Limit(1).Find(&rows).Error; err != nil || len(rows) == 0 || rows[0].TicketID == nil {
		return 0, err
	}
	return *rows[0].TicketID, nil
}

// RatingOf is ticket id's rating.
func (s *GormStore) RatingOf(ctx context.Context, id int64) (model.Rating, error) {
	r := s.read(ctx)
	var rows []ratingRow
	if err := r.Where("branch_id = ? AND ticket_id = ?", s.branchID, id).Limit(1).Find(&rows).Error; err != nil {
		return model.Rating{}, s.wrap(err)
	}
	if len(rows) == 0 {
		return model.Rating{}, model.Errorf(model.ENotFound, "这个号码还没有评价 (this ticket has no rating)")
	}
	c, err := r.codes(rows[0].ServiceID)
	if err != nil {
		return model.Rating{}, s.wrap(err)
	}
	out := rows[0].toModel(c)
	if tk, err := r.ticket(id); err == nil {
		out.Number = tk.Number
	}
	return out, nil
}

// SatisfactionToday counts the business day's ratings, of the branch or
// of the clerk signed in at window.
func (s *GormStore) SatisfactionToday(ctx context.Context, window int) (model.Satisfaction, error) {
	r := s.read(ctx)
	var err error
	if r.date, err = s.today(ctx); err != nil {
		return model.Satisfaction{}, s.wrap(err)
	}
	var staff *int64
	if window > 0 {
		ws, err := s.windows(r)
		if err != nil {
			return model.Satisfaction{}, s.wrap(err)
		}
		for _, w := range ws {
			if w.Number == window && w.Clerk != nil {
				staff = &w.Clerk.ID
			}
		}
		if staff == nil {
			return model.Satisfaction{}, nil
		}
	}
	m, err := r.satisfaction(r.date, staff)
	return m, s.wrap(err)
}

// satisfaction counts a business day's ratings by level, of one clerk
// or (nil) of all.
func (t *txn) satisfaction(date string, staff *int64) (model.Satisfaction, error) {
	q := t.Model(&ratingRow{}).Select("score, COUNT(*) AS n").Where("branch_id = ? AND business_date = ?", t.s.branchID, date)
	if staff != nil {
		q = q.Where("staff_id = ?", *staff)
	}
	var rows []struct {
		Score int
		N     int
	}
	var m model.Satisfaction
	if err := q.Group("score").Scan(&rows).Error; err != nil {
		return m, err
	}
	for _, r := range rows {
		for range r.N {
			m.Add(model.Score(r.Score))
		}
	}
	return m, nil
}

// RatingsOf reads the ratings of the tickets issued in [start, end),
// live and archived (model.RatingFacts).
func (s *GormStore) RatingsOf(ctx context.Context, start, end time.Time) (map[int64]model.Rating, error) {
	db := s.db.WithContext(ctx)
	var all []ratingRow
	// A rating carries its ticket's business day, which is within two days
	// of the ticket's UTC issue date in any zone and day start (UTC−12 with
	// the day starting at 23:59 puts it two days back), and one more if the
	// branch's zone or day start changed since: the ratings of those days
	// are read on ix_rating_day, and the ticket's issue time decides.
	// Matching the period's ticket ids instead had SQLite collect a month's
	// million ids first, rated or not.
	lo, hi := start.UTC().AddDate(0, 0, -3).Format(time.DateOnly), end.UTC().AddDate(0, 0, 3).Format(time.DateOnly)
	for _, table := range []string{"ticket", "ticket_history"} {
		issued := s.db.Table(table).Select("1").Where("id = rating.ticket_id AND "+issuedIn, s.branchID, start, end)
		var rows []ratingRow
		if err := db.Where("branch_id = ? AND business_date BETWEEN ? AND ? AND EXISTS (?)", s.branchID, lo, hi, issued).Find(&rows).Error; err != nil {
			return nil, s.wrap(err)
		}
		all = append(all, rows...)
	}
	svc := make([]int64, len(all))
	for i, r := range all {
		svc[i] = r.ServiceID
	}
	c, err := s.read(ctx).codes(svc...)
	if err != nil {
		return nil, s.wrap(err)
	}
	out := make(map[int64]model.Rating, len(all))
	for _, r := range all {
		out[r.TicketID] = r.toModel(c)
	}
	return out, nil
}
