package reports

import (
	"slices"
	"time"
)

// durations are the samples of one total figure (a wait, a service time)
// over every branch: their exact sum and how many fell on each whole
// second. A year of a hundred branches is a hundred million waits; held as
// they are they would take gigabytes, counted by second they take a few
// thousand entries. The report writes durations rounded to the second, and
// rounding keeps their order, so the median or percentile of the counts is
// exactly the rounded median or percentile of the waits themselves.
type durations struct {
	sum   // exact, as Average adds
	bySec map[int64]int
}

func (d *durations) add(v time.Duration) {
	if d.bySec == nil {
		d.bySec = map[int64]int{}
	}
	d.sum.add(v)
	d.bySec[int64(v.Round(time.Second)/time.Second)]++
}

func (d *durations) addAll(vs []time.Duration) {
	for _, v := range vs {
		d.add(v)
	}
}

// percentile is Percentile of the samples rounded to the second.
func (d *durations) percentile(p float64) time.Duration {
	if d.n == 0 {
		return 0
	}
	k := rank(d.n, p)
	secs := make([]int64, 0, len(d.bySec))
	for s := range d.bySec {
		secs = append(secs, s)
	}
	slices.Sort(secs)
	seen := 0
	for _, s := range secs {
		if seen += d.bySec[s]; seen >= k {
			return time.Duration(s) * time.Second
		}
	}
	return time.Duration(secs[len(secs)-1]) * time.Second
}

// sampled is a total row (a service, a level, all tickets) and its samples.
type sampled struct {
	ServiceStats
	waits, times durations
}

func (s *sampled) finish() ServiceStats {
	out := s.ServiceStats
	out.Called, out.AvgWait = s.waits.n, s.waits.mean()
	out.MedianWait, out.P90Wait = s.waits.percentile(0.5), s.waits.percentile(0.9)
	out.Served, out.AvgService = s.times.n, s.times.mean()
	return out
}

// merge adds the branches up as they are reported.
type merge struct {
	r        Report // the counts
	all      sampled
	keys     []string // services by code and name, in the order first met
	services map[string]*sampled
	levels   map[string]*sampled // Statuses and waits by level name
	sources  map[string]int
	estimate durations                   // the estimates' errors
	satCodes map[string]*SatisfactionRow // by serviceKey
}

func newMerge() *merge {
	m := &merge{services: map[string]*sampled{}, levels: map[string]*sampled{}, sources: map[string]int{},
		satCodes: map[string]*SatisfactionRow{}}
	m.r.WaitHistogram = make([]Bucket, len(waitBounds))
	for i, b := range waitBounds {
		m.r.WaitHistogram[i].From = b
		if i+1 < len(waitBounds) {
			m.r.WaitHistogram[i].To = waitBounds[i+1]
		}
	}
	return m
}

// add counts one branch: r is its report, t the tally it came from.
func (m *merge) add(t *tally, r Report) {
	addTotals(&m.r.Totals, r.Totals)
	addTotals(&m.all.Statuses, r.Totals)
	m.all.Count += r.Totals.Taken
	for h, n := range r.ArrivalsByHour {
		m.r.ArrivalsByHour[h] += n
	}
	for i, b := range r.WaitHistogram {
		m.r.WaitHistogram[i].Count += b.Count
	}
	for _, s := range r.Sources {
		m.sources[s.Source] += s.Count
	}
	for _, id := range t.svc.order { // the branch's display order
		row := m.service(t.svc.code(id), t.svc.rows[id].Name)
		row.waits.addAll(t.waits[id])
		row.times.addAll(t.serviceTimes[id])
		m.all.waits.addAll(t.waits[id])
		m.all.times.addAll(t.serviceTimes[id])
	}
	for _, s := range r.Services {
		row := m.services[serviceKey(s.Code, s.Name)]
		row.Count += s.Count
		row.Requeued += s.Requeued
		m.all.Requeued += s.Requeued
		addTotals(&row.Statuses, s.Statuses)
	}
	for name, lv := range t.lv {
		row, ok := m.levels[name]
		if !ok {
			row = &sampled{}
			m.levels[name] = row
		}
		addTotals(&row.Statuses, lv.Statuses)
		row.waits.addAll(lv.waits)
	}
	m.estimate.addAll(t.estErrors)
	m.r.Estimate.Compared += r.Estimate.Compared
	m.r.Estimate.Within += r.Estimate.Within
	m.addSatisfaction(r.Satisfaction)
}

// service is the total row of a service code and name. Branches copied
// from one another share both; a branch that gave a code another name
// runs another business under it, and adding the two would give figures
// that are neither's.
func (m *merge) service(code, name string) *sampled {
	k := serviceKey(code, name)
	row, ok := m.services[k]
	if !ok {
		row = &sampled{ServiceStats: ServiceStats{Code: code, Name: name}}
		m.services[k] = row
		m.keys = append(m.keys, k)
	}
	return row
}

func serviceKey(code, name string) string { return code + "\x00" + name }

func (m *merge) addSatisfaction(s Satisfaction) {
	if !s.Kept {
		return
	}
	m.r.Satisfaction.Kept = true
	addRated(&m.r.Satisfaction.Total, s.Total)
	for _, x := range s.Services {
		k := serviceKey(x.Key, x.Name)
		row, ok := m.satCodes[k]
		if !ok {
			row = &SatisfactionRow{Key: x.Key, Name: x.Name}
			m.satCodes[k] = row
		}
		addRated(row, x)
	}
}

func addRated(to *SatisfactionRow, x SatisfactionRow) {
	to.Served += x.Served
	for i, n := range x.Rated.Levels {
		to.Rated.Levels[i] += n
	}
}

func addTotals(to *Totals, t Totals) {
	to.Taken += t.Taken
	to.Done += t.Done
	to.Passed += t.Passed
	to.Cancelled += t.Cancelled
	to.Waiting += t.Waiting
	to.Called += t.Called
	to.Serving += t.Serving
}

// report finishes the total once every branch was added.
func (m *merge) report(out BranchesReport) (Report, ServiceStats) {
	r := m.r
	r.GeneratedAt = out.GeneratedAt
	if r.Totals.Taken > 0 {
		r.PassedRatio = float64(r.Totals.Passed) / float64(r.Totals.Taken)
	}
	r.Sources = sourceList(m.sources)
	for _, k := range m.keys {
		r.Services = append(r.Services, m.services[k].finish())
		if x, ok := m.satCodes[k]; ok {
			r.Satisfaction.Services = append(r.Satisfaction.Services, *x)
		}
	}
	lv := levelTally{}
	for name, row := range m.levels {
		lv.row(name).Statuses = row.Statuses
	}
	r.Levels = lv.list()
	for i, l := range r.Levels {
		r.Levels[i].Called, r.Levels[i].AvgWait = m.levels[l.Level].waits.n, m.levels[l.Level].waits.mean()
	}
	r.Estimate.MedianError = m.estimate.percentile(0.5)
	if r.Estimate.Compared > 0 {
		r.Estimate.WithinShare = float64(r.Estimate.Within) / float64(r.Estimate.Compared)
	}
	return r, m.all.finish()
}
