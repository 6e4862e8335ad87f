package model

import (
	"context"
	"fmt"
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

// ActorName is how the event log names what this terminal does: its name
// (or role when it has none) and, for a window's PC, "@" and the window;
// at most 60 characters, cut by characters, since a cut UTF-8 sequence is
// refused by the database. Device alerts name their PC by it too.
func (t Terminal) ActorName() string {
	name := t.Name
	if name == "" {
		name = string(t.Role)
	}
	if t.Window > 0 {
		name = fmt.Sprintf("%s@%d", name, t.Window)
	}
	if r := []rune(name); len(r) > 60 {
		name = string(r[:60])
	}
	return name
}
