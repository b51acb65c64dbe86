// The journal: the commands applied to a game since its last save, made
// durable one by one before their result is drawn. A saved game is a
// snapshot; replaying its journal onto it gives the game as the player last
// saw it, even after the server was killed.

package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// journalBucket holds one nested bucket per fingerprint; its keys are
// big-endian sequence numbers from 0, its values journalV1 + the entry.
var (
	journalBucket    = []byte("journal")
	quarantineBucket = []byte("quarantine")
)

const journalV1 byte = 1

// AppendJournal records entry number seq (0 for the first after the save)
// of fp's journal. Concurrent calls from many sessions are group-committed
// (see groupCommit): many players cost one fsync, not one each, and an
// entry after a quiet spell is committed at once; a call returns once its
// entry is durable. Writing the same seq again overwrites it (a failed
// group is retried), so a call is idempotent.
func (b *Store) AppendJournal(fp string, seq uint64, entry []byte) error {
	if fp == "" {
		return errors.New("append journal: empty fingerprint")
	}
	key := binary.BigEndian.AppendUint64(nil, seq)
	rec := append([]byte{journalV1}, entry...)
	err := b.batch(func(tx *bbolt.Tx) error {
		if id := uint64(tx.ID()); b.lastJournalTx.Swap(id) != id {
			b.journalCommits.Add(1) // the first entry of a new group commit
		}
		b.observeJournalEntry(tx)
		root, err := tx.CreateBucketIfNotExists(journalBucket)
		if err != nil {
			return err
		}
		j, err := root.CreateBucketIfNotExists([]byte(fp))
		if err != nil {
			return err
		}
		return j.Put(key, rec)
	})
	if err != nil {
		return fmt.Errorf("append journal %s #%d: %w", fp, seq, err)
	}
	return nil
}

// observeJournalEntry counts one journal entry into tx for the store's
// Observer, which hears of tx once it has committed (never of a
// transaction rolled back, such as a batch bbolt retries without a failing
// call). It runs inside write transactions only, which bbolt runs one at a
// time, so b.jtx needs no lock.
func (b *Store) observeJournalEntry(tx *bbolt.Tx) {
	if b.jtx == nil || b.jtx.tx != tx {
		b.jtx = nil
		box := b.observer.Load()
		if box == nil {
			return
		}
		t := &journalTx{tx: tx}
		b.jtx = t
		tx.OnCommit(func() { box.o.JournalCommitted(t.entries) })
	}
	b.jtx.entries++
}

// journalTx is a write transaction carrying journal entries, and how many.
type journalTx struct {
	tx      *bbolt.Tx
	entries int
}

// SetObserver implements Observable.
func (b *Store) SetObserver(o store.Observer) {
	if o == nil {
		b.observer.Store(nil)
		return
	}
	b.observer.Store(&observerBox{o})
}

// JournalCommits returns how many write transactions (each one fsync) have
// carried journal entries since Open: with many players, far fewer than the
// entries, thanks to group commit.
func (b *Store) JournalCommits() uint64 { return b.journalCommits.Load() }

// Journal returns fp's journal entries in order (copies), none when there
// is no journal. An entry with an unknown version or a gap in the sequence
// gives an error wrapping ErrCorrupt.
func (b *Store) Journal(fp string) ([][]byte, error) {
	var out [][]byte
	err := b.db.View(func(tx *bbolt.Tx) error {
		root := tx.Bucket(journalBucket)
		if root == nil {
			return nil
		}
		j := root.Bucket([]byte(fp))
		if j == nil {
			return nil
		}
		c := j.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if len(k) != 8 || binary.BigEndian.Uint64(k) != uint64(len(out)) {
				return fmt.Errorf("journal %s: %w: entry %x out of sequence", fp, store.ErrCorrupt, k)
			}
			body, err := recordBody(journalBucket, k, v, journalV1)
			if err != nil {
				return err
			}
			out = append(out, append([]byte(nil), body...))
		}
		return nil
	})
	return out, err
}

// dropJournal deletes fp's journal inside a write transaction.
func dropJournal(tx *bbolt.Tx, fp string) error {
	root := tx.Bucket(journalBucket)
	if root == nil || root.Bucket([]byte(fp)) == nil {
		return nil
	}
	return root.DeleteBucket([]byte(fp))
}

// Quarantine moves fp's save and journal, as they are on disk, into the
// quarantine bucket with the reason, in one transaction: the player can
// start afresh and the host still has the bytes to inspect. Nothing is
// dropped. It returns the quarantine key.
func (b *Store) Quarantine(fp, reason string, now time.Time) (string, error) {
	key := fmt.Sprintf("%s@%s", fp, now.UTC().Format(time.RFC3339Nano))
	err := b.update(func(tx *bbolt.Tx) error {
		q := store.QuarantineRecord{Fingerprint: fp, Reason: reason, When: now.UTC()}
		if v := tx.Bucket(savesBucket).Get([]byte(fp)); v != nil {
			q.Save = append([]byte(nil), v...)
		}
		if root := tx.Bucket(journalBucket); root != nil {
			if j := root.Bucket([]byte(fp)); j != nil {
				j.ForEach(func(_, v []byte) error {
					q.Journal = append(q.Journal, append([]byte(nil), v...))
					return nil
				})
			}
		}
		rec, err := encodeJSON(quarantineV1, q)
		if err != nil {
			return err
		}
		qb, err := tx.CreateBucketIfNotExists(quarantineBucket)
		if err != nil {
			return err
		}
		if err := qb.Put([]byte(key), rec); err != nil {
			return err
		}
		if err := tx.Bucket(savesBucket).Delete([]byte(fp)); err != nil {
			return err
		}
		return dropJournal(tx, fp)
	})
	if err != nil {
		return "", fmt.Errorf("quarantine %s: %w", fp, err)
	}
	return key, nil
}

// Quarantined returns the quarantined records of fp (of every fingerprint
// when fp is ""), in key order: by fingerprint, then oldest first.
func (b *Store) Quarantined(fp string) ([]store.Quarantined, error) {
	var out []store.Quarantined
	err := b.db.View(func(tx *bbolt.Tx) error {
		qb := tx.Bucket(quarantineBucket)
		if qb == nil {
			return nil
		}
		c := qb.Cursor()
		prefix := []byte(fp)
		if fp != "" {
			prefix = []byte(fp + "@")
		}
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			var q store.QuarantineRecord
			if err := decodeJSON(quarantineBucket, k, v, quarantineV1, &q); err != nil {
				return err
			}
			out = append(out, store.Quarantined{Key: string(k), Fingerprint: q.Fingerprint, Reason: q.Reason,
				When: q.When, SaveBytes: len(q.Save), JournalEntries: len(q.Journal), FinishedID: q.FinishedID})
		}
		return nil
	})
	return out, err
}

// observerBox holds an Observer in an atomic.Pointer (an interface value
// cannot be stored atomically on its own).
type observerBox struct{ o store.Observer }
