package printing

import (
	"strings"
	"testing"

	"jiaohao/model"
)

// A ticket taken while no open window serves its service prints no
// minutes: the windows that serve it would reach it once back, which is
// not a wait to promise on paper.
func TestSlipNoWindowPrintsNoMinutes(t *testing.T) {
	tk := model.Ticket{Number: "A003", Service: "A"}
	line := Header{}.Slip(tk, model.Position{Ahead: 2, ETASeconds: 600, NoWindow: true}).aheadLine()
	if strings.Contains(line, "分钟") || !strings.Contains(line, "2") {
		t.Fatalf("no window serving: %q, want the 2 ahead and no minutes", line)
	}
	if line := (Header{}).Slip(tk, model.Position{Ahead: 2, ETASeconds: 600}).aheadLine(); !strings.Contains(line, "10 分钟") {
		t.Fatalf("an open window: %q, want about 10 minutes", line)
	}
}
