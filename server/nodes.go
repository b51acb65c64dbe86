package server

// This file: the node's side of the cluster, for nodes sharing one
// PostgreSQL store (store.Cluster). It announces this node's live games
// and its channel address (announceLoop), keeps the last global listing
// for `who` and the title screen, offers the other nodes this node's games
// over the authenticated channel (server/cluster: evict a key's game so
// that another node takes it over, watch one), and asks them for theirs.
//
// On a cluster every game, this node's and the others', is known by an ID
// with the top bit set (clusterID), derived from its player's key: the
// same on every node and wherever the game moves, so that a watch link
// drawn by one node opens the same game on any other behind the same
// address, and the UI watches a game of
// another node by ID as it watches one of its own. On a store that is not shared (bbolt) the node
// has no peers: it lists, announces and asks nothing, and the placement
// (placement.go) makes the same calls as on a cluster.

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/cluster"
	"github.com/grotto-game/grotto/server/events"
	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
)

// nodeCallTimeout bounds one call to another node over the channel: a
// node that does not answer within it is taken for stopped.
const nodeCallTimeout = 3 * time.Second

// nodes is this node's place among the nodes sharing its store; on a
// store that is not shared (bbolt), a node with no peers: it lists no
// other game, announces nothing and asks nobody.
type nodes struct {
	st    store.Cluster
	self  string
	ttl   time.Duration // an announcement lives this long; the loop renews it every third
	log   *log.Logger
	creds *cluster.Credentials
	peers *cluster.Client // calls to the other nodes
	srv   *cluster.Server // the channel, nil when this node does not listen
	ln    net.Listener    // the channel's listener, once Listen has run
	addr  string          // the address announced for the channel ("" for none)
	live  lobby.Lobby     // this node's games (the announcements, a watcher following a game here)
	data  *content.Tables // another node's frames decode with these (frame.New)

	mu     sync.Mutex
	others []store.NodeGame // the other nodes' games, from the last listing
	// failures counts calls to other nodes over the channel that failed
	// (grotto_node_channel_failures_total).
	failures atomic.Uint64
	// outbox holds this node's events for the other nodes
	// (nodes_events.go); nil without peers.
	outbox chan events.Event
}

// newNodes returns the cluster side of server s, one with no peers when
// its store is not shared. It reads (or creates) the cluster secret the channel's
// certificates derive from. Errors: the store's (the database cannot be
// reached), or a channel setting that cannot work.
func newNodes(s *Server, db Database) (*nodes, error) {
	st, ok := db.(store.Cluster)
	if !ok {
		if s.cfg.ClusterListen != "" {
			return nil, badSetting("--cluster-listen", "needs a PostgreSQL store (--store postgres://…): the channel joins nodes sharing one database")
		}
		return &nodes{self: s.cfg.Node, ttl: s.cfg.LeaseTTL, log: s.log, live: s.place.live, data: s.data}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	secret, err := st.ClusterSecret(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the cluster secret: %w", err)
	}
	creds, err := cluster.NewCredentials(secret, s.cfg.Node)
	if err != nil {
		return nil, err
	}
	n := &nodes{st: st, self: s.cfg.Node, ttl: s.cfg.LeaseTTL, log: s.log, creds: creds, live: s.place.live, data: s.data,
		outbox: make(chan events.Event, eventOutbox)}
	n.peers = cluster.NewClient(creds, st.NodeAddr)
	if s.cfg.ClusterListen != "" {
		n.srv = cluster.NewServer(creds, nodeLocal{s}, s.log)
	}
	return n, nil
}

// shared reports whether the node shares its store with others (a
// cluster): false for a node with no peers.
func (n *nodes) shared() bool { return n.st != nil }

// listen binds the channel's address with bind (Server.bind), when this
// node has one.
func (n *nodes) listen(bind func(name, addr string) (net.Listener, error), addr, advertise string) error {
	if n.srv == nil { // no --cluster-listen
		return nil
	}
	ln, err := bind(BindNode, addr)
	if err != nil {
		return fmt.Errorf("listen %s (the node channel, --cluster-listen): %w", addr, err)
	}
	n.ln = ln
	n.addr = advertise
	if n.addr == "" {
		n.addr = ln.Addr().String()
	}
	return nil
}

// serve runs the channel and the announcements until stop closes.
func (n *nodes) serve(stop <-chan struct{}) {
	if !n.shared() {
		return
	}
	if n.ln != nil {
		n.log.Info("node channel listening (mutual TLS from the cluster secret; keep it on a private address)",
			"cluster_listen", n.ln.Addr().String(), "advertised", n.addr)
		go n.srv.Serve(n.ln)
	} else {
		n.log.Warn("no node channel (--cluster-listen): a key playing on another node cannot be taken over from here, only resumed once it leaves; its game cannot be watched from here")
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	if addr, err := n.st.NodeAddr(ctx, n.self); err == nil {
		n.log.Warn("another process announced itself as this node within the lease TTL: if it is still running, give each node its own --node (its games are fenced from this one, and the node channel reaches only one of them)",
			"node", n.self, "its_channel", addr)
	}
	cancel()
	go n.announceLoop(stop)
	go n.sendEvents(stop) // nodes_events.go
}

// close withdraws this node's announcement and closes the channel.
func (n *nodes) close() {
	if !n.shared() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	if err := n.st.Withdraw(ctx, n.self); err != nil {
		n.log.Warn("could not withdraw this node's announcement; its games leave the global list when it lapses", "err", err)
	}
	if n.srv != nil {
		n.srv.Close()
	}
}

// announcePeriod is how often a node announces its games: often enough
// for `who` to be fresh, never less than three times per TTL.
func (n *nodes) announcePeriod() time.Duration { return min(2*time.Second, n.ttl/3) }

// announceLoop announces this node's games and reads every node's, until
// stop closes.
func (n *nodes) announceLoop(stop <-chan struct{}) {
	t := time.NewTicker(n.announcePeriod())
	defer t.Stop()
	failing := false
	for {
		err := n.announce()
		switch {
		case err != nil && !failing:
			n.log.Warn("could not announce this node's games; `who` on other nodes misses them until it can", "err", err)
			failing = true
		case err == nil && failing:
			n.log.Info("this node's games are announced again")
			failing = false
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// announce writes this node's games and reads the others'.
func (n *nodes) announce() error {
	mine := n.live.Games()
	games := make([]store.NodeGame, len(mine))
	for i, g := range mine {
		games[i] = store.NodeGame{Node: n.self, Fingerprint: g.Key, Name: g.Name, Depth: g.Depth, Turn: g.Turn,
			Watchers: g.Watchers, LastInput: g.LastInput, Daily: g.Daily,
			Activity: g.Activity.Doing.String(), Watched: g.Activity.Watched}
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	if err := n.st.Announce(ctx, n.self, n.addr, games, n.ttl); err != nil {
		return err
	}
	all, err := n.st.NodeGames(ctx)
	if err != nil {
		return err
	}
	others := slices.DeleteFunc(all, func(g store.NodeGame) bool { return g.Node == n.self })
	n.mu.Lock()
	n.others = others
	n.mu.Unlock()
	return nil
}

// clusterBit marks the ID of a game on a cluster (clusterID).
const clusterBit = 1 << 63

// clusterID is the ID the UI and the web pages know a game of a cluster by:
// derived from the player's key alone, so it is the same on every node and
// stays the same when the game moves to another node (a take-over, a
// drain): a watch link keeps naming the game. Never that of a lobby slot
// (whose top bit is clear; each node numbers its slots from 1). A key
// plays one game at a time across the cluster (its lease).
func clusterID(fp string) uint64 {
	h := fnv.New64a()
	h.Write([]byte("grotto game\x00"))
	h.Write([]byte(fp))
	return clusterBit | h.Sum64()>>1
}

// remoteGame is how the UI lists a game of another node.
func remoteGame(g store.NodeGame) tui.LiveGame {
	return tui.LiveGame{ID: clusterID(g.Fingerprint), Node: g.Node, Name: g.Name, Activity: remoteActivity(g),
		Depth: g.Depth, Turn: g.Turn, LastInput: g.LastInput, Watchers: g.Watchers, Daily: g.Daily}
}

// remoteActivity is what the session of g, a game of another node, does:
// as that node listed it, or, from a node of a build that lists no
// activity (schema 11, during a rolling deploy), playing when it is at a
// depth and on the title when not.
func remoteActivity(g store.NodeGame) tui.Activity {
	d, ok := lobby.ParseDoing(g.Activity)
	switch {
	case ok:
	case g.Depth > 0:
		d = lobby.Playing
	default:
		d = lobby.OnTitle
	}
	return uiActivity(lobby.Activity{Doing: d, Watched: g.Watched})
}

// remote returns the other nodes' games as last listed.
func (n *nodes) remote() []store.NodeGame {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.others)
}

// find returns the listed game of another node with ID id.
func (n *nodes) find(id uint64) (store.NodeGame, bool) {
	for _, g := range n.remote() {
		if clusterID(g.Fingerprint) == id {
			return g, true
		}
	}
	return store.NodeGame{}, false
}

// ofKey returns the listed game of key fp on another node.
func (n *nodes) ofKey(fp string) (store.NodeGame, bool) {
	for _, g := range n.remote() {
		if g.Fingerprint == fp {
			return g, true
		}
	}
	return store.NodeGame{}, false
}

// watchRemote subscribes to the frames of key fp's game on node: it
// returns at once, and the channel fills once the node answers. The
// frames come as save blobs, each made a frame here for this watcher
// alone. When the game leaves that node and goes on (taken over from
// another node), the watcher follows it, to the node the cluster's
// listing names next or to this one (nextNode); the channel closes when
// the game ends, no node has it within followWindow, or stop is called.
func (n *nodes) watchRemote(node, fp string) (<-chan *frame.Frame, func()) {
	out := make(chan *frame.Frame, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(out)
		for node != "" && ctx.Err() == nil {
			if node == n.self {
				n.relayHere(ctx, fp, out)
			} else {
				n.relayFrom(ctx, node, fp, out)
			}
			node = n.nextNode(ctx, node, fp)
		}
	}()
	return out, cancel
}

// relayFrom hands out the frames of key fp's game on node until its
// stream ends or ctx does.
func (n *nodes) relayFrom(ctx context.Context, node, fp string, out chan *frame.Frame) {
	dial, dialCancel := context.WithTimeout(ctx, nodeCallTimeout)
	frames, stop, err := n.peers.Watch(dial, node, fp)
	dialCancel()
	n.called(err)
	if err != nil {
		if ctx.Err() == nil {
			n.log.Info("could not watch a game on another node", "node", node, "err", err)
		}
		return
	}
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case f, ok := <-frames:
			if !ok {
				return
			}
			offerLatest(out, frame.New(f, n.data))
		}
	}
}

// relayHere hands out the frames of key fp's game on this node (it came
// here by a take-over) until it ends or ctx does.
func (n *nodes) relayHere(ctx context.Context, fp string, out chan *frame.Frame) {
	g, ok := n.live.OfKey(fp)
	if !ok {
		return
	}
	frames, stop, ok := n.live.Watch(g.ID) // hidden while today's daily, as anyone's watch
	if !ok {
		return
	}
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case f, ok := <-frames:
			if !ok {
				return
			}
			offerLatest(out, f)
		}
	}
}

// followWindow is how long a watcher whose game left its node looks for
// it elsewhere: three announcements, by which every node has listed it
// where it went.
func (n *nodes) followWindow() time.Duration { return 3 * n.announcePeriod() }

// followPoll is how often nextNode reads the listing, which changes at
// most once per announcement.
const followPoll = 100 * time.Millisecond

// nextNode returns the node key fp's game is on now that it left was: this
// node, or another the cluster's listing names; "" when none has it
// within followWindow (the game ended) or ctx ended.
func (n *nodes) nextNode(ctx context.Context, was, fp string) string {
	deadline := time.Now().Add(n.followWindow())
	t := time.NewTicker(followPoll)
	defer t.Stop()
	for {
		if _, ok := n.live.OfKey(fp); ok && was != n.self {
			return n.self
		}
		if g, ok := n.ofKey(fp); ok && g.Node != was {
			return g.Node
		}
		if time.Now().After(deadline) {
			return ""
		}
		select {
		case <-ctx.Done():
			return ""
		case <-t.C:
		}
	}
}

// offerLatest puts f in ch (capacity 1), replacing a frame not read yet: a
// slow watcher only misses frames.
func offerLatest[F any](ch chan F, f F) {
	for {
		select {
		case ch <- f:
			return
		default:
		}
		select {
		case <-ch:
		default:
		}
	}
}

// strandedNote is what a player reads while their game waits for node,
// which does not answer, to lose its claim (at most one lease TTL).
func strandedNote(node string, ttl time.Duration) string {
	return fmt.Sprintf("Node %s, where your game was open, does not answer. Your game resumes here by itself once that node's claim on it lapses: within %s.", node, tui.Duration(ttl))
}

// pingTimeout bounds the question whether a node answers, asked before a
// session's screen shows (the player waits on a blank terminal): a node
// slower than this is only taken for stopped on screen, as the take-over
// still asks it first.
const pingTimeout = time.Second

// earlierRunNote is what a player reads while their game waits for the
// lease of an earlier run of this node (it stopped, and this process
// started under the same name) to lapse.
func earlierRunNote(node string, ttl time.Duration) string {
	return fmt.Sprintf("Node %s restarted while your game was open there. Your game resumes here by itself once the old run's claim on it lapses: within %s.", node, tui.Duration(ttl))
}

// nodeAnswers reports whether node answers on the channel within
// pingTimeout (a stopped or paused node does not, nor one without a
// channel).
func (n *nodes) nodeAnswers(node string) bool {
	if !n.shared() {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), pingTimeout)
	defer cancel()
	return n.called(n.peers.Ping(ctx, node)) == nil
}

// called counts err, a call's to another node, in failures when it says
// the node could not be reached, and returns it.
func (n *nodes) called(err error) error {
	if errors.Is(err, cluster.ErrUnreachable) {
		n.failures.Add(1)
	}
	return err
}

// silent reports whether err, a call's to another node, says the node
// does not answer: unreachable, or no answer in time (a paused node
// accepts connections and never answers).
func silent(err error) bool {
	return errors.Is(err, cluster.ErrUnreachable) || errors.Is(err, context.DeadlineExceeded)
}

// minLapseWait is the shortest wait before a take-over tries a key's lease
// again: the store's clock and this node's may differ a little, so a lease
// the store says has lapsed may not have yet.
const minLapseWait = 100 * time.Millisecond

// lapseWait is how long a take-over waits before it tries the key's lease
// again: until the holder's lease lapses, as the store said (expires), at
// least minLapseWait, and never past deadline. A holder that answered and
// released is not waited for: its lease was free at once.
func lapseWait(expires, deadline time.Time) time.Duration {
	return max(minLapseWait, min(time.Until(expires), time.Until(deadline)))
}

// nodeLocal is what this node offers the others over the channel
// (cluster.Local).
type nodeLocal struct{ s *Server }

var _ cluster.Local = nodeLocal{}

// Evict implements cluster.Local: the key's session here saves and
// leaves for another node taking its game over (placement.evict).
func (l nodeLocal) Evict(ctx context.Context, fp string) error { return l.s.place.evict(ctx, fp) }

// evict asks node to end key fp's game there, saved, and release its
// lease (cluster.Client.Evict); cluster.ErrUnreachable from a node with
// no peers.
func (n *nodes) evict(ctx context.Context, node, fp string) error {
	if !n.shared() {
		return fmt.Errorf("evict from %s: %w", node, cluster.ErrUnreachable)
	}
	return n.called(n.peers.Evict(ctx, node, fp))
}

// Watch implements cluster.Local: the game's frames as their save blobs,
// the format that goes node to node.
func (l nodeLocal) Watch(fp string) (<-chan []byte, func(), bool) {
	g, ok := l.s.place.live.OfKey(fp)
	if !ok {
		return nil, nil, false
	}
	frames, stop, ok := l.s.place.live.Watch(g.ID)
	if !ok {
		return nil, nil, false
	}
	blobs := make(chan []byte, 1)
	go func() { // ends when frames closes: the game ended or stop
		defer close(blobs)
		for f := range frames {
			offerLatest(blobs, f.Blob())
		}
	}()
	return blobs, stop, true
}
