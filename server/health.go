package server

// This file: readiness and the drain. /healthz and /readyz are served on
// the --metrics and --http addresses (web.HealthRoutes). Shutdown first
// drains: /readyz says 503 while the server still serves everyone for
// Config.Drain, so that a balancer probing it (docs/hosting.md, HAProxy)
// sends new players elsewhere before this node refuses them.

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// errDraining is readiness's answer once Shutdown has begun.
var errDraining = errors.New("shutting down: draining")

// readiness returns nil when this node should be sent new players, else
// why not, in one line: it is shutting down; its database file is gone;
// on a cluster, it could not renew its leases in the database, or, holding
// none, could not reach it (its games may move to other nodes, and a new
// one could not be placed here).
func (s *Server) readiness() error {
	if s.life.draining.Load() {
		return errDraining
	}
	if err := s.store.CheckFile(); err != nil {
		return fmt.Errorf("the database file is gone: %w", err)
	}
	if !s.place.clustered() {
		return nil
	}
	// A failed announcement is not one: it only hides this node's games
	// from the other nodes' lists (found: one lock on node_games took
	// every node out of the balancer at once, while all of them played).
	if s.place.leases.failing.Load() {
		return errors.New("cannot reach the database (lease renewals fail)")
	}
	return nil
}

// drain marks the server not ready and keeps serving for Config.Drain, or
// until ctx ends or CutDrain is called, whichever comes first.
func (s *Server) drain(ctx context.Context) {
	if s.life.draining.Swap(true) || s.cfg.Drain <= 0 {
		return
	}
	s.log.Info("draining: /readyz says 503, still serving", "for", s.cfg.Drain, "sessions", s.place.live.Len())
	t := time.NewTimer(s.cfg.Drain)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	case <-s.life.cut:
	}
}

// CutDrain ends a drain under way (or one yet to begin) at once: the
// shutdown goes on to refuse new players and save every game. grotto
// calls it on a second SIGTERM or SIGINT.
func (s *Server) CutDrain() { s.life.cutOnce.Do(func() { close(s.life.cut) }) }
