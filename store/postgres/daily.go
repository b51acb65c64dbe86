// The daily challenge: each key's one attempt a day, and each
// day's board apart from the main one (migration 0006).

package postgres

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

// daily is a Score.Daily as its column holds it: NULL for a game of its own.
func daily(date string) any {
	if date == "" {
		return nil
	}
	return date
}

// StartDaily records fp's attempt at the daily of date (see
// [store.Dailies]): one INSERT, whose primary key (day, fp) lets one of
// two racing attempts in, on any node.
func (s *Store) StartDaily(fp, date string, now time.Time) error {
	if fp == "" || !store.ValidDaily(date) {
		return fmt.Errorf("start daily: fingerprint %q, date %q", fp, date)
	}
	ctx, cancel := op()
	defer cancel()
	tag, err := s.pool.Exec(ctx, `INSERT INTO daily_attempts (day, fp, started_ns) VALUES ($1, $2, $3)
		ON CONFLICT (day, fp) DO NOTHING`, date, fp, now.UnixNano())
	if err != nil {
		return fmt.Errorf("start daily %s %s: %w", date, fp, avail(err))
	}
	if tag.RowsAffected() == 0 {
		return store.ErrDailyTaken
	}
	return nil
}

// DailyScores returns up to n scores of the daily of date, best first (see
// [store.Dailies]).
func (s *Store) DailyScores(date string, n int) ([]store.Score, error) {
	if n <= 0 || !store.ValidDaily(date) {
		return nil, nil
	}
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+boardColumns+` FROM scores s LEFT JOIN finished f ON f.id = s.game_id
		WHERE s.daily = $1 AND `+onTable+` ORDER BY s.points DESC, s.date_ns, s.id LIMIT $2`, date, n)
	if err != nil {
		return nil, fmt.Errorf("daily scores %s: %w", date, avail(err))
	}
	top, err := pgx.CollectRows(rows, scanScore)
	if err != nil {
		return nil, fmt.Errorf("daily scores %s: %w", date, avail(err))
	}
	for i := range top {
		top[i].Daily = date
	}
	return top, nil
}

// DailySecret returns the store's secret for the daily seeds (see
// [store.Dailies]): one row of daily_secret (migration 0007), inserted by
// the first caller on any node (ON CONFLICT DO NOTHING keeps the first),
// then read.
func (s *Store) DailySecret() ([]byte, error) {
	fresh := make([]byte, store.DailySecretBytes)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("daily secret: %w", err)
	}
	ctx, cancel := op()
	defer cancel()
	if _, err := s.pool.Exec(ctx, `INSERT INTO daily_secret (one, secret) VALUES (true, $1) ON CONFLICT (one) DO NOTHING`, fresh); err != nil {
		return nil, fmt.Errorf("daily secret: %w", avail(err))
	}
	var secret []byte
	if err := s.pool.QueryRow(ctx, `SELECT secret FROM daily_secret WHERE one`).Scan(&secret); err != nil {
		return nil, fmt.Errorf("daily secret: %w", avail(err))
	}
	if len(secret) != store.DailySecretBytes {
		return nil, fmt.Errorf("daily secret: %d bytes kept, want %d: %w", len(secret), store.DailySecretBytes, store.ErrCorrupt)
	}
	return secret, nil
}
