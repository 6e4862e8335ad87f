package sqlstore

import "context"

// statsTables are the tables whose size swings within a day: the live
// tickets grow from empty each morning and shrink at each archive run, the
// event log grows all day.
var statsTables = []string{"ticket", "queue_event", "ticket_history"}

// RefreshStatistics brings the database's planner statistics of the queue
// tables up to date. The engines do this in the background (PostgreSQL's
// autovacuum within about a minute), but until they do a table that grew
// from empty is planned as if it were still empty: on PostgreSQL a take
// with 20,000 waiting walked the whole ticket table three times (9 ms
// instead of 1.5 ms). Archive runs it after moving rows; a benchmark runs
// it after loading its queue, to measure the state a branch is in.
func (s *GormStore) RefreshStatistics(ctx context.Context) error {
	return s.wrap(s.d.refreshStats(s.db.WithContext(ctx)))
}
