package sqlstore_test

import (
	"strings"
	"sync/atomic"
	"testing"

	"gorm.io/gorm"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// A manager disabling a clerk while the clerk signs in at another PC: the
// disable commits after the sign-in read the account as enabled and
// before it wrote the window. Whichever way the two are ordered, the
// disabled clerk ends up signed in nowhere.
func TestStaffDisableDuringSignIn(t *testing.T) {
	daotest.EachDSN(t, func(t *testing.T, dsn string) {
		stores := openStores(t, dsn, 2)
		desk, manager := stores[0], stores[1]
		addStaff(t, desk, "8008", "陈晨")
		disabled := make(chan error, 1)
		var reads atomic.Int32
		err := desk.DB().Callback().Query().After("gorm:query").Register("test:disable_meanwhile", func(tx *gorm.DB) {
			// The sign-in reads the account twice: to check the password
			// outside the transaction, then inside it.
			if tx.Statement.Table != "staff" || reads.Add(1) != 2 {
				return
			}
			done := make(chan struct{})
			go func() {
				_, err := manager.SetStaffEnabled(bg, "8008", false)
				disabled <- err
				close(done)
			}()
			if !strings.HasPrefix(dsn, "sqlite:") { // SQLite's writers queue behind this one
				waitDoneOrBlocked(t, manager, done)
			}
		})
		okAny(t, err)
		_, err = desk.SignIn(bg, 1, "8008", staffPass)
		if err != nil {
			wantCode(t, err, model.EStaffDisabled)
		}
		okAny(t, <-disabled)
		if c := clerkAt(t, manager, 1); c != nil {
			t.Fatalf("the disabled clerk %+v is still signed in at window 1 (sign-in answered %v)", c, err)
		}
	})
}

// waitDoneOrBlocked waits until done closes or a session of this database
// waits for a row lock (the disable queued behind the sign-in's lock).
func waitDoneOrBlocked(t *testing.T, s *sqlstore.GormStore, done <-chan struct{}) {
	t.Helper()
	q := `SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
	if strings.Contains(s.DB().Dialector.Name(), "mysql") {
		// MariaDB shows a statement waiting for a row lock as Updating.
		q = `SELECT COUNT(*) FROM information_schema.processlist
			WHERE db = DATABASE() AND state = 'Updating' AND info LIKE 'UPDATE%staff%'`
	}
	for {
		select {
		case <-done:
			return
		default:
		}
		var n int
		if err := s.DB().Raw(q).Scan(&n).Error; err != nil {
			t.Error(err)
			return
		}
		if n > 0 {
			return
		}
	}
}
