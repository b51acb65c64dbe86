package session

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

// snapshotsFail is a store whose snapshots (PutSave) fail with err while
// failing is set, the journal still taking every entry: a saves table
// locked on PostgreSQL, or a snapshot too big for what is left of a disk
// whose free pages still hold journal entries.
type snapshotsFail struct {
	store.Store
	failing atomic.Bool
	err     error
}

func (f *snapshotsFail) PutSave(fp string, blob []byte) error {
	if f.failing.Load() {
		return f.err
	}
	return f.Store.PutSave(fp, blob)
}

// TestAFailedSnapshotKeepsJournalingAndClaimsNoLoss: the snapshot every
// SnapshotEvery turns fails, for good or by a refusal the store knows did
// not commit, while every turn's journal entry commits. No turn is said to
// be unsaved, the save at the end of the session (as at SIGTERM) claims no
// loss, the next login finds exactly the game played, and once snapshots
// are taken again the journal is cut short again (found: the session went
// "behind" on the failed snapshot, every later turn read "Not saved" and
// SIGTERM exited 1 naming the key, though the journal held every turn).
func TestAFailedSnapshotKeepsJournalingAndClaimsNoLoss(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
	}{
		{"a disk that takes no snapshot", errDiskFull},
		{"a refusal the store knows did not commit (a locked table)",
			fmt.Errorf("put save: %w: %w: lock timeout", store.ErrUnavailable, store.ErrNotCommitted)},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &snapshotsFail{Store: storetest.TempBolt(t), err: c.err}
			s := open(st, 7)
			if err := s.Start(); err != nil {
				t.Fatal(err)
			}
			st.failing.Store(true)
			for i := range SnapshotEvery + 30 {
				if _, err := s.Do(game.Wait()); err != nil || s.Behind() || s.Waiting() {
					t.Fatalf("turn %d with only snapshots failing: err %v, behind %v, waiting %v", i+1, err, s.Behind(), s.Waiting())
				}
			}
			if err := s.Save(); err != nil {
				t.Errorf("the save at the end of the session says %v, though the store holds every turn", err)
			}
			g := resume(t, st)
			if g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
				t.Fatalf("the next login does not find the game played (turn %d)", s.Game().Turn())
			}

			st.failing.Store(false)
			for range SnapshotEvery / 5 {
				if _, err := s.Do(game.Wait()); err != nil {
					t.Fatal(err)
				}
			}
			if j, _ := st.Journal(fp); len(j) >= SnapshotEvery {
				t.Errorf("the journal still holds %d entries once snapshots are taken again", len(j))
			}
			if g := resume(t, st); g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
				t.Fatalf("after the snapshot taken again, the next login does not find the game played")
			}
		})
	}
}

// TestASnapshotWhoseAnswerWasLostNeverBreaksTheJournal: a snapshot that
// committed but said the store was out of reach (its answer lost) restarts
// the journal at 0 in the store; the session cannot tell, so the turn after
// it is a full save, never entry SnapshotEvery of a journal the store no
// longer has (a gap: a game read as damaged and set aside). The snapshot
// turn itself was journaled, so it is shown, not held back.
func TestASnapshotWhoseAnswerWasLostNeverBreaksTheJournal(t *testing.T) {
	st := &lostSnapshot{Store: storetest.TempBolt(t)}
	s := open(st, 7)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	st.lose.Store(true)
	for i := range SnapshotEvery + 10 {
		if _, err := s.Do(game.Wait()); err != nil || s.Waiting() {
			t.Fatalf("turn %d: err %v, waiting %v", i+1, err, s.Waiting())
		}
	}
	g := resume(t, st)
	if g == nil || !bytes.Equal(encode(t, g), encode(t, s.Game())) {
		t.Fatalf("the next login does not find the game played (turn %d)", s.Game().Turn())
	}
}

// lostSnapshot commits the first snapshot while lose is set, then says the
// store was out of reach.
type lostSnapshot struct {
	store.Store
	lose atomic.Bool
}

func (l *lostSnapshot) PutSave(fp string, blob []byte) error {
	if err := l.Store.PutSave(fp, blob); err != nil {
		return err
	}
	if l.lose.CompareAndSwap(true, false) {
		return fmt.Errorf("%w: connection reset after COMMIT", store.ErrUnavailable)
	}
	return nil
}
