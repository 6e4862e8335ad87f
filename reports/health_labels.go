package reports

// healthWords are the health summary's words in one language.
type healthWords struct {
	Title, Checked, Fine, Flagged, StuckN, PassedOver, Threshold string
	Table, Total, Ratio, Stuck, StuckList, Since                 string
}

var healthWordSets = map[Lang]healthWords{
	LangZH: {
		Title: "每日健康检查", Checked: "检查时间", Fine: "正常：没有滞留的号码，各业务过号率均未超过阈值",
		Flagged: "需要处理", StuckN: "%d 个号码停留在已叫号或办理中（结单未落库，报表会偏少）",
		PassedOver: "过号率超过 %s：%s（请检查呼叫超时设置和语音播报音量）", Threshold: "过号率阈值 %s（设置项 alert_passed_ratio_pct）",
		Table: "分业务健康度", Total: "合计", Ratio: "过号率", Stuck: "滞留",
		StuckList: "滞留号码：检查时仍为已叫号或办理中", Since: "自",
	},
	LangEN: {
		Title: "Daily health check", Checked: "Checked", Fine: "Fine: no ticket left open, every service's passed ratio within the threshold",
		Flagged: "Needs attention", StuckN: "%d tickets left called or serving (finishes not recorded: the report falls short)",
		PassedOver: "passed ratio above %s: %s (check the call timeout and the announcement volume)", Threshold: "Passed ratio threshold %s (setting alert_passed_ratio_pct)",
		Table: "Health by service", Total: "Total", Ratio: "Passed %", Stuck: "Stuck",
		StuckList: "Stuck tickets: still called or serving at the check", Since: "Since",
	},
}

func healthWordsFor(l Lang) healthWords {
	if w, ok := healthWordSets[l]; ok {
		return w
	}
	return healthWordSets[LangZH]
}
