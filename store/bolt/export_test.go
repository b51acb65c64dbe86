package bolt

import (
	"encoding/binary"

	bbolt "go.etcd.io/bbolt"
)

// DamageFinished overwrites finished game id's record in b with a known
// version byte and a body that does not parse, as a damaged disk would.
func DamageFinished(b *Store, id uint64) error {
	return b.db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket(finishedBucket).Put(binary.BigEndian.AppendUint64(nil, id), []byte{finishedV1, '{', 'x'})
	})
}
