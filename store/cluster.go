// The cluster: what the nodes sharing one store know of each other (the
// secret their channel authenticates with, where each node's channel
// listens, every node's live games), for a global `who` and for taking a
// game over from, or watching it on, another node (server/cluster).

package store

import (
	"context"
	"time"
)

// ClusterSecretSize is the length in bytes of the secret that
// [Cluster.ClusterSecret] returns.
const ClusterSecretSize = 32

// Cluster is what the nodes sharing one store know of each other: the
// secret their channel authenticates with, where each node's channel
// listens, and every node's live games (a global `who`). Times are the
// store's clock, never a node's. PostgreSQL implements it
// (store/postgres); the bbolt file (one node) does not.
//
// A node announces itself every third of ttl or so ([Cluster.Announce]);
// an announcement not renewed within ttl vanishes with its games, so a
// dead node's games leave the listing on their own.
type Cluster interface {
	// ClusterSecret returns the [ClusterSecretSize]-byte secret shared by
	// every node on this store, created on the first call (atomically: two
	// nodes starting together get the same one). Errors: ErrUnavailable
	// (wrapped).
	ClusterSecret(ctx context.Context) ([]byte, error)
	// Announce records that node is alive, its channel address addr ("" for
	// none) and its live games, replacing the node's previous list, all
	// live for ttl (positive) by the store's clock. One round trip, one
	// transaction. Each game's Node is ignored: it is node. Errors:
	// ErrUnavailable (wrapped).
	Announce(ctx context.Context, node, addr string, games []NodeGame, ttl time.Duration) error
	// NodeGames lists the games of every node whose announcement is live,
	// ordered by name (case-insensitively), then node, then fingerprint.
	// Errors: ErrUnavailable (wrapped).
	NodeGames(ctx context.Context) ([]NodeGame, error)
	// Nodes lists the names of the nodes whose announcement is live, with
	// games or without, in byte order (for a broadcast to every node).
	// Errors: ErrUnavailable (wrapped).
	Nodes(ctx context.Context) ([]string, error)
	// NodeAddr returns node's channel address from its live announcement;
	// an error wrapping ErrNotFound when no announcement of node is live or
	// it gave no address. Errors: ErrUnavailable (wrapped).
	NodeAddr(ctx context.Context, node string) (string, error)
	// Withdraw removes node's announcement and games (a clean shutdown).
	// Withdrawing a node not announced is not an error. Errors:
	// ErrUnavailable (wrapped).
	Withdraw(ctx context.Context, node string) error
}

// NodeGame is one live game as the cluster lists it.
type NodeGame struct {
	// Node is the node that runs the game (the holder of its lease).
	Node string
	// Fingerprint is the player's key (SHA256:…), the game's key.
	Fingerprint string
	// Name is the player's name as shown.
	Name string
	// Depth is the dungeon level, from 1; Turn the game's turn count.
	Depth, Turn int
	// Watchers is how many sessions watch the game on its node.
	Watchers int
	// LastInput is when the player last typed (the node's clock, as `who`
	// shows idle time); the zero time when unknown.
	LastInput time.Time
	// Daily is the daily challenge's date (YYYY-MM-DD, store.DailyLayout)
	// when the game is one, else "".
	Daily string
	// Activity is what the player's session does, as a word of
	// server/lobby's Doing ("title", "playing", "over", "won",
	// "watching"); "" when unknown (listed by a build that did not
	// say): a reader then judges by Depth.
	Activity string
	// Watched is the name of the player watched while Activity is
	// "watching", else "".
	Watched string
}
