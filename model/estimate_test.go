package model

import (
	"testing"
	"time"
)

const perMin = time.Minute

func open(n int, services ...string) EstimateWindow {
	return EstimateWindow{Number: n, Services: services, Open: true, Idle: true}
}

func minuteEach(in EstimateInput) EstimateInput {
	in.Default = perMin
	return in
}

// A 综合 window that serves A and B calls the B tickets ahead of an A
// ticket before it: they are ahead of it and take its time. The old
// estimate counted only the A ticket.
func TestEstimateCountsOtherServicesOfTheSameWindow(t *testing.T) {
	in := minuteEach(EstimateInput{Service: "A", Ahead: []string{"B", "B", "A"}, Windows: []EstimateWindow{open(1, "A", "B")}})
	got := Estimate(in)
	if got != (Position{Ahead: 3, ETASeconds: 180}) {
		t.Fatalf("综合 window: %+v, want 3 ahead and 3 minutes", got)
	}
	// The same queue at an A-only window: the B tickets are not its work
	// (the store would not even read them).
	in = minuteEach(EstimateInput{Service: "A", Ahead: []string{"A"}, Windows: []EstimateWindow{open(1, "A"), open(2, "B")}})
	if got := Estimate(in); got != (Position{Ahead: 1, ETASeconds: 60}) {
		t.Fatalf("A-only window: %+v, want 1 ahead and 1 minute", got)
	}
}

// A B-only window takes B tickets off the 综合 window's hands: the A
// ticket is reached sooner, and the B ticket the other window called is
// still one called before it.
func TestEstimateBOnlyWindowShares(t *testing.T) {
	in := minuteEach(EstimateInput{Service: "A", Ahead: []string{"B", "B", "A"},
		Windows: []EstimateWindow{open(1, "A", "B"), open(2, "B")}})
	if got := Estimate(in); got != (Position{Ahead: 3, ETASeconds: 120}) {
		t.Fatalf("with a B window: %+v, want 3 ahead and 2 minutes", got)
	}
	// A B ticket behind the A ones at a B window that also serves C: the
	// C tickets are called first by the window that could have helped.
	in = minuteEach(EstimateInput{Service: "B", Ahead: []string{"C", "C", "A"},
		Windows: []EstimateWindow{open(1, "A", "B"), open(2, "B", "C")}})
	got := Estimate(in)
	// t=0: 1 takes A, 2 takes C; t=1: 1 takes the B ticket.
	if got.ETASeconds != 60 {
		t.Fatalf("B ticket: %+v, want called after 1 minute", got)
	}
	if got.Ahead != 2 {
		t.Fatalf("B ticket: %d ahead, want the A and the C called before it", got.Ahead)
	}
}

// Paused, lunch and closed windows call no one; a busy window frees up
// at its customer's expected finish.
func TestEstimateWindowsThatDoNotServe(t *testing.T) {
	paused := open(2, "A")
	paused.Open = false
	in := minuteEach(EstimateInput{Service: "A", Ahead: []string{"A", "A"}, Windows: []EstimateWindow{open(1, "A"), paused}})
	if got := Estimate(in); got != (Position{Ahead: 2, ETASeconds: 120}) {
		t.Fatalf("one open window: %+v", got)
	}
	busy := EstimateWindow{Number: 1, Services: []string{"A"}, Open: true, Busy: 20 * time.Second, Current: "A"}
	in = EstimateInput{Service: "A", Windows: []EstimateWindow{busy}, PerService: map[string]time.Duration{"A": perMin}}
	if got := Estimate(in); got != (Position{Ahead: 0, ETASeconds: 40}) {
		t.Fatalf("busy window: %+v, want free in 40 s", got)
	}
	// No window serves A at all: one at a time.
	in = minuteEach(EstimateInput{Service: "A", Ahead: []string{"A", "A"}, Windows: []EstimateWindow{open(1, "B")}})
	if got := Estimate(in); got != (Position{Ahead: 2, ETASeconds: 120, NoWindow: true}) {
		t.Fatalf("no window for A: %+v", got)
	}
	// No window open for A: the windows that serve it, as if back now.
	in = minuteEach(EstimateInput{Service: "A", Ahead: []string{"A"}, Windows: []EstimateWindow{paused}})
	if got := Estimate(in); got != (Position{Ahead: 1, ETASeconds: 60, NoWindow: true}) {
		t.Fatalf("all paused: %+v", got)
	}
}

// At a lunch of every window, or before opening, nothing ahead is not
// "no wait": no one calls it until a window is back, and the position
// says so. An open window serving it, even with others at lunch, is a
// wait again.
func TestEstimateNoOpenWindowIsNotNoWait(t *testing.T) {
	lunch := open(1, "A", "B")
	lunch.Open = false
	in := minuteEach(EstimateInput{Service: "A", Windows: []EstimateWindow{lunch, open(2, "B")}})
	if got := Estimate(in); !got.NoWindow || got.Ahead != 0 {
		t.Fatalf("all A windows at lunch, nothing ahead: %+v, want no window serving now", got)
	}
	in.Windows = append(in.Windows, open(3, "A"))
	if got := Estimate(in); got != (Position{Ahead: 0, ETASeconds: 0}) {
		t.Fatalf("an A window open: %+v, want called now", got)
	}
}

// The window's own recent time per customer of each service is used, and
// customers of a better priority arriving meanwhile are served first.
func TestEstimateRatesAndJumpers(t *testing.T) {
	in := EstimateInput{Service: "A", Ahead: []string{"B", "A"}, Windows: []EstimateWindow{open(1, "A", "B")},
		PerTicket:  map[WindowService]time.Duration{{1, "B"}: 5 * perMin, {1, "A"}: 2 * perMin},
		PerService: map[string]time.Duration{"A": perMin, "B": perMin}}
	if got := Estimate(in); got.ETASeconds != 7*60 {
		t.Fatalf("per window and service: %+v, want 7 minutes", got)
	}
	in = minuteEach(EstimateInput{Service: "A", Ahead: []string{"A", "A", "A"}, Windows: []EstimateWindow{open(1, "A", "V")},
		Jumpers: map[string]float64{"V": 1.0 / 150}})
	// Minutes 0, 1, 2: the A tickets; 3: a V who arrived at 2:30; 4: this.
	if got := Estimate(in); got != (Position{Ahead: 3, ETASeconds: 240}) {
		t.Fatalf("with VIPs arriving: %+v", got)
	}
}

// The tickets ahead are bounded: at MaxAhead the count says 999+.
func TestEstimateBounded(t *testing.T) {
	ahead := make([]string, MaxAhead)
	for i := range ahead {
		ahead[i] = "A"
	}
	ws := []EstimateWindow{open(1, "A"), open(2, "A"), open(3, "A"), open(4, "A")}
	got := Estimate(minuteEach(EstimateInput{Service: "A", Ahead: ahead, Windows: ws}))
	// 999 ahead over 4 windows: this ticket is the 1,000th, the 250th
	// round of calls.
	if got.Ahead != MaxAhead || got.AheadText() != "999+" || got.ETASeconds != 249*60 {
		t.Fatalf("full hall: %+v", got)
	}
}

func TestEstimateServicesFollowsSharedWindows(t *testing.T) {
	ws := []EstimateWindow{open(1, "A", "B"), open(2, "B", "C"), open(3, "D")}
	got := EstimateServices(ws, "A")
	if len(got) != 3 || got[0] != "A" || got[1] != "B" || got[2] != "C" {
		t.Fatalf("services for A: %v, want A B C", got)
	}
}

// Past the tickets read one by one, the rest follow their mix.
func TestFillAhead(t *testing.T) {
	got := FillAhead([]string{"A", "B", "A"}, 7)
	want := []string{"A", "B", "A", "A", "B", "A", "A"}
	if len(got) != len(want) {
		t.Fatalf("%v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v, want %v", got, want)
		}
	}
	if got := FillAhead([]string{"A"}, 1); len(got) != 1 {
		t.Fatalf("nothing past the read ones: %v", got)
	}
}

// Idle windows that serve only the VIPs wake at every VIP arrival; many of
// them and a steady VIP rate must not use up the played steps and turn a
// ticket the 综合 window reaches into the 12-hour horizon. The V windows
// take VIPs off the 综合 window's hands, so they never make it later.
func TestEstimateManyIdleVIPWindows(t *testing.T) {
	ahead := make([]string, 200)
	for i := range ahead {
		ahead[i] = "A"
	}
	in := EstimateInput{Service: "A", Ahead: ahead, Windows: []EstimateWindow{open(1, "A", "V")},
		PerService: map[string]time.Duration{"A": 30 * time.Second, "V": 3 * time.Second}, Jumpers: map[string]float64{"V": 0.1}}
	alone := Estimate(in)
	if alone.ETASeconds >= int(estimateHorizon.Seconds()) {
		t.Fatalf("one 综合 window: %+v, want reached before the horizon", alone)
	}
	for n := 2; n <= 64; n++ {
		in.Windows = append(in.Windows, open(n, "V"))
	}
	got := Estimate(in)
	if got.ETASeconds > alone.ETASeconds {
		t.Fatalf("with 63 idle V windows: %+v, want no later than %+v", got, alone)
	}
	if got.ETASeconds < 200*30 {
		t.Fatalf("with 63 idle V windows: %+v, want at least the 200 A tickets' time", got)
	}
}
