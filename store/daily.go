// The daily challenge (issue 15): each key's one attempt a day, and each
// day's board, apart from the main one.

package store

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
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
)

// StartDaily records fp's attempt at the daily of date (see [Dailies]) in
// one write transaction: bbolt runs one at a time, so of two, one finds
// the other's.
func (b *Bolt) StartDaily(fp, date string, now time.Time) error {
	if fp == "" || !ValidDaily(date) {
		return fmt.Errorf("start daily: fingerprint %q, date %q", fp, date)
	}
	err := b.update(func(tx *bolt.Tx) error {
		ab, err := tx.CreateBucketIfNotExists(dailyAttemptsBucket)
		if err != nil {
			return err
		}
		key := []byte(date + "/" + fp)
		if ab.Get(key) != nil {
			return ErrDailyTaken
		}
		return ab.Put(key, []byte(now.UTC().Format(time.RFC3339Nano)))
	})
	if err != nil && err != ErrDailyTaken {
		return fmt.Errorf("start daily %s %s: %w", date, fp, err)
	}
	return err
}

// DailyScores returns up to n scores of the daily of date, best first (see
// [Dailies]).
func (b *Bolt) DailyScores(date string, n int) ([]Score, error) {
	if n <= 0 || !ValidDaily(date) {
		return nil, nil
	}
	var top []Score
	err := b.db.View(func(tx *bolt.Tx) error {
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
			top = append(top, s)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return top, nil
}
