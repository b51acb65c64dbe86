// Group commit of the journal: many players' entries share one fsync,
// and an entry never waits for company.

package bolt

import (
	"sync"

	bbolt "go.etcd.io/bbolt"
)

// groupCommit runs journal appends in shared write transactions as soon as
// the disk is free (leader/follower group commit, as PostgreSQL flushes its
// WAL with commit_delay 0): an append after a quiet spell commits at once,
// alone; appends that arrive while a commit runs wait for it and then go
// together in the next one, so under load one fsync carries many entries.
// bbolt's own DB.Batch instead holds every batch open for MaxBatchDelay
// (go.etcd.io/bbolt v1.5.0 db.go, DB.Batch): a key waited 2 ms more for its
// frame at p50 when nobody else was writing (docs/performance.md, "Frames
// on demand").
type groupCommit struct {
	db      guardedDB
	mu      sync.Mutex
	pending []*groupCall // waiting for the next commit
	running bool         // a goroutine is committing: it takes pending when done
}

// groupCall is one caller's function and, once done is closed, its result.
type groupCall struct {
	fn   func(*bbolt.Tx) error
	err  error
	done chan struct{}
}

// do runs fn in a write transaction shared with other callers' and returns
// once that transaction has committed (nil) or failed (its error, also
// wrapping ErrDamaged when the store met damage, and refused without a
// transaction after that). A fn that returns an error or panics is run
// again alone, as bbolt's Batch does, so that it fails alone and the others
// commit without it: fn may run more than once and must be idempotent.
func (g *groupCommit) do(fn func(*bbolt.Tx) error) error {
	if err := g.db.refused(); err != nil {
		return err
	}
	c := &groupCall{fn: fn, done: make(chan struct{})}
	g.mu.Lock()
	g.pending = append(g.pending, c)
	if !g.running {
		g.running = true
		go g.commitLoop()
	}
	g.mu.Unlock()
	<-c.done
	return c.err
}

// commitLoop commits what is pending, again and again, until nothing is.
func (g *groupCommit) commitLoop() {
	for {
		g.mu.Lock()
		calls := g.pending
		g.pending = nil
		if len(calls) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		g.mu.Unlock()
		g.commit(calls)
	}
}

// commit runs calls in one transaction and tells each its result. When a
// call's function fails, that call runs alone and the rest are committed
// again without it; when the commit itself fails (a full disk), every call
// gets its error.
func (g *groupCommit) commit(calls []*groupCall) {
	for len(calls) > 0 {
		failed := -1
		err := g.db.Update(func(tx *bbolt.Tx) error {
			for i, c := range calls {
				if err := g.db.run(func() error { return c.fn(tx) }); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		if failed < 0 {
			for _, c := range calls {
				c.err = err
				close(c.done)
			}
			return
		}
		alone := calls[failed]
		alone.err = g.db.Update(alone.fn)
		close(alone.done)
		calls = append(calls[:failed:failed], calls[failed+1:]...)
	}
}
