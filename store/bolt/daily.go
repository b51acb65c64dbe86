// The daily challenge: each key's one attempt a day, and each
// day's board, apart from the main one.

package bolt

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// Buckets of the daily challenge.
var (
	// dailyScoresBucket holds the daily scores: the date ("2006-01-02")
	// then scoreKey, to scoreV1 records, so a day's board is a cursor walk
	// from its date.
	dailyScoresBucket = []byte("daily_scores")
	// dailyAttemptsBucket maps date + "/" + fingerprint to the attempt's
	// start, RFC 3339 (the key alone says the attempt was made).
	dailyAttemptsBucket = []byte("daily_attempts")
	// metaBucket holds the store's own settings: dailySecretKey.
	metaBucket = []byte("meta")
	// dailySecretKey is the daily secret's key in metaBucket: its
	// DailySecretBytes raw bytes.
	dailySecretKey = []byte("daily_secret")
)

// StartDaily records fp's attempt at the daily of date (see [Dailies]) in
// one write transaction: bbolt runs one at a time, so of two, one finds
// the other's.
func (b *Store) StartDaily(fp, date string, now time.Time) error {
	if fp == "" || !store.ValidDaily(date) {
		return fmt.Errorf("start daily: fingerprint %q, date %q", fp, date)
	}
	err := b.update(func(tx *bbolt.Tx) error {
		ab, err := tx.CreateBucketIfNotExists(dailyAttemptsBucket)
		if err != nil {
			return err
		}
		key := []byte(date + "/" + fp)
		if ab.Get(key) != nil {
			return store.ErrDailyTaken
		}
		return ab.Put(key, []byte(now.UTC().Format(time.RFC3339Nano)))
	})
	if err != nil && err != store.ErrDailyTaken {
		return fmt.Errorf("start daily %s %s: %w", date, fp, err)
	}
	return err
}

// DailyScores returns up to n scores of the daily of date, best first (see
// [Dailies]).
func (b *Store) DailyScores(date string, n int) ([]store.Score, error) {
	if n <= 0 || !store.ValidDaily(date) {
		return nil, nil
	}
	var top []store.Score
	err := b.db.View(func(tx *bbolt.Tx) error {
		db := tx.Bucket(dailyScoresBucket)
		if db == nil {
			return nil
		}
		prefix := []byte(date)
		c := db.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(top) < n; k, v = c.Next() {
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

// DailySecret returns the store's secret for the daily seeds (see
// [Dailies]): made and put in the meta bucket by the first call, in the
// one write transaction that finds it missing (bbolt runs one at a time).
func (b *Store) DailySecret() ([]byte, error) {
	var secret []byte
	err := b.db.View(func(tx *bbolt.Tx) error {
		if mb := tx.Bucket(metaBucket); mb != nil {
			secret = bytes.Clone(mb.Get(dailySecretKey))
		}
		return nil
	})
	if err == nil && secret == nil {
		err = b.update(func(tx *bbolt.Tx) error {
			mb, err := tx.CreateBucketIfNotExists(metaBucket)
			if err != nil {
				return err
			}
			if secret = bytes.Clone(mb.Get(dailySecretKey)); secret != nil {
				return nil // another call made it meanwhile
			}
			secret = make([]byte, store.DailySecretBytes)
			if _, err := rand.Read(secret); err != nil {
				return err
			}
			return mb.Put(dailySecretKey, secret)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("daily secret: %w", err)
	}
	if len(secret) != store.DailySecretBytes {
		return nil, fmt.Errorf("daily secret: %d bytes kept, want %d: %w", len(secret), store.DailySecretBytes, store.ErrCorrupt)
	}
	return secret, nil
}
