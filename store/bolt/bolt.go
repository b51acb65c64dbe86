// The bbolt implementation: opening the file, profiles and saves.

package bolt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/grotto-game/grotto/store"
)

// Bucket names. players and saves are keyed by fingerprint; scores by
// scoreKey.
var (
	playersBucket = []byte("players")
	savesBucket   = []byte("saves")
	scoresBucket  = []byte("scores")
)

// Store is a [store.Store] in a single bbolt file. It is safe for concurrent use by
// many sessions: reads run in parallel and each write is one bbolt
// transaction, serialised by bbolt.
type Store struct {
	db             guardedDB
	group          *groupCommit // the journal's writes (see AppendJournal)
	path           string       // the file's path, as Open was given it
	opened         os.FileInfo  // the file bbolt locked at the path (see CheckFile)
	lastJournalTx  atomic.Uint64
	journalCommits atomic.Uint64
	leases         boltLeases                  // see Claim
	observer       atomic.Pointer[observerBox] // see SetObserver
	jtx            *journalTx                  // the write transaction journal entries go into now (observeJournalEntry)
}

var _ store.Observable = (*Store)(nil)

var _ store.Store = (*Store)(nil)

// boltOptions are grotto's options for bbolt. The freelist (the ids of the
// pages free for reuse) is not written on commit: bbolt v1.5.0 writes it
// whole on every commit otherwise (tx.go, Tx.Commit → commitFreelist), and
// after 10,000 finished games it holds ~70,000 pages, 570 KB per commit
// where a turn's journal entry needs 15 KB (etcd-io/bbolt#401: "the list
// is not differential"; etcd and containerd set this option too). Open
// rebuilds it instead by walking the tree (db.go, DB.freepages): ~12 ms
// for that file, ~200 ms with the damage check for 10,000 live 28 KB
// saves. The hashmap freelist allocates without scanning an array.
func boltOptions(lockTimeout time.Duration) bbolt.Options {
	return bbolt.Options{Timeout: lockTimeout, NoFreelistSync: true, FreelistType: bbolt.FreelistMapType}
}

// Open opens the grotto database at path, creating the file (mode 0600), its
// parent directory (mode 0700) and the buckets if missing.
//
// Only one process may hold the file open. Open waits up to lockTimeout for
// another process to release it (0 waits forever), then returns an error
// wrapping [ErrLocked]. A file that is not a bbolt database gives an error
// wrapping [ErrNotDatabase]; one whose pages are damaged, an error wrapping
// [ErrDamaged] that names the first problems (Open reads every page the
// file's tree reaches, and runs bbolt's Tx.Check). Every error names path.
func Open(path string, lockTimeout time.Duration) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	opts := boltOptions(lockTimeout)
	if err := checkDamage(path, opts); err != nil {
		return nil, err
	}
	db, opened, err := openBolt(path, opts)
	if err != nil {
		return nil, openError(path, err, lockTimeout)
	}
	g := newGuardedDB(db, path)
	err = g.Update(func(tx *bbolt.Tx) error {
		for _, name := range [][]byte{playersBucket, savesBucket, scoresBucket, journalBucket, namesBucket, finishedBucket} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("bucket %s: %w", name, err)
			}
		}
		return buildKeyIndex(tx)
	})
	if err != nil {
		db.Close()
		if errors.Is(err, berrors.ErrIncompatibleValue) {
			err = fmt.Errorf("%w (%w)", ErrNotDatabase, err)
		}
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return &Store{db: g, group: &groupCommit{db: g}, path: path, opened: opened}, nil
}

// openBolt opens path with bbolt, guarded, and makes sure the file it
// locked is still the one at path: a `grotto compact` that held the lock
// renames its copy over path before releasing it, and the old file's lock
// then goes to whoever was waiting on it. It tries again then, up to 3
// times. It returns the locked file's identity for [Store.CheckFile].
func openBolt(path string, opts bbolt.Options) (*bbolt.DB, os.FileInfo, error) {
	for try := 0; ; try++ {
		var f *os.File
		opts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
			var err error
			f, err = os.OpenFile(name, flag, perm)
			return f, err
		}
		var db *bbolt.DB
		err := guard(func() error {
			var err error
			db, err = bbolt.Open(path, 0o600, &opts)
			return err
		})
		if err != nil {
			return nil, nil, err
		}
		locked, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err := errors.Join(err1, err2); err != nil {
			db.Close()
			return nil, nil, err
		}
		if os.SameFile(locked, now) {
			return db, locked, nil
		}
		db.Close()
		if try == 2 {
			return nil, nil, errors.New("the file was replaced under us 3 times while opening it")
		}
	}
}

// openError names path in an error of bbolt.Open and wraps the sentinel
// that says what is wrong.
func openError(path string, err error, lockTimeout time.Duration) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("open store %s: %w after %v; another grotto process probably holds it", path, ErrLocked, lockTimeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum):
		return fmt.Errorf("open store %s: %w (%w)", path, ErrNotDatabase, err)
	}
	return fmt.Errorf("open store %s: %w", path, err)
}

// Close closes the file, releasing its lock. The store must not be used
// afterwards.
func (b *Store) Close() error { return b.db.Close() }

// Profile returns the profile of fp, ErrNotFound if there is none, or an
// error wrapping ErrCorrupt if it cannot be decoded.
func (b *Store) Profile(fp string) (store.Profile, error) {
	var p store.Profile
	err := b.db.View(func(tx *bbolt.Tx) error {
		rec := tx.Bucket(playersBucket).Get([]byte(fp))
		if rec == nil {
			return store.ErrNotFound
		}
		var err error
		p, err = decodeProfile([]byte(fp), rec) // copies out of the mmap
		return err
	})
	return p, err
}

// PutProfile creates or replaces the profile keyed by p.Fingerprint, which
// must not be empty. Times are stored in UTC at nanosecond precision.
func (b *Store) PutProfile(p store.Profile) error {
	if p.Fingerprint == "" {
		return errors.New("put profile: empty fingerprint")
	}
	rec, err := encodeProfile(p)
	if err != nil {
		return fmt.Errorf("put profile %s: %w", p.Fingerprint, err)
	}
	return b.update(func(tx *bbolt.Tx) error {
		return tx.Bucket(playersBucket).Put([]byte(p.Fingerprint), rec)
	})
}

// Save returns a copy of fp's saved game blob, ErrNotFound if there is
// none, or an error wrapping ErrCorrupt if its record version is unknown.
func (b *Store) Save(fp string) ([]byte, error) {
	var blob []byte
	err := b.db.View(func(tx *bbolt.Tx) error {
		rec := tx.Bucket(savesBucket).Get([]byte(fp))
		if rec == nil {
			return store.ErrNotFound
		}
		body, err := recordBody(savesBucket, []byte(fp), rec, saveV1)
		if err != nil {
			return err
		}
		blob = append([]byte{}, body...) // rec is only valid inside the tx
		return nil
	})
	if err != nil {
		return nil, err
	}
	return blob, nil
}

// PutSave creates or replaces fp's saved game with blob and drops fp's
// journal, in one write transaction: the save is a snapshot. fp must not be empty; blob is copied and may be reused.
func (b *Store) PutSave(fp string, blob []byte) error {
	if fp == "" {
		return errors.New("put save: empty fingerprint")
	}
	rec := make([]byte, 0, 1+len(blob))
	rec = append(append(rec, saveV1), blob...)
	return b.update(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(savesBucket).Put([]byte(fp), rec); err != nil {
			return err
		}
		return dropJournal(tx, fp) // the snapshot holds everything the journal did
	})
}

// DeleteSave deletes fp's saved game and journal. Deleting an absent save is no error.
func (b *Store) DeleteSave(fp string) error {
	return b.update(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(savesBucket).Delete([]byte(fp)); err != nil {
			return err
		}
		return dropJournal(tx, fp)
	})
}

// ErrLocked is returned (wrapped, with the file name) by [Open] when the
// database file stays locked by another process for the whole lock timeout.
var ErrLocked = errors.New("database is locked")

// ErrNotDatabase is returned (wrapped, with the file name) by [Open] when the
// file exists but is not a grotto database.
var ErrNotDatabase = errors.New("not a grotto database")
