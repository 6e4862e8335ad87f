package sqlstore

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"

	"jiaohao/model"
)

// migrate creates or updates the tables and what the dialect adds to them
// (SQL Server's procedure, PostgreSQL's write guard), and seeds a fresh
// database with one working branch. Safe to run from several PCs at once:
// every seed insert ignores rows that already exist.
func (s *GormStore) migrate(ctx context.Context) error {
	db := s.db.WithContext(ctx)
	if err := autoMigrate(ctx, db); err != nil {
		return err
	}
	if err := s.d.migrate(db); err != nil {
		return err
	}
	if err := s.seed(ctx); err != nil {
		return err
	}
	if err := codeBranches(db); err != nil {
		return err
	}
	return s.prepareBranch(ctx)
}

// prepareBranch gives the Store's branch what every branch starts with and
// an older database lacks: its default waiting area and customer levels.
// Migrate runs it for the first branch; opening or adding another runs it
// for that one, so every branch of a database starts alike.
func (s *GormStore) prepareBranch(ctx context.Context) error {
	if err := s.migrateAreas(ctx); err != nil {
		return err
	}
	return s.migrateLevels(ctx)
}

// migrateTries bounds autoMigrate's attempts: one per object an upgrade
// adds that another PC may add first (the area table, its index,
// service.area_id, the rating table, ticket_sequence's last_key and
// key_no), and one that finds them all.
const migrateTries = 8

// autoMigrate is GORM's AutoMigrate, which checks for a table, column or
// index and then adds it: PCs upgrading a database at once both find
// service.area_id missing, and the second's ALTER fails on the column the
// first just added. Checking again then finds it there and goes on.
func autoMigrate(ctx context.Context, db *gorm.DB) error {
	var err error
	for range migrateTries {
		if err = db.AutoMigrate(allTables()...); err == nil || ctx.Err() != nil {
			return err
		}
	}
	return err
}

type seedService struct {
	code, name string
	priority   int
}

var defaultServices = []seedService{{"A", "个人业务", 5}, {"B", "对公业务", 5}, {"V", "贵宾", 1}}

func (s *GormStore) seed(ctx context.Context) error {
	var n int64
	if err := s.db.WithContext(ctx).Model(&branchRow{}).Where("id = ?", s.branchID).Count(&n).Error; err != nil || n > 0 {
		return err
	}
	now, err := s.d.now(ctx, s.db)
	if err != nil {
		return err
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		err := s.d.givenID(tx, "branch", func() error {
			return s.d.insertIgnore(tx, "branch", []string{"id", "code", "name", "time_zone", "version"},
				[]any{s.branchID, model.DefaultBranchCode(s.branchID), "营业网点", "Asia/Shanghai", 0})
		})
		if err != nil {
			return err
		}
		return seedBranch(s.d, tx, s.branchID, now)
	})
}

// seedBranch gives a new branch the default services and four open
// windows serving them all, in the caller's transaction.
func seedBranch(d dialect, tx *gorm.DB, branch int64, now time.Time) error {
	ins := func(table string, cols []string, vals ...any) error {
		return d.insertIgnore(tx, table, cols, vals)
	}
	ids := make([]int64, 0, len(defaultServices))
	for i, sv := range defaultServices {
		if err := ins("service", []string{"branch_id", "code", "name", "priority", "start_no", "width", "enabled", "sort_order"},
			branch, sv.code, sv.name, sv.priority, 1, 0, true, i+1); err != nil {
			return err
		}
		var id int64
		if err := tx.Raw("SELECT id FROM service WHERE branch_id = ? AND code = ?", branch, sv.code).Scan(&id).Error; err != nil {
			return err
		}
		ids = append(ids, id)
	}
	for w := 1; w <= 4; w++ {
		if err := ins("service_window", []string{"branch_id", "number", "name", "status", "last_action_at"},
			branch, w, fmt.Sprintf("%d号窗口", w), int(model.WindowOpen), now.UTC().Truncate(time.Microsecond)); err != nil {
			return err
		}
		for _, id := range ids {
			if err := ins("window_service", []string{"branch_id", "window_no", "service_id"}, branch, w, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// codeBranches gives every branch from before codes its default one
// (B001 for branch 1), so an existing database keeps working with no
// --branch and `branch list` shows what to type. PCs migrating at once
// write the same codes.
func codeBranches(db *gorm.DB) error {
	var ids []int64
	if err := db.Model(&branchRow{}).Where("code = '' OR code IS NULL").Order("id").Pluck("id", &ids).Error; err != nil {
		return err
	}
	for _, id := range ids {
		if err := db.Exec("UPDATE branch SET code = ? WHERE id = ? AND (code = '' OR code IS NULL)", model.DefaultBranchCode(id), id).Error; err != nil {
			return fmt.Errorf("giving branch %d its code: %w", id, err)
		}
	}
	return nil
}
