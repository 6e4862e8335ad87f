package reports

// branchWords are the words of the report over several branches in one
// language; the rest are the branch report's (labels).
type branchWords struct {
	Title, Branches, ByBranch, Total, AllBranches                  string
	PassedPct, AvgWait, P90Wait, AvgService, RatingRate, Satisfied string
	Days, Median, Warned, Apart                                    string
}

var branchWordSets = map[Lang]branchWords{
	LangZH: {
		Title: "多网点业务统计报表", Branches: "网点数", ByBranch: "分网点统计", Total: "合计", AllBranches: "（全部网点）",
		PassedPct: "过号率", AvgWait: "平均等待", P90Wait: "90% 等待", AvgService: "平均办理", RatingRate: "评价率", Satisfied: "满意占比",
		Days:   "各网点按其所在时区的营业日统计，分时段取号量按各网点的当地时间。",
		Median: "合计行的等待中位数与 90% 等待按全部网点的全部号码计算（精确到秒），平均值按全部号码加权。",
		Warned: "! 表示该网点过号率超过其自身设置的阈值。满意占比为非常满意与满意之和。",
		Apart:  "分窗口、分员工统计与状态核查见各网点自己的报表。",
	},
	LangEN: {
		Title: "Multi-branch service report", Branches: "Branches", ByBranch: "By branch", Total: "Total", AllBranches: " (all branches)",
		PassedPct: "Passed %", AvgWait: "Avg wait", P90Wait: "P90 wait", AvgService: "Avg service", RatingRate: "Rated %", Satisfied: "Satisfied",
		Days:   "Each branch is counted on its own business days in its own time zone; arrivals per hour are by each branch's local hour.",
		Median: "The total's median and 90th percentile wait are over every ticket of every branch (to the second); its averages weigh every ticket.",
		Warned: "! marks a branch whose passed ratio is above its own threshold. Satisfied is very satisfied plus satisfied.",
		Apart:  "Windows, staff and the status check are in each branch's own report.",
	},
}

func branchWordsFor(l Lang) branchWords {
	if w, ok := branchWordSets[l]; ok {
		return w
	}
	return branchWordSets[LangZH]
}
