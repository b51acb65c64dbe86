package events

// This file is the hub: the ring of the last events and the followers,
// each with a bounded buffer. Publish never waits for a follower: one
// whose buffer is full is cut (its channel closed, Cut true), so a slow
// reader costs a game nothing and never sees a feed with holes in it.

import (
	"context"
	"sync"
	"sync/atomic"
)

// DefaultKeep is how many recent events a hub keeps for a new follower
// and the front page.
const DefaultKeep = 50

// DefaultBuffer is how many events a follower may fall behind before it
// is cut: milestones come a few a minute per game, so a follower that
// holds this many unread is not reading.
const DefaultBuffer = 256

// Hub is the node's feed: the last events, in the order published, and
// the followers they are handed to. Safe for concurrent use.
type Hub struct {
	mu   sync.Mutex
	ring []Event // the last cap(ring) events, oldest at next when full
	next int     // where the next event goes in ring
	full bool    // ring has wrapped
	subs map[*Sub]struct{}
	// closed is set by Close: followers end, and a new one ends at once.
	closed bool

	published atomic.Uint64
	cut       atomic.Uint64
	seen      seenIDs        // IDs already published, so an event heard twice is kept once
	running   sync.WaitGroup // followers not yet stopped (Wait)
}

// NewHub returns a hub that keeps the last keep events (DefaultKeep when
// keep ≤ 0).
func NewHub(keep int) *Hub {
	if keep <= 0 {
		keep = DefaultKeep
	}
	return &Hub{ring: make([]Event, 0, keep), subs: map[*Sub]struct{}{}, seen: newSeenIDs(4 * keep)}
}

// Publish adds e to the ring and hands it to every follower, without
// waiting: a follower whose buffer is full is cut. An event whose ID was
// published lately is ignored (it came twice, e.g. from a node and a
// retry), and so is one without an ID. It reports whether e was new.
func (h *Hub) Publish(e Event) bool {
	if e.ID == "" {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.seen.add(e.ID) {
		return false
	}
	if len(h.ring) < cap(h.ring) {
		h.ring = append(h.ring, e)
	} else {
		h.ring[h.next] = e
		h.full = true
	}
	h.next = (h.next + 1) % cap(h.ring)
	h.published.Add(1)
	for s := range h.subs {
		select {
		case s.ch <- e:
		default: // full: cut it rather than wait or leave a hole
			delete(h.subs, s)
			s.cut.Store(true)
			close(s.cutC)
			close(s.ch)
			h.cut.Add(1)
		}
	}
	return true
}

// Recent returns the events the hub keeps, oldest first (a copy).
func (h *Hub) Recent() []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recent()
}

func (h *Hub) recent() []Event {
	if !h.full {
		return append([]Event(nil), h.ring...)
	}
	out := make([]Event, 0, len(h.ring))
	out = append(out, h.ring[h.next:]...)
	return append(out, h.ring[:h.next]...)
}

// Follow returns the events the hub keeps, oldest first, and a follower
// that gets every event published after them, none missed and none
// twice. buf is how many it may hold unread before it is cut
// (DefaultBuffer when ≤ 0). The follower must be stopped (Sub.Stop).
func (h *Hub) Follow(buf int) ([]Event, *Sub) {
	if buf <= 0 {
		buf = DefaultBuffer
	}
	s := &Sub{h: h, ch: make(chan Event, buf), cutC: make(chan struct{})}
	h.running.Add(1)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		close(s.ch)
	} else {
		h.subs[s] = struct{}{}
	}
	return h.recent(), s
}

// Close ends every follower (their channels close, Cut false) and every
// later one at once: the server is stopping. Publish still keeps events.
func (h *Hub) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for s := range h.subs {
		delete(h.subs, s)
		close(s.ch)
	}
}

// Published returns how many events the hub took since it was made.
func (h *Hub) Published() uint64 { return h.published.Load() }

// Cut returns how many followers were cut for falling behind.
func (h *Hub) Cut() uint64 { return h.cut.Load() }

// Followers returns how many followers the hub has now.
func (h *Hub) Followers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Sub is one follower of a hub.
type Sub struct {
	h       *Hub
	ch      chan Event
	cut     atomic.Bool
	cutC    chan struct{} // closed when cut
	stopped sync.Once     // Stop counts it out of Hub.running once
}

// C returns the follower's events. It is closed when the follower is
// stopped or cut.
func (s *Sub) C() <-chan Event { return s.ch }

// Cut reports whether the hub cut the follower for falling more than its
// buffer behind: it then missed events.
func (s *Sub) Cut() bool { return s.cut.Load() }

// CutC is closed when the hub cuts the follower (never when it is
// stopped or the hub closes): for a reader that may be stuck writing what
// it read, and must be ended from outside.
func (s *Sub) CutC() <-chan struct{} { return s.cutC }

// Stop ends the follower and closes its channel; it may be called more
// than once, and after a cut.
func (s *Sub) Stop() {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	if _, ok := s.h.subs[s]; ok {
		delete(s.h.subs, s)
		close(s.ch)
	}
	s.stopped.Do(s.h.running.Done)
}

// Wait returns once every follower was stopped (Sub.Stop), or ctx's
// error: after Close, for a server that lets its followers say goodbye
// before it closes their connections.
func (h *Hub) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { h.running.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// seenIDs remembers the last n IDs added, to refuse one added again.
type seenIDs struct {
	set   map[string]struct{}
	order []string // a ring of the IDs in set
	next  int
}

func newSeenIDs(n int) seenIDs {
	return seenIDs{set: make(map[string]struct{}, n), order: make([]string, 0, n)}
}

// add reports whether id is new, and remembers it, forgetting the oldest.
func (s *seenIDs) add(id string) bool {
	if _, ok := s.set[id]; ok {
		return false
	}
	if len(s.order) < cap(s.order) {
		s.order = append(s.order, id)
	} else {
		delete(s.set, s.order[s.next])
		s.order[s.next] = id
		s.next = (s.next + 1) % cap(s.order)
	}
	s.set[id] = struct{}{}
	return true
}
