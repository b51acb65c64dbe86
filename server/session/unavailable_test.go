package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// privatePostgres starts a PostgreSQL of this test's own, which the test
// may kill and restart without disturbing the others, and returns it with
// the URL of a fresh database on it.
func privatePostgres(t *testing.T) (*pgtest.Server, string) {
	t.Helper()
	srv, err := pgtest.Start()
	if err != nil {
		if testing.Short() {
			t.Skipf("skipped under -short: %v", err)
		}
		t.Fatalf("pgtest: cannot start PostgreSQL: %v", err)
	}
	t.Cleanup(func() { srv.Stop() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := srv.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return srv, url
}

func openPostgres(t *testing.T, url string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// retryUntilSaved calls Retry until the waiting turn is durable, within a
// generous deadline (a restarted PostgreSQL takes a moment to answer).
func retryUntilSaved(t *testing.T, s *Session) error {
	t.Helper()
	var err error
	if !await.Within(2*time.Minute, func() bool {
		err = s.Retry()
		if !s.Waiting() {
			return true
		}
		if !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("a retry that still waits returned %v, not store.ErrUnavailable", err)
		}
		return false
	}) {
		t.Fatalf("the turn still waits for storage after 2 minutes: %v", err)
	}
	return err
}

// TestATurnWaitsWhileTheDatabaseIsDownAndIsSavedOnceItIsBack: PostgreSQL
// dies mid-game (as a crash would). The turn played then waits for storage
// (Do says store.ErrUnavailable, Waiting is true), further commands are not
// applied, and retries keep waiting; once PostgreSQL is back a retry saves
// it, play goes on, and the next login finds exactly the game played: no
// turn lost, none applied twice.
func TestATurnWaitsWhileTheDatabaseIsDownAndIsSavedOnceItIsBack(t *testing.T) {
	srv, url := privatePostgres(t)
	st := openPostgres(t, url)
	s := open(st, 7)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range 10 {
		if _, err := s.Do(dive(s.Game())); err != nil {
			t.Fatal(err)
		}
	}
	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	turn := s.Game().Turn()
	_, err := s.Do(dive(s.Game()))
	if !errors.Is(err, store.ErrUnavailable) || !s.Waiting() || !s.OnlyLastWaits() {
		t.Fatalf("a turn with the database down: err %v, waiting %v, only the last waits %v", err, s.Waiting(), s.OnlyLastWaits())
	}
	if s.Game().Turn() != turn+1 {
		t.Fatalf("the waiting turn is %d in memory, want %d", s.Game().Turn(), turn+1)
	}
	if _, err := s.Do(dive(s.Game())); err == nil || s.Game().Turn() != turn+1 {
		t.Fatalf("a command while a turn waits was applied (err %v, turn %d)", err, s.Game().Turn())
	}
	if err := s.Retry(); !errors.Is(err, store.ErrUnavailable) || !s.Waiting() {
		t.Fatalf("a retry with the database still down: err %v, waiting %v", err, s.Waiting())
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if err := retryUntilSaved(t, s); err != nil {
		t.Fatalf("the retry that saved the turn said %v", err)
	}
	for range 10 { // journal entries again, on top of the retry's snapshot
		if _, err := s.Do(dive(s.Game())); err != nil {
			t.Fatal(err)
		}
	}
	g := resume(t, openPostgres(t, url))
	if g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
		t.Fatalf("the next login does not find the game played (turn %d)", s.Game().Turn())
	}
}

// lostAnswer is the PostgreSQL store with one write whose commit went
// through but whose answer was lost (the connection broke right after
// COMMIT): the call returns store.ErrUnavailable all the same, the case a
// retry must not turn into a turn played twice or a score recorded twice.
type lostAnswer struct {
	store.Store
	lose string // the next call of this method commits, then says the store was out of reach
}

func (l *lostAnswer) lost(method string) error {
	if l.lose != method {
		return nil
	}
	l.lose = ""
	return fmt.Errorf("%w: %s: connection reset after COMMIT", store.ErrUnavailable, method)
}

func (l *lostAnswer) AppendJournal(fp string, seq uint64, entry []byte) error {
	if err := l.Store.AppendJournal(fp, seq, entry); err != nil {
		return err
	}
	return l.lost("AppendJournal")
}

func (l *lostAnswer) PutSave(fp string, blob []byte) error {
	if err := l.Store.PutSave(fp, blob); err != nil {
		return err
	}
	return l.lost("PutSave")
}

func (l *lostAnswer) FinishGame(fp string, sc store.Score) (int, error) {
	rank, err := l.Store.FinishGame(fp, sc)
	if err != nil {
		return rank, err
	}
	return rank, l.lost("FinishGame")
}

// TestARetryAfterALostAnswerAppliesNoTurnTwice: a journal entry that
// committed but whose answer was lost leaves the turn waiting; the retry's
// full save replaces the journal, so the next login replays the committed
// entry once. A snapshot whose answer was lost follows the turn's journal
// entry, so that turn is shown; the turn after it is a full save, never an
// entry numbered after a journal the snapshot may have emptied. A retried
// finish records one score.
func TestARetryAfterALostAnswerAppliesNoTurnTwice(t *testing.T) {
	for _, method := range []string{"AppendJournal", "PutSave"} {
		t.Run("a lost answer to "+method, func(t *testing.T) {
			url := pgtest.NewDatabase(t)
			st := &lostAnswer{Store: openPostgres(t, url)}
			s := open(st, 7)
			if err := s.Start(); err != nil {
				t.Fatal(err)
			}
			if method == "PutSave" {
				for range SnapshotEvery - 1 { // waits: no descent, so the next turn makes the snapshot
					if _, err := s.Do(game.Wait()); err != nil {
						t.Fatal(err)
					}
				}
				st.lose = method
				if _, err := s.Do(game.Wait()); err != nil || s.Waiting() || st.lose != "" {
					t.Fatalf("the snapshot turn with a lost answer: err %v, waiting %v, snapshot tried %v", err, s.Waiting(), st.lose == "")
				}
			} else {
				for range 5 {
					if _, err := s.Do(dive(s.Game())); err != nil {
						t.Fatal(err)
					}
				}
				st.lose = method
				if _, err := s.Do(dive(s.Game())); !errors.Is(err, store.ErrUnavailable) || !s.Waiting() {
					t.Fatalf("a lost answer: err %v, waiting %v", err, s.Waiting())
				}
				if err := retryUntilSaved(t, s); err != nil {
					t.Fatal(err)
				}
			}
			for range 3 {
				if _, err := s.Do(dive(s.Game())); err != nil {
					t.Fatal(err)
				}
			}
			g := resume(t, st.Store)
			if g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
				t.Fatalf("the next login does not find the game played (turn %d)", s.Game().Turn())
			}
		})
	}
	t.Run("a lost answer to FinishGame", func(t *testing.T) {
		url := pgtest.NewDatabase(t)
		st := &lostAnswer{Store: openPostgres(t, url)}
		s := open(st, 3)
		if err := s.Start(); err != nil {
			t.Fatal(err)
		}
		st.lose = "FinishGame"
		if _, err := playToTheEnd(t, s); !errors.Is(err, store.ErrUnavailable) || !s.Waiting() {
			t.Fatalf("the end with a lost answer: err %v, waiting %v", err, s.Waiting())
		}
		if err := retryUntilSaved(t, s); err != nil {
			t.Fatal(err)
		}
		scores, err := st.TopScores(10)
		if err != nil || len(scores) != 1 || s.Rank() != 1 {
			t.Fatalf("after the retried finish: scores %+v (err %v), rank %d; want one score at rank 1", scores, err, s.Rank())
		}
		if g, _, err := open(st, 99).Open(); g != nil || err != nil {
			t.Fatalf("after the retried finish a login found a game (%v) or an error (%v)", g != nil, err)
		}
	})
}
