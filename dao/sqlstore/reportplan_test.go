package sqlstore_test

import (
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"strings"
	"testing"
	"time"
)

// TestTicketQueriesUseTheIssuedIndex asks SQLite for the plan of the
// period query on both tables: it must be an index range search on
// issued_at, or a year of history would slow every report down.
func TestTicketQueriesUseTheIssuedIndex(t *testing.T) {
	st := daotest.SQLite(t)
	for table, index := range map[string]string{"ticket": "ix_ticket_issued", "ticket_history": "ix_history_issued"} {
		var plan []struct {
			ID, Parent, Notused int
			Detail              string
		}
		q := "EXPLAIN QUERY PLAN SELECT " + sqlstore.SQLiteTicketColumns + " FROM " + table + " WHERE " + sqlstore.IssuedIn + " ORDER BY issued_at, id"
		if err := st.DB().Raw(q, 1, time.Now(), time.Now()).Scan(&plan).Error; err != nil {
			t.Fatal(err)
		}
		var lines []string
		for _, p := range plan {
			lines = append(lines, p.Detail)
		}
		all := strings.Join(lines, "; ")
		// The range must be in the index search itself: a function of
		// issued_at would still "search" by branch_id alone.
		if !strings.Contains(all, "SEARCH "+table+" USING INDEX "+index+" (branch_id=? AND issued_at>? AND issued_at<?)") {
			t.Errorf("%s: plan %q is not a range search of %s", table, all, index)
		}
	}
}
