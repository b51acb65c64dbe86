// Moderation: the admins' acts (store.Moderation), each recorded in the
// moderation bucket in the same transaction as what it changes.

package bolt

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

var (
	// moderationBucket keeps every act: its seq (big-endian uint64) → a
	// JSON actRecord. Never deleted from.
	moderationBucket = []byte("moderation")
	// bansBucket maps a banned key's fingerprint to the seq of the act
	// that banned it.
	bansBucket = []byte("bans")
	// mutesBucket maps a muted key's fingerprint to the seq of the act
	// that muted it, as bansBucket does for bans.
	mutesBucket = []byte("mutes")
	// removedScoresBucket maps a finished game's id (big-endian uint64)
	// to the seq of the act that took its score off the tables; the score
	// stays in its table's bucket, skipped when the table is read.
	removedScoresBucket = []byte("removed_scores")
)

// actV1 is the version of an act record: JSON actRecord.
const actV1 byte = 1

// actRecord is store.Act's on-disk form; its key is the seq.
type actRecord struct {
	When        time.Time `json:"when"`
	Admin       string    `json:"admin"`
	Action      string    `json:"action"`
	Fingerprint string    `json:"fp"`
	Name        string    `json:"name,omitempty"`
	NewName     string    `json:"new_name,omitempty"`
	GameID      uint64    `json:"game_id,omitempty"`
	Detail      string    `json:"detail,omitempty"`
}

func encodeAct(a store.Act) ([]byte, error) {
	return encodeJSON(actV1, actRecord{When: a.When, Admin: a.Admin, Action: a.Action, Fingerprint: a.Fingerprint,
		Name: a.Name, NewName: a.NewName, GameID: a.GameID, Detail: a.Detail})
}

func decodeAct(key, rec []byte) (store.Act, error) {
	var r actRecord
	if err := decodeJSON(moderationBucket, key, rec, actV1, &r); err != nil {
		return store.Act{}, err
	}
	if len(key) != 8 {
		return store.Act{}, fmt.Errorf("%w: %s/%x: key length %d", store.ErrCorrupt, moderationBucket, key, len(key))
	}
	return store.Act{Seq: binary.BigEndian.Uint64(key), When: r.When, Admin: r.Admin, Action: r.Action,
		Fingerprint: r.Fingerprint, Name: r.Name, NewName: r.NewName, GameID: r.GameID, Detail: r.Detail}, nil
}

// removed reports whether finished game id's score was taken off the
// tables (0, a score kept before games were, never is).
func removed(tx *bbolt.Tx, id uint64) bool {
	rb := tx.Bucket(removedScoresBucket)
	return id != 0 && rb != nil && rb.Get(binary.BigEndian.AppendUint64(nil, id)) != nil
}

// removedScore is removed for the score record v under key k of a table;
// a record that does not decode counts as on the table.
func removedScore(tx *bbolt.Tx, k, v []byte) bool {
	if tx.Bucket(removedScoresBucket) == nil {
		return false
	}
	s, err := decodeScore(k, v)
	return err == nil && removed(tx, s.GameID)
}

// Moderate applies act and records it, in one transaction (see
// [store.Moderation]).
func (b *Store) Moderate(act store.Act) (store.Act, error) {
	if act.Admin == "" || len(act.Detail) > store.MaxActDetail {
		return store.Act{}, errors.New("moderate: no admin, or a detail over store.MaxActDetail bytes")
	}
	err := b.update(func(tx *bbolt.Tx) error {
		var err error
		switch act.Action {
		case store.ActRename:
			err = renameIn(tx, &act)
		case store.ActRemoveScore, store.ActRestoreScore:
			err = moveScoreIn(tx, &act)
		case store.ActBan, store.ActUnban, store.ActMute, store.ActUnmute:
			err = banIn(tx, &act)
		default:
			err = fmt.Errorf("unknown act %q", act.Action)
		}
		if err != nil {
			return err
		}
		return putAct(tx, &act)
	})
	if err != nil {
		return store.Act{}, fmt.Errorf("moderate: %s %s: %w", act.Action, act.Fingerprint, err)
	}
	return act, nil
}

// putAct records act under the moderation bucket's next seq, which it
// sets, and points the ban or the removed score it made at it.
func putAct(tx *bbolt.Tx, act *store.Act) error {
	mb, err := tx.CreateBucketIfNotExists(moderationBucket)
	if err != nil {
		return err
	}
	if act.Seq, err = mb.NextSequence(); err != nil {
		return err
	}
	rec, err := encodeAct(*act)
	if err != nil {
		return err
	}
	seq := binary.BigEndian.AppendUint64(nil, act.Seq)
	switch act.Action {
	case store.ActBan, store.ActMute:
		bb, err := tx.CreateBucketIfNotExists(bansBucket)
		if act.Action == store.ActMute {
			bb, err = tx.CreateBucketIfNotExists(mutesBucket)
		}
		if err != nil {
			return err
		}
		if err := bb.Put([]byte(act.Fingerprint), seq); err != nil {
			return err
		}
	case store.ActRemoveScore:
		rb, err := tx.CreateBucketIfNotExists(removedScoresBucket)
		if err != nil {
			return err
		}
		if err := rb.Put(binary.BigEndian.AppendUint64(nil, act.GameID), seq); err != nil {
			return err
		}
	}
	return mb.Put(seq, rec)
}

// profileName returns fp's name, or ErrNotFound for a key with no
// profile.
func profileName(tx *bbolt.Tx, fp string) (store.Profile, error) {
	rec := tx.Bucket(playersBucket).Get([]byte(fp))
	if rec == nil {
		return store.Profile{}, store.ErrNotFound
	}
	return decodeProfile([]byte(fp), rec)
}

// renameIn gives act.Fingerprint the name act.NewName, on its profile,
// in the names bucket and on its scores and finished games; act.Name is
// set to the name before.
func renameIn(tx *bbolt.Tx, act *store.Act) error {
	fp := act.Fingerprint
	p, err := profileName(tx, fp)
	if err != nil {
		return err
	}
	act.Name = p.Name
	if act.NewName == "" {
		return errors.New("rename: empty name")
	}
	names, err := tx.CreateBucketIfNotExists(namesBucket)
	if err != nil {
		return err
	}
	key := []byte(strings.ToLower(act.NewName))
	if holder := names.Get(key); holder != nil && !bytes.Equal(holder, []byte(fp)) {
		return fmt.Errorf("rename to %q: %w", act.NewName, store.ErrNameTaken)
	}
	if old := []byte(strings.ToLower(p.Name)); len(old) > 0 && !bytes.Equal(old, key) && bytes.Equal(names.Get(old), []byte(fp)) {
		if err := names.Delete(old); err != nil {
			return err
		}
	}
	if err := names.Put(key, []byte(fp)); err != nil {
		return err
	}
	p.Name = act.NewName
	rec, err := encodeProfile(p)
	if err != nil {
		return err
	}
	if err := tx.Bucket(playersBucket).Put([]byte(fp), rec); err != nil {
		return err
	}
	for _, table := range [][]byte{scoresBucket, dailyScoresBucket} {
		if err := renameScores(tx.Bucket(table), fp, act.NewName); err != nil {
			return err
		}
	}
	return renameFinished(tx.Bucket(finishedBucket), fp, act.NewName)
}

// renameScores sets name on every score of fp in table (nil: none). A
// record that does not decode is left as it is.
func renameScores(table *bbolt.Bucket, fp, name string) error {
	return rewrite(table, func(k, v []byte) ([]byte, error) {
		s, err := decodeScore(k, v)
		if err != nil || s.Fingerprint != fp || s.Name == name {
			return nil, nil
		}
		s.Name = name
		return encodeScore(s)
	})
}

// renameFinished sets name on the score of every finished game of fp in
// fb (nil: none). A record that does not decode is left as it is.
func renameFinished(fb *bbolt.Bucket, fp, name string) error {
	return rewrite(fb, func(k, v []byte) ([]byte, error) {
		f, err := decodeFinished(k, v)
		if err != nil || f.Score.Fingerprint != fp || f.Score.Name == name {
			return nil, nil
		}
		f.Score.Name = name
		return encodeFinished(f)
	})
}

// rewrite puts, for each record of b (nil: none) that change returns a
// new value for (nil: leave it), that value under the record's key. The
// new values are put after the walk: bbolt forbids writing a bucket while
// a cursor walks it.
func rewrite(b *bbolt.Bucket, change func(k, v []byte) ([]byte, error)) error {
	if b == nil {
		return nil
	}
	type put struct{ k, v []byte }
	var puts []put
	err := b.ForEach(func(k, v []byte) error {
		rec, err := change(k, v)
		if rec != nil && err == nil {
			puts = append(puts, put{bytes.Clone(k), rec})
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, p := range puts {
		if err := b.Put(p.k, p.v); err != nil {
			return err
		}
	}
	return nil
}

// moveScoreIn takes finished game act.GameID's score off its table, or
// puts it back (ActRestoreScore); act.Fingerprint and act.Name are set
// from the score. The score is found on its table (scoreOfGame), so a
// game set aside as damaged (QuarantineFinished) still has its score
// moved.
func moveScoreIn(tx *bbolt.Tx, act *store.Act) error {
	if act.GameID == 0 {
		return store.ErrNoScore
	}
	s, ok, err := scoreOfGame(tx, act.GameID)
	if err != nil {
		return err
	}
	if !ok {
		return store.ErrNoScore // not kept, or cheated (kept, never on a table)
	}
	act.Fingerprint, act.Name = s.Fingerprint, s.Name
	gone := removed(tx, act.GameID)
	if act.Action == store.ActRemoveScore {
		if gone {
			return store.ErrNoScore
		}
		return nil // putAct records the removal
	}
	if !gone {
		return store.ErrNoScore
	}
	return tx.Bucket(removedScoresBucket).Delete(binary.BigEndian.AppendUint64(nil, act.GameID))
}

// scoreOfGame returns the score on the main table or a daily board whose
// finished game is id, and whether there is one. A record that does not
// decode is passed over.
func scoreOfGame(tx *bbolt.Tx, id uint64) (store.Score, bool, error) {
	var found store.Score
	var ok bool
	for _, table := range [][]byte{scoresBucket, dailyScoresBucket} {
		b := tx.Bucket(table)
		if b == nil || ok {
			continue
		}
		err := b.ForEach(func(k, v []byte) error {
			if s, err := decodeScore(k, v); err == nil && s.GameID == id && !ok {
				found, ok = s, true
			}
			return nil
		})
		if err != nil {
			return store.Score{}, false, err
		}
	}
	return found, ok, nil
}

// banIn checks an unban (or unmute) and lifts it; a ban (or mute) is
// recorded by putAct. act.Name is set from the key's profile ("" without
// one).
func banIn(tx *bbolt.Tx, act *store.Act) error {
	if act.Fingerprint == "" {
		return errors.New("ban: empty fingerprint")
	}
	if p, err := profileName(tx, act.Fingerprint); err == nil {
		act.Name = p.Name
	} else if !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if act.Action == store.ActBan || act.Action == store.ActMute {
		return nil
	}
	bucket, none := bansBucket, store.ErrNotBanned
	if act.Action == store.ActUnmute {
		bucket, none = mutesBucket, store.ErrNotMuted
	}
	bb := tx.Bucket(bucket)
	if bb == nil || bb.Get([]byte(act.Fingerprint)) == nil {
		return none
	}
	return bb.Delete([]byte(act.Fingerprint))
}

// actAt returns the act under seq (the value of a ban or a removed score).
func actAt(tx *bbolt.Tx, seq []byte) (store.Act, error) {
	mb := tx.Bucket(moderationBucket)
	if mb == nil {
		return store.Act{}, fmt.Errorf("%w: act %x is not recorded", store.ErrCorrupt, seq)
	}
	rec := mb.Get(seq)
	if rec == nil {
		return store.Act{}, fmt.Errorf("%w: act %x is not recorded", store.ErrCorrupt, seq)
	}
	return decodeAct(seq, rec)
}

// Banned returns the act that banned fp, and whether fp is banned.
func (b *Store) Banned(fp string) (store.Act, bool, error) { return b.actOn(bansBucket, fp) }

// Muted returns the act that muted fp in the chat, and whether fp is
// muted.
func (b *Store) Muted(fp string) (store.Act, bool, error) { return b.actOn(mutesBucket, fp) }

// actOn returns the act that put fp in bucket (bans or mutes), and
// whether fp is in it.
func (b *Store) actOn(bucket []byte, fp string) (store.Act, bool, error) {
	var (
		act    store.Act
		banned bool
	)
	err := b.db.View(func(tx *bbolt.Tx) error {
		bb := tx.Bucket(bucket)
		if bb == nil {
			return nil
		}
		seq := bb.Get([]byte(fp))
		if seq == nil {
			return nil
		}
		var err error
		act, err = actAt(tx, seq)
		banned = err == nil
		return err
	})
	return act, banned, err
}

// Bans returns the acts of every key banned now, oldest first.
func (b *Store) Bans() ([]store.Act, error) { return b.actsIn(bansBucket) }

// Mutes returns the acts of every key muted in the chat now, oldest
// first.
func (b *Store) Mutes() ([]store.Act, error) { return b.actsIn(mutesBucket) }

// actsIn returns the acts that put every key now in bucket (bans or
// mutes) there, oldest first.
func (b *Store) actsIn(bucket []byte) ([]store.Act, error) {
	var acts []store.Act
	err := b.db.View(func(tx *bbolt.Tx) error {
		bb := tx.Bucket(bucket)
		if bb == nil {
			return nil
		}
		return bb.ForEach(func(_, seq []byte) error {
			a, err := actAt(tx, seq)
			if err != nil {
				return err
			}
			acts = append(acts, a)
			return nil
		})
	})
	slices.SortFunc(acts, func(a, b store.Act) int { return cmp.Compare(a.Seq, b.Seq) })
	return acts, err
}

// ModerationLog returns up to n acts, newest first.
func (b *Store) ModerationLog(n int) ([]store.Act, error) {
	var acts []store.Act
	if n <= 0 {
		return acts, nil
	}
	err := b.db.View(func(tx *bbolt.Tx) error {
		mb := tx.Bucket(moderationBucket)
		if mb == nil {
			return nil
		}
		c := mb.Cursor()
		for k, v := c.Last(); k != nil && len(acts) < n; k, v = c.Prev() {
			a, err := decodeAct(k, v)
			if err != nil {
				return err
			}
			acts = append(acts, a)
		}
		return nil
	})
	return acts, err
}
