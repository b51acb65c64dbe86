// Finished games kept whole: every game that ended, with its
// seed, rules, history, final hash and dump, under a short id, for
// `replays`, `dump` and the replay player.

package bolt

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// finishedBucket maps a big-endian uint64 id (from the bucket's
// NextSequence, so 1, 2, 3… in the order games finished) to finishedV1 +
// JSON finishedRecord.
var finishedBucket = []byte("finished")

// putFinished records s.Game under the next id inside a write transaction
// and returns the id.
func putFinished(tx *bbolt.Tx, s store.Score) (uint64, error) {
	fb, err := tx.CreateBucketIfNotExists(finishedBucket)
	if err != nil {
		return 0, err
	}
	id, err := fb.NextSequence()
	if err != nil {
		return 0, err
	}
	s.GameID = id
	f := store.Finished{ID: id, Score: s, Record: *s.Game}
	rec, err := encodeFinished(f)
	if err != nil {
		return 0, err
	}
	if err := indexFinished(tx, f); err != nil {
		return 0, err
	}
	return id, fb.Put(binary.BigEndian.AppendUint64(nil, id), rec)
}

// EncodeFinished returns f as the bbolt file stores it (a version byte,
// then JSON): the bytes a quarantined finished game keeps, in every store.
func EncodeFinished(f store.Finished) ([]byte, error) { return encodeFinished(f) }

func encodeFinished(f store.Finished) ([]byte, error) {
	s := f.Score
	return encodeJSON(finishedV1, finishedRecord{
		Score: scoreRecord{Name: s.Name, Fingerprint: s.Fingerprint, Depth: s.Depth, Turns: s.Turns, Kills: s.Kills,
			Points: s.Points, Cause: s.Cause, Date: s.Date.UTC(), GameID: f.ID, Daily: s.Daily},
		Cheated: s.Cheated, Won: f.Record.Won, Seed: f.Record.Seed, Rules: f.Record.Rules, Hash: f.Record.Hash,
		History: f.Record.History, Dump: f.Record.Dump,
	})
}

func decodeFinished(key, rec []byte) (store.Finished, error) {
	var r finishedRecord
	if err := decodeJSON(finishedBucket, key, rec, finishedV1, &r); err != nil {
		return store.Finished{}, err
	}
	if len(key) != 8 {
		return store.Finished{}, fmt.Errorf("%w: %s/%x: key length %d", store.ErrCorrupt, finishedBucket, key, len(key))
	}
	return finishedOf(binary.BigEndian.Uint64(key), r), nil
}

// finishedOf returns the Finished of record r under id.
func finishedOf(id uint64, r finishedRecord) store.Finished {
	sc := r.Score
	return store.Finished{
		ID: id,
		Score: store.Score{Name: sc.Name, Fingerprint: sc.Fingerprint, Depth: sc.Depth, Turns: sc.Turns, Kills: sc.Kills,
			Points: sc.Points, Cause: sc.Cause, Date: sc.Date, Cheated: r.Cheated, GameID: id, Daily: sc.Daily},
		Record: store.GameRecord{Won: r.Won, Seed: r.Seed, Rules: r.Rules, Hash: r.Hash, History: r.History, Dump: r.Dump},
	}
}

// FinishedGame returns finished game id, whole (see [Replays]).
func (b *Store) FinishedGame(id uint64) (store.Finished, error) {
	var f store.Finished
	err := b.db.View(func(tx *bbolt.Tx) error {
		fb := tx.Bucket(finishedBucket)
		if fb == nil {
			return store.ErrNotFound
		}
		key := binary.BigEndian.AppendUint64(nil, id)
		rec := fb.Get(key)
		if rec == nil {
			return store.ErrNotFound
		}
		var err error
		f, err = decodeFinished(key, rec) // JSON decoding copies out of the mmap
		f.Score.Removed = removed(tx, id)
		return err
	})
	return f, err
}

// FinishedGames returns up to n finished games, newest first, of name
// (see [Replays]). Filtering by name walks the bucket from the newest
// until n match: fine for the thousands of games of one machine.
func (b *Store) FinishedGames(name string, n int) ([]store.Finished, error) {
	n = min(n, store.MaxFinishedGames)
	var out []store.Finished
	if n <= 0 {
		return out, nil
	}
	var bad *store.UnreadableFinished
	err := b.db.View(func(tx *bbolt.Tx) error {
		fb := tx.Bucket(finishedBucket)
		if fb == nil {
			return nil
		}
		c := fb.Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			f, err := decodeFinished(k, v)
			if err != nil && len(k) == 8 {
				if bad == nil {
					bad = &store.UnreadableFinished{Cause: err}
				}
				bad.IDs = append(bad.IDs, binary.BigEndian.Uint64(k))
				continue
			}
			if err != nil {
				return err
			}
			if name != "" && !strings.EqualFold(f.Score.Name, name) {
				continue
			}
			f.Record.History, f.Record.Dump = nil, ""
			f.Score.Removed = removed(tx, f.ID)
			out = append(out, f)
		}
		return nil
	})
	if err == nil && bad != nil {
		return out, bad
	}
	return out, err
}

// QuarantineFinished moves finished game id aside (see [Replays]), in one
// transaction.
func (b *Store) QuarantineFinished(id uint64, reason string, now time.Time) (string, error) {
	var key string
	err := b.update(func(tx *bbolt.Tx) error {
		fb := tx.Bucket(finishedBucket)
		if fb == nil {
			return store.ErrNotFound
		}
		k := binary.BigEndian.AppendUint64(nil, id)
		v := fb.Get(k)
		if v == nil {
			return store.ErrNotFound
		}
		q := store.QuarantineRecord{Reason: reason, When: now.UTC(), FinishedID: id, Finished: append([]byte(nil), v...)}
		var r finishedRecord
		if body, err := recordBody(finishedBucket, k, v, finishedV1); err == nil && json.Unmarshal(body, &r) == nil {
			q.Fingerprint = r.Score.Fingerprint
		}
		key = finishedQuarantineKey(q.Fingerprint, id, now)
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
		if kb := tx.Bucket(finishedKeysBucket); kb != nil && q.Fingerprint != "" {
			if err := kb.Delete(keyGameKey(q.Fingerprint, id)); err != nil {
				return err
			}
		}
		return fb.Delete(k)
	})
	if errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("quarantine finished game %d: %w", id, err)
	}
	return key, nil
}

// finishedQuarantineKey is the quarantine key of finished game id of fp
// set aside at now: fp@when/finished/id, so that it sorts with fp's saves.
func finishedQuarantineKey(fp string, id uint64, now time.Time) string {
	return fmt.Sprintf("%s@%s/finished/%d", fp, now.UTC().Format(time.RFC3339Nano), id)
}
