// Importing another store's records (`grotto copy-store`), keeping dates,
// ranks and bytes, and counting what the database holds to check a copy.

package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

// Import runs fill with a store.Dumper that writes every record it is
// handed into this database, all in one transaction: a copy that fails
// half-way leaves nothing. A record whose key is already here is replaced
// by the one handed (so importing the same records twice changes
// nothing), except a game's save or journal entry, which must be the same
// (another is a newer game, or another file's: an error wrapping
// ErrNotACopy), and a score: scores keep the order they were recorded in
// at the source (their seq becomes their id, so ranks stay exactly as
// they were), and a different score already under that id is an error
// (import into a new database). A daily score (store.Dumper.DailyScore)
// is found again by its day, key, date and result, or written under the
// next id after every score there, in the order handed, so that ties on
// a day's board rank as they did. The daily secret is written if the
// database has none; another one already there is an error wrapping
// ErrNotACopy (the days already played would get other dungeons). fill is
// typically (*bolt.Store).Dump, and returns how many records of each kind
// it handed.
//
// Two more checks keep a copy from putting players' games back in time
// (a host copying the file again after nodes ran on the database): a
// database where a server has played (it holds a lease: leases are kept,
// expired, for their epochs) is refused before anything is written, and
// the database's counts, taken in the same transaction after the copy,
// must equal fill's, or the transaction is rolled back. Both errors wrap
// ErrNotACopy; the second is a *CountsDiffer. Import returns the counts
// copied.
func (s *Store) Import(ctx context.Context, fill func(store.Dumper) (store.Counts, error)) (store.Counts, error) {
	var copied store.Counts
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, scoresLock); err != nil {
			return err
		}
		var played int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM leases`).Scan(&played); err != nil {
			return err
		}
		if played > 0 {
			return fmt.Errorf("a server has played %d players' games on it (it holds their leases), so its saves may be newer than the source's: %w", played, ErrNotACopy)
		}
		var err error
		if copied, err = fill(&importer{ctx: ctx, tx: tx, daily: []int64{}}); err != nil {
			return err
		}
		// Scores and games finished from now on get ids after the imported ones.
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence('scores', 'id'), greatest((SELECT max(id) FROM scores), 1)),
			setval(pg_get_serial_sequence('finished', 'id'), greatest((SELECT max(id) FROM finished), 1)),
			setval(pg_get_serial_sequence('moderation', 'id'), greatest((SELECT max(id) FROM moderation), 1))`); err != nil {
			return err
		}
		have, err := countIn(ctx, tx)
		if err != nil {
			return err
		}
		if have != copied {
			return &CountsDiffer{Have: have, Copied: copied}
		}
		return nil
	})
	if err != nil {
		return copied, fmt.Errorf("import into %s: %w", s.where, err)
	}
	return copied, nil
}

// CountsDiffer is Import's error when the database, after the copy, holds
// other numbers of records than the source handed: it held records of its
// own before. It wraps ErrNotACopy.
type CountsDiffer struct {
	Have   store.Counts // what the database would hold after the copy
	Copied store.Counts // what the source handed
}

func (e *CountsDiffer) Error() string {
	return fmt.Sprintf("it would hold %s, where the source holds %s: %v", e.Have, e.Copied, ErrNotACopy)
}

func (e *CountsDiffer) Unwrap() error { return ErrNotACopy }

// importer writes records into one transaction.
type importer struct {
	ctx   context.Context
	tx    pgx.Tx
	daily []int64 // the ids of the daily scores handed so far
}

// Act records a, under its seq, and applies its ban or removed score (a
// copy made again leaves both as they were).
func (im *importer) Act(a store.Act) error {
	var exists bool
	if err := im.tx.QueryRow(im.ctx, `SELECT EXISTS (SELECT 1 FROM moderation WHERE id = $1)`, int64(a.Seq)).Scan(&exists); err != nil {
		return fmt.Errorf("moderation act %d: %w", a.Seq, err)
	}
	if exists {
		return nil
	}
	if err := insertAct(im.ctx, im.tx, &a); err != nil {
		return fmt.Errorf("moderation act %d: %w", a.Seq, err)
	}
	return nil
}

func (im *importer) Profile(p store.Profile) error {
	if err := putProfile(im.ctx, im.tx, p); err != nil {
		return fmt.Errorf("profile %s: %w", p.Fingerprint, err)
	}
	return nil
}

func (im *importer) Name(key, fp string) error {
	if _, err := im.tx.Exec(im.ctx, `INSERT INTO names (name_key, fp) VALUES ($1, $2)
		ON CONFLICT (name_key) DO UPDATE SET fp = excluded.fp`, key, fp); err != nil {
		return fmt.Errorf("name %q: %w", key, err)
	}
	return nil
}

func (im *importer) Save(fp string, rec []byte) error {
	if len(rec) == 0 {
		return fmt.Errorf("%w: saves/%q: empty record", store.ErrCorrupt, fp)
	}
	if err := im.same(`SELECT version, blob FROM saves WHERE fp = $1`, rec, fp); err != nil {
		return fmt.Errorf("save %s: %w", fp, err)
	}
	if _, err := im.tx.Exec(im.ctx, `INSERT INTO saves (fp, version, blob) VALUES ($1, $2, $3)
		ON CONFLICT (fp) DO NOTHING`, fp, int16(rec[0]), rec[1:]); err != nil {
		return fmt.Errorf("save %s: %w", fp, err)
	}
	return nil
}

// same checks that the record query (which selects a version and bytes)
// finds, if any, is rec (its version byte, then the bytes): a game's save
// or journal entry that differs is another file's, or one a server wrote
// after an earlier copy, and copying over it would put the game back in
// time (an error wrapping ErrNotACopy).
func (im *importer) same(query string, rec []byte, args ...any) error {
	var version int16
	var body []byte
	err := im.tx.QueryRow(im.ctx, query, args...).Scan(&version, &body)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil
	case err != nil:
		return err
	case version != int16(rec[0]) || !bytes.Equal(body, rec[1:]):
		return fmt.Errorf("the database holds another version of that game (a newer one, or another file's): %w", ErrNotACopy)
	}
	return nil
}

func (im *importer) JournalEntry(fp string, seq uint64, rec []byte) error {
	if len(rec) == 0 || seq > math.MaxInt64 {
		return fmt.Errorf("%w: journal/%q #%d: empty record or sequence out of range", store.ErrCorrupt, fp, seq)
	}
	// An entry already here must be the same (a journal longer than the
	// file's shows in the counts, checked before the copy commits).
	if err := im.same(`SELECT version, entry FROM journal WHERE fp = $1 AND seq = $2`, rec, fp, int64(seq)); err != nil {
		return fmt.Errorf("journal %s #%d: %w", fp, seq, err)
	}
	if _, err := im.tx.Exec(im.ctx, `INSERT INTO journal (fp, seq, version, entry) VALUES ($1, $2, $3, $4)
		ON CONFLICT (fp, seq) DO NOTHING`,
		fp, int64(seq), int16(rec[0]), rec[1:]); err != nil {
		return fmt.Errorf("journal %s #%d: %w", fp, seq, err)
	}
	return nil
}

func (im *importer) Score(seq uint64, sc store.Score) error {
	if seq == 0 || seq > math.MaxInt64 {
		return fmt.Errorf("score #%d: sequence out of range", seq)
	}
	if sc.Date.Before(minScoreDate) || sc.Date.After(maxScoreDate) {
		return fmt.Errorf("score #%d: date %v outside 1970–2262", seq, sc.Date)
	}
	tag, err := im.tx.Exec(im.ctx, `INSERT INTO scores (id, fp, name, depth, turns, kills, points, cause, date_ns, game_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
		int64(seq), sc.Fingerprint, sc.Name, sc.Depth, sc.Turns, sc.Kills, sc.Points, sc.Cause, sc.Date.UnixNano(), gameID(sc.GameID))
	if err != nil {
		return fmt.Errorf("score #%d: %w", seq, err)
	}
	if tag.RowsAffected() == 1 {
		return nil
	}
	rows, err := im.tx.Query(im.ctx, `SELECT fp, name, depth, turns, kills, points, cause, date_ns, coalesce(game_id, 0) FROM scores WHERE id = $1`, int64(seq))
	if err != nil {
		return fmt.Errorf("score #%d: %w", seq, err)
	}
	have, err := pgx.CollectExactlyOneRow(rows, scanScore)
	if err != nil {
		return fmt.Errorf("score #%d: %w", seq, err)
	}
	if !have.Date.Equal(sc.Date) || !sameButDate(have, sc) {
		return fmt.Errorf("score #%d: %w: the database holds %+v there, the source %+v", seq, ErrNotACopy, have, sc)
	}
	return nil
}

// sameButDate says whether a and b are equal but for their Date.
func sameButDate(a, b store.Score) bool {
	a.Date, b.Date = time.Time{}, time.Time{}
	return a == b
}

// ErrNotACopy is returned (wrapped) by Import when the database already
// holds a different score or finished game under an id the source gives,
// or another daily secret: it holds records that were not copied from
// this source.
var ErrNotACopy = errors.New("the database holds other records: copy into a new database")

func (im *importer) Quarantined(key string, q store.QuarantineRecord) error {
	if err := putQuarantine(im.ctx, im.tx, key, q); err != nil {
		return fmt.Errorf("quarantine %s: %w", key, err)
	}
	return nil
}

// Finished writes a finished game kept whole under its id: the same
// game again is no change, another game under that id is an error
// wrapping ErrNotACopy (as for scores).
func (im *importer) Finished(f store.Finished) error {
	if f.ID == 0 || f.ID > math.MaxInt64 {
		return fmt.Errorf("finished game #%d: id out of range", f.ID)
	}
	if f.Score.Date.Before(minScoreDate) || f.Score.Date.After(maxScoreDate) {
		return fmt.Errorf("finished game #%d: date %v outside 1970–2262", f.ID, f.Score.Date)
	}
	var fp string
	var ns int64
	err := im.tx.QueryRow(im.ctx, `SELECT fp, date_ns FROM finished WHERE id = $1`, int64(f.ID)).Scan(&fp, &ns)
	switch {
	case err == nil && fp == f.Score.Fingerprint && ns == f.Score.Date.UnixNano():
		return nil // copied before
	case err == nil:
		return fmt.Errorf("finished game #%d: %w: the database holds another game there", f.ID, ErrNotACopy)
	case !errors.Is(err, pgx.ErrNoRows):
		return fmt.Errorf("finished game #%d: %w", f.ID, err)
	}
	got, err := insertFinished(im.ctx, im.tx, f.ID, f)
	if err != nil {
		return fmt.Errorf("finished game #%d: %w", f.ID, err)
	}
	if got != int64(f.ID) {
		return fmt.Errorf("finished game #%d: %w: the database holds another game there, or this one under id %d", f.ID, ErrNotACopy, got)
	}
	return nil
}

// DailySecret writes the daily secret if the database has none; the same
// one is no change, another is an error wrapping ErrNotACopy.
func (im *importer) DailySecret(secret []byte) error {
	if len(secret) != store.DailySecretBytes {
		return fmt.Errorf("daily secret: %d bytes, want %d", len(secret), store.DailySecretBytes)
	}
	var have []byte
	err := im.tx.QueryRow(im.ctx, `INSERT INTO daily_secret (one, secret) VALUES (true, $1)
		ON CONFLICT (one) DO UPDATE SET one = daily_secret.one RETURNING secret`, secret).Scan(&have)
	switch {
	case err != nil:
		return fmt.Errorf("daily secret: %w", err)
	case !bytes.Equal(have, secret):
		return fmt.Errorf("daily secret: the database already has one of its own (a server ran on it), "+
			"so the days played on the source would get other dungeons: %w", ErrNotACopy)
	}
	return nil
}

// DailyScore writes a score of a day's board, unless the same score (day,
// key, date, points, turns, depth, cause) is already there and was not
// matched by another handed before: under the next id after every score.
func (im *importer) DailyScore(seq uint64, sc store.Score) error {
	if !store.ValidDaily(sc.Daily) {
		return fmt.Errorf("daily score #%d: date %q is not 2006-01-02", seq, sc.Daily)
	}
	if sc.Date.Before(minScoreDate) || sc.Date.After(maxScoreDate) {
		return fmt.Errorf("daily score #%d of %s: date %v outside 1970–2262", seq, sc.Daily, sc.Date)
	}
	var id int64
	err := im.tx.QueryRow(im.ctx, `SELECT id FROM scores WHERE daily = $1 AND fp = $2 AND date_ns = $3 AND points = $4
		AND turns = $5 AND depth = $6 AND cause = $7 AND id <> ALL($8) ORDER BY id LIMIT 1`,
		sc.Daily, sc.Fingerprint, sc.Date.UnixNano(), sc.Points, sc.Turns, sc.Depth, sc.Cause, im.daily).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		if err = im.tx.QueryRow(im.ctx, `SELECT coalesce(max(id), 0) + 1 FROM scores`).Scan(&id); err == nil {
			id, err = insertScore(im.ctx, im.tx, id, sc)
		}
	}
	if err != nil {
		return fmt.Errorf("daily score #%d of %s: %w", seq, sc.Daily, err)
	}
	im.daily = append(im.daily, id)
	return nil
}

// DailyAttempt writes fp's attempt at the daily of date, replacing one
// already there.
func (im *importer) DailyAttempt(date, fp string, started time.Time) error {
	if !store.ValidDaily(date) || fp == "" {
		return fmt.Errorf("daily attempt %q of %q: not a date and a fingerprint", date, fp)
	}
	if _, err := im.tx.Exec(im.ctx, `INSERT INTO daily_attempts (day, fp, started_ns) VALUES ($1, $2, $3)
		ON CONFLICT (day, fp) DO UPDATE SET started_ns = excluded.started_ns`, date, fp, started.UnixNano()); err != nil {
		return fmt.Errorf("daily attempt %s %s: %w", date, fp, err)
	}
	return nil
}

// Counts returns how many records of each kind the database holds.
func (s *Store) Counts(ctx context.Context) (store.Counts, error) {
	n, err := countIn(ctx, s.pool)
	if err != nil {
		return n, fmt.Errorf("count %s: %w", s.where, err)
	}
	return n, nil
}

// countIn counts the records of each kind that q (the pool or a
// transaction) sees.
func countIn(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (store.Counts, error) {
	var n store.Counts
	err := q.QueryRow(ctx, `SELECT (SELECT count(*) FROM players), (SELECT count(*) FROM names),
		(SELECT count(*) FROM saves), (SELECT count(*) FROM journal), (SELECT count(*) FROM scores WHERE daily IS NULL),
		(SELECT count(*) FROM quarantine), (SELECT count(*) FROM finished), (SELECT count(*) FROM scores WHERE daily IS NOT NULL),
		(SELECT count(*) FROM daily_attempts), EXISTS (SELECT FROM daily_secret), (SELECT count(*) FROM moderation)`).
		Scan(&n.Players, &n.Names, &n.Saves, &n.JournalEntries, &n.Scores, &n.Quarantined, &n.Finished,
			&n.DailyScores, &n.DailyAttempts, &n.DailySecret, &n.Acts)
	return n, err
}
