// The contract about a finished game whose record cannot be read: it hides
// no other game, and it can be set aside like any.

package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// Damage makes finished game id of st unreadable in place, as a damaged
// disk or a hand edit leaves a record: each store's tests write it, since
// only they know how the store keeps its records.
type Damage func(t *testing.T, st store.Store, id uint64)

// RunDamaged runs the contract about damaged finished games against the
// stores open returns (new and empty each call; the suite closes them),
// damaged by damage.
func RunDamaged(t *testing.T, open func(t *testing.T) store.Store, damage Damage) {
	t.Run("an unreadable finished game is named, the rest listed, and it can be set aside", func(t *testing.T) {
		st := open(t)
		defer st.Close()
		unreadableFinished(t, st, damage)
	})
}

// unreadableFinished: of three finished games, the second damaged, the
// listing returns the other two and names it (*store.UnreadableFinished,
// ErrCorrupt), reading it says ErrCorrupt, and QuarantineFinished sets it
// aside, after which the listing is whole again.
func unreadableFinished(t *testing.T, st store.Store, damage Damage) {
	for i, name := range []string{"Ann", "Bob", "Cat"} {
		if _, err := st.FinishGame("SHA256:"+name, store.Score{Name: name, Points: 10 * (i + 1), Cause: "killed",
			Date: when.Add(time.Duration(i) * time.Minute), Game: gameRecord(uint64(i + 1))}); err != nil {
			t.Fatal(err)
		}
	}
	damage(t, st, 2)
	list, err := st.FinishedGames("", 10)
	var bad *store.UnreadableFinished
	if !errors.As(err, &bad) || !errors.Is(err, store.ErrCorrupt) || !slices.Equal(bad.IDs, []uint64{2}) {
		t.Errorf("the listing with game 2 damaged: error %v; want an UnreadableFinished naming game 2", err)
	}
	if ids := finishedIDs(list); !slices.Equal(ids, []uint64{3, 1}) {
		t.Errorf("the listing with game 2 damaged: games %v, want 3 and 1", ids)
	}
	if _, err := st.FinishedGame(2); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("reading damaged game 2: %v, want ErrCorrupt", err)
	}
	if f, err := st.FinishedGame(3); err != nil || f.Score.Name != "Cat" {
		t.Errorf("reading game 3 beside damaged game 2: %+v (%v)", f, err)
	}
	key, err := st.QuarantineFinished(2, "record does not decode", when)
	if err != nil {
		t.Fatalf("setting damaged game 2 aside: %v", err)
	}
	q, err := st.Quarantined("")
	if err != nil || len(q) != 1 || q[0].Key != key || q[0].FinishedID != 2 {
		t.Errorf("the quarantine: %+v (%v), want game 2 under %s", q, err, key)
	}
	list, err = st.FinishedGames("", 10)
	if ids := finishedIDs(list); err != nil || !slices.Equal(ids, []uint64{3, 1}) {
		t.Errorf("the listing once game 2 is set aside: %v (%v), want 3 and 1 and no error", ids, err)
	}
	if _, err := st.FinishedGame(2); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("reading game 2 once set aside: %v, want ErrNotFound", err)
	}
}

// finishedIDs returns the ids of games.
func finishedIDs(games []store.Finished) []uint64 {
	ids := make([]uint64, len(games))
	for i, f := range games {
		ids[i] = f.ID
	}
	return ids
}
