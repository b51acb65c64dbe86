// Guarding every transaction against damaged pages met while the server
// runs: an error for the caller, not a crash of every session.

package bolt

import (
	"errors"
	"fmt"
	"sync/atomic"

	bbolt "go.etcd.io/bbolt"
)

// guardedDB is the bbolt handle whose View, Update and Batch turn a panic or
// a memory fault inside bbolt (a page damaged after Open checked the file)
// into an error wrapping [ErrDamaged] and [ErrCorrupt] and naming the file.
// Once any call has met damage, writes are refused with that error without
// starting a transaction, and reads go on.
//
// Why refuse writes: a write transaction that panics (as on a damaged page)
// or whose commit fails is rolled back physically, and with
// Options.NoFreelistSync that rebuilds the freelist by walking the whole
// tree in a goroutine of bbolt's (go.etcd.io/bbolt v1.5.0 tx.go,
// Tx.rollback → db.go, DB.freepages), where a damaged page faults beyond
// any recover. (A function that returns an error costs no walk: Update
// then calls Tx.Rollback, which only drops the transaction's pages, so fn is
// guarded inside the transaction.) A commit that is the first to meet the
// damage can still end the process; the next start then refuses the file
// with one line (see [Open]). Batch runs its functions in bbolt's
// goroutine too (db.go, batch.run): they are guarded there, its commit is not.
type guardedDB struct {
	*bbolt.DB
	path    string
	damaged *atomic.Pointer[error] // the first damage met, nil while none
}

func newGuardedDB(db *bbolt.DB, path string) guardedDB {
	return guardedDB{DB: db, path: path, damaged: new(atomic.Pointer[error])}
}

// run calls fn guarded and remembers the damage it meets.
func (g guardedDB) run(fn func() error) error {
	var inner error
	if err := guard(func() error { inner = fn(); return nil }); err != nil {
		err = fmt.Errorf("store %s: %w", g.path, err)
		if errors.Is(err, ErrDamaged) { // not a bug of grotto's (ErrPanic)
			g.damaged.CompareAndSwap(nil, &err)
		}
		return err
	}
	return inner
}

// refused returns the damage met earlier, if any.
func (g guardedDB) refused() error {
	if p := g.damaged.Load(); p != nil {
		return fmt.Errorf("not written: %w", *p)
	}
	return nil
}

// View runs fn in a read-only transaction, as bbolt.DB.View, guarded.
func (g guardedDB) View(fn func(*bbolt.Tx) error) error {
	return g.run(func() error { return g.DB.View(fn) })
}

// Update runs fn in a read-write transaction, as bbolt.DB.Update, guarded;
// it refuses once damage has been met.
func (g guardedDB) Update(fn func(*bbolt.Tx) error) error {
	if err := g.refused(); err != nil {
		return err
	}
	// fn is guarded inside the transaction too: its panic then becomes an
	// error, which Update answers with Tx.Rollback (no tree walk), so a
	// write that is the first to meet damage fails alone instead of
	// faulting in the physical rollback's walk.
	return g.run(func() error {
		return g.DB.Update(func(tx *bbolt.Tx) error {
			return g.run(func() error { return fn(tx) })
		})
	})
}

// Batch runs fn as part of a group commit, as bbolt.DB.Batch, guarded in
// the goroutine that runs it and in the caller's (bbolt retries a failed
// batch's function alone, there); it refuses once damage has been met.
func (g guardedDB) Batch(fn func(*bbolt.Tx) error) error {
	if err := g.refused(); err != nil {
		return err
	}
	return g.run(func() error {
		return g.DB.Batch(func(tx *bbolt.Tx) error {
			return g.run(func() error { return fn(tx) })
		})
	})
}
