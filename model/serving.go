package model

// The serving order decides which waiting ticket is called next. It is
// defined once, here: the SQL adapter builds its ORDER BY (the claim, the
// people ahead, requeue placement) from ServingOrder, and Go code that
// orders tickets uses ServedBefore.
var servingOrder = [...]struct {
	field string // the Ticket's JSON name, which is also the column's
	key   func(Ticket) int64
}{
	{"lane", func(t Ticket) int64 { return int64(t.Lane) }},         // the recall pool (1) before new tickets (2)
	{"priority", func(t Ticket) int64 { return int64(t.Priority) }}, // smaller first: VIP 1, normal 5
	{"sort_key", func(t Ticket) int64 { return t.SortKey }},         // issue order; requeue places a ticket between two
	{"id", func(t Ticket) int64 { return t.ID }},                    // ties: the order the numbers were taken
}

// ServingOrder names the fields of the serving order, most significant
// first, every one ascending.
func ServingOrder() []string {
	out := make([]string, len(servingOrder))
	for i, k := range servingOrder {
		out[i] = k.field
	}
	return out
}

// ServingKey is t's values of the ServingOrder fields, in that order.
func ServingKey(t Ticket) []int64 {
	out := make([]int64, len(servingOrder))
	for i, k := range servingOrder {
		out[i] = k.key(t)
	}
	return out
}

// ServedBefore reports whether waiting ticket a is called before b.
func ServedBefore(a, b Ticket) bool {
	for _, k := range servingOrder {
		if x, y := k.key(a), k.key(b); x != y {
			return x < y
		}
	}
	return false
}
