// Player names: unique on the server, case-insensitively.

package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// namesBucket maps a lower-cased name to the fingerprint that holds it.
var namesBucket = []byte("names")

// ClaimName gives the name to fp, creating fp's profile if needed (Created
// and LastSeen now): in one transaction it checks that no other key holds
// the name (case-insensitively; ErrNameTaken), releases fp's old name and
// records the new one. Names are not checked for form here: the caller
// validates them.
func (b *Store) ClaimName(fp, name string, now time.Time) error {
	if fp == "" || name == "" {
		return errors.New("claim name: empty fingerprint or name")
	}
	key := []byte(strings.ToLower(name))
	return b.update(func(tx *bbolt.Tx) error {
		names, err := tx.CreateBucketIfNotExists(namesBucket)
		if err != nil {
			return err
		}
		if holder := names.Get(key); holder != nil && !bytes.Equal(holder, []byte(fp)) {
			return fmt.Errorf("claim name %q: %w", name, store.ErrNameTaken)
		}
		players := tx.Bucket(playersBucket)
		p := store.Profile{Fingerprint: fp, Created: now}
		if rec := players.Get([]byte(fp)); rec != nil {
			if p, err = decodeProfile([]byte(fp), rec); err != nil {
				return err
			}
			if old := []byte(strings.ToLower(p.Name)); len(old) > 0 && !bytes.Equal(old, key) &&
				bytes.Equal(names.Get(old), []byte(fp)) {
				if err := names.Delete(old); err != nil {
					return err
				}
			}
		}
		p.Name, p.LastSeen = name, now
		rec, err := encodeProfile(p)
		if err != nil {
			return err
		}
		if err := names.Put(key, []byte(fp)); err != nil {
			return err
		}
		return players.Put([]byte(fp), rec)
	})
}

// NameHolder returns the fingerprint holding name (case-insensitively), or
// "" when it is free.
func (b *Store) NameHolder(name string) (string, error) {
	var fp string
	err := b.db.View(func(tx *bbolt.Tx) error {
		if names := tx.Bucket(namesBucket); names != nil {
			fp = string(names.Get([]byte(strings.ToLower(name))))
		}
		return nil
	})
	return fp, err
}
