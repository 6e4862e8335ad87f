package daotest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// OtherBranchCode is the code of the i-th branch OtherBranches adds.
func OtherBranchCode(i int) string { return fmt.Sprintf("OB%03d", i) }

// OtherBranches fills s's database with n more branches of perBranch
// tickets each (at most 10,000), all on template's business day and
// issued at its time, a tenth still waiting in service A and the rest
// finished, each with its call event (half of them a day earlier) and a
// copy in the archive: the
// neighbours one branch's queries must not notice. It is SQL of a few statements (INSERT … SELECT over a
// table of digits), not the Store, so a million rows load in a minute;
// only tests and benchmarks do this. template is a ticket of s's branch.
func OtherBranches(t testing.TB, s *sqlstore.GormStore, n, perBranch int, template int64) {
	t.Helper()
	if perBranch < 1 || perBranch > 10000 {
		t.Fatalf("OtherBranches: %d tickets a branch, want 1 to 10,000", perBranch)
	}
	ctx := context.Background()
	for i := 1; i <= n; i++ {
		if _, err := s.AddBranch(ctx, model.BranchInfo{Code: OtherBranchCode(i), Name: OtherBranchCode(i), TimeZone: "Asia/Shanghai"}, ""); err != nil {
			t.Fatal(err)
		}
	}
	db := s.DB()
	exec := func(q string, args ...any) {
		t.Helper()
		if err := db.Exec(q, args...).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE bulk_digit (d INT NOT NULL)")
	defer exec("DROP TABLE bulk_digit")
	exec("INSERT INTO bulk_digit (d) VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)")
	// g.n numbers 1..perBranch; every tenth waits, the rest were called
	// and finished at the template's time. public_id and number are
	// numbers, unique and far from the Store's 32 hex digits.
	exec(`INSERT INTO ticket (branch_id, issue_service_id, business_date, seq_no, service_id, number, priority, status, lane,
			sort_key, window_no, call_count, requeued, public_id, source, issued_at, called_at, serve_started_at, finished_at)
		SELECT b.id, sv.id, t.business_date, g.n, sv.id, g.n, sv.priority,
			CASE WHEN g.n % 10 = 0 THEN 1 ELSE 5 END, t.lane, t.sort_key + g.n,
			CASE WHEN g.n % 10 = 0 THEN NULL ELSE g.n % 4 + 1 END, CASE WHEN g.n % 10 = 0 THEN 0 ELSE 1 END, 0,
			b.id * 100000 + g.n, t.source, t.issued_at,
			CASE WHEN g.n % 10 = 0 THEN NULL ELSE t.issued_at END,
			CASE WHEN g.n % 10 = 0 THEN NULL ELSE t.issued_at END,
			CASE WHEN g.n % 10 = 0 THEN NULL ELSE t.issued_at END
		FROM ticket t
		CROSS JOIN branch b
		JOIN service sv ON sv.branch_id = b.id AND sv.code = 'A'
		CROSS JOIN (SELECT a.d + 10 * b2.d + 100 * c.d + 1000 * e.d + 1 AS n
			FROM bulk_digit a CROSS JOIN bulk_digit b2 CROSS JOIN bulk_digit c CROSS JOIN bulk_digit e) g
		WHERE t.id = ? AND b.code LIKE 'OB%' AND g.n <= ?`, template, perBranch)
	exec(`INSERT INTO queue_event (branch_id, version, at, kind, ticket_id, window_no, from_status, to_status, actor, detail)
		SELECT t.branch_id, t.seq_no, t.issued_at, ?, t.id, t.window_no, 1, 2, 'bulk', '{}'
		FROM ticket t JOIN branch b ON b.id = t.branch_id
		WHERE b.code LIKE 'OB%' AND t.status = 5`, model.EvCall)
	// Half their events are a day older: a log reaches back, and a walk
	// back from a period's start must not step over other branches'.
	exec("UPDATE queue_event SET at = ? WHERE version % 2 = 0 AND branch_id IN (SELECT id FROM branch WHERE code LIKE 'OB%')",
		templateTime(t, s, template).Add(-24*time.Hour))
	// Their finished tickets are in the archive too, as a past year's
	// would be: the report reads both tables.
	exec(`INSERT INTO ticket_history (id, branch_id, issue_service_id, business_date, seq_no, service_id, number, priority, status,
			lane, sort_key, window_no, call_count, requeued, public_id, source, issued_at, called_at, serve_started_at, finished_at)
		SELECT t.id, t.branch_id, t.issue_service_id, t.business_date, t.seq_no, t.service_id, t.number, t.priority, t.status,
			t.lane, t.sort_key, t.window_no, t.call_count, t.requeued, t.public_id, t.source, t.issued_at, t.called_at,
			t.serve_started_at, t.finished_at
		FROM ticket t JOIN branch b ON b.id = t.branch_id
		WHERE b.code LIKE 'OB%' AND t.status = 5`)
	exec("UPDATE branch SET version = ? WHERE code LIKE 'OB%'", perBranch)
	if err := s.RefreshStatistics(ctx); err != nil {
		t.Fatal(err)
	}
}

func templateTime(t testing.TB, s *sqlstore.GormStore, id int64) time.Time {
	t.Helper()
	var at []time.Time
	if err := s.DB().Raw("SELECT issued_at FROM ticket WHERE id = ?", id).Scan(&at).Error; err != nil || len(at) == 0 {
		t.Fatalf("the template ticket %d: %v", id, err)
	}
	return at[0]
}
