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
		now, _ := s.Now(bg)
		args := []any{1, now.In(s.Location()).Format("2006-01-02"), []int64{1, 2}}
		switch s.Engine() {
		case "sqlite":
			var rows []struct{ Detail string }
			db.Raw("EXPLAIN QUERY PLAN "+sqlstore.HeadQuery("", ""), args...).Scan(&rows)
			for _, r := range rows {
				plan += r.Detail + "\n"
			}
			if strings.Contains(plan, "TEMP B-TREE") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("sqlite plan sorts or misses the index:\n%s", plan)
			}
		case "postgres":
			db.Exec("ANALYZE ticket")
			var lines []string
			db.Raw("EXPLAIN "+sqlstore.HeadQuery("", " FOR UPDATE SKIP LOCKED"), args...).Scan(&lines)
			plan = strings.Join(lines, "\n")
			if strings.Contains(plan, "Sort") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("postgres plan sorts or misses the index:\n%s", plan)
			}
		case "mysql":
			var rows []map[string]any
			db.Raw("EXPLAIN "+sqlstore.HeadQuery(" FORCE INDEX (ix_ticket_call)", " FOR UPDATE SKIP LOCKED"), args...).Scan(&rows)
			plan = fmt.Sprint(rows)
			if strings.Contains(plan, "filesort") || !strings.Contains(plan, "ix_ticket_call") {
				t.Fatalf("mysql plan sorts or misses the index:\n%s", plan)
			}
		}
		t.Log(plan)
	})
}
