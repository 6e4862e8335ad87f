package sqlstore

import (
	"sync"
	"testing"

	"gorm.io/gorm/schema"
)

// One archive INSERT must bind fewer than SQL Server's 2,100 parameters
// for the history row as the ORM writes it, columns counted by the ORM
// itself, not by hand.
func TestHistoryInsertUnderParameterLimit(t *testing.T) {
	s, err := schema.Parse(&historyRow{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	cols := len(s.DBNames)
	if cols != historyColumns() {
		t.Fatalf("history row has %d columns, the batch size assumes %d", cols, historyColumns())
	}
	if historyInsertRows < 1 {
		t.Fatalf("%d rows per INSERT", historyInsertRows)
	}
	if n := historyInsertRows * cols; n >= 2100 {
		t.Fatalf("%d rows × %d columns = %d parameters per INSERT, SQL Server allows 2,100", historyInsertRows, cols, n)
	}
	t.Logf("%d rows × %d columns = %d parameters", historyInsertRows, cols, historyInsertRows*cols)
}
