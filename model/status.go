package model

import "strings"

// Status is a ticket's state. The numbers follow the classic t_TicketFlow
// StatusId so hand-written SQL stays readable.
type Status int

const (
	Waiting   Status = 1
	Called    Status = 2
	Passed    Status = 3
	Serving   Status = 4
	Done      Status = 5
	Cancelled Status = 6
)

var statusNames = map[Status]string{
	Waiting: "waiting", Called: "called", Passed: "passed",
	Serving: "serving", Done: "done", Cancelled: "cancelled",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return "unknown"
}

// Valid reports whether s is one of the six states.
func (s Status) Valid() bool { _, ok := statusNames[s]; return ok }

// ParseStatus turns "waiting" (or "1") back into a Status.
func ParseStatus(v string) (Status, bool) {
	for s, n := range statusNames {
		if strings.EqualFold(v, n) || v == string(rune('0'+int(s))) {
			return s, true
		}
	}
	return 0, false
}

// Lane orders waiting tickets: the recall pool is served before new tickets
// of the same services, so a customer who walked slowly keeps their turn.
type Lane int

const (
	LaneRecall Lane = 1
	LaneNormal Lane = 2
)

// WindowStatus is whether a window takes calls.
type WindowStatus int

const (
	WindowOpen   WindowStatus = 1
	WindowPaused WindowStatus = 2
	WindowClosed WindowStatus = 3
	// WindowLunch is the lunch break (午休, seed 003 DevStatus 2): like a
	// pause it takes no calls, but it is planned, so the idle sweeper
	// never counts it and the report keeps it apart from pause time.
	WindowLunch WindowStatus = 4
)

var windowStatusNames = map[WindowStatus]string{WindowOpen: "open", WindowPaused: "paused", WindowClosed: "closed", WindowLunch: "lunch"}

// WindowStatuses are the window statuses in the order a form offers them.
var WindowStatuses = []WindowStatus{WindowOpen, WindowPaused, WindowLunch, WindowClosed}

func (s WindowStatus) String() string {
	if n, ok := windowStatusNames[s]; ok {
		return n
	}
	return "unknown"
}

// ParseWindowStatus turns "open", "paused", "lunch" or "closed" into a
// WindowStatus.
func ParseWindowStatus(v string) (WindowStatus, error) {
	for s, n := range windowStatusNames {
		if strings.EqualFold(v, n) {
			return s, nil
		}
	}
	return 0, Errorf(EInvalidInput, "窗口状态只能是 open、paused、lunch 或 closed，收到 %q", v)
}

// MarshalText writes the status by name, as the peer protocol does.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a status name.
func (s *Status) UnmarshalText(b []byte) error {
	v, ok := ParseStatus(string(b))
	if !ok {
		return Errorf(EInvalidInput, "未知的号码状态 %q", string(b))
	}
	*s = v
	return nil
}

// MarshalText writes the window status by name.
func (s WindowStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a window status name.
func (s *WindowStatus) UnmarshalText(b []byte) error {
	v, err := ParseWindowStatus(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Printable says whether a ticket in this status still gets a slip sent
// to a kiosk printed: it is in line, or called and not yet at the window
// (the customer may still want it). A served or cancelled ticket never
// prints.
func (s Status) Printable() bool { return s == Waiting || s == Called || s == Passed }
