package model

import (
	"context"
	"strings"
	"unicode/utf8"
)

// Area is a waiting area of the branch (等候区, seed 002): a floor or a room
// the customers of some services wait in, e.g. 一楼大厅 or 二楼贵宾区. Where
// is the short place the voice and the ticket name ("二楼"). Every branch
// has at least one; the first (smallest id) is the default, where a
// service saved without an area goes and where the services of a database
// from before areas existed were put.
type Area struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Where string `json:"where"`
}

// MaxWhereLen bounds an area's place text, said in one breath.
const MaxWhereLen = 10

// CheckArea accepts an area's name (like a service's) and its place text
// (up to MaxWhereLen characters, may be empty), both trimmed first.
func CheckArea(a Area) (Area, error) {
	a.Name, a.Where = strings.TrimSpace(a.Name), strings.TrimSpace(a.Where)
	if err := CheckName("等候区名称", "area name", a.Name); err != nil {
		return a, err
	}
	if utf8.RuneCountInString(a.Where) > MaxWhereLen {
		return a, Errorf(EInvalidInput, "位置须不超过 %d 个字 (the place must be at most %d characters)", MaxWhereLen, MaxWhereLen)
	}
	return a, CheckText("位置", "place", a.Where, false)
}

// Spoken is what the voice and the ticket say of the area: its place, or
// its name when no place is set.
func (a Area) Spoken() string {
	if a.Where != "" {
		return a.Where
	}
	return a.Name
}

// Label names the area for a customer looking for it: "二楼贵宾区（二楼）",
// or the name alone when the place adds nothing.
func (a Area) Label() string {
	if a.Where == "" || a.Where == a.Name {
		return a.Name
	}
	return a.Name + "（" + a.Where + "）"
}

// Areas is the manager's work on the waiting areas. Both adapters have
// it; the snapshot carries the areas and each service's area, so screens
// never ask.
type Areas interface {
	// Areas lists the branch's areas, the default first.
	Areas(ctx context.Context) ([]Area, error)
	// SaveArea adds an area (ID 0) or renames one; an unknown ID is
	// ENotFound, a name another area has EConflict.
	SaveArea(ctx context.Context, a Area) (Area, error)
	// DeleteArea removes an area no service belongs to; one with services
	// is EAreaNotEmpty, the last one EInvalidInput, and nothing changes.
	DeleteArea(ctx context.Context, id int64) error
}

// AreaOf is the area the service of code belongs to, by the snapshot;
// false when the snapshot does not know it.
func (s Snapshot) AreaOf(code string) (Area, bool) {
	for _, c := range s.Services {
		if c.Code == code {
			for _, a := range s.Areas {
				if a.ID == c.Area {
					return a, true
				}
			}
		}
	}
	return Area{}, false
}

// InArea is the snapshot as a hall screen of one area sees it: the
// services of that area, the calls and passed numbers of those services,
// and the windows that serve one of them, each holding its ticket only
// when that is of the area. area 0 is every area: the
// snapshot as it is.
func (s Snapshot) InArea(area int64) Snapshot {
	if area == 0 {
		return s
	}
	in := map[string]bool{}
	svc := make([]ServiceCount, 0, len(s.Services))
	for _, c := range s.Services {
		if c.Area == area {
			in[c.Code] = true
			svc = append(svc, c)
		}
	}
	keep := func(ts []Ticket) []Ticket {
		out := make([]Ticket, 0, len(ts))
		for _, t := range ts {
			if in[t.Service] {
				out = append(out, t)
			}
		}
		return out
	}
	ws := make([]WindowState, 0, len(s.Windows))
	for _, w := range s.Windows {
		if w.Current != nil && !in[w.Current.Service] {
			w.Current = nil // serving a customer of another area: not this hall's call
		}
		if w.Current != nil || servesAny(w.Window, in) {
			ws = append(ws, w)
		}
	}
	s.Services, s.RecentCalls, s.Passed, s.Windows = svc, keep(s.RecentCalls), keep(s.Passed), ws
	return s
}

func servesAny(w Window, in map[string]bool) bool {
	for _, c := range w.Services {
		if in[c] {
			return true
		}
	}
	return false
}
