package sqlstore_test

import (
	"fmt"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
)

// The call-next pick must walk ix_ticket_call in serving order. A sort step
// would make PostgreSQL and MariaDB lock-read every candidate before
// returning one, and other windows would skip them all.
func TestCallNextPlanUsesIndexOrder(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		for i := 0; i < 300; i++ {
			take(t, s, []string{"A", "B", "V"}[i%3], 0)
		}
		db := s.DB()
		var plan string
		q := "SELECT id FROM ticket%s WHERE branch_id = 1 AND status = 1 AND business_date = '%s' AND service_id IN (1, 2) ORDER BY lane, priority, sort_key, id LIMIT 1"
		now, _ := s.Now(bg)
		date := now.In(s.Location()).Format("2006-01-02")
		switch s.Engine() {
		case "sqlite":
			var rows []struct{ Detail string }
			db.Raw("EXPLAIN QUERY PLAN " + fmt.Sprintf(q, "", date)).Scan(&rows)
			for _, r := range rows {
				plan += r.Detail + "\n"
			}
			if strings.Contains(plan, "TEMP B-TREE") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("sqlite plan sorts or misses the index:\n%s", plan)
			}
		case "postgres":
			db.Exec("ANALYZE ticket")
			var lines []string
			db.Raw("EXPLAIN " + fmt.Sprintf(q, "", date) + " FOR UPDATE SKIP LOCKED").Scan(&lines)
			plan = strings.Join(lines, "\n")
			if strings.Contains(plan, "Sort") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("postgres plan sorts or misses the index:\n%s", plan)
			}
		case "mysql":
			var rows []map[string]any
			db.Raw("EXPLAIN " + fmt.Sprintf(q, " FORCE INDEX (ix_ticket_call)", date) + " FOR UPDATE SKIP LOCKED").Scan(&rows)
			plan = fmt.Sprint(rows)
			if strings.Contains(plan, "filesort") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("mysql plan sorts or misses the index:\n%s", plan)
			}
		}
		t.Log(plan)
	})
}
