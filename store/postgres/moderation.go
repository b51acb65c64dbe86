// Moderation: the admins' acts (store.Moderation), each a row of the
// moderation table written in the same transaction as what it changes
// (bans, removed_scores, a rename across players, names, scores and
// finished).

package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/store"
)

// Moderate applies act and records it, in one transaction (see
// [store.Moderation]).
func (s *Store) Moderate(act store.Act) (store.Act, error) {
	if act.Admin == "" || len(act.Detail) > store.MaxActDetail {
		return store.Act{}, errors.New("moderate: no admin, or a detail over store.MaxActDetail bytes")
	}
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		a := act
		a.Seq = 0 // the table numbers acts
		var err error
		switch a.Action {
		case store.ActRename:
			err = renameIn(ctx, tx, &a)
		case store.ActRemoveScore, store.ActRestoreScore:
			err = moveScoreIn(ctx, tx, &a)
		case store.ActBan, store.ActUnban, store.ActMute, store.ActUnmute:
			err = banIn(ctx, tx, &a)
		default:
			err = fmt.Errorf("unknown act %q", a.Action)
		}
		if err != nil {
			return err
		}
		if err := insertAct(ctx, tx, &a); err != nil {
			return err
		}
		act = a
		return nil
	})
	if errors.Is(err, store.ErrNameTaken) || errors.Is(err, store.ErrNoScore) || errors.Is(err, store.ErrNotBanned) || errors.Is(err, store.ErrNotMuted) || errors.Is(err, store.ErrNotFound) {
		return store.Act{}, fmt.Errorf("moderate: %s %s: %w", act.Action, act.Fingerprint, err)
	}
	if err != nil {
		return store.Act{}, fmt.Errorf("moderate: %s %s: %w", act.Action, act.Fingerprint, avail(err))
	}
	return act, nil
}

// insertAct records act (with its Seq when not 0, as an import does),
// sets its Seq, and points the ban or the removed score it made at it.
func insertAct(ctx context.Context, tx pgx.Tx, act *store.Act) error {
	args := []any{act.When.UTC(), act.Admin, act.Action, act.Fingerprint, act.Name, act.NewName, int64(act.GameID), act.Detail}
	var id int64
	var err error
	if act.Seq == 0 {
		err = tx.QueryRow(ctx, `INSERT INTO moderation (at, admin, action, fp, name, new_name, game_id, detail)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, args...).Scan(&id)
	} else {
		err = tx.QueryRow(ctx, `INSERT INTO moderation (id, at, admin, action, fp, name, new_name, game_id, detail)
			VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`, append(args, int64(act.Seq))...).Scan(&id)
	}
	if err != nil {
		return err
	}
	act.Seq = uint64(id)
	switch act.Action {
	case store.ActBan:
		_, err = tx.Exec(ctx, `INSERT INTO bans (fp, act) VALUES ($1, $2) ON CONFLICT (fp) DO UPDATE SET act = excluded.act`, act.Fingerprint, id)
	case store.ActUnban:
		_, err = tx.Exec(ctx, `DELETE FROM bans WHERE fp = $1`, act.Fingerprint)
	case store.ActMute:
		_, err = tx.Exec(ctx, `INSERT INTO mutes (fp, act) VALUES ($1, $2) ON CONFLICT (fp) DO UPDATE SET act = excluded.act`, act.Fingerprint, id)
	case store.ActUnmute:
		_, err = tx.Exec(ctx, `DELETE FROM mutes WHERE fp = $1`, act.Fingerprint)
	case store.ActRemoveScore:
		_, err = tx.Exec(ctx, `INSERT INTO removed_scores (game_id, act) VALUES ($1, $2) ON CONFLICT (game_id) DO UPDATE SET act = excluded.act`, int64(act.GameID), id)
	case store.ActRestoreScore:
		_, err = tx.Exec(ctx, `DELETE FROM removed_scores WHERE game_id = $1`, int64(act.GameID))
	}
	return err
}

// renameIn gives act.Fingerprint the name act.NewName on its profile, in
// names, and on its scores and finished games; act.Name is set to the name
// before.
func renameIn(ctx context.Context, tx pgx.Tx, act *store.Act) error {
	fp := act.Fingerprint
	if act.NewName == "" {
		return errors.New("rename: empty name")
	}
	err := tx.QueryRow(ctx, `SELECT name FROM players WHERE fp = $1 FOR UPDATE`, fp).Scan(&act.Name)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	if err != nil {
		return err
	}
	key := strings.ToLower(act.NewName)
	var holder string
	err = tx.QueryRow(ctx, `INSERT INTO names (name_key, fp) VALUES ($1, $2)
		ON CONFLICT (name_key) DO UPDATE SET fp = excluded.fp WHERE names.fp = excluded.fp
		RETURNING fp`, key, fp).Scan(&holder)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("rename to %q: %w", act.NewName, store.ErrNameTaken)
	}
	if err != nil {
		return err
	}
	if old := strings.ToLower(act.Name); old != "" && old != key {
		if _, err := tx.Exec(ctx, `DELETE FROM names WHERE name_key = $1 AND fp = $2`, old, fp); err != nil {
			return err
		}
	}
	for _, q := range []string{
		`UPDATE players SET name = $2 WHERE fp = $1`,
		`UPDATE scores SET name = $2 WHERE fp = $1 AND name <> $2`,
		`UPDATE finished SET name = $2 WHERE fp = $1 AND name <> $2`,
	} {
		if _, err := tx.Exec(ctx, q, fp, act.NewName); err != nil {
			return err
		}
	}
	return nil
}

// moveScoreIn checks that finished game act.GameID has a score on a
// table to take off (or one taken off to put back, ActRestoreScore), and
// sets act.Fingerprint and act.Name from the score; insertAct moves it.
// The score is found by its game_id, so a game set aside as damaged
// (QuarantineFinished) still has its score moved.
func moveScoreIn(ctx context.Context, tx pgx.Tx, act *store.Act) error {
	var gone bool
	err := tx.QueryRow(ctx, `SELECT fp, name, EXISTS (SELECT 1 FROM removed_scores r WHERE r.game_id = s.game_id)
		FROM scores s WHERE game_id = $1 ORDER BY id LIMIT 1 FOR UPDATE`, int64(act.GameID)).Scan(&act.Fingerprint, &act.Name, &gone)
	switch {
	case errors.Is(err, pgx.ErrNoRows) || act.GameID == 0:
		return store.ErrNoScore // not kept, or cheated (kept, never on a table)
	case err != nil:
		return err
	case gone == (act.Action == store.ActRemoveScore):
		return store.ErrNoScore
	}
	return nil
}

// banIn sets act.Name from the key's profile ("" without one) and checks
// that an unban has a ban to lift; insertAct bans or lifts.
func banIn(ctx context.Context, tx pgx.Tx, act *store.Act) error {
	if act.Fingerprint == "" {
		return errors.New("ban: empty fingerprint")
	}
	err := tx.QueryRow(ctx, `SELECT name FROM players WHERE fp = $1`, act.Fingerprint).Scan(&act.Name)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return err
	}
	if act.Action == store.ActBan || act.Action == store.ActMute {
		return nil
	}
	query, none := `SELECT EXISTS (SELECT 1 FROM bans WHERE fp = $1)`, store.ErrNotBanned
	if act.Action == store.ActUnmute {
		query, none = `SELECT EXISTS (SELECT 1 FROM mutes WHERE fp = $1)`, store.ErrNotMuted
	}
	var banned bool
	if err := tx.QueryRow(ctx, query, act.Fingerprint).Scan(&banned); err != nil {
		return err
	}
	if !banned {
		return none
	}
	return nil
}

// actColumns are what scanAct reads of the moderation table m.
const actColumns = `m.id, m.at, m.admin, m.action, m.fp, m.name, m.new_name, m.game_id, m.detail`

func scanAct(row pgx.CollectableRow) (store.Act, error) {
	var a store.Act
	var id, game int64
	var at time.Time
	err := row.Scan(&id, &at, &a.Admin, &a.Action, &a.Fingerprint, &a.Name, &a.NewName, &game, &a.Detail)
	a.Seq, a.When, a.GameID = uint64(id), at.UTC(), uint64(game)
	return a, err
}

// Banned returns the act that banned fp, and whether fp is banned.
func (s *Store) Banned(fp string) (store.Act, bool, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+actColumns+` FROM bans b JOIN moderation m ON m.id = b.act WHERE b.fp = $1`, fp)
	if err != nil {
		return store.Act{}, false, fmt.Errorf("banned %s: %w", fp, avail(err))
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAct)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Act{}, false, nil
	}
	if err != nil {
		return store.Act{}, false, fmt.Errorf("banned %s: %w", fp, avail(err))
	}
	return a, true, nil
}

// Muted returns the act that muted fp in the chat, and whether fp is
// muted.
func (s *Store) Muted(fp string) (store.Act, bool, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+actColumns+` FROM mutes b JOIN moderation m ON m.id = b.act WHERE b.fp = $1`, fp)
	if err != nil {
		return store.Act{}, false, fmt.Errorf("muted %s: %w", fp, avail(err))
	}
	a, err := pgx.CollectExactlyOneRow(rows, scanAct)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Act{}, false, nil
	}
	if err != nil {
		return store.Act{}, false, fmt.Errorf("muted %s: %w", fp, avail(err))
	}
	return a, true, nil
}

// Bans returns the acts of every key banned now, oldest first.
func (s *Store) Bans() ([]store.Act, error) { return s.actsIn("bans") }

// Mutes returns the acts of every key muted in the chat now, oldest
// first.
func (s *Store) Mutes() ([]store.Act, error) { return s.actsIn("mutes") }

// actsIn returns the acts that put every key now in table (bans or
// mutes, never a name from outside) there, oldest first.
func (s *Store) actsIn(table string) ([]store.Act, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+actColumns+` FROM `+table+` b JOIN moderation m ON m.id = b.act ORDER BY m.id`)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", table, avail(err))
	}
	acts, err := pgx.CollectRows(rows, scanAct)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", table, avail(err))
	}
	return acts, nil
}

// ModerationLog returns up to n acts, newest first.
func (s *Store) ModerationLog(n int) ([]store.Act, error) {
	if n <= 0 {
		return []store.Act{}, nil
	}
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+actColumns+` FROM moderation m ORDER BY m.id DESC LIMIT $1`, n)
	if err != nil {
		return nil, fmt.Errorf("moderation log: %w", avail(err))
	}
	acts, err := pgx.CollectRows(rows, scanAct)
	if err != nil {
		return nil, fmt.Errorf("moderation log: %w", avail(err))
	}
	return acts, nil
}

// removedAmong returns which of the finished games ids had their score
// taken off the tables.
func removedAmong(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, ids []int64) (map[uint64]bool, error) {
	rows, err := q.Query(ctx, `SELECT game_id FROM removed_scores WHERE game_id = ANY($1)`, ids)
	if err != nil {
		return nil, err
	}
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, err
	}
	out := make(map[uint64]bool, len(got))
	for _, id := range got {
		out[uint64(id)] = true
	}
	return out, nil
}
