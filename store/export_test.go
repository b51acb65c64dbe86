package store

import (
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// DamageFinished overwrites finished game id's record in b with a known
// version byte and a body that does not parse, as a damaged disk would.
func DamageFinished(b *Bolt, id uint64) error {
	return b.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(finishedBucket).Put(binary.BigEndian.AppendUint64(nil, id), []byte{finishedV1, '{', 'x'})
	})
}
