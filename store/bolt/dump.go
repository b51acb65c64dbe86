// Dumping the whole bbolt file, for copying it into another store
// (`grotto copy-store`).

package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// Dump hands everything in the file to d, in one read transaction (a
// consistent snapshot), and returns how many records of each kind it
// handed. A profile, score or quarantine record that cannot be decoded
// stops it with an error wrapping ErrCorrupt that names the record (so
// does a daily score or attempt, or a daily secret of the wrong length);
// saves and journal entries are handed as stored, undecoded.
func (b *Store) Dump(d store.Dumper) (store.Counts, error) {
	var n store.Counts
	err := b.db.View(func(tx *bbolt.Tx) error {
		if mb := tx.Bucket(metaBucket); mb != nil {
			if secret := mb.Get(dailySecretKey); secret != nil {
				if len(secret) != store.DailySecretBytes {
					return fmt.Errorf("%w: %s/%s: %d bytes, want %d", store.ErrCorrupt, metaBucket, dailySecretKey, len(secret), store.DailySecretBytes)
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
						return fmt.Errorf("%w: journal/%q: key %x", store.ErrCorrupt, fp, k)
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
				return fmt.Errorf("%w: scores/%x: key length %d", store.ErrCorrupt, k, len(k))
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
				var q store.QuarantineRecord
				if err := decodeJSON(quarantineBucket, k, v, quarantineV1, &q); err != nil {
					return err
				}
				n.Quarantined++
				return d.Quarantined(string(k), q)
			}); err != nil {
				return err
			}
		}
		if err := dumpDaily(tx, d, &n); err != nil {
			return err
		}
		if mb := tx.Bucket(moderationBucket); mb != nil {
			return mb.ForEach(func(k, v []byte) error {
				a, err := decodeAct(k, v)
				if err != nil {
					return err
				}
				n.Acts++
				return d.Act(a)
			})
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("dump %s: %w", b.path, err)
	}
	return n, nil
}

// dumpDaily hands d the daily boards and attempts, counting them in n.
func dumpDaily(tx *bbolt.Tx, d store.Dumper, n *store.Counts) error {
	if db := tx.Bucket(dailyScoresBucket); db != nil {
		const dateLen = len(store.DailyLayout)
		if err := db.ForEach(func(k, v []byte) error {
			if len(k) != dateLen+scoreKeyLen || !store.ValidDaily(string(k[:dateLen])) {
				return fmt.Errorf("%w: %s/%x: not a date then a score key", store.ErrCorrupt, dailyScoresBucket, k)
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
			if !ok || !store.ValidDaily(string(date)) || len(fp) == 0 || err != nil {
				return fmt.Errorf("%w: %s/%q: %q is not a date/fingerprint and a time", store.ErrCorrupt, dailyAttemptsBucket, k, v)
			}
			n.DailyAttempts++
			return d.DailyAttempt(string(date), string(fp), started)
		})
	}
	return nil
}
