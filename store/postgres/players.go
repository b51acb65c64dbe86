// Profiles and names: who players are, and the name each one claimed,
// unique case-insensitively.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/grotto-game/grotto/store"
)

// Profile returns the profile of fp, or store.ErrNotFound. PostgreSQL
// keeps times to the microsecond (PostgreSQL docs, 8.5 "Date/Time Types").
func (s *Store) Profile(fp string) (store.Profile, error) {
	ctx, cancel := op()
	defer cancel()
	p := store.Profile{Fingerprint: fp}
	err := s.pool.QueryRow(ctx, `SELECT name, created, last_seen, symbols, colour, chat FROM players WHERE fp = $1`, fp).
		Scan(&p.Name, &p.Created, &p.LastSeen, &p.Settings.Symbols, &p.Settings.Colour, &p.Settings.Chat)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Profile{}, store.ErrNotFound
	}
	if err != nil {
		return store.Profile{}, fmt.Errorf("profile %s: %w", fp, avail(err))
	}
	p.Created, p.LastSeen = p.Created.UTC(), p.LastSeen.UTC()
	return p, nil
}

// PutProfile creates or replaces the profile keyed by p.Fingerprint, which
// must not be empty. Like the bbolt store it does not touch the names
// table: a name is held only through ClaimName.
func (s *Store) PutProfile(p store.Profile) error {
	if p.Fingerprint == "" {
		return errors.New("put profile: empty fingerprint")
	}
	ctx, cancel := op()
	defer cancel()
	if err := putProfile(ctx, s.pool, p); err != nil {
		return fmt.Errorf("put profile %s: %w", p.Fingerprint, avail(err))
	}
	return nil
}

// execer is a pool or a transaction.
type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// putProfile upserts p through db.
func putProfile(ctx context.Context, db execer, p store.Profile) error {
	_, err := db.Exec(ctx, `INSERT INTO players (fp, name, created, last_seen, symbols, colour, chat) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (fp) DO UPDATE SET name = excluded.name, created = excluded.created, last_seen = excluded.last_seen,
			symbols = excluded.symbols, colour = excluded.colour, chat = excluded.chat`,
		p.Fingerprint, p.Name, p.Created.UTC(), p.LastSeen.UTC(), p.Settings.Symbols, p.Settings.Colour, p.Settings.Chat)
	return err
}

// ClaimName gives the name to fp, creating fp's profile if needed (Created
// and LastSeen now): in one transaction it takes the name unless another
// key holds it (case-insensitively: store.ErrNameTaken), releases fp's old
// name and records the new one in fp's profile. Two nodes claiming one
// name at once: the primary key on the lower-cased name lets one win.
func (s *Store) ClaimName(fp, name string, now time.Time) error {
	if fp == "" || name == "" {
		return errors.New("claim name: empty fingerprint or name")
	}
	key := strings.ToLower(name)
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		var holder string
		err := tx.QueryRow(ctx, `INSERT INTO names (name_key, fp) VALUES ($1, $2)
			ON CONFLICT (name_key) DO UPDATE SET fp = excluded.fp WHERE names.fp = excluded.fp
			RETURNING fp`, key, fp).Scan(&holder)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("claim name %q: %w", name, store.ErrNameTaken)
		}
		if err != nil {
			return err
		}
		var old string
		err = tx.QueryRow(ctx, `SELECT name FROM players WHERE fp = $1 FOR UPDATE`, fp).Scan(&old)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			if oldKey := strings.ToLower(old); oldKey != "" && oldKey != key {
				if _, err := tx.Exec(ctx, `DELETE FROM names WHERE name_key = $1 AND fp = $2`, oldKey, fp); err != nil {
					return err
				}
			}
		}
		_, err = tx.Exec(ctx, `INSERT INTO players (fp, name, created, last_seen) VALUES ($1, $2, $3, $3)
			ON CONFLICT (fp) DO UPDATE SET name = excluded.name, last_seen = excluded.last_seen`, fp, name, now.UTC())
		return err
	})
	if errors.Is(err, store.ErrNameTaken) {
		return err
	}
	if err != nil {
		return fmt.Errorf("claim name %q for %s: %w", name, fp, avail(err))
	}
	return nil
}

// NameHolder returns the fingerprint holding name (case-insensitively), or
// "" when it is free.
func (s *Store) NameHolder(name string) (string, error) {
	ctx, cancel := op()
	defer cancel()
	var fp string
	err := s.pool.QueryRow(ctx, `SELECT fp FROM names WHERE name_key = $1`, strings.ToLower(name)).Scan(&fp)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("name holder %q: %w", name, avail(err))
	}
	return fp, nil
}
