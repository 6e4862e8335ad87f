package dao

import (
	"context"
	"time"

	"gorm.io/gorm"
)

type postgresDialect struct{}

func (postgresDialect) name() string { return "postgres" }

func (postgresDialect) now(ctx context.Context, db *gorm.DB) (time.Time, error) {
	var t time.Time
	err := db.WithContext(ctx).Raw("SELECT clock_timestamp()").Scan(&t).Error
	return t.UTC(), err
}

func (postgresDialect) increment(db *gorm.DB, table, column, where string, args ...any) (int64, bool, error) {
	return sqliteDialect{}.increment(db, table, column, where, args...) // same RETURNING syntax
}

func (postgresDialect) insertIgnore(db *gorm.DB, table string, cols []string, vals []any) error {
	return sqliteDialect{}.insertIgnore(db, table, cols, vals) // same ON CONFLICT syntax
}

func (postgresDialect) claimNext(db *gorm.DB, c claim) (int64, error) {
	return lockThenClaim(db, c, "")
}

func (postgresDialect) errorKind(err error) errKind {
	return classify(err, []string{"SQLSTATE 40P01", "SQLSTATE 40001"}, []string{"SQLSTATE 23505"})
}
