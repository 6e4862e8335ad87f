// Package model is the domain of jiaohao: tickets, services, windows, the
// event log and the ticket state machine as pure functions, the live state
// with its one reducer (Snapshot.Apply) and the Follower every role keeps
// it with, the table of roles a PC runs (roles.go), plus the one error type
// every layer speaks. It imports nothing of the project's and touches no
// database or UI, so every rule here is testable on its own.
package model
