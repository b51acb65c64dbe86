// Web tokens (store.WebTokens) on the web_tokens table (migration 0005):
// the hashes of the one-time links `ssh host web` prints and of the
// browsers' session cookies, shared by every node behind one address.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

var _ store.WebTokens = (*Store)(nil)

// IssueWebToken implements store.WebTokens: one round trip (a pgx batch,
// one implicit transaction) that purges the long-expired tokens and
// inserts this one. Errors: store.ErrUnavailable (wrapped).
func (s *Store) IssueWebToken(ctx context.Context, kind store.WebTokenKind, hash []byte, fp string, expires, now time.Time) error {
	if len(hash) == 0 || fp == "" {
		return errors.New("issue web token: empty hash or fingerprint")
	}
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(`DELETE FROM web_tokens WHERE expires < $1`, now.Add(-store.WebTokenPurgeAfter))
	b.Queue(`INSERT INTO web_tokens (hash, kind, fp, expires) VALUES ($1, $2, $3, $4)`, hash, int16(kind), fp, expires)
	if err := s.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("issue web token: %w", avail(err))
	}
	return nil
}

// RedeemWebToken implements store.WebTokens. A link is marked used by one
// UPDATE … WHERE NOT used … RETURNING: of two concurrent redeems the
// second waits for the first's commit and then finds its row no longer
// matches (PostgreSQL docs, 13.2.1 "Read Committed Isolation Level"). When
// nothing matched, a second read says why. Errors: store.ErrNotFound,
// store.ErrTokenUsed, store.ErrTokenExpired, store.ErrUnavailable
// (wrapped).
func (s *Store) RedeemWebToken(ctx context.Context, kind store.WebTokenKind, hash []byte, now time.Time) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	var fp string
	var err error
	if kind == store.WebLink {
		err = s.pool.QueryRow(ctx, `UPDATE web_tokens SET used = true
			WHERE hash = $1 AND kind = $2 AND NOT used AND expires > $3 RETURNING fp`, hash, int16(kind), now).Scan(&fp)
	} else {
		err = s.pool.QueryRow(ctx, `SELECT fp FROM web_tokens
			WHERE hash = $1 AND kind = $2 AND NOT used AND expires > $3`, hash, int16(kind), now).Scan(&fp)
	}
	if err == nil {
		return fp, nil
	}
	if !errors.Is(err, pgx.ErrNoRows) {
		return "", fmt.Errorf("redeem web token: %w", avail(err))
	}
	var used bool
	err = s.pool.QueryRow(ctx, `SELECT used FROM web_tokens WHERE hash = $1 AND kind = $2`, hash, int16(kind)).Scan(&used)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", store.ErrNotFound
	case err != nil:
		return "", fmt.Errorf("redeem web token: %w", avail(err))
	case used:
		return "", store.ErrTokenUsed
	}
	return "", store.ErrTokenExpired
}
