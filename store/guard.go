// Guarding every transaction against damaged pages met while the server
// runs: an error for the caller, never a crash of every session.

package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// guardedDB is the bbolt handle whose View, Update and Batch turn a panic or
// a memory fault inside bbolt (a page damaged after Open checked the file)
// into an error wrapping [ErrDamaged] and [ErrCorrupt] and naming the file.
//
// Batch runs its functions in a goroutine of bbolt's (db.go, DB.Batch and
// batch.run), so there the guard covers the function but not bbolt's commit
// after it: a fault while writing the tree back can still end the process.
type guardedDB struct {
	*bolt.DB
	path string
}

func (g guardedDB) wrap(err error) error {
	return fmt.Errorf("store %s: %w", g.path, err)
}

// View runs fn in a read-only transaction, as bolt.DB.View, guarded.
func (g guardedDB) View(fn func(*bolt.Tx) error) error {
	var inner error
	if err := guard(func() error { inner = g.DB.View(fn); return nil }); err != nil {
		return g.wrap(err)
	}
	return inner
}

// Update runs fn in a read-write transaction, as bolt.DB.Update, guarded.
func (g guardedDB) Update(fn func(*bolt.Tx) error) error {
	var inner error
	if err := guard(func() error { inner = g.DB.Update(fn); return nil }); err != nil {
		return g.wrap(err)
	}
	return inner
}

// Batch runs fn as part of a group commit, as bolt.DB.Batch, guarded in
// the goroutine that runs it and in the caller's (bbolt retries a failed
// batch's function alone, there).
func (g guardedDB) Batch(fn func(*bolt.Tx) error) error {
	var inner error
	err := guard(func() error {
		inner = g.DB.Batch(func(tx *bolt.Tx) error {
			var fnErr error
			if err := guard(func() error { fnErr = fn(tx); return nil }); err != nil {
				return g.wrap(err)
			}
			return fnErr
		})
		return nil
	})
	if err != nil {
		return g.wrap(err)
	}
	return inner
}
