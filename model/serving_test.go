package model

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Every serving-order name is a Ticket field's JSON name, and ServingKey
// reads that very field: the SQL built from the names and the Go order
// built from the keys are one order.
func TestServingOrderNamesTheKeyFields(t *testing.T) {
	tk := Ticket{ID: 11, Lane: LaneRecall, Priority: 3, SortKey: 7}
	v := reflect.ValueOf(tk)
	byName := map[string]int64{}
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if f := v.Field(i); f.CanInt() {
			byName[name] = f.Int()
		}
	}
	names, key := ServingOrder(), ServingKey(tk)
	if !slices.Equal(names, []string{"lane", "priority", "sort_key", "id"}) {
		t.Fatalf("serving order %v, want recall pool, priority, issue order, id", names)
	}
	for i, n := range names {
		got, ok := byName[n]
		if !ok || got != key[i] {
			t.Fatalf("ServingKey[%d] = %d, but Ticket.%s is %d (found %v)", i, key[i], n, got, ok)
		}
	}
}

func TestServedBefore(t *testing.T) {
	want := []Ticket{
		{ID: 9, Number: "A009", Lane: LaneRecall, Priority: 5, SortKey: 90}, // recall pool first, even behind a VIP
		{ID: 8, Number: "V001", Lane: LaneNormal, Priority: 1, SortKey: 80}, // then priority
		{ID: 2, Number: "A002", Lane: LaneNormal, Priority: 5, SortKey: 20}, // then issue order
		{ID: 5, Number: "A005", Lane: LaneNormal, Priority: 5, SortKey: 21}, // requeued between
		{ID: 3, Number: "A003", Lane: LaneNormal, Priority: 5, SortKey: 30},
		{ID: 4, Number: "A004", Lane: LaneNormal, Priority: 5, SortKey: 30}, // ties by id
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	sort.Slice(got, func(i, j int) bool { return ServedBefore(got[i], got[j]) })
	for i := range want {
		if got[i].Number != want[i].Number {
			t.Fatalf("position %d: %s, want %s", i, got[i].Number, want[i].Number)
		}
	}
	if ServedBefore(want[0], want[0]) {
		t.Fatal("a ticket is served before itself")
	}
}
