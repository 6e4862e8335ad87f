package sqlstore_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// On MariaDB and MySQL call-next walks queue_head, which triggers keep to
// the waiting tickets. These tests hold it to that through every kind of
// write, an upgrade of a database that had none, a row it should not have
// and a database user who may not create triggers.

// mysqlOnly opens a store on a fresh MariaDB/MySQL database (queue_head
// is theirs alone); where no server is configured it skips, or fails when
// servers are required.
func mysqlOnly(t *testing.T) (*sqlstore.GormStore, string) {
	t.Helper()
	dsn := daotest.ServerDSN(t, daotest.EnvMySQL)
	s, err := sqlstore.Open(bg, dsn)
	okAny(t, err)
	t.Cleanup(func() { s.Close() })
	return s, dsn
}

type headRow struct {
	TicketID, ServiceID int64
	Lane, Priority      int
	SortKey             int64
	BranchID            int64
	BusinessDate        string
}

// sameAsWaiting fails the test unless queue_head holds exactly one row per
// waiting ticket, with the ticket's own key and service.
func sameAsWaiting(t *testing.T, s *sqlstore.GormStore, when string) {
	t.Helper()
	var head, want []headRow
	okAny(t, s.DB().Raw("SELECT ticket_id, service_id, lane, priority, sort_key, branch_id, business_date FROM queue_head ORDER BY ticket_id").Scan(&head).Error)
	okAny(t, s.DB().Raw("SELECT id AS ticket_id, service_id, lane, priority, sort_key, branch_id, business_date FROM ticket WHERE status = ? ORDER BY id",
		int(model.Waiting)).Scan(&want).Error)
	if fmt.Sprint(head) != fmt.Sprint(want) {
		t.Fatalf("after %s queue_head is\n%v\nbut the waiting tickets are\n%v", when, head, want)
	}
}

func TestQueueHeadFollowsEveryWrite(t *testing.T) {
	s, _ := mysqlOnly(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	var taken []model.Ticket
	for _, svc := range []string{"A", "A", "A", "B", "B", "V"} {
		taken = append(taken, take(t, s, svc, 0))
	}
	taken = append(taken, take(t, s, "A", 1)) // a VIP
	sameAsWaiting(t, s, "the takes")

	b := ok(t)(s.CallNext(bg, 2, "B"))
	sameAsWaiting(t, s, "a call")
	s.ShiftClock(121 * time.Second)
	if r, err := s.Sweep(bg); err != nil || r.Recalled != 1 {
		t.Fatalf("sweep: %+v, %v; want %s in the recall pool", r, err, b.Number)
	}
	sameAsWaiting(t, s, "the sweep moved a ticket into the recall pool")
	vip := ok(t)(s.CallNext(bg, 2, "A"))
	ok(t)(s.Pass(bg, vip.ID, 2))
	ok(t)(s.Requeue(bg, vip.ID, 2))
	sameAsWaiting(t, s, "pass and requeue")
	a := ok(t)(s.CallNext(bg, 2, "A"))
	ok(t)(s.Transfer(bg, a.ID, 2, model.TransferTarget{Service: "V"}))
	sameAsWaiting(t, s, "a transfer to another service")
	ok(t)(s.Cancel(bg, taken[5].ID, 0))
	sameAsWaiting(t, s, "a cancel")

	// Writes from outside the program: a hand fix, a print mark, a delete.
	okAny(t, s.DB().Exec("UPDATE ticket SET priority = 2 WHERE id = ?", taken[2].ID).Error)
	sameAsWaiting(t, s, "a priority changed by hand")
	okAny(t, s.DB().Exec("UPDATE ticket SET service_id = (SELECT id FROM service WHERE code = 'V' AND branch_id = ticket.branch_id) WHERE id = ?", taken[4].ID).Error)
	sameAsWaiting(t, s, "a service changed by hand")
	okAny(t, s.DB().Exec("UPDATE ticket SET printed_at = CURRENT_TIMESTAMP WHERE id = ?", taken[3].ID).Error)
	sameAsWaiting(t, s, "a print mark")
	okAny(t, s.DB().Exec("DELETE FROM ticket WHERE id = ?", taken[1].ID).Error)
	sameAsWaiting(t, s, "a delete")

	for {
		if _, err := s.CallNext(bg, 1, ""); model.IsCode(err, model.EQueueEmpty) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	sameAsWaiting(t, s, "calling every ticket")
	var n int64
	okAny(t, s.DB().Raw("SELECT COUNT(*) FROM queue_head").Scan(&n).Error)
	if n != 0 {
		t.Fatalf("%d rows left in queue_head with no ticket waiting", n)
	}
}

// A database from before queue_head (or one whose triggers were dropped)
// gets it filled when a PC opens it: the waiting tickets it lacks are added
// and rows of tickets no longer waiting are removed.
func TestQueueHeadFilledOnUpgrade(t *testing.T) {
	s, dsn := mysqlOnly(t)
	shift := clearOfDayEnd(t, 15*time.Minute, s)
	var taken []model.Ticket
	for i := 0; i < 6; i++ {
		taken = append(taken, take(t, s, []string{"A", "B"}[i%2], 0))
	}
	called := ok(t)(s.CallNext(bg, 1, ""))
	db := s.DB()
	dropHeadTriggers(t, s)
	// Without the triggers: one waiting ticket's row lost, a called one's
	// left behind, and a ticket taken that the head never heard of.
	okAny(t, db.Exec("DELETE FROM queue_head WHERE ticket_id = ?", taken[3].ID).Error)
	okAny(t, db.Exec("INSERT INTO queue_head (branch_id, business_date, lane, priority, sort_key, ticket_id, service_id) "+
		"SELECT branch_id, business_date, 1, 0, 0, id, service_id FROM ticket WHERE id = ?", called.ID).Error)
	late := take(t, s, "A", 0)
	var n int64
	okAny(t, db.Raw("SELECT COUNT(*) FROM queue_head WHERE ticket_id = ?", late.ID).Scan(&n).Error)
	if n != 0 {
		t.Fatal("a ticket taken without the triggers is in queue_head: the test does not test the fill")
	}

	again, err := sqlstore.Open(bg, dsn)
	okAny(t, err)
	defer again.Close()
	again.ShiftClock(shift) // the same day as the tickets
	sameAsWaiting(t, again, "opening the database again")
	var order []string
	for {
		tk, err := again.CallNext(bg, 1, "")
		if model.IsCode(err, model.EQueueEmpty) {
			break
		}
		okAny(t, err)
		order = append(order, tk.Number)
	}
	if want := "B001 A002 B002 A003 B003 A004"; strings.Join(order, " ") != want {
		t.Fatalf("after the fill the calls went %v, want %s", order, want)
	}
}

// A head row whose ticket is not waiting (left by an install racing a
// call) is passed by: call-next never calls a ticket a second time.
func TestQueueHeadRowOfCalledTicketIsPassedBy(t *testing.T) {
	s, _ := mysqlOnly(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	first := take(t, s, "A", 0)
	second := take(t, s, "A", 0)
	got := ok(t)(s.CallNext(bg, 1, ""))
	if got.ID != first.ID {
		t.Fatalf("called %s, want %s", got.Number, first.Number)
	}
	ok(t)(s.StartServing(bg, got.ID, 1))
	ok(t)(s.Finish(bg, got.ID, 1))
	// Put the finished ticket back at the very front of the head, by hand.
	okAny(t, s.DB().Exec("INSERT INTO queue_head (branch_id, business_date, lane, priority, sort_key, ticket_id, service_id) "+
		"SELECT branch_id, business_date, 0, 0, 0, id, service_id FROM ticket WHERE id = ?", first.ID).Error)
	next := ok(t)(s.CallNext(bg, 1, ""))
	if next.ID != second.ID {
		t.Fatalf("called %s (id %d), want %s: a ticket no longer waiting was called again", next.Number, next.ID, second.Number)
	}
	if _, err := s.CallNext(bg, 2, ""); !model.IsCode(err, model.EQueueEmpty) {
		t.Fatalf("a third call: %v, want the queue empty", err)
	}
}

// A database user who may not create triggers gets one sentence saying
// what to grant, and the database is left as it was.
func TestQueueHeadNeedsTriggerPrivilege(t *testing.T) {
	s, dsn := mysqlOnly(t)
	db := s.DB()
	_, userDSN, name := mysqlUser(t, s, dsn, "jt_notrig_", "SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP")
	for _, tr := range []string{"tr_ticket_head_ins", "tr_ticket_head_upd", "tr_ticket_head_del"} {
		okAny(t, db.Exec("DROP TRIGGER "+tr).Error)
	}
	_, err := sqlstore.Open(bg, userDSN)
	if err == nil {
		t.Fatal("opened without the right to create triggers")
	}
	if !model.IsCode(err, model.EInvalidInput) || !strings.Contains(err.Error(), "TRIGGER") || strings.Contains(err.Error(), "pw-") {
		t.Fatalf("error %q: want an invalid-input error naming the TRIGGER privilege, without the password", err)
	}
	var n int64
	okAny(t, db.Raw("SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = ?", name).Scan(&n).Error)
	if n != 0 {
		t.Fatalf("%d triggers created by a user who may not", n)
	}
}

// A waiting ticket whose head row is gone (deleted by hand) is still
// called: when the head looks empty the claim looks for waiting tickets it
// lacks, so no ticket waits for ever.
func TestQueueHeadLostRowIsStillCalled(t *testing.T) {
	s, _ := mysqlOnly(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	lost := take(t, s, "A", 0)
	other := take(t, s, "A", 0)
	okAny(t, s.DB().Exec("DELETE FROM queue_head WHERE ticket_id = ?", lost.ID).Error)
	var got []int64
	for w := 1; w <= 2; w++ {
		got = append(got, ok(t)(s.CallNext(bg, w, "")).ID)
	}
	if fmt.Sprint(got) != fmt.Sprint([]int64{other.ID, lost.ID}) {
		t.Fatalf("called ids %v, want %d then the one whose head row was lost, %d", got, other.ID, lost.ID)
	}
	if _, err := s.CallNext(bg, 3, ""); !model.IsCode(err, model.EQueueEmpty) {
		t.Fatalf("a third call: %v, want the queue empty", err)
	}
	sameAsWaiting(t, s, "calling the lost ticket")
}

// dropHeadTriggers leaves the database as one from before queue_head.
func dropHeadTriggers(t *testing.T, s *sqlstore.GormStore) {
	t.Helper()
	for _, tr := range []string{"tr_ticket_head_ins", "tr_ticket_head_upd", "tr_ticket_head_del"} {
		okAny(t, s.DB().Exec("DROP TRIGGER "+tr).Error)
	}
}

// Several PCs opening a database from before queue_head at once, while a
// window calls: each opens, the triggers are installed once, the table is
// whole.
func TestQueueHeadInstallsOnceFromManyPCs(t *testing.T) {
	s, dsn := mysqlOnly(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	for i := 0; i < 12; i++ {
		take(t, s, []string{"A", "B", "V"}[i%3], 0)
	}
	for round := 0; round < 8; round++ {
		dropHeadTriggers(t, s)
		var wg sync.WaitGroup
		errs := make(chan error, 5)
		for pc := 0; pc < 4; pc++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				o, err := sqlstore.Open(bg, dsn)
				if err == nil {
					o.Close()
				}
				errs <- err
			}()
		}
		wg.Add(1)
		go func() { // a window calls and a kiosk takes meanwhile
			defer wg.Done()
			if _, err := s.CallNext(bg, 1, ""); err != nil {
				errs <- err
			}
			_, err := s.TakeTicket(bg, "A", 0, "test")
			errs <- err
		}()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
		sameAsWaiting(t, s, fmt.Sprintf("round %d of four PCs installing at once", round))
	}
	// Once installed and filled, opening the database leaves the triggers be.
	created := func() string {
		var at []string
		okAny(t, s.DB().Raw("SELECT CAST(created AS CHAR) FROM information_schema.triggers WHERE trigger_schema = DATABASE() ORDER BY trigger_name").Scan(&at).Error)
		return strings.Join(at, " ")
	}
	before := created()
	time.Sleep(50 * time.Millisecond)
	o, err := sqlstore.Open(bg, dsn)
	okAny(t, err)
	o.Close()
	if after := created(); after != before {
		t.Fatalf("opening an installed database made the triggers again (created %s, then %s)", before, after)
	}
}

// An install that stopped after its triggers but before the table was
// marked filled is finished by the next PC to open the database.
func TestQueueHeadInterruptedInstallIsFinished(t *testing.T) {
	s, dsn := mysqlOnly(t)
	shift := clearOfDayEnd(t, 15*time.Minute, s)
	a := take(t, s, "A", 0)
	take(t, s, "A", 0)
	okAny(t, s.DB().Exec("ALTER TABLE queue_head COMMENT = ''").Error)
	okAny(t, s.DB().Exec("DELETE FROM queue_head WHERE ticket_id = ?", a.ID).Error)
	again, err := sqlstore.Open(bg, dsn)
	okAny(t, err)
	defer again.Close()
	again.ShiftClock(shift) // the same day as the tickets
	sameAsWaiting(t, again, "opening a database whose install stopped before the fill")
	if got := ok(t)(again.CallNext(bg, 1, "")); got.ID != a.ID {
		t.Fatalf("called %s, want %s, the head of the queue", got.Number, a.Number)
	}
}

// Rows that do not match their ticket as it is now are passed by: one under
// another service is not called by a window of that service, and one left
// with a called ticket's key does not stop the ticket coming back.
func TestQueueHeadWrongRowsArePassedBy(t *testing.T) {
	s, _ := mysqlOnly(t)
	clearOfDayEnd(t, 15*time.Minute, s)
	b := take(t, s, "B", 0)
	a := take(t, s, "A", 0)
	// B's ticket also listed under A, at the very front.
	okAny(t, s.DB().Exec("INSERT INTO queue_head (branch_id, business_date, lane, priority, sort_key, ticket_id, service_id) "+
		"SELECT branch_id, business_date, 0, 0, 0, id, (SELECT id FROM service WHERE code = 'A' AND branch_id = ticket.branch_id) FROM ticket WHERE id = ?", b.ID).Error)
	if got := ok(t)(s.CallNext(bg, 1, "A")); got.ID != a.ID {
		t.Fatalf("an A call took %s, want %s: a row under the wrong service was called", got.Number, a.Number)
	}
	// A leftover row with B's own key, after B is called: its transfer back
	// into the queue keeps the key and must not fail on the leftover.
	got := ok(t)(s.CallNext(bg, 2, "B"))
	if got.ID != b.ID {
		t.Fatalf("a B call took %s, want %s", got.Number, b.Number)
	}
	okAny(t, s.DB().Exec("INSERT INTO queue_head (branch_id, business_date, lane, priority, sort_key, ticket_id, service_id) "+
		"SELECT branch_id, business_date, lane, priority, sort_key, id, 0 FROM ticket WHERE id = ?", b.ID).Error)
	ok(t)(s.Transfer(bg, b.ID, 2, model.TransferTarget{Service: "V"}))
	if again := ok(t)(s.CallNext(bg, 3, "V")); again.ID != b.ID {
		t.Fatalf("after the transfer a B call took %s, want %s", again.Number, b.Number)
	}
}

// The triggers run as the account that installed them. With that account
// dropped, a take fails with one sentence saying what to do and takes
// nothing; doing it (dropping the triggers, opening the database again)
// makes takes work, with the table whole.
func TestQueueHeadDefinerDroppedSaysWhatToDo(t *testing.T) {
	s, dsn := mysqlOnly(t)
	db := s.DB()
	user, userDSN, _ := mysqlUser(t, s, dsn, "jt_definer_", "ALL")
	take(t, s, "A", 0)
	dropHeadTriggers(t, s)
	installer, err := sqlstore.Open(bg, userDSN)
	okAny(t, err)
	installer.Close()
	okAny(t, db.Exec("DROP USER '"+user+"'@'%'").Error)

	before := countTickets(t, s)
	_, err = s.TakeTicket(bg, "A", 0, "kiosk")
	if !model.IsCode(err, model.EUnavailable) || !strings.Contains(err.Error(), "tr_ticket_head_ins") || strings.Contains(err.Error(), "1449") {
		t.Fatalf("a take with the triggers' account dropped: %v; want unavailable, naming the triggers to drop, no server code", err)
	}
	if n := countTickets(t, s); n != before {
		t.Fatalf("%d tickets after the failed take, %d before", n, before)
	}
	// The server answers: no outage to log and probe, which the branch
	// table's probe would end at once, only for the next take to start one.
	if s.Down() {
		t.Fatal("the store counts a missing trigger account as the database down")
	}

	dropHeadTriggers(t, s)
	again, err := sqlstore.Open(bg, dsn)
	okAny(t, err)
	t.Cleanup(func() { again.Close() })
	take(t, again, "A", 0)
	sameAsWaiting(t, again, "after the triggers were installed again")
}

func countTickets(t *testing.T, s *sqlstore.GormStore) int64 {
	t.Helper()
	var n int64
	okAny(t, s.DB().Raw("SELECT COUNT(*) FROM ticket").Scan(&n).Error)
	return n
}

// mysqlUser adds a database user of the test's own, allowed grants on its
// database and dropped at the end, and returns the user, a DSN that
// connects as it, and the database's name.
func mysqlUser(t *testing.T, s *sqlstore.GormStore, dsn, prefix, grants string) (user, userDSN, name string) {
	t.Helper()
	db := s.DB()
	okAny(t, db.Raw("SELECT DATABASE()").Scan(&name).Error)
	user = prefix + name[len(name)-6:]
	okAny(t, db.Exec("CREATE USER '"+user+"'@'%' IDENTIFIED BY 'pw-"+user+"'").Error)
	t.Cleanup(func() { db.Exec("DROP USER IF EXISTS '" + user + "'@'%'") })
	okAny(t, db.Exec("GRANT "+grants+" ON `"+name+"`.* TO '"+user+"'@'%'").Error)
	host := strings.TrimPrefix(dsn, "mysql://")
	host = host[strings.Index(host, "@")+1:]
	return user, "mysql://" + user + ":pw-" + user + "@" + host, name
}
