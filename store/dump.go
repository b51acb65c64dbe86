// Dumping the whole bbolt file, for copying it into another store
// (`grotto copy-store`).

package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Counts says how many of each kind of record a store holds, to check a
// copy.
type Counts struct {
	Players        int  // profiles
	Names          int  // names held
	Saves          int  // games in progress
	JournalEntries int  // journal entries, all players together
	Scores         int  // finished games on the table
	Quarantined    int  // games set aside as damaged
	Finished       int  // finished games kept whole (Replays)
	DailyScores    int  // scores on the daily boards, every day together (Dailies)
	DailyAttempts  int  // daily challenges started, every day and key together
	DailySecret    bool // the store has made its daily secret
}

// String says n for a host to read: "6 players, 6 names, …, the daily
// secret".
func (n Counts) String() string {
	secret := "no daily secret"
	if n.DailySecret {
		secret = "the daily secret"
	}
	return fmt.Sprintf("%d players, %d names, %d saves, %d journal entries, %d scores, %d finished games, %d quarantined, "+
		"%d daily scores, %d daily attempts, %s",
		n.Players, n.Names, n.Saves, n.JournalEntries, n.Scores, n.Finished, n.Quarantined, n.DailyScores, n.DailyAttempts, secret)
}

// Dumper receives everything a store holds, one record at a time. Byte
// slices are only valid during the call: copy what you keep. An error
// stops the dump and is returned by it.
type Dumper interface {
	// Profile is one player's profile.
	Profile(p Profile) error
	// Name says that the name whose lower-case form is key is held by fp.
	Name(key, fp string) error
	// Save is fp's saved game as stored: its record version byte, then
	// the blob.
	Save(fp string, rec []byte) error
	// JournalEntry is entry seq of fp's journal as stored: its record
	// version byte, then the entry. A player's entries come in order, 0
	// first.
	JournalEntry(fp string, seq uint64, rec []byte) error
	// Score is one finished game; scores come best first, and seq (from 1)
	// is the order they were recorded in, which breaks ties.
	Score(seq uint64, s Score) error
	// Quarantined is one game set aside, under its key.
	Quarantined(key string, q QuarantineRecord) error
	// Finished is one finished game kept whole, with its id; they come
	// oldest first.
	Finished(f Finished) error
	// DailySecret is the store's secret for the daily seeds (see
	// [Dailies.DailySecret]), handed before any other record; a store
	// that never made one hands none.
	DailySecret(secret []byte) error
	// DailyScore is one score on the board of the daily of s.Daily,
	// handed after every Score: day by day (oldest first), each day's
	// best first, and seq (from 1, over every day) is the order they were
	// recorded in, which breaks ties.
	DailyScore(seq uint64, s Score) error
	// DailyAttempt says that fp started the daily of date ("2006-01-02")
	// at started (see [Dailies.StartDaily]).
	DailyAttempt(date, fp string, started time.Time) error
}

// Dump hands everything in the file to d, in one read transaction (a
// consistent snapshot), and returns how many records of each kind it
// handed. A profile, score or quarantine record that cannot be decoded
// stops it with an error wrapping ErrCorrupt that names the record (so
// does a daily score or attempt, or a daily secret of the wrong length);
// saves and journal entries are handed as stored, undecoded.
func (b *Bolt) Dump(d Dumper) (Counts, error) {
	var n Counts
	err := b.db.View(func(tx *bolt.Tx) error {
		if mb := tx.Bucket(metaBucket); mb != nil {
			if secret := mb.Get(dailySecretKey); secret != nil {
				if len(secret) != DailySecretBytes {
					return fmt.Errorf("%w: %s/%s: %d bytes, want %d", ErrCorrupt, metaBucket, dailySecretKey, len(secret), DailySecretBytes)
				}
				n.DailySecret = true
				if err := d.DailySecret(secret); err != nil {
					return err
				}
			}
		}
		if err := tx.Bucket(playersBucket).ForEach(func(k, v []byte) error {
			p, err := decodeProfile(k, v)
			if err != nil {
				return err
			}
			n.Players++
			return d.Profile(p)
		}); err != nil {
			return err
		}
		if names := tx.Bucket(namesBucket); names != nil {
			if err := names.ForEach(func(k, v []byte) error {
				n.Names++
				return d.Name(string(k), string(v))
			}); err != nil {
				return err
			}
		}
		if err := tx.Bucket(savesBucket).ForEach(func(k, v []byte) error {
			n.Saves++
			return d.Save(string(k), v)
		}); err != nil {
			return err
		}
		if root := tx.Bucket(journalBucket); root != nil {
			if err := root.ForEachBucket(func(fp []byte) error {
				return root.Bucket(fp).ForEach(func(k, v []byte) error {
					if len(k) != 8 {
						return fmt.Errorf("%w: journal/%q: key %x", ErrCorrupt, fp, k)
					}
					n.JournalEntries++
					return d.JournalEntry(string(fp), binary.BigEndian.Uint64(k), v)
				})
			}); err != nil {
				return err
			}
		}
		if err := tx.Bucket(scoresBucket).ForEach(func(k, v []byte) error {
			if len(k) != scoreKeyLen {
				return fmt.Errorf("%w: scores/%x: key length %d", ErrCorrupt, k, len(k))
			}
			s, err := decodeScore(k, v)
			if err != nil {
				return err
			}
			n.Scores++
			return d.Score(binary.BigEndian.Uint64(k[16:]), s)
		}); err != nil {
			return err
		}
		if fb := tx.Bucket(finishedBucket); fb != nil {
			if err := fb.ForEach(func(k, v []byte) error {
				f, err := decodeFinished(k, v)
				if err != nil {
					return err
				}
				n.Finished++
				return d.Finished(f)
			}); err != nil {
				return err
			}
		}
		if qb := tx.Bucket(quarantineBucket); qb != nil {
			if err := qb.ForEach(func(k, v []byte) error {
				var q QuarantineRecord
				if err := decodeJSON(quarantineBucket, k, v, quarantineV1, &q); err != nil {
					return err
				}
				n.Quarantined++
				return d.Quarantined(string(k), q)
			}); err != nil {
				return err
			}
		}
		return dumpDaily(tx, d, &n)
	})
	if err != nil {
		return n, fmt.Errorf("dump %s: %w", b.path, err)
	}
	return n, nil
}

// dumpDaily hands d the daily boards and attempts, counting them in n.
func dumpDaily(tx *bolt.Tx, d Dumper, n *Counts) error {
	if db := tx.Bucket(dailyScoresBucket); db != nil {
		const dateLen = len(DailyLayout)
		if err := db.ForEach(func(k, v []byte) error {
			if len(k) != dateLen+scoreKeyLen || !ValidDaily(string(k[:dateLen])) {
				return fmt.Errorf("%w: %s/%x: not a date then a score key", ErrCorrupt, dailyScoresBucket, k)
			}
			s, err := decodeScore(k, v)
			if err != nil {
				return err
			}
			s.Daily = string(k[:dateLen])
			n.DailyScores++
			return d.DailyScore(binary.BigEndian.Uint64(k[dateLen+16:]), s)
		}); err != nil {
			return err
		}
	}
	if ab := tx.Bucket(dailyAttemptsBucket); ab != nil {
		return ab.ForEach(func(k, v []byte) error {
			date, fp, ok := bytes.Cut(k, []byte("/"))
			started, err := time.Parse(time.RFC3339Nano, string(v))
			if !ok || !ValidDaily(string(date)) || len(fp) == 0 || err != nil {
				return fmt.Errorf("%w: %s/%q: %q is not a date/fingerprint and a time", ErrCorrupt, dailyAttemptsBucket, k, v)
			}
			n.DailyAttempts++
			return d.DailyAttempt(string(date), string(fp), started)
		})
	}
	return nil
}
