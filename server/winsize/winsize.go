// Package winsize hands a program the sizes its terminal reports, coalesced:
// one rule for every way a size can arrive (an SSH window-change, a watch,
// play or replay page's resize message). A client may report sizes as fast
// as it can send them; each one handed on costs a full repaint of the
// program's screen, so a flood must cost no more than a few.
//
// The rule: the first size after a quiet spell goes at once; after that, at
// most one per Interval, and the one handed on is the newest reported; the
// sizes it replaced never are. Nothing a client does blocks on the program.
package winsize

import (
	"context"
	"sync"
	"time"
)

// Interval is the shortest time between two sizes handed to a program:
// two a second. Each costs a repaint of up to tui.MaxWidth x tui.MaxHeight
// cells; a break test measured +45 ms p99 for other players with two SSH
// flooders at five a second, and another 2.2 s of delay for other
// players' keys from 20 watch pages sending 25,000 sizes each, one by one.
const Interval = 500 * time.Millisecond

// ReportsPerSec is how many sizes one client's terminal may report per
// second, after a burst of ReportBurst, before its reports are read no
// faster (the client then waits, as for typed input): far above what a
// window being dragged sends, so that such a drag never waits, while a
// flood costs little to read. A reader applies it where it reads the
// client (an SSH session's requests, a page's WebSocket).
const (
	ReportsPerSec = 500
	ReportBurst   = 1000
)

// Coalescer keeps the newest size a client reported (of type T: an SSH
// window, a tea.WindowSizeMsg) until it is handed on. Set may be called
// from any goroutine, at any rate; Deliver hands the sizes on from one.
// Make one with New.
type Coalescer[T any] struct {
	mu      sync.Mutex
	latest  T
	seen    bool // latest holds a size
	pending bool // latest has not been handed on
	wake    chan struct{}
}

// New returns a Coalescer with no size yet.
func New[T any]() *Coalescer[T] {
	return &Coalescer[T]{wake: make(chan struct{}, 1)}
}

// Set makes size the newest; it never blocks.
func (c *Coalescer[T]) Set(size T) {
	c.mu.Lock()
	c.latest, c.seen, c.pending = size, true, true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// Current returns the newest size, handed on or not, and whether there is
// one.
func (c *Coalescer[T]) Current() (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.latest, c.seen
}

// take returns the newest size if it has not been handed on yet.
func (c *Coalescer[T]) take() (T, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var none T
	if !c.pending {
		return none, false
	}
	c.pending = false
	return c.latest, true
}

// Deliver calls send with the newest size whenever one is waiting, at most
// one call per every (Interval for a client's terminal), until ctx ends or
// send returns false (the program has gone). send may block, e.g. until
// the program reads the size; sizes set meanwhile wait, coalesced.
func (c *Coalescer[T]) Deliver(ctx context.Context, every time.Duration, send func(T) bool) {
	pause := time.NewTimer(every)
	pause.Stop()
	defer pause.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.wake:
		}
		size, ok := c.take()
		if !ok {
			continue
		}
		if !send(size) {
			return
		}
		pause.Reset(every)
		select {
		case <-ctx.Done():
			return
		case <-pause.C:
		}
	}
}
