package model

import "time"

// The functions below are the only ways a ticket changes state. Each takes
// the ticket as stored, returns it as it must be stored after the change, or
// an error that says why not. They never look at a clock: now comes from the
// database.
//
// window is the acting window; 0 means the manager acting on any window. A
// window acts only on the tickets it holds or passed. FloorWindow is staff
// on the hall floor, at no window.

// FloorWindow is the acting "window" of staff on the hall floor (a
// handheld, seed 000): for a customer who came back after being passed
// they requeue the ticket or cancel it, whichever window passed it. The
// floor holds no ticket, so every other change is refused: it calls and
// serves nobody, and drops no waiting ticket.
const FloorWindow = -1

func illegal(t Ticket, action string) error {
	return Errorf(EInvalidTransition, "号码 %s 当前为%s，不能%s", t.Number, StatusLabel(t.Status), action)
}

// floorMay is what the floor does to a passed ticket.
var floorMay = map[string]bool{"重新排队": true, "弃号": true}

func checkWindow(t Ticket, window int, action string) error {
	if window == FloorWindow {
		if !floorMay[action] || t.Status != Passed {
			return Errorf(EForbidden, "大厅人员只能为已过号的号码重新排队或弃号，号码 %s 当前为%s，不能%s (floor staff only requeue or cancel a passed ticket)",
				t.Number, StatusLabel(t.Status), action)
		}
		return nil
	}
	if window != 0 && t.Window != window {
		return Errorf(EInvalidTransition, "号码 %s 不在 %d 号窗口，不能%s", t.Number, window, action)
	}
	return nil
}

// sameDay refuses acting on a ticket of another business day than today.
func sameDay(t Ticket, today, action string) error {
	if t.BusinessDate == today {
		return nil
	}
	return Errorf(EOtherDay, "号码 %s 是 %s 的号码，今天（%s）不能%s (a ticket of another business day)", t.Number, t.BusinessDate, today, action)
}

// Call claims a waiting ticket for a window (never the floor's).
func Call(t Ticket, window int, now time.Time) (Ticket, error) {
	if window <= 0 {
		return t, Errorf(EInvalidInput, "窗口号必须大于 0")
	}
	if t.Status != Waiting {
		return t, illegal(t, "叫号")
	}
	t.Status, t.Window, t.Lane = Called, window, LaneNormal
	t.CallCount++
	t.CalledAt = &now
	return t, nil
}

// Recall re-announces a called ticket at the same window.
func Recall(t Ticket, window int, now time.Time) (Ticket, error) {
	if t.Status != Called {
		return t, illegal(t, "重呼")
	}
	if err := checkWindow(t, window, "重呼"); err != nil {
		return t, err
	}
	t.CallCount++
	t.CalledAt = &now
	return t, nil
}

// Timeout handles a called ticket nobody came for: back to waiting in the
// recall pool while call_count <= recallMax, passed after that.
func Timeout(t Ticket, recallMax int) (Ticket, error) {
	if t.Status != Called {
		return t, illegal(t, "超时处理")
	}
	if t.CallCount <= recallMax {
		t.Status, t.Lane, t.Window = Waiting, LaneRecall, 0
		return t, nil
	}
	t.Status = Passed
	return t, nil
}

// Pass marks a called ticket as passed; it keeps its window so that window
// can call it back.
func Pass(t Ticket, window int) (Ticket, error) {
	if t.Status != Called {
		return t, illegal(t, "过号")
	}
	if err := checkWindow(t, window, "过号"); err != nil {
		return t, err
	}
	t.Status = Passed
	return t, nil
}

// UndoPass calls a passed ticket back to the window that passed it.
func UndoPass(t Ticket, window int, now time.Time) (Ticket, error) {
	if t.Status != Passed {
		return t, illegal(t, "撤销过号")
	}
	if err := checkWindow(t, window, "撤销过号"); err != nil {
		return t, err
	}
	t.Status = Called
	t.CallCount++
	t.CalledAt = &now
	return t, nil
}

// Requeue puts a passed ticket back to waiting with its number; where it
// stands in the queue is decided by the store (requeue_offset after the head).
// today is the business date the store is in: a ticket of another day is
// never requeued, by anyone, since it would wait on a closed day that no
// window calls and change that day's report.
func Requeue(t Ticket, window int, today string) (Ticket, error) {
	if t.Status != Passed {
		return t, illegal(t, "重新排队")
	}
	if err := checkWindow(t, window, "重新排队"); err != nil {
		return t, err
	}
	if err := sameDay(t, today, "重新排队"); err != nil {
		return t, err
	}
	t.Status, t.Lane, t.Window = Waiting, LaneNormal, 0
	t.Requeued++
	return t, nil
}

// Start begins serving a called ticket.
func Start(t Ticket, window int, now time.Time) (Ticket, error) {
	if t.Status != Called {
		return t, illegal(t, "开始办理")
	}
	if err := checkWindow(t, window, "开始办理"); err != nil {
		return t, err
	}
	t.Status = Serving
	t.ServeStartAt = &now
	return t, nil
}

// Finish closes a ticket being served.
func Finish(t Ticket, window int, now time.Time) (Ticket, error) {
	if t.Status != Serving {
		return t, illegal(t, "完成")
	}
	if err := checkWindow(t, window, "完成"); err != nil {
		return t, err
	}
	t.Status = Done
	t.FinishedAt = &now
	return t, nil
}

// Cancel abandons a ticket that is not yet being served. The number is never
// reused.
//
// A window cancels only a ticket it holds or passed. A waiting ticket is no
// clerk's to drop, not even one of a service the window serves: otherwise
// any window's token could empty the queue (and a clerk could clear the
// line before closing time). Waiting tickets are cancelled by the manager,
// who acts as window 0. The floor (FloorWindow) cancels a passed ticket
// only, and of today (the business date the store is in): a customer who
// came back and no longer wants it. A closed day's tickets are the
// manager's to clean up, not the floor's.
func Cancel(t Ticket, window int, today string, now time.Time) (Ticket, error) {
	if t.Status != Waiting && t.Status != Called && t.Status != Passed {
		return t, illegal(t, "弃号")
	}
	if window == FloorWindow {
		if err := checkWindow(t, window, "弃号"); err != nil {
			return t, err
		}
		if err := sameDay(t, today, "弃号"); err != nil {
			return t, err
		}
	}
	if t.Status == Waiting && window != 0 {
		return t, Errorf(EForbidden, "号码 %s 正在等待，窗口不能弃号，请由管理员取消 (a window cannot cancel a waiting ticket; the manager can)", t.Number)
	}
	if err := checkWindow(t, window, "弃号"); err != nil {
		return t, err
	}
	t.Status = Cancelled
	t.FinishedAt = &now
	return t, nil
}

// Transfer moves a called or serving ticket to another window (same status
// there) or into another service's queue (waiting, keeping its number and
// its place by issue time).
func Transfer(t Ticket, window int, to TransferTarget) (Ticket, error) {
	if err := canLeave(t, window); err != nil {
		return t, err
	}
	switch {
	case to.Window > 0 && to.Service == "":
		if to.Window == t.Window {
			return t, Errorf(EInvalidInput, "号码 %s 已在 %d 号窗口", t.Number, to.Window)
		}
		t.Window = to.Window
	case to.Service != "" && to.Window == 0:
		if to.Service == t.Service {
			return t, Errorf(EInvalidInput, "号码 %s 已在业务 %s 的队列", t.Number, to.Service)
		}
		t.Status, t.Lane, t.Window, t.Service = Waiting, LaneNormal, 0, to.Service
		t.ServeStartAt = nil
	default:
		return t, Errorf(EInvalidInput, "转移须指定一个目标窗口或一个目标业务")
	}
	return t, nil
}

// canLeave is the part of Transfer that does not depend on the target: the
// ticket is called or being served at the acting window.
func canLeave(t Ticket, window int) error {
	if t.Status != Called && t.Status != Serving {
		return illegal(t, "转移")
	}
	return checkWindow(t, window, "转移")
}

// StatusLabel is the Chinese name of a status, for messages.
func StatusLabel(s Status) string {
	switch s {
	case Waiting:
		return "等待中"
	case Called:
		return "已叫号"
	case Passed:
		return "已过号"
	case Serving:
		return "办理中"
	case Done:
		return "已完成"
	case Cancelled:
		return "已弃号"
	}
	return "未知状态"
}
