package server

// This file: the node's store leases (store.Leases), which make a key's game
// live on one node at a time across every node sharing a database. The
// lobby (server/lobby) already lets one session of this node play a key;
// the lease is the node's, shared by the sessions of one key on this node
// (a take-over within the node keeps its epoch), counted by reference and
// released when the last of them lets go. One goroutine renews every lease
// the node holds (renewLoop).

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/server/lobby"
	"github.com/grotto-game/grotto/store"
)

// leaseCallTimeout bounds one claim, renew or release in the database.
const leaseCallTimeout = 5 * time.Second

// nodeLeases is the leases this node holds, one per key, with the sessions
// that use each.
type nodeLeases struct {
	st store.Leases
	// node is the holder this process claims leases as: the node's name,
	// "/", and an instance random to this process (holderName). Two
	// processes of one name (a restart, or a clone started by mistake)
	// are two holders: a claim by the second moves the epoch on, so the
	// first is fenced, never writing as the second.
	node string
	ttl  time.Duration

	// claiming serializes, per key (by a hash of it), a claim in the store
	// with the registration of its lease, and the last user's removal with
	// the release in the store: so a session never registers an epoch the
	// store has just released. Held across a round trip; never under mu.
	claiming [64]sync.Mutex
	// renewing is held by the renew loop across its snapshot and its
	// Renew (for writing), and by a release in the store (for reading):
	// a renewal never extends a lease just released (the store renews
	// by node, whatever the expiry), which would keep the key from other
	// nodes for a TTL.
	renewing sync.RWMutex

	mu   sync.Mutex
	held map[string]*heldLease // fingerprint → the node's live lease of it
	// paused stops the renew loop's renewals (tests make a lease lapse
	// with it, as a paused node's would: pause).
	paused bool
	// failing is set while the last renewal failed: the node's games may
	// lapse to other nodes, and /readyz says so (health.go).
	failing atomic.Bool
	// renewFailures and lost count failed renewals and leases the store
	// said this node lost, for the metrics (grotto_lease_renewal_failures_total,
	// grotto_leases_lost_total).
	renewFailures, lost atomic.Uint64
}

// heldLease is one key's lease on this node. Every field but fp and epoch
// is guarded by nodeLeases.mu.
type heldLease struct {
	fp    string
	epoch uint64
	game  store.LeasedGame // the key's game as the holder of epoch writes it
	users map[*sessionLease]struct{}
	lost  bool // the store said the node no longer holds it
	// gone closes once the node let the lease go: released in the store
	// (or the release failed, leaving it to lapse), or lost.
	gone     chan struct{}
	goneOnce sync.Once
}

// let records that the node no longer holds h.
func (h *heldLease) let() { h.goneOnce.Do(func() { close(h.gone) }) }

func newNodeLeases(st store.Leases, node string, ttl time.Duration) *nodeLeases {
	return &nodeLeases{st: st, node: node + "/" + rand.Text()[:8], ttl: ttl, held: map[string]*heldLease{}}
}

// holderName returns the node name of a lease holder ("name/instance",
// nodeLeases.node): what players read and what the node channel dials.
func holderName(holder string) string {
	name, _, _ := strings.Cut(holder, "/")
	return name
}

// sessionLease is one session's use of its key's lease: its game's Saves
// and Scores (store writes go through the lease's fenced view; without a
// lease they are refused with store.ErrFenced), and what to do when the
// lease is lost (tell the session's program, through its notifier).
type sessionLease struct {
	nl *nodeLeases
	st store.Store // reads
	fp string
	n  lobby.Notifier

	mu   sync.Mutex
	cur  *heldLease // nil while the session holds no lease
	lost bool       // the lease was lost while the session held it
}

var _ store.Saves = (*sessionLease)(nil)
var _ store.Scores = (*sessionLease)(nil)
var _ store.Quarantine = (*sessionLease)(nil)

// acquire makes the session a user of its key's lease on this node,
// claiming it from the store when the node holds none (or lost it). It
// does nothing when the session already uses a live one. Errors are the
// store's: a *store.LeaseHeldError when another node plays the key, one
// wrapping store.ErrUnavailable when the database is out of reach.
func (l *sessionLease) acquire() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	nl := l.nl
	nl.mu.Lock()
	if l.cur != nil && !l.cur.lost {
		nl.mu.Unlock()
		return nil
	}
	if h := nl.held[l.fp]; h != nil {
		h.users[l] = struct{}{}
		nl.mu.Unlock()
		l.cur, l.lost = h, false
		return nil
	}
	nl.mu.Unlock()
	// Claim outside nl.mu (it is a round trip) but under the key's claim
	// lock, then look again: another session of the key may have
	// registered the lease meanwhile.
	km := nl.claimLock(l.fp)
	km.Lock()
	defer km.Unlock()
	nl.mu.Lock()
	h := nl.held[l.fp]
	if h != nil {
		h.users[l] = struct{}{}
		nl.mu.Unlock()
		l.cur, l.lost = h, false
		return nil
	}
	nl.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	epoch, err := nl.st.Claim(ctx, l.fp, nl.node, nl.ttl)
	if err != nil {
		var held *store.LeaseHeldError
		if errors.As(err, &held) {
			held.Node = holderName(held.Node)
		}
		return err
	}
	h = &heldLease{fp: l.fp, epoch: epoch, game: nl.st.Fenced(l.fp, epoch), users: map[*sessionLease]struct{}{l: {}},
		gone: make(chan struct{})}
	nl.mu.Lock()
	nl.held[l.fp] = h
	nl.mu.Unlock()
	l.cur, l.lost = h, false
	return nil
}

// claimLock returns the claim lock of key fp (see nodeLeases.claiming).
func (nl *nodeLeases) claimLock(fp string) *sync.Mutex {
	h := fnv.New32a()
	h.Write([]byte(fp))
	return &nl.claiming[h.Sum32()%uint32(len(nl.claiming))]
}

// release stops the session's use of its lease, after the game's last
// write; the last user on this node releases it in the store, so that
// another node may claim the key at once. It may be called more than once.
func (l *sessionLease) release() {
	l.mu.Lock()
	h := l.cur
	l.cur = nil
	l.mu.Unlock()
	if h == nil {
		return
	}
	nl := l.nl
	km := nl.claimLock(l.fp)
	km.Lock()
	defer km.Unlock()
	nl.renewing.RLock()
	defer nl.renewing.RUnlock()
	nl.mu.Lock()
	delete(h.users, l)
	last := len(h.users) == 0 && nl.held[l.fp] == h
	if last {
		delete(nl.held, l.fp)
	}
	nl.mu.Unlock()
	if !last {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	defer cancel()
	// A release that fails leaves the lease to expire (one TTL): the key
	// waits that long before another node may play it.
	_ = nl.st.Release(ctx, l.fp, nl.node, h.epoch)
	h.let()
}

// holds reports whether this node holds a lease on key fp.
func (nl *nodeLeases) holds(fp string) bool {
	nl.mu.Lock()
	defer nl.mu.Unlock()
	return nl.held[fp] != nil
}

// waitReleased returns nil once this node no longer holds a lease on key
// fp, released in the store (or lost), or ctx's error.
func (nl *nodeLeases) waitReleased(ctx context.Context, fp string) error {
	nl.mu.Lock()
	h := nl.held[fp]
	nl.mu.Unlock()
	if h == nil {
		// A release may be in flight: it holds the key's claim lock
		// until the store has it.
		km := nl.claimLock(fp)
		km.Lock()
		km.Unlock()
		return nil
	}
	select {
	case <-h.gone:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// wasLost reports whether the session's lease was lost while it held it:
// another node claimed the key, so the game continues there.
func (l *sessionLease) wasLost() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lost || (l.cur != nil && l.isLost(l.cur))
}

func (l *sessionLease) isLost(h *heldLease) bool {
	l.nl.mu.Lock()
	defer l.nl.mu.Unlock()
	return h.lost
}

// fenced returns the session's game under its lease, or an error wrapping
// store.ErrFenced when it holds none.
func (l *sessionLease) fenced(call string) (store.LeasedGame, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.lost: // final: never write again once the lease moved on
		return nil, fmt.Errorf("%s %s: %w (the lease was lost)", call, l.fp, store.ErrFenced)
	case l.cur == nil:
		return nil, fmt.Errorf("%s %s: %w (this node holds no lease on the key)", call, l.fp, store.ErrFenced)
	}
	return l.cur.game, nil
}

// fencedLost is called with the error of a write that failed: when it
// wraps store.ErrFenced the lease has moved on, which is final, so the
// session is told to leave. It reports whether it did.
func (l *sessionLease) fencedLost(err error) bool {
	if !errors.Is(err, store.ErrFenced) {
		return false
	}
	l.mu.Lock()
	if l.cur == nil && !l.lost {
		// No lease to lose: a write outside a claim (refused; the
		// session keeps its own state).
		l.mu.Unlock()
		return false
	}
	first := !l.lost
	l.lost = true
	l.mu.Unlock()
	if first && l.n != nil {
		l.n.Notify(lobby.TakenOver)
	}
	return true
}

// Save implements store.Saves.
func (l *sessionLease) Save(fp string) ([]byte, error) { return l.st.Save(fp) }

// Journal implements store.Saves.
func (l *sessionLease) Journal(fp string) ([][]byte, error) { return l.st.Journal(fp) }

// TopScores implements store.Scores.
func (l *sessionLease) TopScores(n int) ([]store.Score, error) { return l.st.TopScores(n) }

// PutSave implements store.Saves, fenced by the session's lease.
func (l *sessionLease) PutSave(fp string, blob []byte) error {
	g, err := l.fenced("put save")
	if err == nil {
		err = g.PutSave(fp, blob)
	}
	l.fencedLost(err)
	return err
}

// DeleteSave implements store.Saves, fenced by the session's lease.
func (l *sessionLease) DeleteSave(fp string) error {
	g, err := l.fenced("delete save")
	if err == nil {
		err = g.DeleteSave(fp)
	}
	l.fencedLost(err)
	return err
}

// AppendJournal implements store.Saves, fenced by the session's lease.
func (l *sessionLease) AppendJournal(fp string, seq uint64, entry []byte) error {
	g, err := l.fenced("append journal")
	if err == nil {
		err = g.AppendJournal(fp, seq, entry)
	}
	l.fencedLost(err)
	return err
}

// FinishGame implements store.Scores, fenced by the session's lease.
func (l *sessionLease) FinishGame(fp string, s store.Score) (int, error) {
	g, err := l.fenced("finish game")
	if err != nil {
		l.fencedLost(err)
		return 0, err
	}
	rank, err := g.FinishGame(fp, s)
	l.fencedLost(err)
	return rank, err
}

// Quarantine implements store.Quarantine, fenced by the session's lease:
// a node that lost the key never sets aside (and so deletes) the new
// owner's game.
func (l *sessionLease) Quarantine(fp, reason string, now time.Time) (string, error) {
	g, err := l.fenced("quarantine")
	if err != nil {
		l.fencedLost(err)
		return "", err
	}
	key, err := g.Quarantine(fp, reason, now)
	l.fencedLost(err)
	return key, err
}

// Quarantined implements store.Quarantine.
func (l *sessionLease) Quarantined(fp string) ([]store.Quarantined, error) {
	return l.st.Quarantined(fp)
}

// renewLoop renews every lease the node holds every ttl/3 until stop
// closes, in one store call, and ends the sessions of every key the store
// says the node lost: another node claimed it (this node was paused, cut
// off, or its renewals failed for longer than the TTL); their writes are
// fenced from then on anyway.
func (nl *nodeLeases) renewLoop(stop <-chan struct{}, logger *log.Logger) {
	t := time.NewTicker(nl.ttl / 3)
	defer t.Stop()
	failing := false // the last renewal failed: log only the changes
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		failing = nl.renewOnce(failing, logger)
		nl.failing.Store(failing)
	}
}

// renewOnce renews every lease the node holds, unless renewals are
// paused (holding none, it asks whether the store answers: Renew with no
// keys), and ends the sessions of the keys the store
// says it lost (dropLost). failing says the last renewal failed; it
// returns whether this one did, and logs only the changes.
func (nl *nodeLeases) renewOnce(failing bool, logger *log.Logger) bool {
	nl.renewing.Lock()
	nl.mu.Lock()
	if nl.paused {
		nl.mu.Unlock()
		nl.renewing.Unlock()
		return failing
	}
	snap := make(map[string]*heldLease, len(nl.held))
	fps := make([]string, 0, len(nl.held))
	for fp, h := range nl.held {
		snap[fp] = h
		fps = append(fps, fp)
	}
	nl.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), leaseCallTimeout)
	lost, err := nl.st.Renew(ctx, nl.node, fps, nl.ttl)
	cancel()
	nl.renewing.Unlock()
	if err != nil {
		nl.renewFailures.Add(1)
		if !failing {
			logger.Warn("could not renew this node's leases; retrying every third of the TTL (a lease not renewed within the TTL may be claimed by another node, which ends its game here)",
				"leases", len(fps), "ttl", nl.ttl, "err", err)
		}
		return true
	}
	if failing {
		logger.Info("this node's leases are renewed again", "leases", len(fps))
	}
	nl.dropLost(snap, lost, logger)
	return false
}

// dropLost forgets each lease of lost that is still the one renewed (in
// snap: one released, and maybe claimed anew, since is not lost) and ends
// its sessions here: their writes are fenced from then on anyway.
func (nl *nodeLeases) dropLost(snap map[string]*heldLease, lost []string, logger *log.Logger) {
	for _, fp := range lost {
		h := snap[fp]
		nl.mu.Lock()
		current := h != nil && nl.held[fp] == h
		var users []*sessionLease
		if current {
			nl.lost.Add(1)
			h.lost = true
			delete(nl.held, fp)
			h.let()
			for u := range h.users {
				users = append(users, u)
			}
		}
		nl.mu.Unlock()
		if !current {
			continue
		}
		logger.Warn("this node lost its lease on a key (another node claimed it): its session here ends, its writes are refused",
			"fp", fp, "epoch", h.epoch, "sessions", len(users))
		for _, u := range users {
			u.fencedLost(fmt.Errorf("renew: %w", store.ErrFenced))
		}
	}
}

// pause stops (true) or restarts (false) the renew loop without stopping
// its goroutine: tests make a lease lapse with it, as a paused node's
// would.
func (nl *nodeLeases) pause(paused bool) {
	nl.mu.Lock()
	defer nl.mu.Unlock()
	nl.paused = paused
}

// leaseHeldLine is what a player reads when their key plays on another
// node: one line naming it.
func leaseHeldLine(e *store.LeaseHeldError) string {
	return fmt.Sprintf("Your key is playing on node %s; leave that game first, or wait until %s if that node stopped.",
		e.Node, e.Expires.UTC().Format("15:04:05 MST"))
}
