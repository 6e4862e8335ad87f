package sqlstore_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

// statement is one SQL statement as the driver received it; direct: sent
// past GORM, in a batch (PostgreSQL).
type statement struct {
	sql    string
	vars   []any
	direct bool
}

// recordStatements keeps every statement db runs while on is set, those
// sent past GORM too.
type recorder struct {
	mu  sync.Mutex
	on  bool
	got []statement
}

func recordStatements(t *testing.T, db *gorm.DB) *recorder {
	t.Helper()
	r := &recorder{}
	keep := func(tx *gorm.DB) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.on && tx.Error == nil {
			r.got = append(r.got, statement{tx.Statement.SQL.String(), append([]any(nil), tx.Statement.Vars...), false})
		}
	}
	sqlstore.ObserveDirect(t, func(sql string, vars []any) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.on {
			r.got = append(r.got, statement{sql, append([]any(nil), vars...), true})
		}
	})
	cb := db.Callback()
	for _, err := range []error{
		cb.Create().After("gorm:create").Register("test:plans", keep),
		cb.Query().After("gorm:query").Register("test:plans", keep),
		cb.Update().After("gorm:update").Register("test:plans", keep),
		cb.Delete().After("gorm:delete").Register("test:plans", keep),
		cb.Row().After("gorm:row").Register("test:plans", keep),
		cb.Raw().After("gorm:raw").Register("test:plans", keep),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *recorder) record(on bool) []statement {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = on
	out := r.got
	r.got = nil
	return out
}

// indexInfo is what the catalog says of one index.
type indexInfo struct {
	table         string
	branchFirst   bool // its first column is branch_id
	primary       bool
	firstColumnIs string
}

// Among a hundred other branches of 1,000 tickets each (on the same day, a
// tenth waiting, in the same services, the rest also archived), every
// statement of one branch's hot path — the take, call-next, start and
// finish with their version bump and event insert, the watch's read of
// the log, every query of the daily report — reaches each table through
// an index whose first column is branch_id, through the primary key of
// the one row it names (the branch's own version row, a ticket by id), or
// to the events of tickets it names (its own): never a scan, nor an index
// over every branch. So a branch reads and
// locks only its own rows, and a hundred neighbours cost it nothing. (The
// pool's one poll of every watched branch's version is the exception by
// design, a plain read.)
func TestHotPathPlansAmongManyBranches(t *testing.T) {
	daotest.Each(t, func(t *testing.T, s *sqlstore.GormStore) {
		tpl := take(t, s, "A", 0)
		ok(t)(s.CallNext(bg, 1, ""))
		ok(t)(s.StartServing(bg, tpl.ID, 1))
		ok(t)(s.Finish(bg, tpl.ID, 1))
		daotest.OtherBranches(t, s, 100, 1000, tpl.ID)
		for i := 0; i < 300; i++ { // a busy hall's queue: what a planner that sorts would read
			take(t, s, []string{"A", "B", "V"}[i%3], 0)
		}
		okAny(t, s.RefreshStatistics(bg))
		indexes := catalog(t, s)
		rec := recordStatements(t, s.DB())

		ctx, cancel := context.WithTimeout(bg, 30*time.Second)
		defer cancel()
		v, err := s.Version(ctx)
		okAny(t, err)
		w, err := s.Watch(ctx, v)
		okAny(t, err)
		rec.record(true)
		// A take that reads all its estimate needs (as after a call),
		// then one that brings that reading up to date with the events.
		s.ForgetTakeReading()
		tk := take(t, s, "A", 0)
		take(t, s, "B", 0)
		called := ok(t)(s.CallNext(ctx, 2, ""))
		ok(t)(s.StartServing(ctx, called.ID, 2))
		ok(t)(s.Finish(ctx, called.ID, 2))
		for range 4 { // the take, the call, the start and the finish
			if e := next(t, w); e.Version <= v {
				t.Fatalf("watch gave %+v", e)
			}
		}
		_, err = s.EventsSince(ctx, v, 500)
		okAny(t, err)
		// The daily report: every query it sends.
		p, err := reports.Day(tk.IssuedAt.In(s.Location()).Format("2006-01-02"), s.Location())
		okAny(t, err)
		_, err = reports.Generate(ctx, s, p, reports.Options{})
		okAny(t, err)
		stmts := rec.record(false)

		checked := 0
		// The writes of a call, however the engine sends them (on
		// PostgreSQL in one statement with the event, past GORM).
		unseen := map[string]bool{"UPDATE ticket SET status": true, "UPDATE service_window SET current_ticket_id": true, "UPDATE branch SET version": true,
			"FROM queue_event AS e LEFT JOIN ticket k": true, ") AS n, (": true}
		for _, st := range stmts {
			head := strings.ToUpper(strings.TrimSpace(st.sql))
			if !strings.HasPrefix(head, "SELECT") && !strings.HasPrefix(head, "UPDATE") &&
				!strings.HasPrefix(head, "DELETE") && !strings.HasPrefix(head, "WITH") {
				continue // an INSERT … VALUES has no access path
			}
			if strings.HasPrefix(st.sql, strings.SplitN(sqlstore.PollQuery, " WHERE", 2)[0]) {
				// The pool's poll reads every watched branch's version
				// row by design, five times a second for all of them,
				// locking none; a scan of the small table is its best
				// plan.
				continue
			}
			if partOfAnother(st, stmts) {
				continue // a subquery, checked in the statement it is part of
			}
			for w := range unseen {
				if strings.Contains(st.sql, w) {
					delete(unseen, w)
				}
			}
			access := explain(t, s, st)
			if strings.Contains(st.sql, "ORDER BY "+strings.Join(model.ServingOrder(), ", ")+" LIMIT 1") && len(access) > 0 &&
				containsAny(access[0].plan, "Sort", "filesort", "TEMP B-TREE") {
				// The call-next pick walks the serving order: a sort reads
				// (and on MariaDB locks) every waiting ticket first.
				t.Errorf("%s sorts the call-next pick:\n%s\nplan: %s", s.Engine(), st.sql, access[0].plan)
			}
			for _, a := range access {
				info, known := indexes[a.index]
				switch {
				case a.index == "" && a.table != "":
					t.Errorf("%s scans %s:\n%s\nplan: %s", s.Engine(), a.table, st.sql, a.plan)
				case a.index == "":
				case a.primary || (known && (info.branchFirst || info.primary)):
				case known && info.table == "queue_event" && info.firstColumnIs == "ticket_id":
					// The events of tickets the statement names, its own
					// branch's: no other branch's row is reached.
				default:
					t.Errorf("%s reads %s through %s, whose first column is %s, not branch_id:\n%s\nplan: %s",
						s.Engine(), info.table, a.index, info.firstColumnIs, st.sql, a.plan)
				}
			}
			checked++
		}
		if len(unseen) > 0 {
			t.Errorf("%s: no statement checked has %v", s.Engine(), unseen)
		}
		if checked < 10 {
			t.Fatalf("only %d statements checked: %v", checked, stmts)
		}
		t.Logf("%d statements of the hot path checked", checked)
	})
}

// partOfAnother says st is a subquery GORM built into another statement
// (it runs the callbacks for both).
func partOfAnother(st statement, all []statement) bool {
	for _, o := range all {
		if len(o.sql) > len(st.sql) && strings.Contains(o.sql, st.sql) {
			return true
		}
	}
	return false
}

// access is one table reached by a plan: through index, or scanned when
// index is "".
type access struct {
	table, index string
	primary      bool // an integer primary key (SQLite's rowid)
	plan         string
}

var (
	pgSeq    = regexp.MustCompile(`Seq Scan on (\w+)`)
	pgIndex  = regexp.MustCompile(`Index (?:Only )?Scan(?: Backward)? using (\w+) on (\w+)`)
	pgBitmap = regexp.MustCompile(`Bitmap Index Scan on (\w+)`)
	liteScan = regexp.MustCompile(`^SCAN (\w+)`)
	// liteDerived names a subquery in the FROM clause, which is then
	// scanned under its alias.
	liteDerived = regexp.MustCompile(`^(?:CO-ROUTINE|MATERIALIZE) (\w+)`)
	liteIdx     = regexp.MustCompile(`^SEARCH (\w+) USING (?:COVERING )?INDEX (\w+)`)
	litePK      = regexp.MustCompile(`^SEARCH (\w+) USING INTEGER PRIMARY KEY`)
)

// explain asks the engine for st's plan and lists the tables it reaches.
func explain(t *testing.T, s *sqlstore.GormStore, st statement) []access {
	t.Helper()
	sqlDB, err := s.DB().DB()
	okAny(t, err)
	prefix := "EXPLAIN "
	if s.Engine() == "sqlite" {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := sqlDB.Query(prefix+st.sql, st.vars...)
	if err != nil {
		t.Fatalf("explain %s: %v", st.sql, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []map[string]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		okAny(t, rows.Scan(ptrs...))
		line := map[string]string{}
		for i, c := range cols {
			if b, isBytes := vals[i].([]byte); isBytes {
				line[strings.ToLower(c)] = string(b)
			} else if vals[i] != nil {
				line[strings.ToLower(c)] = fmt.Sprint(vals[i])
			}
		}
		lines = append(lines, line)
	}
	okAny(t, rows.Err())
	var out []access
	switch s.Engine() {
	case "postgres":
		var text []string
		for _, l := range lines {
			text = append(text, l["query plan"])
		}
		plan := strings.Join(text, "\n")
		for _, m := range pgSeq.FindAllStringSubmatch(plan, -1) {
			out = append(out, access{table: m[1], plan: plan})
		}
		for _, m := range pgIndex.FindAllStringSubmatch(plan, -1) {
			out = append(out, access{table: m[2], index: m[1], plan: plan})
		}
		for _, m := range pgBitmap.FindAllStringSubmatch(plan, -1) {
			out = append(out, access{index: m[1], plan: plan})
		}
	case "mysql":
		plan := fmt.Sprint(lines)
		for _, l := range lines {
			table := l["table"]
			if table == "" || strings.HasPrefix(table, "<") {
				continue // a derived table or no table at all
			}
			if l["type"] == "const" || l["type"] == "eq_ref" || l["type"] == "system" {
				out = append(out, access{table: table, index: "unique", primary: true, plan: plan})
				continue // one row by a unique key
			}
			if l["type"] == "ALL" || l["type"] == "index" || l["key"] == "" {
				out = append(out, access{table: table, plan: plan})
				continue
			}
			for _, key := range strings.Split(l["key"], "|") { // an index and its rowid filter
				out = append(out, access{table: table, index: key, plan: plan})
			}
		}
	case "sqlite":
		var text []string
		for _, l := range lines {
			text = append(text, l["detail"])
		}
		plan := strings.Join(text, "; ")
		derived := map[string]bool{}
		for _, d := range text {
			if m := liteDerived.FindStringSubmatch(d); m != nil {
				derived[m[1]] = true
			}
		}
		for _, d := range text {
			if m := liteScan.FindStringSubmatch(d); m != nil && derived[m[1]] {
				continue // a subquery's rows, read as the engine made them
			} else if m != nil {
				out = append(out, access{table: m[1], plan: plan})
			} else if m := liteIdx.FindStringSubmatch(d); m != nil {
				out = append(out, access{table: m[1], index: m[2], plan: plan})
			} else if m := litePK.FindStringSubmatch(d); m != nil {
				out = append(out, access{table: m[1], index: "rowid", primary: true, plan: plan})
			}
		}
	}
	return out
}

// catalog lists the database's indexes by name with their first column.
func catalog(t *testing.T, s *sqlstore.GormStore) map[string]indexInfo {
	t.Helper()
	out := map[string]indexInfo{}
	add := func(index, table, first string, primary bool) {
		out[index] = indexInfo{table: table, branchFirst: first == "branch_id", primary: primary, firstColumnIs: first}
	}
	db := s.DB()
	switch s.Engine() {
	case "postgres":
		var rows []struct{ Indexname, Tablename, Indexdef string }
		okAny(t, db.Raw("SELECT indexname, tablename, indexdef FROM pg_indexes WHERE schemaname = current_schema()").Scan(&rows).Error)
		first := regexp.MustCompile(`\((\w+)`)
		for _, r := range rows {
			col := ""
			if m := first.FindStringSubmatch(r.Indexdef); m != nil {
				col = m[1]
			}
			add(r.Indexname, r.Tablename, col, strings.HasSuffix(r.Indexname, "_pkey"))
		}
	case "mysql":
		var rows []struct{ TableName, IndexName, ColumnName string }
		okAny(t, db.Raw(`SELECT table_name AS table_name, index_name AS index_name, column_name AS column_name
			FROM information_schema.statistics WHERE table_schema = DATABASE() AND seq_in_index = 1`).Scan(&rows).Error)
		for _, r := range rows {
			if r.IndexName == "PRIMARY" {
				add("PRIMARY", "", "", true) // the row a point lookup names
				continue
			}
			add(r.IndexName, r.TableName, r.ColumnName, false)
		}
	case "sqlite":
		var rows []struct{ Name, TblName string }
		okAny(t, db.Raw("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'").Scan(&rows).Error)
		for _, r := range rows {
			var cols []struct {
				Seqno int
				Name  string
			}
			okAny(t, db.Raw("SELECT seqno, name FROM pragma_index_info(?)", r.Name).Scan(&cols).Error)
			col := ""
			for _, c := range cols {
				if c.Seqno == 0 {
					col = c.Name
				}
			}
			add(r.Name, r.TblName, col, false)
		}
	}
	return out
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
