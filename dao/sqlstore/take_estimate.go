package sqlstore

import (
	"errors"

	"jiaohao/model"
)

// takePosition is the estimate the take makes; a variable so a test can
// make it fail.
var takePosition = (*txn).takenPosition

// takeEstimate is the estimate of the number about to be taken, as row,
// and the seconds to keep beside it. The estimate is decoration and the
// number is what the customer came for: when it fails the number is still
// taken, with no estimate kept. PostgreSQL refuses every statement after a
// failed one in the same transaction, so the failure ends the attempt
// (errRedo) and the take runs again without an estimate (skip): a
// savepoint instead would cost every take a round trip for a failure that
// is rare. A deadlock or a lost race is returned as such, so the whole
// take is retried as any other write.
func (t *txn) takeEstimate(row ticketRow, skip *bool) (model.Position, *int, error) {
	if *skip {
		return model.Position{}, nil, nil
	}
	pos, err := takePosition(t, row, t.now)
	if err == nil && pos.NoWindow {
		// No window serves it now: the ticket promises no minutes, so
		// none are kept to be measured against.
		return pos, nil, nil
	}
	if err == nil {
		est := pos.ETASeconds
		return pos, &est, nil
	}
	if errors.Is(err, errConflict) || t.s.d.errorKind(err) == errRetry || t.ctx.Err() != nil {
		// Retried as any write, or the caller gave up: not the
		// estimate's own failure.
		return model.Position{}, nil, err
	}
	t.s.logEstimateFailed(row.ServiceID, err)
	*skip = true
	return model.Position{}, nil, errRedo
}

// logEstimateFailed notes a take that kept no estimate: the service and
// the error's code only, no statement or connection detail.
func (s *GormStore) logEstimateFailed(serviceID int64, err error) {
	s.health.mu.Lock()
	l := s.health.log
	s.health.mu.Unlock()
	if l != nil {
		l.Warn("take kept no wait estimate", "service_id", serviceID, "code", model.ErrorCode(err))
	}
}
