package server

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// registry is the set of live sessions' programs, shared by every session
// goroutine and the shutdown path. It is safe for concurrent use.
type registry struct {
	mu      sync.Mutex
	next    uint64
	live    map[uint64]*tea.Program
	closing bool
}

func newRegistry() *registry { return &registry{live: make(map[uint64]*tea.Program)} }

// add registers p and returns its id, or false once shutdown has begun (the
// session must then end without starting its program).
func (r *registry) add(p *tea.Program) (uint64, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return 0, false
	}
	r.next++
	r.live[r.next] = p
	return r.next, true
}

// remove unregisters a session whose program has ended and whose game is saved.
func (r *registry) remove(id uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.live, id)
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
	for _, p := range r.live {
		progs = append(progs, p)
	}
	r.mu.Unlock()
	for _, p := range progs {
		go p.Send(msg) // never let one stuck session hold up the others
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
