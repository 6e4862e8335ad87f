package sqlstore

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"gorm.io/gorm/schema"
)

// The early head is scanned by hand: its column list must name every
// column of ticketRow, in the order of the fields it scans into, or a
// column added later would be written back empty by the call.
func TestTicketRowColumnsAreEveryColumn(t *testing.T) {
	sch, err := schema.Parse(&ticketRow{}, &sync.Map{}, schema.NamingStrategy{})
	if err != nil {
		t.Fatal(err)
	}
	cols := strings.Split(ticketRowColumns, ", ")
	if !slices.Equal(cols, sch.DBNames) {
		t.Fatalf("ticketRowColumns %v, the table's columns %v", cols, sch.DBNames)
	}
	var r ticketRow
	fields := r.fields()
	if len(fields) != len(sch.Fields) {
		t.Fatalf("%d fields scanned, %d columns", len(fields), len(sch.Fields))
	}
	for i, f := range sch.Fields {
		if got := f.ReflectValueOf(t.Context(), reflect.ValueOf(&r).Elem()).Addr().Interface(); got != fields[i] {
			t.Fatalf("column %s scans into field %d, not its own", f.DBName, i)
		}
	}
}
