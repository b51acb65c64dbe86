package server

// This file: the placement, the one home of "where a key's game lives". It
// composes the in-memory lobby of this node's live games (server/lobby),
// this node's store leases (leases.go: one live game per key across the
// nodes, fenced by epoch) and the other nodes (nodes.go: the listing and
// the node channel). A session claims its place here (lease, then slot),
// takes its key's game over here (one call, whether the game plays on
// this node or another), and lists and watches the games of every node
// here. One node alone is a placement whose nodes have no peers: the same
// calls, with nobody else to list or ask.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
)

// takeOverDeadline is how long a take-over waits for the key's other session
// to save and leave.
const takeOverDeadline = 10 * time.Second

// placement is where each key's game lives: in this node's lobby, under
// this node's lease, or on another node of the cluster.
type placement struct {
	live lobby.Lobby // the live games (lobby.go adapts it for each session)
	// leases are the store leases this node holds, one per key playing
	// here (leases.go): one live game per key across the nodes.
	leases *nodeLeases
	// nodes is this node's place among the nodes sharing its store
	// (nodes.go): the node channel, the global list of games; a node
	// with no peers on a store that is not shared (bbolt).
	nodes *nodes
	self  string           // this node's name (Config.Node)
	ttl   time.Duration    // Config.LeaseTTL
	clock func() time.Time // the server's one clock (Config.Clock)
	// stopRenew, closed by Shutdown once every session has saved and
	// released, stops the renew loop (nodeLeases.renewLoop).
	stopRenew     chan struct{}
	stopRenewOnce sync.Once
}

// clustered reports whether this node shares its store with others: its
// listings and host tools then name the node of each game.
func (p *placement) clustered() bool { return p.nodes.shared() }

// nodeName is the node's name in listings: "" off a cluster.
func (p *placement) nodeName() string {
	if !p.clustered() {
		return ""
	}
	return p.self
}

// seating is how a session is seated by claim: to play its key's game
// (the zero value), or on the choice to take over or watch a game of its
// key that plays elsewhere: on this node (node ""), or on node, which
// does not answer when stranded (what the player reads while the game
// waits for that node's lease to lapse) is set.
type seating struct {
	conflict       bool
	node, stranded string
}

// claim seats a session of key h.Key in its one order: the key's lease,
// then its lobby slot. ready is called before each slot is claimed with
// how the session is seated, so that the session's notifier (h.Notifier)
// can deliver what the slot hears from its first moment; it is called
// again, seated on the choice, when the key turns out to play on this
// node. It returns the lobby's error (lobby.ErrClosing) when no slot can
// be had, and the store's when the key's lease cannot be claimed (a
// *store.LeaseHeldError when the key plays on another node off a
// cluster's channel).
func (p *placement) claim(h lobby.Holder, lease *sessionLease, logger *log.Logger, ready func(seating)) (lobby.Slot, error) {
	var seat seating
	for {
		if !seat.conflict {
			var err error
			if seat, err = p.acquire(lease, logger); err != nil {
				return nil, err
			}
		}
		ready(seat)
		var slot lobby.Slot
		var err error
		if seat.conflict {
			slot, err = p.live.Spectate(h)
		} else {
			slot, err = p.live.Claim(h)
		}
		if errors.Is(err, lobby.ErrAlreadyPlaying) {
			lease.release() // the session playing here holds it; a take-over acquires it again
			logger.Info("key already playing: offering take over or watch")
			seat.conflict = true
			continue // seat it again, on the choice
		}
		return slot, err
	}
}

// acquire claims the key's lease before its game is read (tui.New opens
// it). A key playing on another node (a *store.LeaseHeldError, on a
// cluster) is no error: the session is seated on the choice (take over or
// watch), stranded when that node does not answer or was an earlier run
// of this one (it then waits for that lease to lapse). Any other error is
// returned.
func (p *placement) acquire(lease *sessionLease, logger *log.Logger) (seating, error) {
	err := lease.acquire()
	var held *store.LeaseHeldError
	if err == nil || !p.clustered() || !errors.As(err, &held) {
		return seating{}, err
	}
	seat := seating{conflict: true, node: held.Node}
	switch {
	case held.Node == p.self: // an earlier run of this node: it is gone
		seat.stranded = earlierRunNote(held.Node, p.ttl)
		logger.Info("key's game was held by an earlier run of this node: waiting for its lease to lapse", "until", held.Expires)
	case !p.nodes.nodeAnswers(held.Node):
		seat.stranded = strandedNote(held.Node, p.ttl)
		logger.Info("key's game is on a node that does not answer: waiting for its lease to lapse", "node", held.Node, "until", held.Expires)
	default:
		logger.Info("key playing on another node: offering take over or watch", "node", held.Node)
	}
	return seat, nil
}

// takeOver makes spectator slot s, a session of key fp, its key's player:
// it takes the key's lease (the session it takes over from holds it on
// this node, so s shares its epoch; a node elsewhere is asked to let go
// first, takeOverFrom), then the lobby's take-over (lobby/takeover.go:
// the old session is told, saves and releases, and s is listed under
// name()). note shows the session how a take-over from another node goes.
// It returns an error for the player.
func (p *placement) takeOver(s lobby.Slot, lease *sessionLease, fp string, note func(string), name func() string, logger *log.Logger) error {
	if err := lease.acquire(); err != nil {
		var held *store.LeaseHeldError
		if !errors.As(err, &held) {
			logger.Error("could not claim the key's lease for a take-over", "err", err)
			return errors.New("the server cannot reach its database")
		}
		if err := p.takeOverFrom(held, lease, fp, note, logger); err != nil {
			return err
		}
		logger.Info("took the key's game over from another node", "node", held.Node)
	}
	ctx, cancel := context.WithTimeout(context.Background(), takeOverDeadline)
	defer cancel()
	if err := s.TakeOver(ctx, name); err != nil {
		lease.release()
		return err
	}
	return nil
}

// takeOverFrom takes key fp's game from the node that holds its lease: it
// asks that node to save and release (server/cluster), then claims the
// lease here. When the node does not answer (stopped, cut off), or has no
// channel, it waits until the node's lease lapses (its expiry, as the
// store says: lapseWait), telling the player through note. It returns nil
// once this node holds the lease, or an error for the player.
func (p *placement) takeOverFrom(held *store.LeaseHeldError, lease *sessionLease, fp string, note func(string), logger *log.Logger) error {
	// A stopped node's lease lapses within one TTL of its last renewal.
	deadline := time.Now().Add(p.ttl + takeOverDeadline)
	asked := ""
	for {
		if held.Node == p.self && asked != held.Node {
			// An earlier run of this node: nobody to ask.
			asked = held.Node
			note(earlierRunNote(held.Node, p.ttl))
		}
		if held.Node != asked {
			asked = held.Node
			if err := p.askToLetGo(held.Node, fp, note, logger); err != nil {
				return err
			}
		}
		err := lease.acquire()
		if err == nil {
			return nil
		}
		if !errors.As(err, &held) {
			logger.Error("could not claim the key's lease for a take-over", "err", err)
			return errors.New("the server cannot reach its database")
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("your key is still playing on node %s", held.Node)
		}
		time.Sleep(lapseWait(held.Expires, deadline))
	}
}

// askToLetGo asks node to end key fp's game there, saved, and release its
// lease (cluster.Local.Evict). A node that does not answer is no error:
// the player is told through note, and the take-over waits for its lease
// to lapse. It returns an error for the player when the node answered and
// could not hand the game over.
func (p *placement) askToLetGo(node, fp string, note func(string), logger *log.Logger) error {
	ctx, cancel := context.WithTimeout(context.Background(), nodeCallTimeout+2*time.Second)
	err := p.nodes.evict(ctx, node, fp)
	cancel()
	switch {
	case err == nil, errors.Is(err, cluster.ErrNotHere):
		// Released, or leaving anyway: claim next.
	case silent(err):
		logger.Warn("take-over: the node holding the key's lease does not answer; waiting for its lease to lapse", "node", node, "err", err)
		note(strandedNote(node, p.ttl))
	default:
		// It answered and could not hand the game over now: most often
		// another session of the key is taking it over at the same moment.
		// The player may try again.
		logger.Warn("take-over: the node holding the key's lease did not hand it over", "node", node, "err", err)
		return fmt.Errorf("node %s could not hand your game over just now; another session of your key may be taking it", node)
	}
	return nil
}

// evict ends key fp's session on this node as another session of the key
// taking it over would (lobby/takeover.go: told, saves, releases), for
// another node that takes the game over (cluster.Local.Evict): by a
// spectator slot that leaves at once. It returns once this node released
// the key's lease in the store; cluster.ErrNotHere when the key has no
// game or lease here.
func (p *placement) evict(ctx context.Context, fp string) error {
	if _, ok := p.live.OfKey(fp); !ok {
		if !p.leases.holds(fp) {
			return cluster.ErrNotHere
		}
		return p.leases.waitReleased(ctx, fp) // its session is ending
	}
	sp, err := p.live.Spectate(lobby.Holder{Key: fp})
	if err != nil {
		return err
	}
	defer sp.Release()
	if err := sp.TakeOver(ctx, func() string { return "" }); err != nil {
		return err
	}
	return p.leases.waitReleased(ctx, fp)
}

// kick ends the session of key fp's game on this node as an admin's kick:
// told, it saves and leaves. It returns nil once the session let go and
// this node released the key's lease (so the player may come back on any
// node at once), cluster.ErrStillLeaving when that did not happen within
// kickWait, cluster.ErrNotHere when the key has no game here, or ctx's
// error.
func (p *placement) kick(ctx context.Context, fp string) error {
	released, ok := p.live.KickKey(fp)
	if !ok {
		return cluster.ErrNotHere
	}
	ctx, cancel := context.WithTimeoutCause(ctx, kickWait, cluster.ErrStillLeaving)
	defer cancel()
	select {
	case <-released:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	if err := p.leases.waitReleased(ctx, fp); err != nil {
		return context.Cause(ctx)
	}
	return nil
}

// games lists the live games of every node, for `who`, the title screen
// and the web pages: this node's from its lobby (fresh), the others' from
// the last listing; sorted by name regardless of case, then node. Off a
// cluster, the lobby's games with no node. Each game of today's daily is
// marked Hidden (hide).
func (p *placement) games() []tui.LiveGame {
	here := p.live.Games()
	local := make([]tui.LiveGame, len(here))
	for i, g := range here {
		local[i] = p.hide(p.listed(g))
	}
	if !p.clustered() {
		return local
	}
	for _, g := range p.nodes.remote() {
		local = append(local, p.hide(remoteGame(g)))
	}
	slices.SortStableFunc(local, func(a, b tui.LiveGame) int {
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.Node, b.Node)
	})
	return local
}

// listed is how the UI and the web pages list g, a game of this node: by
// its slot alone, by clusterID on a cluster (gameID).
func (p *placement) listed(g lobby.Game) tui.LiveGame {
	lg := liveGame(g)
	lg.ID = p.gameID(g.ID, g.Key)
	if p.clustered() {
		lg.Node = p.self
	}
	return lg
}

// gameID is the ID of the game in slot of this node, held by key: the slot
// alone, clusterID on a cluster.
func (p *placement) gameID(slot uint64, key string) uint64 {
	if p.clustered() {
		return clusterID(key)
	}
	return slot
}

// hide marks g Hidden when it is a game of today's daily challenge by the
// server's clock (lobby.HiddenDaily: the lobby refuses to watch it, and
// so does the node it plays on).
func (p *placement) hide(g tui.LiveGame) tui.LiveGame {
	g.Hidden = lobby.HiddenDaily(g.Daily, p.clock())
	return g
}

// watch subscribes to the frames of game id as Lobby.Watch does: alone,
// a game of this node by its slot through the lobby; on a cluster, a game
// of any node by clusterID, this node's too, so that the same ID (a web
// page's watch link) opens the same game on every node. ok is false when
// no such game is live or listed, or when it is hidden (today's daily:
// hide), here or there.
func (p *placement) watch(id uint64) (<-chan *frame.Frame, func(), bool) {
	if !p.clustered() {
		return p.live.Watch(id)
	}
	if id&clusterBit == 0 {
		return nil, nil, false // a slot's number names no game of a cluster
	}
	for _, g := range p.live.Games() {
		if g.Key == "" || clusterID(g.Key) != id {
			continue
		}
		if lobby.HiddenDaily(g.Daily, p.clock()) {
			return nil, nil, false
		}
		// The watch follows the game if another node takes it over
		// (nodes.watchRemote from this node: the watcher reads on instead
		// of "left the game").
		frames, stop := p.nodes.watchRemote(p.self, g.Key)
		return frames, stop, true
	}
	g, ok := p.nodes.find(id)
	if !ok || lobby.HiddenDaily(g.Daily, p.clock()) {
		return nil, nil, false
	}
	frames, stop := p.nodes.watchRemote(g.Node, g.Fingerprint)
	return frames, stop, true
}

// mine returns key fp's game, for a second session of the key: on this
// node, or listed on another; else, when elsewhere names the node that
// held the key's lease as the session began, a game there not listed yet
// (or whose node stopped), listed under name().
func (p *placement) mine(fp, elsewhere string, name func() string) (tui.LiveGame, bool) {
	if g, ok := p.live.OfKey(fp); ok {
		return p.hide(p.listed(g)), true
	}
	if g, ok := p.nodes.ofKey(fp); ok {
		return p.hide(remoteGame(g)), true
	}
	if elsewhere == "" {
		return tui.LiveGame{}, false
	}
	// Not listed yet: what it does is unknown, so it counts as a game in
	// play, as the choice to take over or watch has always read it.
	return tui.LiveGame{ID: clusterID(fp), Node: elsewhere, Name: name(), Activity: tui.Activity{Doing: tui.Playing},
		LastInput: time.Now()}, true
}

// watchFor is watch for a session of key fp: its own game on this node is
// watched by key (lobby.WatchOwn), even while it plays today's daily; on
// another node it is watched as anyone's, so not while hidden (the node
// channel does not carry who watches), and, when elsewhere names the node
// that held the key's lease as the session began, before it is listed.
func (p *placement) watchFor(fp string, id uint64, elsewhere string) (<-chan *frame.Frame, func(), bool) {
	if g, ok := p.live.OfKey(fp); ok && p.gameID(g.ID, g.Key) == id {
		return p.live.WatchOwn(fp)
	}
	if frames, stop, ok := p.watch(id); ok {
		return frames, stop, true
	}
	if elsewhere == "" || clusterID(fp) != id {
		return nil, nil, false
	}
	frames, stop := p.nodes.watchRemote(elsewhere, fp)
	return frames, stop, true
}
