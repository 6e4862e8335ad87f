package sqlstore

// The report query's pieces, for the plan test outside the package.
const (
	TicketColumns = ticketColumns
	IssuedIn      = issuedIn
)

// HeadQuery is the call-next claim's pick, for the plan test.
var HeadQuery = headQuery
