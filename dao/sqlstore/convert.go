package sqlstore

import (
	"encoding/json"
	"time"

	"jiaohao/model"
)

// codes maps service ids to codes for turning rows into model values.
type codes map[int64]string

func (r ticketRow) toModel(c codes) model.Ticket {
	t := model.Ticket{
		ID: r.ID, Number: r.Number, Service: c[r.ServiceID], IssueService: c[r.IssueServiceID],
		BusinessDate: r.BusinessDate, SeqNo: r.SeqNo, Priority: r.Priority, Status: model.Status(r.Status),
		Lane: model.Lane(r.Lane), CallCount: r.CallCount, Requeued: r.Requeued, SortKey: r.SortKey, PublicID: r.PublicID,
		Source: r.Source, IssuedAt: r.IssuedAt.UTC(), CalledAt: utcPtr(r.CalledAt),
		ServeStartAt: utcPtr(r.ServeStartedAt), FinishedAt: utcPtr(r.FinishedAt),
	}
	if r.WindowNo != nil {
		t.Window = *r.WindowNo
	}
	if r.CustomerID != nil {
		t.CustomerID = *r.CustomerID
	}
	if r.CustomerLevel != nil {
		t.Level = *r.CustomerLevel
	}
	if r.PrintAt != nil {
		t.PrintAt, t.PrintedAt = *r.PrintAt, utcPtr(r.PrintedAt)
		if r.PrintKioskID != nil {
			t.PrintKiosk = *r.PrintKioskID
		}
		if r.PrintClaim != nil {
			t.PrintClaim = *r.PrintClaim
		}
	}
	return t
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func intPtr(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

func (r eventRow) toModel() model.Event {
	e := model.Event{
		Version: r.Version, At: r.At.UTC(), Kind: r.Kind, FromStatus: model.Status(r.FromStatus),
		ToStatus: model.Status(r.ToStatus), Actor: r.Actor,
	}
	if r.TicketID != nil {
		e.TicketID = *r.TicketID
	}
	if r.WindowNo != nil {
		e.Window = *r.WindowNo
	}
	if r.StaffID != nil {
		e.StaffID = *r.StaffID
	}
	var d eventDetail
	if json.Unmarshal([]byte(r.Detail), &d) == nil {
		e.Ticket, e.WindowInfo, e.Device, e.Alert, e.Detail = d.Ticket, d.Window, d.Device, d.Alert, d.Note
	}
	return e
}

// eventDetail is what queue_event.detail holds: the state after the change,
// so a terminal can apply the event without reading anything else.
type eventDetail struct {
	Ticket *model.Ticket `json:"ticket,omitempty"`
	Window *model.Window `json:"window,omitempty"`
	Device *model.Device `json:"device,omitempty"`
	Alert  *model.Alert  `json:"alert,omitempty"`
	Note   string        `json:"note,omitempty"`
}

func (r serviceRow) toModel() model.Service {
	return model.Service{ID: r.ID, Code: r.Code, Name: r.Name, Priority: r.Priority, StartNo: r.StartNo,
		Width: r.Width, Enabled: r.Enabled, SortOrder: r.SortOrder, Area: r.AreaID}
}

func (r windowRow) toModel(services []string) model.Window {
	w := model.Window{Number: r.Number, Name: r.Name, Status: model.WindowStatus(r.Status),
		Services: services, LastActionAt: utcPtr(r.LastActionAt)}
	if w.Services == nil {
		w.Services = []string{}
	}
	if r.CurrentTicketID != nil {
		w.CurrentID = *r.CurrentTicketID
	}
	return w
}
