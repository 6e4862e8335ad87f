package sqlstore

import (
	"context"

	"gorm.io/gorm"
)

// writeTx is one write transaction and how its engine ends it: the last
// event and the commit may travel together (PostgreSQL, pgTx) or one
// round trip each (sqlTx).
type writeTx interface {
	db() *gorm.DB
	// commit makes the tail writes, appends last (nil: the transaction
	// logs no event), commits, and returns last's version.
	commit(last *eventRow, tail []tailWrite) (int64, error)
	// rollback ends a transaction that did not commit.
	rollback()
	// read runs q, handing each row to row with its scan function. A
	// transaction's first statement may travel with its BEGIN (pgTx):
	// q's arguments are single values, not lists.
	read(q string, args []any, row func(scan func(...any) error) error) error
}

// sqlTx is a writeTx on database/sql's transaction.
type sqlTx struct {
	g *gorm.DB
	d dialect
}

func beginSQL(ctx context.Context, db *gorm.DB, d dialect) (writeTx, error) {
	g := db.WithContext(ctx).Begin()
	return sqlTx{g: g, d: d}, g.Error
}

func (x sqlTx) db() *gorm.DB { return x.g }

func (x sqlTx) commit(last *eventRow, tail []tailWrite) (int64, error) {
	var v int64
	var err error
	if last != nil {
		v, err = x.d.appendEvent(x.g, *last, tail)
	} else {
		err = execTail(x.g, tail)
	}
	if err != nil {
		return 0, err
	}
	return v, x.g.Commit().Error
}

func (x sqlTx) rollback() { x.g.Rollback() }

func (x sqlTx) read(q string, args []any, row func(scan func(...any) error) error) error {
	return readRows(x.g, q, args, row)
}

// readRows is read through GORM.
func readRows(g *gorm.DB, q string, args []any, row func(scan func(...any) error) error) error {
	rows, err := g.Raw(q, args...).Rows()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
