package daotest

import (
	"testing"

	"jiaohao/dao/sqlstore"
)

// CheckQueue asserts what no fault may break, straight from the tables:
// every number issued once and without a gap per service and day, every
// ticket in one state that its last event agrees with, and event versions
// gap-free up to the branch's version. It returns the tickets by id and
// number, for checking what the clients were answered.
func CheckQueue(t testing.TB, s *sqlstore.GormStore) map[int64]string {
	t.Helper()
	db := s.DB()
	var tickets []struct {
		ID           int64
		ServiceID    int64
		BusinessDate string
		SeqNo        int
		Number       string
		Status       int
	}
	if err := db.Raw("SELECT id, service_id, business_date, seq_no, number, status FROM ticket ORDER BY service_id, business_date, seq_no").
		Scan(&tickets).Error; err != nil {
		t.Fatal(err)
	}
	out := make(map[int64]string, len(tickets))
	type day struct {
		service int64
		date    string
	}
	next := map[day]int{}
	numbers := map[string]int64{}
	for _, tk := range tickets {
		d := day{tk.ServiceID, tk.BusinessDate}
		if first, ok := next[d]; ok && tk.SeqNo != first {
			t.Fatalf("service %d on %s: number %d follows %d: issued twice or skipped", tk.ServiceID, tk.BusinessDate, tk.SeqNo, first-1)
		}
		next[d] = tk.SeqNo + 1
		if other, dup := numbers[tk.BusinessDate+" "+tk.Number]; dup {
			t.Fatalf("number %s issued twice on %s: tickets %d and %d", tk.Number, tk.BusinessDate, other, tk.ID)
		}
		numbers[tk.BusinessDate+" "+tk.Number] = tk.ID
		out[tk.ID] = tk.Number
	}
	var last []struct {
		TicketID int64
		ToStatus int
	}
	if err := db.Raw(`SELECT e.ticket_id, e.to_status FROM queue_event e
		WHERE e.ticket_id IS NOT NULL AND e.version = (SELECT MAX(x.version) FROM queue_event x WHERE x.ticket_id = e.ticket_id)`).
		Scan(&last).Error; err != nil {
		t.Fatal(err)
	}
	status := make(map[int64]int, len(tickets))
	for _, tk := range tickets {
		status[tk.ID] = tk.Status
	}
	if len(last) != len(tickets) {
		t.Fatalf("%d tickets but %d have events", len(tickets), len(last))
	}
	for _, e := range last {
		if s, ok := status[e.TicketID]; !ok || s != e.ToStatus {
			t.Fatalf("ticket %d is in state %d but its last event says %d", e.TicketID, s, e.ToStatus)
		}
	}
	var versions []int64
	if err := db.Raw("SELECT version FROM queue_event WHERE branch_id = ? ORDER BY version", s.BranchID()).Scan(&versions).Error; err != nil {
		t.Fatal(err)
	}
	for i, v := range versions {
		if v != int64(i+1) {
			t.Fatalf("event versions have a hole: position %d holds version %d", i, v)
		}
	}
	var head int64
	if err := db.Raw("SELECT version FROM branch WHERE id = ?", s.BranchID()).Scan(&head).Error; err != nil {
		t.Fatal(err)
	}
	if head != int64(len(versions)) {
		t.Fatalf("branch version %d but %d events", head, len(versions))
	}
	return out
}
