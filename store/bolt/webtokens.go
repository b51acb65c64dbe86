// The bbolt file's web tokens (store.WebTokens): one bucket keyed by the
// token's hash.

package bolt

import (
	"bytes"
	"context"
	"errors"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// webTokensBucket maps a token's hash to its webTokenRecord.
var webTokensBucket = []byte("webtokens")

// webTokenV1 is the version of a JSON webTokenRecord.
const webTokenV1 byte = 1

// webTokenRecord is a web token's on-disk form.
type webTokenRecord struct {
	Kind        store.WebTokenKind `json:"kind"`
	Fingerprint string             `json:"fp"`
	Expires     time.Time          `json:"expires"`
	Used        bool               `json:"used,omitempty"`
}

var _ store.WebTokens = (*Store)(nil)

// IssueWebToken implements [WebTokens], in one transaction that also
// walks the bucket for the tokens to purge (a few per player a day).
func (b *Store) IssueWebToken(ctx context.Context, kind store.WebTokenKind, hash []byte, fp string, expires, now time.Time) error {
	if len(hash) == 0 || fp == "" {
		return errors.New("issue web token: empty hash or fingerprint")
	}
	rec, err := encodeJSON(webTokenV1, webTokenRecord{Kind: kind, Fingerprint: fp, Expires: expires.UTC()})
	if err != nil {
		return err
	}
	return b.db.Update(func(tx *bbolt.Tx) error {
		bk, err := tx.CreateBucketIfNotExists(webTokensBucket)
		if err != nil {
			return err
		}
		if bk.Get(hash) != nil {
			return errors.New("issue web token: the hash is recorded already")
		}
		var stale [][]byte
		purge := now.Add(-store.WebTokenPurgeAfter)
		bk.ForEach(func(k, v []byte) error {
			var r webTokenRecord
			if decodeJSON(webTokensBucket, k, v, webTokenV1, &r) != nil || r.Expires.Before(purge) {
				stale = append(stale, bytes.Clone(k))
			}
			return nil
		})
		for _, k := range stale {
			if err := bk.Delete(k); err != nil {
				return err
			}
		}
		return bk.Put(bytes.Clone(hash), rec)
	})
}

// RedeemWebToken implements [WebTokens]: the check and the mark are one
// bbolt transaction, serialised with every other write.
func (b *Store) RedeemWebToken(ctx context.Context, kind store.WebTokenKind, hash []byte, now time.Time) (string, error) {
	var fp string
	redeem := func(tx *bbolt.Tx) error {
		bk := tx.Bucket(webTokensBucket)
		if bk == nil {
			return store.ErrNotFound
		}
		v := bk.Get(hash)
		if v == nil {
			return store.ErrNotFound
		}
		var r webTokenRecord
		if err := decodeJSON(webTokensBucket, hash, v, webTokenV1, &r); err != nil {
			return err
		}
		switch {
		case r.Kind != kind:
			return store.ErrNotFound
		case r.Used:
			return store.ErrTokenUsed
		case !now.Before(r.Expires):
			return store.ErrTokenExpired
		}
		fp = r.Fingerprint
		if kind != store.WebLink {
			return nil
		}
		r.Used = true
		rec, err := encodeJSON(webTokenV1, r)
		if err != nil {
			return err
		}
		return bk.Put(bytes.Clone(hash), rec)
	}
	var err error
	if kind == store.WebLink {
		err = b.db.Update(redeem)
	} else {
		err = b.db.View(redeem)
	}
	if err != nil {
		return "", err
	}
	return fp, nil
}
