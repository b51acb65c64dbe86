// Saves and the journal: a snapshot per player, and the commands applied
// since it, each durable before its result is drawn. Concurrent journal
// appends share one commit (group commit), like bbolt's Batch.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/grotto-game/grotto/store"
)

// Record versions, as in the bbolt file (store/record.go): the caller's
// blob or entry verbatim.
const (
	saveV1    = 1
	journalV1 = 1
)

// MaxJournalBatch is the most journal entries one group commit carries.
const MaxJournalBatch = 512

// Save returns fp's saved game blob, store.ErrNotFound if there is none,
// or an error wrapping store.ErrCorrupt if its record version is unknown.
func (s *Store) Save(fp string) ([]byte, error) {
	ctx, cancel := op()
	defer cancel()
	var version int16
	var blob []byte
	err := s.pool.QueryRow(ctx, `SELECT version, blob FROM saves WHERE fp = $1`, fp).Scan(&version, &blob)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("save %s: %w", fp, avail(err))
	}
	if version != saveV1 {
		return nil, fmt.Errorf("%w: saves/%q: unknown record version %d (want %d)", store.ErrCorrupt, fp, version, saveV1)
	}
	return blob, nil
}

// PutSave creates or replaces fp's saved game with blob and drops fp's
// journal, in one transaction: the save is a snapshot. An error that came
// before the commit was sent (no connection, a lock waited for past
// LockWait) wraps store.ErrNotCommitted: the old save and its journal stand.
func (s *Store) PutSave(fp string, blob []byte) error { return s.putSave(fp, blob, nil) }

// putSave is PutSave, running fence (when not nil) first in the same
// transaction: an error of fence is returned as it is, and nothing is
// written.
func (s *Store) putSave(fp string, blob []byte, fence func(context.Context, pgx.Tx) error) error {
	if fp == "" {
		return errors.New("put save: empty fingerprint")
	}
	if blob == nil {
		blob = []byte{}
	}
	sent, err := s.txSent(func(ctx context.Context, tx pgx.Tx) error {
		if fence != nil {
			if err := fence(ctx, tx); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO saves (fp, version, blob) VALUES ($1, $2, $3)
			ON CONFLICT (fp) DO UPDATE SET version = excluded.version, blob = excluded.blob`, fp, saveV1, blob); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM journal WHERE fp = $1`, fp)
		return err
	})
	if errors.Is(err, store.ErrFenced) {
		return err
	}
	if err != nil && !sent {
		// The journal's numbering after a snapshot restarts at 0: the
		// session keeps numbering on from the old one only when it knows
		// this one did not commit.
		return fmt.Errorf("put save %s: %w: %w", fp, store.ErrNotCommitted, avail(err))
	}
	if err != nil {
		return fmt.Errorf("put save %s: %w", fp, avail(err))
	}
	return nil
}

// DeleteSave deletes fp's saved game and journal in one transaction.
// Deleting an absent save is no error.
func (s *Store) DeleteSave(fp string) error {
	err := s.tx(func(ctx context.Context, tx pgx.Tx) error {
		return deleteGame(ctx, tx, fp)
	})
	if err != nil {
		return fmt.Errorf("delete save %s: %w", fp, avail(err))
	}
	return nil
}

// deleteGame deletes fp's save and journal inside tx.
func deleteGame(ctx context.Context, tx pgx.Tx, fp string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM saves WHERE fp = $1`, fp); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `DELETE FROM journal WHERE fp = $1`, fp)
	return err
}

// Journal returns fp's journal entries in order, none when there is no
// journal. An entry with an unknown version or a gap in the sequence gives
// an error wrapping store.ErrCorrupt.
func (s *Store) Journal(fp string) ([][]byte, error) {
	ctx, cancel := op()
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT seq, version, entry FROM journal WHERE fp = $1 ORDER BY seq`, fp)
	if err != nil {
		return nil, fmt.Errorf("journal %s: %w", fp, avail(err))
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var seq int64
		var version int16
		var entry []byte
		if err := rows.Scan(&seq, &version, &entry); err != nil {
			return nil, fmt.Errorf("journal %s: %w", fp, avail(err))
		}
		if seq != int64(len(out)) {
			return nil, fmt.Errorf("journal %s: %w: entry %d out of sequence", fp, store.ErrCorrupt, seq)
		}
		if version != journalV1 {
			return nil, fmt.Errorf("%w: journal/%q #%d: unknown record version %d (want %d)", store.ErrCorrupt, fp, seq, version, journalV1)
		}
		out = append(out, entry)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal %s: %w", fp, avail(err))
	}
	return out, nil
}

// AppendJournal records entry number seq (0 for the first after the save)
// of fp's journal and returns once it is committed. Concurrent calls from
// many sessions are group-committed: one goroutine takes every append that
// is waiting and writes them in one statement, so many players cost one
// commit (one WAL flush), not one each. Writing the same seq again
// overwrites it, so a call is idempotent.
func (s *Store) AppendJournal(fp string, seq uint64, entry []byte) error {
	return s.appendJournal(fp, 0, seq, entry)
}

// appendJournal is AppendJournal fenced by epoch, or not fenced when epoch
// is 0 (never a granted epoch).
func (s *Store) appendJournal(fp string, epoch int64, seq uint64, entry []byte) error {
	if fp == "" {
		return errors.New("append journal: empty fingerprint")
	}
	if seq > math.MaxInt64 {
		return fmt.Errorf("append journal %s: sequence %d out of range", fp, seq)
	}
	if entry == nil {
		entry = []byte{}
	}
	r := appendReq{fp: fp, seq: int64(seq), epoch: epoch, entry: entry, done: make(chan error, 1)}
	select {
	case s.j.reqs <- r:
	case <-s.j.quit:
		return fmt.Errorf("append journal %s #%d: %w", fp, seq, ErrClosed)
	}
	if err := <-r.done; errors.Is(err, store.ErrFenced) {
		return fmt.Errorf("append journal %s #%d at epoch %d: %w", fp, seq, epoch, err)
	} else if err != nil {
		return fmt.Errorf("append journal %s #%d: %w", fp, seq, avail(err))
	}
	return nil
}

// JournalCommits returns how many transactions have carried journal
// entries since Open, and how many entries they carried: entries/commits
// is the group commit's sharing.
func (s *Store) JournalCommits() (commits, entries uint64) {
	return s.j.commits.Load(), s.j.entries.Load()
}

// appendReq is one AppendJournal waiting for its commit.
type appendReq struct {
	fp    string
	seq   int64
	epoch int64 // the lease epoch that fences it; 0: not fenced
	entry []byte
	done  chan error // gets the commit's result
}

// journaler is the group commit: one goroutine that takes the appends
// waiting on reqs and commits them together.
type journaler struct {
	pool     *pgxpool.Pool
	reqs     chan appendReq // unbuffered: an append taken is one the loop will answer
	quit     chan struct{}
	stopped  chan struct{}
	commits  atomic.Uint64
	entries  atomic.Uint64
	quitOnce atomic.Bool
	observer atomic.Pointer[observerBox] // see Store.SetObserver
}

func startJournaler(pool *pgxpool.Pool) *journaler {
	j := &journaler{pool: pool, reqs: make(chan appendReq), quit: make(chan struct{}), stopped: make(chan struct{})}
	go j.run()
	return j
}

// stop ends the loop after the commit in flight; appends not yet taken
// return ErrClosed.
func (j *journaler) stop() {
	if j.quitOnce.CompareAndSwap(false, true) {
		close(j.quit)
	}
	<-j.stopped
}

// run waits for an append, takes every other append already waiting (up
// to MaxJournalBatch), commits them in one statement and answers each.
// While a commit is in flight new appends queue up, so the busier the
// store, the more entries share each commit, with no added delay.
func (j *journaler) run() {
	defer close(j.stopped)
	batch := make([]appendReq, 0, MaxJournalBatch)
	for {
		batch = batch[:0]
		select {
		case r := <-j.reqs:
			batch = append(batch, r)
		case <-j.quit:
			return
		}
	gather:
		for len(batch) < MaxJournalBatch {
			select {
			case r := <-j.reqs:
				batch = append(batch, r)
			default:
				break gather
			}
		}
		written, err := j.commit(batch)
		for _, r := range batch {
			switch {
			case err != nil:
				r.done <- err
			case !written[journalKey{r.fp, r.seq}]:
				r.done <- store.ErrFenced
			default:
				r.done <- nil
			}
		}
	}
}

// journalKey names one journal entry.
type journalKey struct {
	fp  string
	seq int64
}

// commit writes batch in one statement (one transaction) and returns the
// entries it wrote. An entry given twice in the batch keeps the last, as
// two appends in turn would. A fenced entry is written only if its epoch
// is its key's lease epoch, whose row the statement locks FOR SHARE until
// the commit (so no claim moves it on meanwhile); the others are left out
// of the returned set, and the rest of the batch commits.
func (j *journaler) commit(batch []appendReq) (map[journalKey]bool, error) {
	last := make(map[journalKey]int, len(batch))
	for i, r := range batch {
		last[journalKey{r.fp, r.seq}] = i
	}
	n := len(last)
	fps, seqs, epochs, entries := make([]string, 0, n), make([]int64, 0, n), make([]int64, 0, n), make([][]byte, 0, n)
	for i, r := range batch {
		if last[journalKey{r.fp, r.seq}] != i {
			continue
		}
		fps, seqs, epochs, entries = append(fps, r.fp), append(seqs, r.seq), append(epochs, r.epoch), append(entries, r.entry)
	}
	ctx, cancel := op()
	defer cancel()
	rows, err := j.pool.Query(ctx, `WITH u AS (
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[], $4::bigint[]) AS u(f, s, e, ep)),
		fenced AS (
			SELECT u.f, u.s, u.e FROM u JOIN leases l ON l.fp = split_part(u.f, '#', 1) AND l.epoch = u.ep FOR SHARE OF l),
		ins AS (
			INSERT INTO journal (fp, seq, version, entry)
			SELECT f, s, `+fmt.Sprint(journalV1)+`, e FROM (SELECT f, s, e FROM u WHERE ep = 0 UNION ALL SELECT f, s, e FROM fenced) w
			ON CONFLICT (fp, seq) DO UPDATE SET version = excluded.version, entry = excluded.entry
			RETURNING fp, seq)
		SELECT fp, seq FROM ins`, fps, seqs, entries, epochs)
	if err != nil {
		return nil, err
	}
	written := make(map[journalKey]bool, n)
	var k journalKey
	_, err = pgx.ForEachRow(rows, []any{&k.fp, &k.seq}, func() error {
		written[k] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	j.commits.Add(1)
	j.entries.Add(uint64(len(batch)))
	if o := j.observer.Load(); o != nil {
		o.o.JournalCommitted(len(batch))
	}
	return written, nil
}

// observerBox holds a store.Observer for an atomic.Pointer.
type observerBox struct{ o store.Observer }

// SetObserver implements store.Observable: o hears of each group commit
// of journal entries.
func (s *Store) SetObserver(o store.Observer) {
	if o == nil {
		s.j.observer.Store(nil)
		return
	}
	s.j.observer.Store(&observerBox{o})
}

var _ store.Observable = (*Store)(nil)

// tx runs fn in one transaction, committed if fn returns nil, within
// OpTimeout.
func (s *Store) tx(fn func(ctx context.Context, tx pgx.Tx) error) error {
	_, err := s.txSent(fn)
	return err
}

// txSent is tx, also reporting whether the commit was sent: when it was
// not, an error means nothing of fn was committed; when it was, an error
// may hide a commit whose answer was lost.
func (s *Store) txSent(fn func(ctx context.Context, tx pgx.Tx) error) (sent bool, err error) {
	ctx, cancel := op()
	defer cancel()
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		sent = true // BeginFunc commits next
		return nil
	})
	return sent, err
}
