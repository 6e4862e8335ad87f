package demodata_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"jiaohao/app/demodata"
	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// dayTicket is a ticket row as the test reads it, straight from the table.
type dayTicket struct {
	ID             int64
	IssueServiceID int64
	SeqNo          int
	Number         string
	Status         int
	IssuedAt       time.Time
}

type dayEvent struct {
	Version    int64
	TicketID   *int64
	Kind       string
	At         time.Time
	FromStatus int
	ToStatus   int
}

// TestSeedDayKeepsTheQueueInvariants plays a day and checks it the way an
// auditor would: numbers unique and contiguous per service, every ticket's
// events a legal chain from take to its final status, one event per
// operation the generator made, all within the day.
func TestSeedDayKeepsTheQueueInvariants(t *testing.T) {
	daotest.Each(t, func(t *testing.T, st *sqlstore.GormStore) {
		ctx := context.Background()
		before, _ := st.Now(ctx)
		sum, err := demodata.Day(ctx, st, demodata.DayConfig{Date: "2026-03-02", Tickets: 120})
		if err != nil {
			t.Fatal(err)
		}
		after, _ := st.Now(ctx)
		if d := after.Sub(before); d < 0 || d > time.Hour {
			t.Errorf("the clock was not restored: moved %v", d)
		}
		var tickets []dayTicket
		if err := st.DB().Table("ticket").Order("id").Find(&tickets).Error; err != nil {
			t.Fatal(err)
		}
		if len(tickets) != 120 || sum.Tickets != 120 {
			t.Fatalf("tickets in table %d, generator says %d; want 120", len(tickets), sum.Tickets)
		}
		checkNumbers(t, tickets)
		checkDay(t, st, tickets)
		var events []dayEvent
		if err := st.DB().Table("queue_event").Order("version").Find(&events).Error; err != nil {
			t.Fatal(err)
		}
		checkHistories(t, tickets, events, sum)
		if sum.WindowChanges == 0 {
			t.Error("no window was opened or paused")
		}
		want := map[model.Status]int{}
		for _, tk := range tickets {
			want[model.Status(tk.Status)]++
		}
		for s, n := range want {
			if sum.ByStatus[s] != n {
				t.Errorf("status %v: generator counted %d, table has %d", s, sum.ByStatus[s], n)
			}
		}
		t.Logf("outcomes by status: %v", want)
		if want[model.Done] < 60 || want[model.Passed]+want[model.Cancelled] == 0 {
			t.Errorf("outcomes are not a realistic mix: %v", want)
		}
		if _, err := demodata.Day(ctx, st, demodata.DayConfig{Date: "2026-03-02", Tickets: 5}); model.ErrorCode(err) != model.EInvalidInput {
			t.Errorf("seeding a day that has tickets: %v, want invalid input", err)
		}
	})
}

func checkNumbers(t *testing.T, tickets []dayTicket) {
	t.Helper()
	seqs := map[int64][]int{}
	numbers := map[string]bool{}
	for _, tk := range tickets {
		seqs[tk.IssueServiceID] = append(seqs[tk.IssueServiceID], tk.SeqNo)
		if numbers[tk.Number] {
			t.Errorf("number %s issued twice", tk.Number)
		}
		numbers[tk.Number] = true
	}
	for svc, s := range seqs {
		sort.Ints(s)
		for i := range s {
			if s[i] != s[0]+i {
				t.Fatalf("service %d numbers are not contiguous: %v", svc, s)
			}
		}
	}
}

// checkDay: every ticket was issued between 09:00 and 17:00 local, with
// more in the morning than in the afternoon's last hours.
func checkDay(t *testing.T, st *sqlstore.GormStore, tickets []dayTicket) {
	t.Helper()
	byHour := map[int]int{}
	for _, tk := range tickets {
		l := tk.IssuedAt.In(st.Location())
		if l.Format("2006-01-02") != "2026-03-02" || l.Hour() < 9 || l.Hour() >= 17 {
			t.Fatalf("ticket %s issued at %v, outside the business day", tk.Number, l)
		}
		byHour[l.Hour()]++
	}
	if byHour[10] <= byHour[16] {
		t.Errorf("no morning peak: %v", byHour)
	}
}

// legal is every (from, to, kind) the state machine allows.
var legal = map[string][][2]model.Status{
	model.EvTake:     {{0, model.Waiting}},
	model.EvCall:     {{model.Waiting, model.Called}},
	model.EvRecall:   {{model.Called, model.Called}},
	model.EvPass:     {{model.Called, model.Passed}},
	model.EvUndoPass: {{model.Passed, model.Called}},
	model.EvRequeue:  {{model.Passed, model.Waiting}},
	model.EvStart:    {{model.Called, model.Serving}},
	model.EvFinish:   {{model.Serving, model.Done}},
	model.EvCancel:   {{model.Waiting, model.Cancelled}, {model.Called, model.Cancelled}, {model.Passed, model.Cancelled}},
	model.EvTransfer: {{model.Called, model.Called}, {model.Serving, model.Serving}, {model.Called, model.Waiting}, {model.Serving, model.Waiting}},
	model.EvRate:     {{model.Done, model.Done}}, // a rating leaves the ticket done
}

func checkHistories(t *testing.T, tickets []dayTicket, events []dayEvent, sum demodata.DaySummary) {
	t.Helper()
	byTicket := map[int64][]dayEvent{}
	for i, e := range events {
		if i > 0 && (e.Version != events[i-1].Version+1 || e.At.Before(events[i-1].At)) {
			t.Fatalf("event %d: versions or times out of order", e.Version)
		}
		if e.TicketID != nil {
			byTicket[*e.TicketID] = append(byTicket[*e.TicketID], e)
		}
	}
	for _, tk := range tickets {
		evs := byTicket[tk.ID]
		if len(evs) != sum.Transitions[tk.ID] {
			t.Errorf("%s: %d events for %d operations", tk.Number, len(evs), sum.Transitions[tk.ID])
		}
		state := model.Status(0)
		for _, e := range evs {
			if !allowed(e.Kind, model.Status(e.FromStatus), model.Status(e.ToStatus)) || model.Status(e.FromStatus) != state {
				t.Fatalf("%s: illegal step %s %d->%d after state %d", tk.Number, e.Kind, e.FromStatus, e.ToStatus, state)
			}
			state = model.Status(e.ToStatus)
		}
		if state != model.Status(tk.Status) {
			t.Errorf("%s: events end in %v, the row says %v", tk.Number, state, model.Status(tk.Status))
		}
	}
}

func allowed(kind string, from, to model.Status) bool {
	for _, p := range legal[kind] {
		if p[0] == from && p[1] == to {
			return true
		}
	}
	return false
}
