// The high-score table: key layout, FinishGame and TopScores.

package bolt

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// scoreKeyLen is the length of a scores key: three big-endian uint64s.
const scoreKeyLen = 24

// Dates a Score may carry: their Unix nanoseconds fit a non-negative int64.
var (
	minScoreDate = time.Unix(0, 0)
	maxScoreDate = time.Unix(0, math.MaxInt64)
)

// scoreKey orders the scores bucket best first, so the top N is a plain
// cursor walk: MaxUint64-points (higher points first), then Unix nanoseconds
// of the date (earlier first), then seq from NextSequence (recorded first),
// which also keeps equal scores from overwriting each other.
func scoreKey(s store.Score, seq uint64) []byte {
	k := make([]byte, scoreKeyLen)
	binary.BigEndian.PutUint64(k[0:], math.MaxUint64-uint64(s.Points))
	binary.BigEndian.PutUint64(k[8:], uint64(s.Date.UnixNano()))
	binary.BigEndian.PutUint64(k[16:], seq)
	return k
}

// FinishGame ends fp's game for good (permadeath): in a single write
// transaction it deletes fp's save (if any) and records s with s.Fingerprint
// set to fp (to its owner, KeyOwner, when fp is a slot's key: SlotKey), and s.Game (when not nil) as a finished game kept whole under
// the next id (Replays). It returns s's 1-based rank: 1 plus the number of
// scores that rank before it; 0 for a Cheated score, which is not ranked. s.Points must be ≥ 0 and s.Date between 1970 and 2262,
// else an error is returned and nothing changes.
//
// Computing the rank walks the table up to s, so it costs O(rank).
func (b *Store) FinishGame(fp string, s store.Score) (rank int, err error) {
	if fp == "" {
		return 0, errors.New("finish game: empty fingerprint")
	}
	if s.Points < 0 {
		return 0, fmt.Errorf("finish game %s: negative points %d", fp, s.Points)
	}
	if s.Date.Before(minScoreDate) || s.Date.After(maxScoreDate) {
		return 0, fmt.Errorf("finish game %s: date %v outside 1970–2262", fp, s.Date)
	}
	if s.Daily != "" && !store.ValidDaily(s.Daily) {
		return 0, fmt.Errorf("finish game %s: daily date %q is not 2006-01-02", fp, s.Daily)
	}
	s.Fingerprint = store.KeyOwner(fp) // fp may be a slot's key (SlotKey)
	err = b.update(func(tx *bbolt.Tx) error {
		if err := tx.Bucket(savesBucket).Delete([]byte(fp)); err != nil {
			return err
		}
		if err := dropJournal(tx, fp); err != nil {
			return err
		}
		s.GameID = 0
		if s.Game != nil {
			id, err := putFinished(tx, s)
			if err != nil {
				return err
			}
			s.GameID = id
		}
		if s.Cheated { // kept, never ranked
			rank = 0
			return nil
		}
		rec, err := encodeScore(s)
		if err != nil {
			return err
		}
		scores, prefix := tx.Bucket(scoresBucket), []byte(nil)
		if s.Daily != "" { // the day's board: its keys start with the date
			if scores, err = tx.CreateBucketIfNotExists(dailyScoresBucket); err != nil {
				return err
			}
			prefix = []byte(s.Daily)
		}
		seq, err := scores.NextSequence()
		if err != nil {
			return err
		}
		key := append(prefix, scoreKey(s, seq)...)
		rank = 1
		c := scores.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && bytes.Compare(k, key) < 0; k, v = c.Next() {
			if !removedScore(tx, k, v) {
				rank++
			}
		}
		return scores.Put(key, rec)
	})
	if err != nil {
		return 0, fmt.Errorf("finish game %s: %w", fp, err)
	}
	return rank, nil
}

// keptGame returns s with GameID 0 if its finished game is no longer kept
// (set aside as damaged, QuarantineFinished): no replay is offered then.
func keptGame(tx *bbolt.Tx, s store.Score) store.Score {
	if s.GameID != 0 {
		if fb := tx.Bucket(finishedBucket); fb == nil || fb.Get(binary.BigEndian.AppendUint64(nil, s.GameID)) == nil {
			s.GameID = 0
		}
	}
	return s
}

// TopScores returns up to n scores, best first: higher Points, then earlier
// Date, then earlier recorded, leaving out scores an admin removed
// (Moderation). n ≤ 0 returns none. A record that cannot be
// decoded makes it return an error wrapping ErrCorrupt. A score whose game
// was set aside has GameID 0.
func (b *Store) TopScores(n int) ([]store.Score, error) {
	if n <= 0 {
		return nil, nil
	}
	var top []store.Score
	err := b.db.View(func(tx *bbolt.Tx) error {
		c := tx.Bucket(scoresBucket).Cursor()
		for k, v := c.First(); k != nil && len(top) < n; k, v = c.Next() {
			s, err := decodeScore(k, v)
			if err != nil {
				return err
			}
			if !removed(tx, s.GameID) {
				top = append(top, keptGame(tx, s))
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return top, nil
}
