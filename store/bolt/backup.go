// An online copy of the database file, for a running server's backups.

package bolt

import (
	"fmt"
	"io"

	bbolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole database file to w while
// the store stays open and players play: bbolt's Tx.WriteTo inside one
// read transaction, which sees the file as of its start (the games,
// their journals, the scores, the daily secret) and does not block
// writers, unless a commit must grow the file's memory map while it runs.
// size is called first with the copy's length in bytes. It returns the
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
