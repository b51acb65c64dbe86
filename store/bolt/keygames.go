// The finished games of each key, for player pages: an index beside the
// finished bucket, so that a page reads one key's games, not every game's
// record with its history.

package bolt

import (
	"bytes"
	"encoding/binary"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// finishedKeysBucket maps fp + 0x00 + a finished game's id (big-endian
// uint64) to the game as KeyGames returns it: finishedV1 + JSON
// finishedRecord with no name, history or dump (about 200 bytes). It is
// derived from the finished bucket (Open builds it for a file that has
// none) and changes with it in the same transactions.
var finishedKeysBucket = []byte("finished_keys")

// keyGameKey is the index key of game id of fp.
func keyGameKey(fp string, id uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte(fp), 0), id)
}

// indexFinished puts f (its Score.Fingerprint the key) in the index.
func indexFinished(tx *bbolt.Tx, f store.Finished) error {
	kb, err := tx.CreateBucketIfNotExists(finishedKeysBucket)
	if err != nil {
		return err
	}
	f.Score.Name, f.Record.History, f.Record.Dump = "", nil, ""
	rec, err := encodeFinished(f)
	if err != nil {
		return err
	}
	return kb.Put(keyGameKey(f.Score.Fingerprint, f.ID), rec)
}

// buildKeyIndex makes the index of a file written before it existed, from
// every finished game that can be read. It does nothing once the index is
// there.
func buildKeyIndex(tx *bbolt.Tx) error {
	if tx.Bucket(finishedKeysBucket) != nil {
		return nil
	}
	if _, err := tx.CreateBucket(finishedKeysBucket); err != nil {
		return err
	}
	fb := tx.Bucket(finishedBucket)
	if fb == nil {
		return nil
	}
	var games []store.Finished // bbolt forbids writing while a cursor walks
	if err := fb.ForEach(func(k, v []byte) error {
		if f, err := decodeFinished(k, v); err == nil {
			games = append(games, f)
		}
		return nil
	}); err != nil {
		return err
	}
	for _, f := range games {
		if err := indexFinished(tx, f); err != nil {
			return err
		}
	}
	return nil
}

// KeyGames returns every finished game of fp, oldest first (see
// [store.Replays]), from the index.
func (b *Store) KeyGames(fp string) ([]store.Finished, error) {
	var out []store.Finished
	err := b.db.View(func(tx *bbolt.Tx) error {
		kb := tx.Bucket(finishedKeysBucket)
		if kb == nil {
			return nil
		}
		prefix := append([]byte(fp), 0)
		c := kb.Cursor()
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
			f, err := decodeFinished(k[len(prefix):], v)
			if err != nil {
				return err
			}
			f.Score.Removed = removed(tx, f.ID)
			out = append(out, f)
		}
		return nil
	})
	return out, err
}
