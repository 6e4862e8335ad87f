package model

import (
	"context"
	"time"
)

// Terminal is a registered PC: its role, the window it acts for, and the
// hash of its bearer token (the token itself is never stored).
type Terminal struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Role      Role       `json:"role"`
	Window    int        `json:"window"`
	TokenHash string     `json:"-"`
	CreatedAt time.Time  `json:"created_at"`
	LastSeen  *time.Time `json:"last_seen"`
	Revoked   bool       `json:"revoked"`
}

// TerminalAdmin is the manager's part: register, list and revoke PCs. A
// manager PC reaches it on the database or through the peer server.
type TerminalAdmin interface {
	AddTerminal(ctx context.Context, t Terminal) (Terminal, error)
	Terminals(ctx context.Context) ([]Terminal, error)
	RevokeTerminal(ctx context.Context, id int64) error
}

// Terminals manages the PCs allowed to reach a peer server, including
// the lookups its authentication needs.
type Terminals interface {
	TerminalAdmin
	TerminalByTokenHash(ctx context.Context, hash string) (Terminal, error)
	TouchTerminal(ctx context.Context, id int64) error
}
