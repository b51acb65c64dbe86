// The high-score table and quarantine: finishing a game for good, ranking
// it, and setting damaged games aside.

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

// scoresLock is the transaction-level advisory lock (PostgreSQL docs,
// 9.27.10 "Advisory Lock Functions") that FinishGame holds: finishes are
// rare, and one at a time makes each rank exact and gives ids in commit
// order, so equal scores rank in the order they were recorded, as in bbolt.
const scoresLock int64 = 0x67726f74746f0001 // "grotto" then 1

// Dates a Score may carry: their Unix nanoseconds fit a non-negative int64.
var (
	minScoreDate = time.Unix(0, 0)
	maxScoreDate = time.Unix(0, math.MaxInt64)
)

// FinishGame ends fp's game for good (permadeath): in one transaction it
// deletes fp's save and journal and records s with s.Fingerprint set to
// fp. It returns s's 1-based rank: 1 plus the number of scores that rank
// before it (more points, or as many and an earlier date, or both equal and
// recorded earlier). A score of fp equal to one already recorded (same
// date, points, turns, depth and cause) is not recorded twice: a retry
// after store.ErrUnavailable, whose first try may have been committed,
// returns the rank of the first. s.Points must be ≥ 0 and s.Date between 1970 and 2262,
// else an error is returned and nothing changes.
func (s *Store) FinishGame(fp string, sc store.Score) (rank int, err error) {
	return s.finishGame(fp, sc, nil)
}

// finishGame is FinishGame, running fence (when not nil) first in the
// same transaction: an error of fence is returned as it is, and nothing
// is written.
func (s *Store) finishGame(fp string, sc store.Score, fence func(context.Context, pgx.Tx) error) (rank int, err error) {
	if fp == "" {
		return 0, errors.New("finish game: empty fingerprint")
	}
	if sc.Points < 0 {
		return 0, fmt.Errorf("finish game %s: negative points %d", fp, sc.Points)
	}
	if sc.Date.Before(minScoreDate) || sc.Date.After(maxScoreDate) {
		return 0, fmt.Errorf("finish game %s: date %v outside 1970–2262", fp, sc.Date)
	}
	if sc.Daily != "" && !store.ValidDaily(sc.Daily) {
		return 0, fmt.Errorf("finish game %s: daily date %q is not 2006-01-02", fp, sc.Daily)
	}
	sc.Fingerprint = store.KeyOwner(fp) // fp may be a slot's key (store.SlotKey)
	err = s.tx(func(ctx context.Context, tx pgx.Tx) error {
		if fence != nil {
			if err := fence(ctx, tx); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, scoresLock); err != nil {
			return err
		}
		if err := deleteGame(ctx, tx, fp); err != nil {
			return err
		}
		if sc.Game != nil {
			id, err := insertFinished(ctx, tx, 0, store.Finished{Score: sc, Record: *sc.Game})
			if err != nil {
				return err
			}
			sc.GameID = uint64(id)
		}
		if sc.Cheated { // kept, never ranked
			rank = 0
			return nil
		}
		// A retry of a finish whose commit went through but whose answer
		// was lost (store.ErrUnavailable) finds its score already there.
		var id int64
		err := tx.QueryRow(ctx, `SELECT id FROM scores WHERE fp = $1 AND date_ns = $2 AND points = $3 AND turns = $4 AND depth = $5 AND cause = $6`,
			fp, sc.Date.UnixNano(), sc.Points, sc.Turns, sc.Depth, sc.Cause).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			id, err = insertScore(ctx, tx, 0, sc)
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT 1 + count(*) FROM scores
			WHERE daily IS NOT DISTINCT FROM $4 AND (points > $1 OR (points = $1 AND (date_ns < $2 OR (date_ns = $2 AND id < $3))))
			AND NOT EXISTS (SELECT 1 FROM removed_scores r WHERE r.game_id = scores.game_id)`,
			sc.Points, sc.Date.UnixNano(), id, daily(sc.Daily)).Scan(&rank)
	})
	if errors.Is(err, store.ErrFenced) {
		return 0, err
	}
	if err != nil {
		return 0, fmt.Errorf("finish game %s: %w", fp, avail(err))
	}
	return rank, nil
}

// insertScore records sc, with id if it is not 0, and returns its id.
func insertScore(ctx context.Context, tx pgx.Tx, id int64, sc store.Score) (int64, error) {
	args := []any{sc.Fingerprint, sc.Name, sc.Depth, sc.Turns, sc.Kills, sc.Points, sc.Cause, sc.Date.UnixNano(), gameID(sc.GameID), daily(sc.Daily)}
	if id == 0 {
		err := tx.QueryRow(ctx, `INSERT INTO scores (fp, name, depth, turns, kills, points, cause, date_ns, game_id, daily)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`, args...).Scan(&id)
		return id, err
	}
	_, err := tx.Exec(ctx, `INSERT INTO scores (id, fp, name, depth, turns, kills, points, cause, date_ns, game_id, daily)
		VALUES ($11, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, append(args, id)...)
	return id, err
}

// TopScores returns up to n scores, best first: higher Points, then earlier
// Date, then earlier recorded, leaving out scores an admin removed
// (store.Moderation). n ≤ 0 returns none. A score whose game was set aside
// has GameID 0.
func (s *Store) TopScores(n int) ([]store.Score, error) {
	if n <= 0 {
		return nil, nil
	}
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+boardColumns+` FROM scores s LEFT JOIN finished f ON f.id = s.game_id
		WHERE s.daily IS NULL AND `+onTable+` ORDER BY s.points DESC, s.date_ns, s.id LIMIT $1`, n)
	if err != nil {
		return nil, fmt.Errorf("top scores: %w", avail(err))
	}
	top, err := pgx.CollectRows(rows, scanScore)
	if err != nil {
		return nil, fmt.Errorf("top scores: %w", avail(err))
	}
	return top, nil
}

// onTable is the condition on scores s that leaves out the scores an
// admin took off the tables (removed_scores, store.Moderation).
const onTable = `NOT EXISTS (SELECT 1 FROM removed_scores r WHERE r.game_id = s.game_id)`

// boardColumns are what scanScore reads of scores s joined with the
// finished games f they kept: a game no longer there (set aside as
// damaged, QuarantineFinished) gives game id 0, so no replay is offered.
const boardColumns = `s.fp, s.name, s.depth, s.turns, s.kills, s.points, s.cause, s.date_ns, coalesce(f.id, 0)`

// scanScore reads fp, name, depth, turns, kills, points, cause, date_ns,
// game_id (0 for NULL).
func scanScore(row pgx.CollectableRow) (store.Score, error) {
	var sc store.Score
	var ns, game int64
	err := row.Scan(&sc.Fingerprint, &sc.Name, &sc.Depth, &sc.Turns, &sc.Kills, &sc.Points, &sc.Cause, &ns, &game)
	sc.Date, sc.GameID = time.Unix(0, ns).UTC(), uint64(game)
	return sc, err
}

// Quarantine moves fp's save and journal, as stored (each record its
// version byte, then its body), into the quarantine table with the
// reason, in one transaction: the player can start afresh and the host
// still has the bytes. It returns the quarantine key, fp@now (RFC 3339
// with nanoseconds), as the bbolt store does.
func (s *Store) Quarantine(fp, reason string, now time.Time) (string, error) {
	return s.quarantine(fp, reason, now, nil)
}

// quarantine is Quarantine, after fence (when not nil) in the same
// transaction: an error of fence wrapping store.ErrFenced is returned as
// it is, and nothing moves.
func (s *Store) quarantine(fp, reason string, now time.Time, fence func(context.Context, pgx.Tx) error) (string, error) {
	key := fmt.Sprintf("%s@%s", fp, now.UTC().Format(time.RFC3339Nano))
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		if fence != nil {
			if err := fence(ctx, tx); err != nil {
				return err
			}
		}
		var save []byte
		var version int16
		var blob []byte
		err := tx.QueryRow(ctx, `SELECT version, blob FROM saves WHERE fp = $1 FOR UPDATE`, fp).Scan(&version, &blob)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			save = append([]byte{byte(version)}, blob...)
		}
		rows, err := tx.Query(ctx, `SELECT version, entry FROM journal WHERE fp = $1 ORDER BY seq`, fp)
		if err != nil {
			return err
		}
		journal, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) ([]byte, error) {
			var v int16
			var e []byte
			err := row.Scan(&v, &e)
			return append([]byte{byte(v)}, e...), err
		})
		if err != nil {
			return err
		}
		if err := putQuarantine(ctx, tx, key, store.QuarantineRecord{Fingerprint: fp, Reason: reason, When: now.UTC(),
			Save: save, Journal: journal}); err != nil {
			return err
		}
		return deleteGame(ctx, tx, fp)
	})
	if errors.Is(err, store.ErrFenced) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("quarantine %s: %w", fp, avail(err))
	}
	return key, nil
}

// putQuarantine upserts quarantine record q under key.
func putQuarantine(ctx context.Context, tx pgx.Tx, key string, q store.QuarantineRecord) error {
	journal := q.Journal
	if journal == nil {
		journal = [][]byte{}
	}
	_, err := tx.Exec(ctx, `INSERT INTO quarantine (key, fp, reason, at, save, journal, finished_id, finished)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (key) DO UPDATE SET fp = excluded.fp, reason = excluded.reason, at = excluded.at,
			save = excluded.save, journal = excluded.journal, finished_id = excluded.finished_id, finished = excluded.finished`,
		key, q.Fingerprint, q.Reason, q.When.UTC(), q.Save, journal, gameID(q.FinishedID), q.Finished)
	return err
}

// Quarantined returns the quarantined records of fp (of every fingerprint
// when fp is ""), in key order (bytewise, as bbolt): by fingerprint, then
// oldest first.
func (s *Store) Quarantined(fp string) ([]store.Quarantined, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT key, fp, reason, at, coalesce(length(save), 0), cardinality(journal), coalesce(finished_id, 0)
		FROM quarantine WHERE $1 = '' OR fp = $1 ORDER BY key COLLATE "C"`, fp)
	if err != nil {
		return nil, fmt.Errorf("quarantined: %w", avail(err))
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Quarantined, error) {
		var q store.Quarantined
		var fin int64
		err := row.Scan(&q.Key, &q.Fingerprint, &q.Reason, &q.When, &q.SaveBytes, &q.JournalEntries, &fin)
		q.FinishedID = uint64(fin)
		q.When = q.When.UTC()
		return q, err
	})
	if err != nil {
		return nil, fmt.Errorf("quarantined: %w", avail(err))
	}
	return out, nil
}
