// Leases: which node runs each player's game, and the epoch that fences
// the game's writes (store.Leases), on the leases table (migration 0002).
// Every time is the database's clock, now(), never a node's: nodes' clocks
// may disagree, the database's is one.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

var _ store.Leases = (*Store)(nil)

// micros returns ttl in whole microseconds (PostgreSQL's interval
// resolution), at least 1.
func micros(ttl time.Duration) int64 { return max(ttl.Microseconds(), 1) }

// Claim grants node the lease on fp for ttl, by the database's clock (the
// lease is live while now() < expires), and returns its epoch: the key's
// epoch + 1 (1 for a key never leased) when its lease is absent, released
// or expired, the same epoch extended when node holds it live. When
// another node holds it live, it returns a *store.LeaseHeldError naming
// that node and when the lease expires (errors.Is store.ErrLeaseHeld).
//
// It is one INSERT … ON CONFLICT DO UPDATE … WHERE: concurrent claims of
// one key are serialised on its row, and the second sees the first's
// grant (PostgreSQL docs, INSERT, "ON CONFLICT Clause"), so exactly one
// node wins. Errors: store.ErrUnavailable (wrapped) when the database
// cannot be reached.
func (s *Store) Claim(ctx context.Context, fp, node string, ttl time.Duration) (uint64, error) {
	if fp == "" || ttl <= 0 {
		return 0, fmt.Errorf("claim %q: empty fingerprint or ttl %v not positive", fp, ttl)
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	for range 3 { // a lease seen held may expire before it is read
		var epoch int64
		err := s.place.QueryRow(ctx, `INSERT INTO leases AS l (fp, node, epoch, expires)
			VALUES ($1, $2, 1, now() + $3::bigint * interval '1 microsecond')
			ON CONFLICT (fp) DO UPDATE SET
				epoch = CASE WHEN l.expires > now() THEN l.epoch ELSE l.epoch + 1 END,
				node = excluded.node, expires = excluded.expires
			WHERE l.expires <= now() OR l.node = excluded.node
			RETURNING epoch`, fp, node, micros(ttl)).Scan(&epoch)
		if err == nil {
			return uint64(epoch), nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return 0, fmt.Errorf("claim %s: %w", fp, avail(err))
		}
		held := &store.LeaseHeldError{Fingerprint: fp}
		err = s.place.QueryRow(ctx, `SELECT node, expires FROM leases WHERE fp = $1 AND expires > now()`, fp).Scan(&held.Node, &held.Expires)
		if err == nil {
			return 0, held
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return 0, fmt.Errorf("claim %s: %w", fp, avail(err))
		}
	}
	return 0, fmt.Errorf("claim %s: the lease changed hands 3 times while claiming it", fp)
}

// Renew extends by ttl from the database's now() every lease of fps that
// node holds (live, or expired but claimed by no one since), and returns
// the keys of fps it does not hold: claimed by another node, or never
// claimed. It is one statement, one round trip, whatever the number of
// keys (an UPDATE … WHERE fp = ANY($2) in a WITH, then the keys it did not
// return). Errors: store.ErrUnavailable (wrapped).
func (s *Store) Renew(ctx context.Context, node string, fps []string, ttl time.Duration) (lost []string, err error) {
	if len(fps) == 0 { // nothing to renew: only whether the database answers
		ctx, cancel := context.WithTimeout(ctx, OpTimeout)
		defer cancel()
		if err := s.place.Ping(ctx); err != nil {
			return nil, fmt.Errorf("renew: %w", avail(err))
		}
		return nil, nil
	}
	if ttl <= 0 {
		return nil, fmt.Errorf("renew: ttl %v not positive", ttl)
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	rows, err := s.place.Query(ctx, `WITH renewed AS (
			UPDATE leases SET expires = now() + $3::bigint * interval '1 microsecond'
			WHERE node = $1 AND fp = ANY($2::text[]) RETURNING fp)
		SELECT f FROM unnest($2::text[]) AS u(f) WHERE f NOT IN (SELECT fp FROM renewed)`, node, fps, micros(ttl))
	if err != nil {
		return nil, fmt.Errorf("renew %d leases of %s: %w", len(fps), node, avail(err))
	}
	lost, err = pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("renew %d leases of %s: %w", len(fps), node, avail(err))
	}
	return lost, nil
}

// Release ends node's lease of fp at epoch (its expiry becomes now()), so
// that another node may claim it at once; the row and its epoch stay, so
// the next claim gets epoch + 1. A lease that moved on, or that node does
// not hold, is left alone. Errors: store.ErrUnavailable (wrapped).
func (s *Store) Release(ctx context.Context, fp, node string, epoch uint64) error {
	if epoch == 0 || epoch > math.MaxInt64 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	_, err := s.place.Exec(ctx, `UPDATE leases SET expires = least(expires, now()) WHERE fp = $1 AND node = $2 AND epoch = $3`, fp, node, int64(epoch))
	if err != nil {
		return fmt.Errorf("release %s: %w", fp, avail(err))
	}
	return nil
}

// Fenced returns fp's game as the holder of lease epoch writes it (see
// store.Leases.Fenced).
func (s *Store) Fenced(fp string, epoch uint64) store.LeasedGame { return store.Fence(s, fp, epoch) }

// errFenced is the error of a write refused at epoch.
func errFenced(call, fp string, epoch uint64) error {
	return fmt.Errorf("%s %s at epoch %d: %w", call, fp, epoch, store.ErrFenced)
}

// lockEpoch takes a share lock on fp's lease row (its owner's, for a
// slot's key: store.KeyOwner) inside tx if its epoch
// is epoch, so that no claim can move the lease on before tx ends (SELECT
// … FOR SHARE: PostgreSQL docs, SELECT, "The Locking Clause"), and
// returns errFenced if it is not.
func lockEpoch(ctx context.Context, tx pgx.Tx, call, fp string, epoch uint64) error {
	if epoch == 0 || epoch > math.MaxInt64 {
		return errFenced(call, fp, epoch)
	}
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM leases WHERE fp = $1 AND epoch = $2 FOR SHARE`, store.KeyOwner(fp), int64(epoch)).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return errFenced(call, fp, epoch)
	}
	return err
}

// PutSaveAt is PutSave in the same transaction as the check that epoch
// is fp's lease epoch (see store.FencedWrites): an error wrapping
// store.ErrFenced, and nothing written, when it is not.
func (s *Store) PutSaveAt(fp string, epoch uint64, blob []byte) error {
	return s.putSave(fp, blob, func(ctx context.Context, tx pgx.Tx) error {
		return lockEpoch(ctx, tx, "put save", fp, epoch)
	})
}

// DeleteSaveAt is DeleteSave fenced by epoch, in one transaction (see
// store.FencedWrites).
func (s *Store) DeleteSaveAt(fp string, epoch uint64) error {
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		if err := lockEpoch(ctx, tx, "delete save", fp, epoch); err != nil {
			return err
		}
		return deleteGame(ctx, tx, fp)
	})
	if errors.Is(err, store.ErrFenced) {
		return err
	}
	if err != nil {
		return fmt.Errorf("delete save %s: %w", fp, avail(err))
	}
	return nil
}

// FinishGameAt is FinishGame fenced by epoch, in one transaction (see
// store.FencedWrites).
func (s *Store) FinishGameAt(fp string, epoch uint64, sc store.Score) (rank int, err error) {
	return s.finishGame(fp, sc, func(ctx context.Context, tx pgx.Tx) error {
		return lockEpoch(ctx, tx, "finish game", fp, epoch)
	})
}

// QuarantineAt is Quarantine fenced by epoch, in one transaction (see
// store.FencedWrites): the lease row is locked FOR SHARE before the save
// is read and moved aside.
func (s *Store) QuarantineAt(fp string, epoch uint64, reason string, now time.Time) (string, error) {
	return s.quarantine(fp, reason, now, func(ctx context.Context, tx pgx.Tx) error {
		return lockEpoch(ctx, tx, "quarantine", fp, epoch)
	})
}

// AppendJournalAt is AppendJournal fenced by epoch (see
// store.FencedWrites). It shares the group commit with every other append:
// the batch's one statement writes the entries whose epoch is their key's
// (locking those lease rows FOR SHARE) and the unfenced ones, and refuses
// only the others, with an error wrapping store.ErrFenced.
func (s *Store) AppendJournalAt(fp string, epoch, seq uint64, entry []byte) error {
	if epoch == 0 || epoch > math.MaxInt64 {
		return errFenced("append journal", fp, epoch)
	}
	return s.appendJournal(fp, int64(epoch), seq, entry)
}
