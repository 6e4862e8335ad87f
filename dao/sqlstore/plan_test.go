package sqlstore_test

import (
	"fmt"
	"strings"
	"testing"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// The call-next pick must walk ix_ticket_call (on MariaDB and MySQL,
// queue_head's key) in serving order. A sort step
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
			db.Raw("EXPLAIN "+sqlstore.HeadClaim(" FOR UPDATE SKIP LOCKED"), args...).Scan(&rows)
			plan = fmt.Sprint(rows)
			// queue_head first, in its key order; the ticket by its id.
			if len(rows) != 2 || strings.Contains(plan, "filesort") || strings.Contains(plan, "temporary") ||
				rows[0]["table"] != "q" || rows[0]["key"] != "PRIMARY" || rows[1]["table"] != "t" || rows[1]["type"] != "eq_ref" {
				t.Fatalf("mysql plan sorts or does not walk queue_head:\n%s", plan)
			}
		}
		t.Log(plan)
	})
}

// The walk of the people ahead must use ix_ticket_wait, which holds one
// service's waiting tickets in serving order, bounded by the limit and the
// row comparison: ix_ticket_call would step over every waiting ticket of
// the other services before the one asked about.
func TestAheadPlanWalksOneService(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		waitingQueueOf(t, s, "B", 3000)
		var a model.Ticket
		for i := 0; i < 5; i++ {
			a = take(t, s, "A", 0)
		}
		var service int64
		if err := s.DB().Raw("SELECT service_id FROM ticket WHERE id = ?", a.ID).Scan(&service).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.RefreshStatistics(bg); err != nil {
			t.Fatal(err)
		}
		query, args, err := s.AheadQuery(bg, a.ID, service)
		if err != nil {
			t.Fatal(err)
		}
		db := s.DB()
		var plan string
		switch s.Engine() {
		case "sqlite":
			var rows []struct{ Detail string }
			db.Raw("EXPLAIN QUERY PLAN "+query, args...).Scan(&rows)
			for _, r := range rows {
				plan += r.Detail + "\n"
			}
			// The row comparison is part of the index search: the walk
			// ends at the ticket.
			if strings.Contains(plan, "TEMP B-TREE") || !strings.Contains(plan, "ix_ticket_wait") ||
				!strings.Contains(plan, "service_id=? AND (lane,priority,sort_key") {
				t.Fatalf("sqlite plan sorts, misses the index or its bound:\n%s", plan)
			}
		case "postgres":
			var lines []string
			db.Raw("EXPLAIN "+query, args...).Scan(&lines)
			plan = strings.Join(lines, "\n")
			if strings.Contains(plan, "Sort") || !strings.HasPrefix(plan, "Limit") || !strings.Contains(plan, "ix_ticket_wait") ||
				!strings.Contains(plan, "service_id =") || !strings.Contains(plan, "ROW(service_id, lane, priority, sort_key, id) < ROW(") {
				t.Fatalf("postgres plan sorts, misses the index or its bound:\n%s", plan)
			}
		case "mysql":
			var rows []map[string]any
			db.Raw("EXPLAIN "+query, args...).Scan(&rows)
			plan = fmt.Sprint(rows)
			if strings.Contains(plan, "filesort") || !strings.Contains(plan, "key:ix_ticket_wait") {
				t.Fatalf("mysql plan sorts or misses the index:\n%s", plan)
			}
		}
		t.Log(plan)
	})
}
