package server

import (
	"cmp"
	"context"
	"errors"
	gossh "golang.org/x/crypto/ssh"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game/tui"
)

// registry is the set of live sessions, at most one per key fingerprint,
// and the hub their watchers read from. Every session goroutine, every
// watcher and the shutdown path share it; it is safe for concurrent use and
// no method blocks on a session or a watcher: a slow watcher only misses
// frames, it never slows the player.
type registry struct {
	mu      sync.Mutex
	next    uint64
	live    map[uint64]*liveSession
	closing bool
}

// liveSession is one connected player, as the registry knows it.
type liveSession struct {
	id        uint64
	spectator bool // a session of a key that plays elsewhere: not its key's live game
	fp, name  string
	prog      *tea.Program
	depth     int // 0 while on the title screen
	turn      int
	lastInput time.Time
	conn      gossh.Conn             // for keepalives
	missed    int                    // keepalives unanswered in a row; guarded by registry.mu
	frame     []byte                 // the latest published game (a save blob), for watchers
	watchers  map[uint64]chan []byte // each holds at most the newest frame
	done      chan struct{}          // closed when the session leaves
}

// LiveGame is what everyone may know of a live session: the title screen's
// list and `ssh host who`.
type LiveGame = tui.LiveGame

// errClosing is returned by add once shutdown has begun.
var errClosing = errors.New("the server is shutting down")

// errAlreadyPlaying is returned by add when the key already has a live session.
var errAlreadyPlaying = errors.New("this key is already playing")

func newRegistry() *registry { return &registry{live: make(map[uint64]*liveSession)} }

// add registers the program of a session of key fp playing as name and
// returns its id. It returns errClosing once shutdown has begun and
// errAlreadyPlaying when fp has a live session: one game per key, so two
// sessions can never overwrite each other's save or outlive a death.
func (r *registry) add(fp, name string, p *tea.Program, now time.Time) (uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return 0, errClosing
	}
	for _, s := range r.live {
		if s.fp == fp && !s.spectator {
			return 0, errAlreadyPlaying
		}
	}
	r.next++
	r.live[r.next] = &liveSession{id: r.next, fp: fp, name: name, prog: p, lastInput: now,
		watchers: map[uint64]chan []byte{}, done: make(chan struct{})}
	return r.next, nil
}

// addSpectator registers a session of a key that is already playing
// elsewhere: it is told about shutdowns and waited for, but it is not the
// key's live game and is not listed. promote makes it the live one.
func (r *registry) addSpectator(fp string, p *tea.Program, now time.Time) (uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return 0, errClosing
	}
	r.next++
	r.live[r.next] = &liveSession{id: r.next, spectator: true, fp: fp, prog: p, lastInput: now,
		watchers: map[uint64]chan []byte{}, done: make(chan struct{})}
	return r.next, nil
}

// promote makes spectator session id the live session of its key, under
// name, unless another session of the key is live (errAlreadyPlaying).
func (r *registry) promote(id uint64, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.live[id]
	if !ok {
		return errClosing
	}
	for _, o := range r.live {
		if o.fp == s.fp && !o.spectator {
			return errAlreadyPlaying
		}
	}
	s.spectator, s.name = false, name
	return nil
}

// remove unregisters a session whose program has ended and whose game is
// saved; its watchers see their channels close.
func (r *registry) remove(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.live[id]
	if !ok {
		return
	}
	delete(r.live, id)
	for _, ch := range s.watchers {
		close(ch)
	}
	clear(s.watchers) // a watcher's stop after this finds nothing to close
	close(s.done)
}

// rename records the name a session chose.
func (r *registry) rename(id uint64, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.live[id]; ok {
		s.name = name
	}
}

// publish records a session's latest state and hands frame to each watcher,
// replacing any frame the watcher has not read yet. depth 0 means no game.
func (r *registry) publish(id uint64, depth, turn int, frame []byte, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.live[id]
	if !ok {
		return
	}
	s.depth, s.turn, s.frame, s.lastInput = depth, turn, frame, now
	for _, ch := range s.watchers {
		offer(ch, frame)
	}
}

// offer puts frame in a one-slot channel, dropping what it held.
func offer(ch chan []byte, frame []byte) {
	select {
	case <-ch:
	default:
	}
	select {
	case ch <- frame:
	default:
	}
}

// watch subscribes to live session id: the returned channel first holds its
// latest frame (if any), then every newer one, and closes when the session
// ends. stop unsubscribes. ok is false when id is not live.
func (r *registry) watch(id uint64) (frames <-chan []byte, stop func(), ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, ok := r.live[id]
	if !ok {
		return nil, nil, false
	}
	r.next++
	wid := r.next
	ch := make(chan []byte, 1)
	if s.frame != nil {
		ch <- s.frame
	}
	s.watchers[wid] = ch
	r.notifyWatchers(s)
	return ch, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if w, ok := s.watchers[wid]; ok {
			delete(s.watchers, wid)
			close(w)
			r.notifyWatchers(s)
		}
	}, true
}

// notifyWatchers tells a player that the number watching changed; mu is
// held. The player then asks for the count, so notices arriving out of
// order cannot leave a stale number on screen.
func (r *registry) notifyWatchers(s *liveSession) {
	if s.prog != nil {
		go s.prog.Send(tui.WatchersMsg{})
	}
}

// watchers returns how many watch session id.
func (r *registry) watchers(id uint64) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.live[id]; ok {
		return len(s.watchers)
	}
	return 0
}

// list returns the live sessions by name.
func (r *registry) list() []LiveGame {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]LiveGame, 0, len(r.live))
	for _, s := range r.live {
		if s.spectator {
			continue
		}
		out = append(out, s.listed())
	}
	slices.SortFunc(out, func(a, b LiveGame) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// listed is how s shows in the list of live games; r.mu must be held.
func (s *liveSession) listed() LiveGame {
	return LiveGame{ID: s.id, Name: s.name, Depth: s.depth, Turn: s.turn,
		LastInput: s.lastInput, Watchers: len(s.watchers)}
}

// ofKey returns the live game of key fp (not a spectator), if it has one.
func (r *registry) ofKey(fp string) (LiveGame, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.live {
		if s.fp == fp && !s.spectator {
			return s.listed(), true
		}
	}
	return LiveGame{}, false
}

// takeOver asks the live session of fp to save and leave with msg, and
// waits until it has gone (or ctx ends). It returns nil at once when fp has
// no live session.
func (r *registry) takeOver(ctx context.Context, fp string, msg tea.Msg) error {
	r.mu.Lock()
	var old *liveSession
	for _, s := range r.live {
		if s.fp == fp && !s.spectator {
			old = s
		}
	}
	r.mu.Unlock()
	if old == nil {
		return nil
	}
	if old.prog != nil {
		go old.prog.Send(msg)
	}
	select {
	case <-old.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// len returns the number of live sessions.
func (r *registry) len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.live)
}

// closeAll refuses new sessions from now on and sends msg to every live
// program. Send does not block on a program that has already ended.
func (r *registry) closeAll(msg tea.Msg) {
	r.mu.Lock()
	r.closing = true
	progs := make([]*tea.Program, 0, len(r.live))
	for _, s := range r.live {
		progs = append(progs, s.prog)
	}
	r.mu.Unlock()
	for _, p := range progs {
		if p != nil {
			go p.Send(msg) // never let one stuck session hold up the others
		}
	}
}

// wait returns nil once no session is live, or ctx's error.
func (r *registry) wait(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for r.len() > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// setConn records the SSH connection of session id, for keepalives.
func (r *registry) setConn(id uint64, c gossh.Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.live[id]; ok {
		s.conn = c
	}
}

// sweep runs until stop closes: every keepAlive it checks that each client
// still answers (3 misses in a row close the connection, and the session
// saves as it unwinds), and every idle period it asks every program whether
// it has been idle too long. One goroutine for all sessions: an idle
// session costs no timer of its own.
func (r *registry) sweep(keepAlive, idle time.Duration, stop <-chan struct{}) {
	if keepAlive <= 0 {
		keepAlive = 30 * time.Second
	}
	ka := time.NewTicker(keepAlive)
	defer ka.Stop()
	var idleC <-chan time.Time
	if idle > 0 {
		t := time.NewTicker(min(time.Minute, idle))
		defer t.Stop()
		idleC = t.C
	}
	for {
		select {
		case <-stop:
			return
		case <-ka.C:
			r.mu.Lock()
			for _, s := range r.live {
				if s.conn == nil {
					continue
				}
				if s.missed >= 3 {
					s.conn.Close()
					continue
				}
				s.missed++
				go func(s *liveSession, c gossh.Conn) {
					if _, _, err := c.SendRequest("keepalive@openssh.com", true, nil); err != nil {
						c.Close()
						return
					}
					r.mu.Lock()
					s.missed = 0
					r.mu.Unlock()
				}(s, s.conn)
			}
			r.mu.Unlock()
		case <-idleC:
			r.mu.Lock()
			for _, s := range r.live {
				if s.prog != nil {
					go s.prog.Send(tui.IdleCheckMsg{})
				}
			}
			r.mu.Unlock()
		}
	}
}
