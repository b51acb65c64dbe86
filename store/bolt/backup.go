// An online copy of the database file, for a running server's backups.

package bolt

import (
	"fmt"
	"io"

	bbolt "go.etcd.io/bbolt"
)

// Path returns the database file's path, as Open was given it.
func (b *Store) Path() string { return b.path }

// OpenReads returns how many read transactions are open now (bbolt's
// Stats.OpenTxN): a commit that must grow the file's memory map waits for
// every one of them.
func (b *Store) OpenReads() int { return b.db.Stats().OpenTxN }

// Backup writes a consistent copy of the whole database file to w while
// the store stays open and players play: bbolt's Tx.WriteTo inside one
// read transaction, which sees the file as of its start (the games,
// their journals, the scores, the daily secret) and does not block
// writers, unless a commit must grow the file's memory map while it runs:
// such a commit waits for the copy, so w must be fast (a local file, not a
// client's socket). size is called first with the copy's length in bytes. It returns the
// bytes written, or the writer's error, or an error wrapping ErrDamaged
// when the store met damage.
func (b *Store) Backup(w io.Writer, size func(int64) error) (int64, error) {
	var n int64
	err := b.db.View(func(tx *bbolt.Tx) error {
		if err := size(tx.Size()); err != nil {
			return err
		}
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("backup: %w", err)
	}
	return n, nil
}
