package reports

import (
	"sort"
	"strconv"

	"jiaohao/model"
)

// The satisfaction part as the PDF and the CSV write it.

// satRows are the part's rows in order, each with its group: the
// total, then services, windows and clerks.
func satRows(s Satisfaction) (groups []string, rows []SatisfactionRow) {
	add := func(g string, rs ...SatisfactionRow) {
		for _, r := range rs {
			groups, rows = append(groups, g), append(rows, r)
		}
	}
	add("total", s.Total)
	add("service", s.Services...)
	add("window", s.Windows...)
	add("staff", s.Staff...)
	return groups, rows
}

// satisfactionCSV is the CSV section: counts and shares of each level,
// best first, and the rating rate.
func satisfactionCSV(r Report) [][]string {
	if !r.Satisfaction.Kept {
		return nil
	}
	out := [][]string{{"satisfaction", "group", "key", "name", "served", "rated", "rating_rate",
		"very_satisfied", "satisfied", "fair", "unsatisfied",
		"very_satisfied_share", "satisfied_share", "fair_share", "unsatisfied_share"}}
	groups, rows := satRows(r.Satisfaction)
	for i, x := range rows {
		line := []string{"satisfaction", groups[i], x.Key, x.Name, itoa(x.Served), itoa(x.Rated.Count()), share(x.RatingRate())}
		for _, s := range model.Scores {
			line = append(line, itoa(x.Rated.Of(s)))
		}
		for _, p := range levelParts(x.Rated, 10000) {
			line = append(line, strconv.FormatFloat(float64(p)/10000, 'f', 4, 64))
		}
		out = append(out, line)
	}
	return out
}

// levelParts are the levels' shares in model.Scores' order, in parts of
// whole that add up to whole (none with no rating): each share rounded on
// its own would give 99.99 % for three ratings of three levels, so the
// parts the rounding down leaves go to the largest remainders (largest
// remainder method; a tie to the better level).
func levelParts(m model.Satisfaction, whole int) [4]int {
	var parts [4]int
	n := m.Count()
	if n == 0 {
		return parts
	}
	rest := make([]int, 0, 4)
	left := whole
	for i, s := range model.Scores {
		parts[i] = m.Of(s) * whole / n
		left -= parts[i]
		rest = append(rest, i)
	}
	sort.SliceStable(rest, func(a, b int) bool {
		return m.Of(model.Scores[rest[a]])*whole%n > m.Of(model.Scores[rest[b]])*whole%n
	})
	for _, i := range rest[:left] {
		parts[i]++
	}
	return parts
}

func share(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }

// satisfaction is the PDF's table; a store that keeps no ratings has
// none.
func (d *pdfDoc) satisfaction(r Report) {
	if !r.Satisfaction.Kept {
		return
	}
	d.heading(d.lb.Satisfaction)
	groups, rows := satRows(r.Satisfaction)
	out := make([][]string, 0, len(rows))
	for i, x := range rows {
		who := x.Name
		switch groups[i] {
		case "total":
			who = d.lb.AllTickets
		case "service":
			who = d.lb.Service + " " + x.Name
		case "window": // a window's name says it is one (2号窗口)
			if who == "" {
				who = d.lb.Window + " " + x.Key
			}
		case "staff":
			who = d.lb.NoClerk
			if x.Key != "" {
				who = x.Key + " " + x.Name
			}
		}
		line := []string{who, itoa(x.Served), itoa(x.Rated.Count()), percent(x.RatingRate())}
		for _, p := range levelParts(x.Rated, 1000) {
			line = append(line, strconv.FormatFloat(float64(p)/10, 'f', 1, 64)+"%")
		}
		out = append(out, line)
	}
	head := []string{d.lb.Group, d.lb.Served, d.lb.Rated, d.lb.RatingRate}
	head = append(head, d.lb.Scores[:]...)
	d.table(head, []float64{2.2, 0.8, 0.8, 0.9, 1, 1, 1, 1}, out)
}
