// The database file's identity: a write is only durable if it went to the
// file at the store's path. A data directory deleted (or the file replaced)
// under a running server leaves bbolt writing to an unlinked inode that
// vanishes on close, so every write checks that the path still names the
// file the store opened, and fails with ErrFileGone if not.

package bolt

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// CheckFile returns nil when the store's path still names the file it
// opened, else an error wrapping ErrFileGone that names the path. It costs
// one stat(2), and is safe to call at any time, even during or after Close.
func (b *Store) CheckFile() error {
	now, err := os.Stat(b.path)
	if err != nil || !os.SameFile(b.opened, now) {
		return fmt.Errorf("database %s: %w; restore it from a backup", b.path, store.ErrFileGone)
	}
	return nil
}

// update runs fn in a write transaction and reports the write durable only
// if it reached the file at the store's path.
func (b *Store) update(fn func(*bbolt.Tx) error) error {
	if err := b.db.Update(fn); err != nil {
		return noRoom(err)
	}
	return b.CheckFile()
}

// batch is update through the store's group commit, shared with
// concurrent callers (see groupCommit).
func (b *Store) batch(fn func(*bbolt.Tx) error) error {
	if err := b.group.do(fn); err != nil {
		return noRoom(err)
	}
	return b.CheckFile()
}

// noRoom wraps err with ErrNoRoom when the system found no room to write.
// bbolt v1.5.0 formats the error of growing the file with %s (db.go,
// DB.grow: "file resize error: %s"), losing the errno, so its text is read
// too.
func noRoom(err error) error {
	msg := err.Error()
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EFBIG) ||
		strings.Contains(msg, syscall.ENOSPC.Error()) || strings.Contains(msg, syscall.EFBIG.Error()) {
		return fmt.Errorf("%w: %w", store.ErrNoRoom, err)
	}
	return err
}
