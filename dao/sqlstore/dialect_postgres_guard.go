package sqlstore

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// The two checks a PostgreSQL write's last statement makes, sent with its
// COMMIT (see pgTx): once COMMIT is on its way, only failing the
// statement stops it, and the server then skips the commit.

// guardCode and lateCode are the SQLSTATEs they raise.
const (
	guardCode = "JH409" // a guarded tail write found its row changed since it was read
	lateCode  = "JH408" // the statement got its locks after the caller's deadline
)

// guardsMarker is in both functions' bodies; a database whose functions
// have it is left alone.
const guardsMarker = "jiaohao:guards:v2"

// oneRowFunc fails the statement when a guarded write changed no row:
// another terminal won the race, and the write is retried.
const oneRowFunc = `CREATE OR REPLACE FUNCTION jiaohao_one_row(n bigint) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	-- ` + guardsMarker + `
	IF n <> 1 THEN
		RAISE EXCEPTION 'concurrent update' USING ERRCODE = '` + guardCode + `';
	END IF;
	RETURN n;
END $$`

// inTimeFunc fails the statement when more than budget seconds have gone
// since its transaction began, by the database's own clock (no PC clock
// and no shifted demo clock is compared with it). A caller that gives up (a kiosk's request at the
// server's deadline) no longer stops the commit by not sending it, so
// without this a take stuck behind a lock, or on a frozen server, would
// commit once it got through: a number nobody holds, after the kiosk said
// it failed.
const inTimeFunc = `CREATE OR REPLACE FUNCTION jiaohao_in_time(budget double precision) RETURNS bigint LANGUAGE plpgsql AS $$
BEGIN
	-- ` + guardsMarker + `
	IF clock_timestamp() > transaction_timestamp() + budget * interval '1 second' THEN
		RAISE EXCEPTION 'past the deadline' USING ERRCODE = '` + lateCode + `';
	END IF;
	RETURN 0;
END $$`

// installGuards creates the functions unless they are there; PCs opening
// the database at once may both create them, and the second then finds
// them.
func installGuards(db *gorm.DB) error {
	have := func() (bool, error) {
		var n int64
		err := db.Raw("SELECT COUNT(*) FROM pg_proc WHERE proname IN ('jiaohao_one_row', 'jiaohao_in_time') AND pronamespace = current_schema()::regnamespace AND prosrc LIKE ?",
			"%"+guardsMarker+"%").Scan(&n).Error
		return n == 2, err
	}
	if ok, err := have(); err != nil || ok {
		return err
	}
	for _, f := range []string{oneRowFunc, inTimeFunc} {
		if err := db.Exec(f).Error; err != nil {
			if ok, err2 := have(); err2 == nil && ok {
				return nil
			}
			return fmt.Errorf("creating the write guards: %w", err)
		}
	}
	return nil
}

// pastBudget says err is jiaohao_in_time's, or errLate: the write waited
// too long (for a lock, a busy server), which is a deadline missed, not a
// database that is down.
func pastBudget(err error) bool {
	var pe *pgconn.PgError
	return errors.Is(err, errLate) || errors.As(err, &pe) && pe.Code == lateCode
}
