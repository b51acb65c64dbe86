// The cluster (store.Cluster) on the nodes, node_games and cluster_secret
// tables (migration 0003; daily 0008, activity and watched 0012): each node's announcement, its channel address,
// its live games, and the secret the nodes' channel is built on. Every time
// is the database's clock, now(), as for leases.

package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

var _ store.Cluster = (*Store)(nil)

// ClusterSecret returns the cluster's secret, creating it on the first
// call: a fresh secret from crypto/rand is offered with INSERT … ON
// CONFLICT DO NOTHING, then the row is read in a second statement, which
// (READ COMMITTED, a new snapshot) sees whichever offer won, so nodes
// starting together get the same secret (PostgreSQL docs, INSERT, "ON
// CONFLICT Clause": the loser waits for the winner's commit). Errors:
// store.ErrUnavailable (wrapped); a row of the wrong length (store.ErrCorrupt).
func (s *Store) ClusterSecret(ctx context.Context) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	offer := make([]byte, store.ClusterSecretSize)
	rand.Read(offer) // never fails (crypto/rand docs, Go 1.24+)
	if _, err := s.place.Exec(ctx, `INSERT INTO cluster_secret (one, secret) VALUES (true, $1) ON CONFLICT (one) DO NOTHING`, offer); err != nil {
		return nil, fmt.Errorf("cluster secret: %w", avail(err))
	}
	var secret []byte
	if err := s.place.QueryRow(ctx, `SELECT secret FROM cluster_secret WHERE one`).Scan(&secret); err != nil {
		return nil, fmt.Errorf("cluster secret: %w", avail(err))
	}
	if len(secret) != store.ClusterSecretSize {
		return nil, fmt.Errorf("cluster secret: %w: %d bytes, want %d", store.ErrCorrupt, len(secret), store.ClusterSecretSize)
	}
	return secret, nil
}

// Announce records node, its channel address and its games for ttl, in
// one round trip: a pgx batch (one implicit transaction, PostgreSQL docs,
// 55.2.4 "Pipelining") that upserts the node, deletes the expired nodes
// (their games go with them, ON DELETE CASCADE; rows locked by another
// node's announcement are skipped) and the node's old games,
// and inserts the new list from arrays (unnest), a key listed twice kept
// once. Errors: store.ErrUnavailable (wrapped).
func (s *Store) Announce(ctx context.Context, node, addr string, games []store.NodeGame, ttl time.Duration) error {
	if node == "" || ttl <= 0 {
		return fmt.Errorf("announce %q: empty node name or ttl %v not positive", node, ttl)
	}
	n := len(games)
	fps, names := make([]string, n), make([]string, n)
	depths, turns, watchers := make([]int32, n), make([]int64, n), make([]int32, n)
	inputs, dailies := make([]time.Time, n), make([]string, n)
	activities, watched := make([]string, n), make([]string, n)
	for i, g := range games {
		fps[i], names[i] = g.Fingerprint, g.Name
		depths[i], turns[i], watchers[i] = int32(g.Depth), int64(g.Turn), int32(g.Watchers)
		inputs[i], dailies[i] = g.LastInput, g.Daily
		activities[i], watched[i] = g.Activity, g.Watched
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(`INSERT INTO nodes (node, addr, expires) VALUES ($1, $2, now() + $3::bigint * interval '1 microsecond')
		ON CONFLICT (node) DO UPDATE SET addr = excluded.addr, expires = excluded.expires`, node, addr, micros(ttl))
	// Rows another announcement holds are skipped, not waited for: two
	// nodes each deleting the other's lapsed row would deadlock.
	b.Queue(`DELETE FROM nodes WHERE node IN (
		SELECT node FROM nodes WHERE expires <= now() AND node <> $1 FOR UPDATE SKIP LOCKED)`, node)
	b.Queue(`DELETE FROM node_games WHERE node = $1`, node)
	if n > 0 {
		b.Queue(`INSERT INTO node_games (node, fp, name, depth, turn, watchers, last_input, daily, activity, watched)
			SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::integer[], $5::bigint[], $6::integer[], $7::timestamptz[], $8::text[], $9::text[], $10::text[]) AS u
			ON CONFLICT (node, fp) DO NOTHING`, node, fps, names, depths, turns, watchers, inputs, dailies, activities, watched)
	}
	if err := s.place.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("announce %s (%d games): %w", node, n, avail(err))
	}
	return nil
}

// NodeGames lists the live nodes' games (see store.Cluster.NodeGames).
// Errors: store.ErrUnavailable (wrapped).
func (s *Store) NodeGames(ctx context.Context) ([]store.NodeGame, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.place.Query(ctx, `SELECT g.node, g.fp, g.name, g.depth, g.turn, g.watchers, g.last_input, g.daily, g.activity, g.watched
		FROM node_games g JOIN nodes n ON n.node = g.node
		WHERE n.expires > now()
		ORDER BY lower(g.name), g.name, g.node, g.fp`)
	if err != nil {
		return nil, fmt.Errorf("list the nodes' games: %w", avail(err))
	}
	games, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.NodeGame, error) {
		var g store.NodeGame
		var turn int64
		err := r.Scan(&g.Node, &g.Fingerprint, &g.Name, &g.Depth, &turn, &g.Watchers, &g.LastInput, &g.Daily, &g.Activity, &g.Watched)
		g.Turn = int(turn)
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("list the nodes' games: %w", avail(err))
	}
	return games, nil
}

// Nodes lists the live nodes' names (see store.Cluster.Nodes). Errors:
// store.ErrUnavailable (wrapped).
func (s *Store) Nodes(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.place.Query(ctx, `SELECT node FROM nodes WHERE expires > now() ORDER BY node COLLATE "C"`)
	if err != nil {
		return nil, fmt.Errorf("list the nodes: %w", avail(err))
	}
	nodes, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list the nodes: %w", avail(err))
	}
	return nodes, nil
}

// NodeAddr returns node's channel address (see store.Cluster.NodeAddr).
// Errors: store.ErrNotFound (wrapped) when node has no live announcement
// or announced no address; store.ErrUnavailable (wrapped).
func (s *Store) NodeAddr(ctx context.Context, node string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var addr string
	err := s.place.QueryRow(ctx, `SELECT addr FROM nodes WHERE node = $1 AND expires > now()`, node).Scan(&addr)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("address of node %q: %w: no live announcement", node, store.ErrNotFound)
	}
	if err != nil {
		return "", fmt.Errorf("address of node %q: %w", node, avail(err))
	}
	if addr == "" {
		return "", fmt.Errorf("address of node %q: %w: it announced no channel address", node, store.ErrNotFound)
	}
	return addr, nil
}

// Withdraw removes node's announcement and its games. Errors:
// store.ErrUnavailable (wrapped).
func (s *Store) Withdraw(ctx context.Context, node string) error {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	if _, err := s.place.Exec(ctx, `DELETE FROM nodes WHERE node = $1`, node); err != nil {
		return fmt.Errorf("withdraw node %s: %w", node, avail(err))
	}
	return nil
}
