package model

import (
	"strings"
	"testing"
)

// InArea keeps what belongs to the area: its services, their calls and
// passed numbers, and the windows that serve one of them, each holding
// only a ticket of the area.
func TestSnapshotInArea(t *testing.T) {
	a, v := Ticket{ID: 1, Number: "A001", Service: "A", Window: 1}, Ticket{ID: 2, Number: "V001", Service: "V", Window: 3}
	s := Snapshot{
		Areas:       []Area{{ID: 1, Name: "大厅"}, {ID: 2, Name: "二楼贵宾区", Where: "二楼"}},
		Services:    []ServiceCount{{Code: "A", Area: 1, Waiting: 4}, {Code: "V", Area: 2, Waiting: 1}},
		Windows:     []WindowState{{Window: Window{Number: 1, Services: []string{"A", "V"}}, Current: &a}, {Window: Window{Number: 2, Services: []string{"A"}}}, {Window: Window{Number: 3, Services: []string{"V"}}, Current: &v}},
		RecentCalls: []Ticket{v, a},
		Passed:      []Ticket{{Number: "A000", Service: "A"}, {Number: "V000", Service: "V"}},
	}
	up := s.InArea(2)
	if len(up.Services) != 1 || up.Services[0].Code != "V" || len(up.RecentCalls) != 1 || up.RecentCalls[0].Number != "V001" ||
		len(up.Passed) != 1 || up.Passed[0].Number != "V000" {
		t.Fatalf("area 2: %+v", up)
	}
	if len(up.Windows) != 2 || up.Windows[0].Number != 1 || up.Windows[0].Current != nil || up.Windows[1].Current == nil {
		t.Fatalf("area 2's windows: %+v", up.Windows)
	}
	if s.Windows[0].Current == nil || len(s.Services) != 2 {
		t.Fatal("InArea changed the snapshot it was given")
	}
	if all := s.InArea(0); len(all.Services) != 2 || len(all.Windows) != 3 {
		t.Fatalf("area 0 is every area: %+v", all)
	}
	if got, ok := s.AreaOf("V"); !ok || got.Spoken() != "二楼" {
		t.Fatalf("AreaOf(V) = %+v, %v", got, ok)
	}
	if got, _ := s.AreaOf("A"); got.Spoken() != "大厅" {
		t.Fatalf("an area without a place is said by its name: %q", got.Spoken())
	}
}

func TestCheckArea(t *testing.T) {
	if a, err := CheckArea(Area{Name: " 二楼贵宾区 ", Where: " 二楼 "}); err != nil || a.Name != "二楼贵宾区" || a.Where != "二楼" {
		t.Fatalf("a good area: %+v, %v", a, err)
	}
	for _, bad := range []Area{{}, {Name: strings.Repeat("区", MaxNameLen+1)}, {Name: "x", Where: strings.Repeat("楼", MaxWhereLen+1)}, {Name: "x", Where: "a\x00"}} {
		if _, err := CheckArea(bad); !IsCode(err, EInvalidInput) || !strings.Contains(ErrorMessage(err), "(") {
			t.Errorf("%+v: %v, want one sentence in both languages", bad, err)
		}
	}
}
