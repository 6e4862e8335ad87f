package sqlstore

// The report query's pieces, for the plan test outside the package.
const (
	TicketColumns = ticketColumns
	IssuedIn      = issuedIn
)
