package sqlstore_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// Two PCs at once: one moves a service into an area, the other deletes
// that area. One of them must be refused; a service must never be left in
// an area that is gone (its calls would reach no hall of an area until
// the next start). On the servers both are held at the branch row until
// both have done their reads, the interleaving that lets both through.
func TestDeletingAnAreaRacesMovingAServiceIntoIt(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		st := openStores(t, dsn, 2)
		vip := val(st[0].SaveArea(bg, model.Area{Name: "二楼贵宾区", Where: "二楼"}))(t)
		var v model.Service
		for _, x := range val(st[0].Services(bg))(t) {
			if x.Code == "V" {
				v = x
			}
		}
		v.Area = vip.ID
		errs := together(t, dsn, st[0],
			func() error { _, err := st[0].SaveService(bg, v); return err },
			func() error { return st[1].DeleteArea(bg, vip.ID) })
		errSave, errDelete := errs[0], errs[1]
		if (errSave == nil) == (errDelete == nil) {
			t.Errorf("save %v, delete %v: exactly one must be refused", errSave, errDelete)
		}
		if errSave != nil && !model.IsCode(errSave, model.ENotFound) {
			t.Errorf("save into a deleted area = %v, want %s", errSave, model.ENotFound)
		}
		if errDelete != nil && !model.IsCode(errDelete, model.EAreaNotEmpty) {
			t.Errorf("delete of an area being filled = %v, want %s", errDelete, model.EAreaNotEmpty)
		}
		known := map[int64]bool{}
		for _, a := range val(st[0].Areas(bg))(t) {
			known[a.ID] = true
		}
		for _, s := range val(st[0].Services(bg))(t) {
			if !known[s.Area] {
				t.Errorf("service %s is left in area %d, which is gone", s.Code, s.Area)
			}
		}
	})
}

// Two managers adding the same area at once: one is told in a sentence
// that the name is taken, not given the database's duplicate key error.
func TestTwoPCsAddingTheSameAreaAtOnce(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		st := openStores(t, dsn, 2)
		add := func(s *sqlstore.GormStore) func() error {
			return func() error { _, err := s.SaveArea(bg, model.Area{Name: "三楼"}); return err }
		}
		errs := together(t, dsn, st[0], add(st[0]), add(st[1]))
		if (errs[0] == nil) == (errs[1] == nil) {
			t.Fatalf("adds: %v, %v: exactly one must be refused", errs[0], errs[1])
		}
		for _, err := range errs {
			if err != nil && !model.IsCode(err, model.EConflict) {
				t.Errorf("the second add = %v, want %s", err, model.EConflict)
			}
		}
		if got := val(st[0].Areas(bg))(t); len(got) != 2 {
			t.Errorf("areas after both adds: %+v", got)
		}
	})
}

// together runs fns at once on other PCs' stores and returns their errors.
// On the servers a transaction of the holder's holds the branch row until
// as many sessions wait for a lock as there are fns, so each has made its
// reads before any commits: the interleaving where a check read before
// the other's write lets both through.
func together(t *testing.T, dsn string, holder *sqlstore.GormStore, fns ...func() error) []error {
	t.Helper()
	waiting := lockWaiters(dsn)
	var hold *gorm.DB
	if waiting != "" {
		hold = holder.DB().Begin()
		okAny(t, hold.Exec("UPDATE branch SET version = version WHERE id = 1").Error)
	}
	done := make([]chan error, len(fns))
	for i, fn := range fns {
		done[i] = make(chan error, 1)
		go func() { done[i] <- fn() }()
	}
	if hold != nil {
		// One that ends unblocked (an error before its first lock) is not
		// waited for.
		ended := func() bool { return slices.ContainsFunc(done, func(c chan error) bool { return len(c) > 0 }) }
		for n := int64(0); n < int64(len(fns)) && !ended(); time.Sleep(5 * time.Millisecond) {
			okAny(t, holder.DB().Raw(waiting).Scan(&n).Error)
		}
		okAny(t, hold.Rollback().Error)
	}
	errs := make([]error, len(fns))
	for i := range done {
		errs[i] = <-done[i]
	}
	return errs
}

// lockWaiters is the query counting this database's sessions waiting for
// a lock, "" for SQLite, whose writers take turns anyway.
func lockWaiters(dsn string) string {
	switch {
	case strings.HasPrefix(dsn, "postgres"):
		return "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
	case strings.HasPrefix(dsn, "mysql"):
		// MariaDB's innodb_trx is a cache that shows a waiting transaction
		// as running for seconds; a statement still running after a second
		// on this small database is one waiting for a lock.
		return "SELECT count(*) FROM information_schema.processlist WHERE db = DATABASE() AND info IS NOT NULL AND time >= 1 AND info NOT LIKE '%processlist%'"
	}
	return ""
}

// PCs starting at once on a database from before areas, on every engine:
// each finds the area table or service.area_id missing and adds it, and
// none may fail for what another just added, nor make a second default.
func TestPCsOpeningADatabaseFromBeforeAreasAtOnce(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		for _, drop := range [][]string{{"DROP TABLE area"}, {"DROP TABLE area", "ALTER TABLE service DROP COLUMN area_id"}} {
			old, err := sqlstore.Open(bg, dsn)
			okAny(t, err)
			for _, q := range drop {
				okAny(t, old.DB().Exec(q).Error)
			}
			okAny(t, old.Close())
			opened := make(chan error, 3)
			for range cap(opened) {
				go func() {
					s, err := sqlstore.Open(bg, dsn)
					if err == nil {
						err = s.Close()
					}
					opened <- err
				}()
			}
			for range cap(opened) {
				if err := <-opened; err != nil {
					t.Errorf("%v: %v", drop, err)
				}
			}
			s, err := sqlstore.Open(bg, dsn)
			okAny(t, err)
			areas := val(s.Areas(bg))(t)
			for _, v := range val(s.Services(bg))(t) {
				if len(areas) != 1 || v.Area != areas[0].ID {
					t.Errorf("%v: service %s in area %d, areas %+v", drop, v.Code, v.Area, areas)
				}
			}
			okAny(t, s.Close())
		}
	})
}
