package sqlstore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-sql-driver/mysql"
	"gorm.io/gorm"

	"jiaohao/model"
)

// The queue head on MariaDB and MySQL. InnoDB changes a secondary index
// entry by delete-marking the old one and inserting a new one; purge
// removes the marked entry later, a few hundred writes behind when the
// windows are busy. A call moves its ticket out of status 1, so every
// call left a marked entry at the very start of ix_ticket_call, where
// every claim begins, and a locking read checks each such entry for an
// implicit lock through the clustered index. Sampled during 16 windows'
// calls, one claim read 170-340 pages to return one row, and the
// windows' concurrent claims spun on those pages' latches.
//
// queue_head holds the waiting tickets only, keyed in serving order, and
// a claim walks its primary key: a removed row is marked in the clustered
// index itself, whose record names the transaction that wrote it, so
// stepping over it reads no other page. The table follows the ticket
// table through triggers, in the same statement as the ticket write, so
// every writer (this program, a report import, a hand-made fix in a
// console) keeps it whole and no transaction sees one without the other.
//
// A claim still takes the ticket row's own lock and checks the ticket is
// waiting, so a row the head has wrongly (left by an install racing a
// call, see installHead) is passed by and never called twice.

// headMarker is in every trigger's body and, once the table has been
// filled, in the table's comment; a database that has all four is left
// alone, so PCs opening the database do not recreate the triggers (which
// takes a lock on the ticket table that holds up every write behind it).
const headMarker = "jiaohao:queue_head:v2"

const headTable = `CREATE TABLE IF NOT EXISTS queue_head (
	branch_id BIGINT NOT NULL, business_date VARCHAR(10) NOT NULL,
	lane BIGINT NOT NULL, priority BIGINT NOT NULL, sort_key BIGINT NOT NULL, ticket_id BIGINT NOT NULL,
	service_id BIGINT NOT NULL,
	PRIMARY KEY (branch_id, business_date, lane, priority, sort_key, ticket_id)
) ENGINE=InnoDB`

// headColumns are queue_head's columns, in the order every insert names them.
const headColumns = "branch_id, business_date, lane, priority, sort_key, ticket_id, service_id"

// headKey matches a queue_head row to the ticket row r (NEW or OLD).
func headKey(r string) string {
	return "branch_id = " + r + ".branch_id AND business_date = " + r + ".business_date AND lane = " + r + ".lane AND priority = " +
		r + ".priority AND sort_key = " + r + ".sort_key AND ticket_id = " + r + ".id"
}

// headInsert adds ticket row r's head row; a row left with the same key (by
// a hand edit, or a fill racing a write) takes r's service.
func headInsert(r string) string {
	return "INSERT INTO queue_head (" + headColumns + ") VALUES (" +
		r + ".branch_id, " + r + ".business_date, " + r + ".lane, " + r + ".priority, " + r + ".sort_key, " + r + ".id, " + r + ".service_id)" +
		" ON DUPLICATE KEY UPDATE service_id = " + r + ".service_id"
}

// headMatches is true where queue_head row q is ticket row t's as it is
// now: the claim and the fill pass by any other.
const headMatches = "t.id = q.ticket_id AND t.branch_id = q.branch_id AND t.business_date = q.business_date AND t.lane = q.lane AND " +
	"t.priority = q.priority AND t.sort_key = q.sort_key AND t.service_id = q.service_id"

// sameHead: an update that leaves a waiting ticket's head row as it was
// (a print claim, a note) leaves the head table alone.
const sameHead = "NEW.id = OLD.id AND NEW.branch_id = OLD.branch_id AND NEW.business_date = OLD.business_date AND NEW.lane = OLD.lane AND " +
	"NEW.priority = OLD.priority AND NEW.sort_key = OLD.sort_key AND NEW.service_id = OLD.service_id"

var waitingStatus = fmt.Sprint(int(model.Waiting))

// headTriggers are the three triggers, by name.
var headTriggers = [][2]string{
	{"tr_ticket_head_ins", "CREATE TRIGGER tr_ticket_head_ins AFTER INSERT ON ticket FOR EACH ROW BEGIN\n-- " + headMarker + "\n" +
		"IF NEW.status = " + waitingStatus + " THEN " + headInsert("NEW") + "; END IF;\nEND"},
	{"tr_ticket_head_upd", "CREATE TRIGGER tr_ticket_head_upd AFTER UPDATE ON ticket FOR EACH ROW BEGIN\n-- " + headMarker + "\n" +
		"IF OLD.status = " + waitingStatus + " AND NOT (NEW.status = " + waitingStatus + " AND " + sameHead + ") THEN DELETE FROM queue_head WHERE " + headKey("OLD") + "; END IF;\n" +
		"IF NEW.status = " + waitingStatus + " AND NOT (OLD.status = " + waitingStatus + " AND " + sameHead + ") THEN " + headInsert("NEW") + "; END IF;\nEND"},
	{"tr_ticket_head_del", "CREATE TRIGGER tr_ticket_head_del AFTER DELETE ON ticket FOR EACH ROW BEGIN\n-- " + headMarker + "\n" +
		"IF OLD.status = " + waitingStatus + " THEN DELETE FROM queue_head WHERE " + headKey("OLD") + "; END IF;\nEND"},
}

// headInstallWait bounds how long an install waits for another PC's
// install (GET_LOCK) and for the writes under way on the ticket table
// (lock_wait_timeout): a write that comes after the install's DDL waits
// behind it, so the DDL must not wait long.
const headInstallWait = 10

// installHead creates the table and its triggers unless the database has
// them, then fills the table from the waiting tickets and marks it filled.
// PCs opening the database at once take turns (a named server lock) and
// each checks again once it has the lock. Each CREATE TRIGGER waits for the
// writes already under way on the ticket table and every later write runs
// it, so the fill, which locks the waiting rows it reads and so sees each
// one as its last write left it, finds every waiting ticket the triggers
// did not see. An install that stops before the mark (a deadlock, a
// timeout) is done again by the next PC to open the database.
func installHead(db *gorm.DB) error {
	if ok, err := haveHead(db); err != nil || ok {
		return err
	}
	return db.Connection(func(c *gorm.DB) error {
		var got *int
		if err := c.Raw("SELECT GET_LOCK('jiaohao_queue_head', ?)", headInstallWait).Scan(&got).Error; err != nil {
			return headFailed(err)
		}
		if got == nil || *got != 1 {
			return model.Errorf(model.EUnavailable, "另一台电脑正在升级数据库，请稍后再打开 (another PC is upgrading the database: open it again shortly)")
		}
		defer c.Exec("DO RELEASE_LOCK('jiaohao_queue_head')")
		if ok, err := haveHead(c); err != nil || ok {
			return err
		}
		if err := c.Exec("SET SESSION lock_wait_timeout = ?", headInstallWait).Error; err != nil {
			return err
		}
		defer c.Exec("SET SESSION lock_wait_timeout = DEFAULT")
		if err := c.Exec(headTable).Error; err != nil {
			return headFailed(err)
		}
		for _, tr := range headTriggers {
			for _, q := range []string{"DROP TRIGGER IF EXISTS " + tr[0], tr[1]} {
				if err := c.Exec(q).Error; err != nil {
					return headFailed(err)
				}
			}
		}
		if err := fillHead(c); err != nil {
			return headFailed(err)
		}
		return c.Exec("ALTER TABLE queue_head COMMENT = '" + headMarker + "'").Error
	})
}

// haveHead says the triggers and the filled table are this build's.
func haveHead(db *gorm.DB) (bool, error) {
	var n int64
	err := db.Raw("SELECT (SELECT COUNT(*) FROM information_schema.triggers WHERE trigger_schema = DATABASE() AND event_object_table = 'ticket' "+
		"AND trigger_name IN ('tr_ticket_head_ins', 'tr_ticket_head_upd', 'tr_ticket_head_del') AND action_statement LIKE ?) + "+
		"(SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'queue_head' AND table_comment = ?)",
		"%"+headMarker+"%", headMarker).Scan(&n).Error
	return n == int64(len(headTriggers))+1, err
}

// fillHead drops the rows of tickets no longer waiting as they are and adds
// the waiting tickets the head lacks, one statement each, the second with
// locking reads that wait for any write under way on those tickets.
func fillHead(db *gorm.DB) error {
	if err := db.Exec("DELETE q FROM queue_head q LEFT JOIN ticket t ON " + headMatches + " AND t.status = " + waitingStatus +
		" WHERE t.id IS NULL").Error; err != nil {
		return err
	}
	return db.Exec("INSERT INTO queue_head (" + headColumns + ") " +
		"SELECT branch_id, business_date, lane, priority, sort_key, id, service_id FROM ticket WHERE status = " + waitingStatus + " FOR UPDATE " +
		"ON DUPLICATE KEY UPDATE service_id = VALUES(service_id)").Error
}

// healHead, when a claim found nothing, adds the waiting tickets of the
// claim's services that queue_head lacks (a row deleted by hand, say) and
// says whether it added any: a ticket missing from the head would never be
// called. It reads without locks, where a ticket another window is calling
// still has its row, and costs one walk of the few tickets left waiting
// only when the queue looks empty.
func healHead(db *gorm.DB, c claim) (bool, error) {
	var missing []headRow
	err := db.Raw("SELECT t.branch_id, t.business_date, t.lane, t.priority, t.sort_key, t.id AS ticket_id, t.service_id FROM ticket t "+
		"WHERE t.branch_id = ? AND t.status = "+waitingStatus+" AND t.business_date = ? AND t.service_id IN ? "+
		"AND NOT EXISTS (SELECT 1 FROM queue_head q WHERE "+headMatches+") LIMIT 100",
		c.branchID, c.date, c.serviceIDs).Scan(&missing).Error
	if err != nil || len(missing) == 0 {
		return false, err
	}
	rows := make([]string, len(missing))
	args := make([]any, 0, 7*len(missing))
	for i, r := range missing {
		rows[i] = "(?, ?, ?, ?, ?, ?, ?)"
		args = append(args, r.BranchID, r.BusinessDate, r.Lane, r.Priority, r.SortKey, r.TicketID, r.ServiceID)
	}
	return true, db.Exec("INSERT INTO queue_head ("+headColumns+") VALUES "+strings.Join(rows, ", ")+
		" ON DUPLICATE KEY UPDATE service_id = VALUES(service_id)", args...).Error
}

// headRow is one row of queue_head.
type headRow struct {
	BranchID     int64
	BusinessDate string
	Lane         int
	Priority     int
	SortKey      int64
	TicketID     int64
	ServiceID    int64
}

// headFailed names what a database user lacks to create the triggers.
func headFailed(err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) && (me.Number == 1142 || me.Number == 1419 || me.Number == 1227) {
		return model.Errorf(model.EInvalidInput, "数据库用户无权创建触发器：请授予 TRIGGER 权限（开启二进制日志时还需 SUPER 权限或 log_bin_trust_function_creators=1）"+
			" (the database user may not create triggers: grant TRIGGER, and SUPER or log_bin_trust_function_creators=1 where binary logging is on): %s", me.Message)
	}
	return fmt.Errorf("creating the queue head: %w", err)
}

// headClaim is the MariaDB and MySQL claim: the head of the serving order
// from queue_head, the ticket row by its id, both locked. STRAIGHT_JOIN and
// the forced key keep the walk in the head's key order, without a sort.
func headClaim(lock string) string {
	return "SELECT t.* FROM queue_head q FORCE INDEX (PRIMARY) STRAIGHT_JOIN ticket t ON " + headMatches + " AND t.status = " + waitingStatus +
		" WHERE q.branch_id = ? AND q.business_date = ? AND q.service_id IN ? ORDER BY " + headOrder + " LIMIT 1" + lock
}

// headOrder is the model's serving order over queue_head's columns, which
// its key follows (ticket_id for the ticket's id).
var headOrder = func() string {
	var order []string
	for _, f := range model.ServingOrder() {
		if f == "id" {
			f = "ticket_id"
		}
		order = append(order, "q."+f)
	}
	return strings.Join(order, ", ")
}()
