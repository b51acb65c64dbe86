// Finished games kept whole: recorded by FinishGame in the
// score's transaction, listed, read by id, and set aside when damaged.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
)

// gameID is id as a column value: NULL for 0.
func gameID(id uint64) any {
	if id == 0 {
		return nil
	}
	return int64(id)
}

// insertFinished records f (with f.ID when it is not 0) and returns its id;
// a game of the same key and date already there (a retried finish whose
// first commit went through) is not recorded twice: its id is returned.
func insertFinished(ctx context.Context, tx pgx.Tx, id uint64, f store.Finished) (int64, error) {
	sc, r := f.Score, f.Record
	args := []any{sc.Fingerprint, sc.Name, sc.Depth, sc.Turns, sc.Kills, sc.Points, sc.Cause, sc.Date.UnixNano(),
		sc.Cheated, r.Won, int64(r.Seed), r.Rules, r.Hash, nonNil(r.History), r.Dump, gameID(id), daily(sc.Daily)}
	var got int64
	err := tx.QueryRow(ctx, `INSERT INTO finished (fp, name, depth, turns, kills, points, cause, date_ns,
			cheated, won, seed, rules, hash, history, dump, id, daily)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, coalesce($16, nextval(pg_get_serial_sequence('finished', 'id'))), $17)
		ON CONFLICT (fp, date_ns) DO NOTHING RETURNING id`, args...).Scan(&got)
	if errors.Is(err, pgx.ErrNoRows) {
		err = tx.QueryRow(ctx, `SELECT id FROM finished WHERE fp = $1 AND date_ns = $2`, sc.Fingerprint, sc.Date.UnixNano()).Scan(&got)
	}
	return got, err
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// finishedColumns are what scanFinished reads, in its order.
const finishedColumns = `id, fp, name, depth, turns, kills, points, cause, date_ns, cheated, won, seed, rules, hash, coalesce(daily, '')`

// finishedNames names finishedColumns then history and dump, for errors.
var finishedNames = [...]string{"id", "fp", "name", "depth", "turns", "kills", "points", "cause", "date_ns", "cheated", "won",
	"seed", "rules", "hash", "daily", "history", "dump"}

// scanFinished reads finishedColumns, then history and dump when whole. A
// row that holds NULL where a value belongs (the schema says NOT NULL, but
// a hand edit can drop it) cannot be read: the error wraps
// store.ErrCorrupt and names the column, the scan does not fail (so the
// rows after it are still read), and f.ID is set.
func scanFinished(whole bool) pgx.RowToFunc[store.Finished] {
	return func(row pgx.CollectableRow) (store.Finished, error) {
		var f store.Finished
		var id int64
		var ns, seed *int64
		var depth, turns, kills, points *int
		var fp, name, cause, rules, hash, dump *string
		var cheated, won *bool
		var history *[]byte
		sc, r := &f.Score, &f.Record
		dest := []any{&id, &fp, &name, &depth, &turns, &kills, &points, &cause, &ns, &cheated, &won, &seed, &rules, &hash, &sc.Daily}
		if whole {
			dest = append(dest, &history, &dump)
		}
		if err := row.Scan(dest...); err != nil {
			return f, err
		}
		f.ID, sc.GameID = uint64(id), uint64(id)
		for i, d := range dest {
			if reflect.ValueOf(d).Elem().Kind() == reflect.Pointer && reflect.ValueOf(d).Elem().IsNil() {
				return f, fmt.Errorf("%w: finished/%d: %s is NULL", store.ErrCorrupt, id, finishedNames[i])
			}
		}
		sc.Fingerprint, sc.Name, sc.Depth, sc.Turns, sc.Kills, sc.Points, sc.Cause = *fp, *name, *depth, *turns, *kills, *points, *cause
		sc.Date, sc.Cheated, r.Won, r.Seed, r.Rules, r.Hash = time.Unix(0, *ns).UTC(), *cheated, *won, uint64(*seed), *rules, *hash
		if whole {
			r.History, r.Dump = *history, *dump
		}
		return f, nil
	}
}

// FinishedGame returns finished game id, whole (see [store.Replays]).
func (s *Store) FinishedGame(id uint64) (store.Finished, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+finishedColumns+`, history, dump FROM finished WHERE id = $1`, int64(id))
	if err != nil {
		return store.Finished{}, fmt.Errorf("finished game %d: %w", id, avail(err))
	}
	f, err := pgx.CollectExactlyOneRow(rows, scanFinished(true))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Finished{}, store.ErrNotFound
	}
	if err != nil {
		return store.Finished{}, fmt.Errorf("finished game %d: %w", id, avail(err))
	}
	gone, err := removedAmong(ctx, s.pool, []int64{int64(id)})
	if err != nil {
		return store.Finished{}, fmt.Errorf("finished game %d: %w", id, avail(err))
	}
	f.Score.Removed = gone[id]
	return f, nil
}

// FinishedGames returns up to n finished games, newest first, of name (see
// [store.Replays]); a row that cannot be read (scanFinished) is left out
// and named by a *store.UnreadableFinished, and counts among the n.
func (s *Store) FinishedGames(name string, n int) ([]store.Finished, error) {
	n = min(n, store.MaxFinishedGames)
	if n <= 0 {
		return nil, nil
	}
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+finishedColumns+` FROM finished
		WHERE $1 = '' OR lower(name) = lower($1) ORDER BY id DESC LIMIT $2`, name, n)
	if err != nil {
		return nil, fmt.Errorf("finished games: %w", avail(err))
	}
	defer rows.Close()
	var out []store.Finished
	var bad *store.UnreadableFinished
	scan := scanFinished(false)
	for rows.Next() {
		f, err := scan(rows)
		if errors.Is(err, store.ErrCorrupt) { // left out and named, as the bbolt file does
			if bad == nil {
				bad = &store.UnreadableFinished{Cause: err}
			}
			bad.IDs = append(bad.IDs, f.ID)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("finished games: %w", avail(err))
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("finished games: %w", avail(err))
	}
	ids := make([]int64, len(out))
	for i, f := range out {
		ids[i] = int64(f.ID)
	}
	gone, err := removedAmong(ctx, s.pool, ids)
	if err != nil {
		return nil, fmt.Errorf("finished games: %w", avail(err))
	}
	for i := range out {
		out[i].Score.Removed = gone[out[i].ID]
	}
	if bad != nil {
		return out, bad
	}
	return out, nil
}

// QuarantineFinished moves finished game id aside (see [store.Replays]),
// in one transaction; the quarantine keeps the record as the bbolt file
// stores it (bolt.EncodeFinished), or, for a row that cannot be read
// (scanFinished), the row as PostgreSQL writes it in JSON (row_to_json).
func (s *Store) QuarantineFinished(id uint64, reason string, now time.Time) (string, error) {
	var key string
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+finishedColumns+`, history, dump FROM finished WHERE id = $1 FOR UPDATE`, int64(id))
		if err != nil {
			return err
		}
		f, err := pgx.CollectExactlyOneRow(rows, scanFinished(true))
		if errors.Is(err, pgx.ErrNoRows) {
			return store.ErrNotFound
		}
		var rec []byte
		switch {
		case errors.Is(err, store.ErrCorrupt):
			err = tx.QueryRow(ctx, `SELECT coalesce(fp, ''), convert_to(row_to_json(f)::text, 'UTF8') FROM finished f WHERE id = $1`,
				int64(id)).Scan(&f.Score.Fingerprint, &rec)
		case err == nil:
			rec, err = bolt.EncodeFinished(f)
		}
		if err != nil {
			return err
		}
		key = fmt.Sprintf("%s@%s/finished/%d", f.Score.Fingerprint, now.UTC().Format(time.RFC3339Nano), id)
		if err := putQuarantine(ctx, tx, key, store.QuarantineRecord{Fingerprint: f.Score.Fingerprint, Reason: reason,
			When: now.UTC(), FinishedID: id, Finished: rec}); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM finished WHERE id = $1`, int64(id))
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("quarantine finished game %d: %w", id, avail(err))
	}
	return key, nil
}

// KeyGames returns every finished game of fp, oldest first (see
// [store.Replays]): the finished rows of fp (the index of UNIQUE (fp,
// date_ns)), without name, history or dump.
func (s *Store) KeyGames(fp string) ([]store.Finished, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT id, depth, turns, kills, points, cause, date_ns, cheated, won, coalesce(daily, ''),
		EXISTS (SELECT 1 FROM removed_scores r WHERE r.game_id = f.id)
		FROM finished f WHERE fp = $1 ORDER BY id`, fp)
	if err != nil {
		return nil, fmt.Errorf("games of %s: %w", fp, avail(err))
	}
	games, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (store.Finished, error) {
		var f store.Finished
		var id, ns int64
		sc := &f.Score
		err := row.Scan(&id, &sc.Depth, &sc.Turns, &sc.Kills, &sc.Points, &sc.Cause, &ns, &sc.Cheated, &f.Record.Won, &sc.Daily, &sc.Removed)
		f.ID, sc.GameID, sc.Fingerprint, sc.Date = uint64(id), uint64(id), fp, time.Unix(0, ns).UTC()
		return f, err
	})
	if err != nil {
		return nil, fmt.Errorf("games of %s: %w", fp, avail(err))
	}
	return games, nil
}
