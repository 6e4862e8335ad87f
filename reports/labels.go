package reports

import (
	"jiaohao/model"
)

// Lang selects the report's language: Chinese headings by default, English
// on request.
type Lang string

const (
	LangZH Lang = "zh"
	LangEN Lang = "en"
)

// ParseLang accepts "zh", "en" or "" (Chinese).
func ParseLang(s string) (Lang, error) {
	switch Lang(s) {
	case "", LangZH:
		return LangZH, nil
	case LangEN:
		return LangEN, nil
	}
	return "", model.Errorf(model.EInvalidInput, "不支持的语言 %q，请用 zh 或 en (unsupported language)", s)
}

// labels are the words of one language.
type labels struct {
	Title, Branch, Period, Generated, Page                        string
	Totals, Taken, Done, Passed, Cancelled, Waiting, Called, Open string
	Serving, PassedRatio, PassedWarn, PassedOK                    string
	Services, Service, Count, AvgWait, MedianWait, P90Wait        string
	AvgService, Windows, Window, Served, PausedTime, LunchTime    string
	Requeued                                                      string
	Staff, Clerk, NoClerk                                         string
	Levels, Level, NoLevel                                        string
	Arrivals, Hour, WaitDist, Minutes, Tickets                    string
	Stuck, StuckNone, Number, Status, IssuedAt, CalledAt, Date    string
	BySource                                                      string
	Estimate, EstCompared, EstMedianError, EstWithin              string
	Satisfaction, Group, Rated, RatingRate, AllTickets            string
	Scores                                                        [4]string // model.Scores' order: best first
	// SourceNames names the known ticket sources; others print as stored.
	SourceNames map[string]string
}

var labelSets = map[Lang]labels{
	LangZH: {
		Title: "网点业务统计报表", Branch: "网点", Period: "统计期间", Generated: "生成时间", Page: "第 %d 页 / 共 %d 页",
		Totals: "总量", Taken: "取号", Done: "已完成", Passed: "过号", Cancelled: "弃号",
		Waiting: "等待中", Called: "已叫号", Open: "营业结束时仍在等待或已叫号", Serving: "办理中",
		PassedRatio: "过号率", PassedWarn: "过号率超过 %s：请检查呼叫超时设置和语音播报音量", PassedOK: "正常",
		Services: "分业务统计", Service: "业务", Count: "取号数", AvgWait: "平均等待",
		MedianWait: "等待中位数", P90Wait: "90% 等待", AvgService: "平均办理时长",
		Windows: "分窗口统计", Window: "窗口", Served: "办结数", PausedTime: "暂停时长", LunchTime: "午休时长", Requeued: "重叫数",
		Staff: "分员工统计", Clerk: "员工（工号 姓名）", NoClerk: "未登录员工",
		Levels: "分客户等级统计", Level: "客户等级", NoLevel: "未识别客户",
		Arrivals: "分时段取号量", Hour: "时", WaitDist: "等待时长分布", Minutes: "分钟", Tickets: "张",
		Stuck: "状态核查：营业结束时停留在已叫号或办理中的号码", StuckNone: "无异常号码",
		Number: "号码", Status: "状态", IssuedAt: "取号时间", CalledAt: "叫号时间", Date: "日期",
		Estimate: "等待时间预估准确度", EstCompared: "比较的号码（已叫号且有预估）", EstMedianError: "误差中位数", EstWithin: "误差在 3 分钟以内",
		Satisfaction: "客户满意度", Group: "范围", Rated: "评价数", RatingRate: "评价率", AllTickets: "全部",
		Scores:   [4]string{"非常满意", "满意", "一般", "不满意"},
		BySource: "取号来源", SourceNames: map[string]string{model.SourceKiosk: "取号机", model.SourceWindow: "窗口代取", model.SourceHandheld: "手持终端代取", "manager": "管理端"},
	},
	LangEN: {
		Title: "Branch service report", Branch: "Branch", Period: "Period", Generated: "Generated", Page: "Page %d of %d",
		Totals: "Totals", Taken: "Taken", Done: "Done", Passed: "Passed", Cancelled: "Cancelled",
		Waiting: "Waiting", Called: "Called", Open: "Still waiting or called at close", Serving: "Serving",
		PassedRatio: "Passed ratio", PassedWarn: "Passed ratio above %s: check the call timeout and the announcement volume", PassedOK: "normal",
		Services: "By service", Service: "Service", Count: "Tickets", AvgWait: "Avg wait",
		MedianWait: "Median wait", P90Wait: "90th pct wait", AvgService: "Avg service",
		Windows: "By window", Window: "Window", Served: "Served", PausedTime: "Time paused", LunchTime: "Lunch", Requeued: "Requeued",
		Staff: "By staff", Clerk: "Staff (number, name)", NoClerk: "Nobody signed in",
		Levels: "By customer level", Level: "Customer level", NoLevel: "Not identified",
		Arrivals: "Arrivals per hour", Hour: "h", WaitDist: "Wait distribution", Minutes: "min", Tickets: "tickets",
		Stuck: "Status check: tickets left called or serving at close", StuckNone: "none",
		Number: "Number", Status: "Status", IssuedAt: "Issued", CalledAt: "Called", Date: "Date",
		Estimate: "Wait estimate accuracy", EstCompared: "Compared (called, with an estimate)", EstMedianError: "Median error", EstWithin: "Within 3 min",
		Satisfaction: "Customer satisfaction", Group: "Group", Rated: "Rated", RatingRate: "Rating rate", AllTickets: "All",
		Scores:   [4]string{"Very satisfied", "Satisfied", "Fair", "Unsatisfied"},
		BySource: "Taken at", SourceNames: map[string]string{model.SourceKiosk: "kiosk", model.SourceWindow: "window (for a customer)", model.SourceHandheld: "staff handheld (for a customer)"},
	},
}

func labelsFor(l Lang) labels {
	if s, ok := labelSets[l]; ok {
		return s
	}
	return labelSets[LangZH]
}

// statusName is a ticket status in the report's language.
func statusName(l Lang, s model.Status) string {
	if l == LangEN {
		return s.String()
	}
	return model.StatusLabel(s)
}
