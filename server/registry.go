package server

import (
	"context"
	"errors"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
)

// registry is the set of live sessions, at most one per key fingerprint,
// shared by every session goroutine and the shutdown path. It is safe for
// concurrent use.
type registry struct {
	mu      sync.Mutex
	next    uint64
	live    map[uint64]liveSession
	closing bool
}

type liveSession struct {
	fp   string
	prog *tea.Program
}

// errClosing is returned by add once shutdown has begun.
var errClosing = errors.New("the server is shutting down")

// errAlreadyPlaying is returned by add when the key already has a live session.
var errAlreadyPlaying = errors.New("this key is already playing")

func newRegistry() *registry { return &registry{live: make(map[uint64]liveSession)} }

// add registers the program of a session of key fp and returns its id. It
// returns errClosing once shutdown has begun and errAlreadyPlaying when fp
// has a live session: one game per key, so two sessions can never overwrite
// each other's save or outlive a death.
func (r *registry) add(fp string, p *tea.Program) (uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return 0, errClosing
	}
	for _, s := range r.live {
		if s.fp == fp {
			return 0, errAlreadyPlaying
		}
	}
	r.next++
	r.live[r.next] = liveSession{fp: fp, prog: p}
	return r.next, nil
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
	for _, s := range r.live {
		progs = append(progs, s.prog)
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
