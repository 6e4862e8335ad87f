package printing

import (
	"context"
	"fmt"
	"time"

	"jiaohao/model"
)

// Slip is everything printed on one ticket, already resolved to text.
type Slip struct {
	Branch  string
	Service string // the service's name, not its code
	// Area is where the customer waits ("二楼贵宾区（二楼）"), "" when the
	// branch has one area: nothing to choose, nothing printed.
	Area string
	// Level is the registered customer's level line ("贵宾客户"), "" for
	// a number taken without identification; never their name or number.
	Level  string
	Number string
	Ahead  int
	Wait   time.Duration
	Issued time.Time // database clock, in the branch's time zone
	URL    string    // customer page; "" prints no QR code
	Footer string
}

// Header is what a ticket shows besides the ticket itself; it comes from
// the branch settings at print time so a changed footer applies at once.
type Header struct {
	Branch      string
	Footer      string
	CustomerURL string            // base, e.g. http://host:8520
	Services    map[string]string // code -> name
	// Areas is each service's waiting area (code -> area), filled only
	// when the branch has more than one.
	Areas    map[string]model.Area
	Location *time.Location // branch time zone; nil: the PC's
}

// HeaderFunc supplies the Header when a job is rendered.
type HeaderFunc func(ctx context.Context) (Header, error)

// StaticHeader always returns h; for tools and tests.
func StaticHeader(h Header) HeaderFunc {
	return func(context.Context) (Header, error) { return h, nil }
}

// StoreHeader reads the branch name, services, footer and customer URL from
// the store, and the branch time zone from its snapshot, so a name or zone
// the manager changes prints on the next ticket. loc is the zone when the
// snapshot names none the program knows (nil: the PC's).
func StoreHeader(st model.Store, loc *time.Location) HeaderFunc {
	return func(ctx context.Context) (Header, error) {
		set, err := st.Settings(ctx)
		if err != nil {
			return Header{}, fmt.Errorf("read settings: %w", err)
		}
		svcs, err := st.Services(ctx)
		if err != nil {
			return Header{}, fmt.Errorf("read services: %w", err)
		}
		snap, err := st.Snapshot(ctx)
		if err != nil {
			return Header{}, fmt.Errorf("read branch: %w", err)
		}
		h := Header{
			Branch:      snap.Branch,
			Footer:      set.Raw["ticket_footer"],
			CustomerURL: set.Raw["customer_url"],
			Services:    make(map[string]string, len(svcs)),
			Location:    loc,
		}
		if z, err := model.LoadZone(snap.TimeZone); err == nil {
			h.Location = z
		}
		for _, s := range svcs {
			h.Services[s.Code] = s.Name
		}
		if len(snap.Areas) > 1 {
			h.Areas = make(map[string]model.Area, len(snap.Services))
			for _, c := range snap.Services {
				if a, ok := snap.AreaOf(c.Code); ok {
					h.Areas[c.Code] = a
				}
			}
		}
		return h, nil
	}
}

// Slip fills a Slip for a ticket at its position.
func (h Header) Slip(t model.Ticket, pos model.Position) Slip {
	code := t.IssueService
	if code == "" {
		code = t.Service
	}
	name := h.Services[code]
	if name == "" {
		name = code
	}
	// The database clock is stored in UTC; customers read branch time, and
	// the kiosk PC stands in the branch when no zone is known.
	loc := h.Location
	if loc == nil {
		loc = time.Local
	}
	issued := t.IssuedAt.In(loc)
	wait := time.Duration(pos.ETASeconds) * time.Second
	if pos.NoWindow {
		// No open window serves it now: no minutes to print.
		wait = 0
	}
	return Slip{
		Branch:  h.Branch,
		Service: name,
		Area:    AreaLine(h.Areas[t.Service]),
		Level:   LevelLine(t.Level),
		Number:  t.Number,
		Ahead:   pos.Ahead,
		Wait:    wait,
		Issued:  issued,
		URL:     CustomerURL(h.CustomerURL, t.PublicID),
		Footer:  h.Footer,
	}
}

// CustomerURL is the page a customer's QR code opens: base + /t/{public_id}.
// Either part missing gives "", and the ticket is printed without QR code.
func CustomerURL(base, publicID string) string { return model.CustomerURL(base, publicID) }

// AreaLine is where a ticket's customer waits, as the ticket and the
// kiosk say it: "请到 二楼贵宾区（二楼）等候"; "" for no area.
func AreaLine(a model.Area) string {
	if a.Name == "" {
		return ""
	}
	return "请到 " + a.Label() + " 等候"
}

// LevelLine is the customer's level as the ticket prints it; "" for none.
func LevelLine(level string) string {
	if level == "" {
		return ""
	}
	return level + "客户"
}

// aheadLine says how long the customer will wait, in the hall's words.
func (s Slip) aheadLine() string {
	if s.Ahead <= 0 {
		return "前面没有人，请留意叫号"
	}
	mins := int((s.Wait + time.Minute - 1) / time.Minute)
	if mins <= 0 {
		return fmt.Sprintf("前面还有 %s 人", model.Position{Ahead: s.Ahead}.AheadText())
	}
	return fmt.Sprintf("前面还有 %s 人，预计等待约 %d 分钟", model.Position{Ahead: s.Ahead}.AheadText(), mins)
}

func (s Slip) issuedLine() string {
	if s.Issued.IsZero() {
		return ""
	}
	return "取号时间 " + s.Issued.Format("2006-01-02 15:04")
}

// SampleSlip is the ticket print-test prints for installers.
func SampleSlip(number string, now time.Time) Slip {
	return Slip{
		Branch:  "叫号系统打印测试",
		Service: "个人业务",
		Number:  number,
		Ahead:   3,
		Wait:    9 * time.Minute,
		Issued:  now,
		URL:     "http://127.0.0.1:8520/t/print-test",
		Footer:  model.DefaultSettings["ticket_footer"],
	}
}
