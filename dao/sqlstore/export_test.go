package sqlstore

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// The report query's pieces, for the plan test outside the package.
const (
	TicketColumns = ticketColumns
	IssuedIn      = issuedIn
)

// HeadQuery is the call-next claim's pick, for the plan test.
var HeadQuery = headQuery

// FailTakeEstimate makes the take's estimate fail, until the test ends, on
// a statement the database refuses: the transaction has seen a failed
// statement when the take goes on.
func FailTakeEstimate(t interface{ Cleanup(func()) }) {
	prev := takePosition
	takePosition = func(tx *txn, row ticketRow, now time.Time) (model.Position, error) {
		var n []int
		err := tx.Raw("SELECT no_such_column FROM ticket").Scan(&n).Error
		if err == nil {
			err = errors.New("the estimate's statement was not refused")
		}
		return model.Position{}, err
	}
	t.Cleanup(func() { takePosition = prev })
}

// AheadQuery is the walk of service's tickets ahead of ticket id, as the
// engine receives it, for the plan test.
func (s *GormStore) AheadQuery(ctx context.Context, id, service int64) (string, []any, error) {
	r := s.read(ctx)
	var row ticketRow
	if err := r.First(&row, id).Error; err != nil {
		return "", nil, err
	}
	cond, args := servedBefore(row.toModel(nil), s.d.rowValues())
	var out []ticketRow
	stmt := r.aheadQuery(row, service, cond, args, callOrder, aheadRead).Session(&gorm.Session{DryRun: true}).Find(&out).Statement
	return stmt.SQL.String(), stmt.Vars, nil
}

// PollQuery and PollInterval are the pool's version poll, for the test
// that counts it.
const (
	PollQuery    = pollQuery
	PollInterval = pollInterval
)

// WatchSignal is the channel the Store's watchers wait on, closed when its
// branch's version moves; nil before the first Watch.
func (s *GormStore) WatchSignal() <-chan struct{} {
	if h := s.hub.Load(); h != nil {
		return h.signal()
	}
	return nil
}
