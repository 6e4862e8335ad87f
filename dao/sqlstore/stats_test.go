package sqlstore_test

import (
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// TestRefreshStatisticsAnalyzes checks, in each engine's own catalogue,
// that the ticket table was analyzed: planning with an empty table's
// statistics is what made a take walk the whole queue.
func TestRefreshStatisticsAnalyzes(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		for i := 0; i < 5; i++ {
			if _, err := s.TakeTicket(bg, "A", 0, "test"); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RefreshStatistics(bg); err != nil {
			t.Fatalf("refresh statistics: %v", err)
		}
		check := map[string]string{
			"sqlite":    "SELECT COUNT(*) FROM sqlite_stat1 WHERE tbl = 'ticket'",
			"postgres":  "SELECT COUNT(*) FROM pg_stat_user_tables WHERE relname = 'ticket' AND last_analyze IS NOT NULL AND last_vacuum IS NOT NULL",
			"mysql":     "SELECT COUNT(*) FROM mysql.innodb_table_stats WHERE database_name = DATABASE() AND table_name = 'ticket' AND n_rows >= 5",
			"sqlserver": "SELECT COUNT(*) FROM sys.stats s CROSS APPLY sys.dm_db_stats_properties(s.object_id, s.stats_id) p WHERE s.object_id = OBJECT_ID('ticket') AND p.rows >= 5",
		}[s.Engine()]
		var n int
		if err := s.DB().Raw(check).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("%s: the ticket table has no fresh statistics after RefreshStatistics", s.Engine())
		}
	})
}
