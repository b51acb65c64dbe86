package bolt_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
)

func TestBoltPassesTheStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func TestBoltPassesTheDamagedFinishedGameContract(t *testing.T) {
	storetest.RunDamaged(t, func(t *testing.T) store.Store {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}, func(t *testing.T, st store.Store, id uint64) {
		if err := bolt.DamageFinished(st.(*bolt.Store), id); err != nil {
			t.Fatal(err)
		}
	})
}

func TestBoltPassesTheLeaseContract(t *testing.T) {
	storetest.RunLeases(t, func(t *testing.T) storetest.LeasedStore {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func TestBoltPassesTheWebTokenContract(t *testing.T) {
	storetest.RunWebTokens(t, func(t *testing.T) storetest.WebTokenStore {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func TestBoltReportsEachJournalCommitToItsObserver(t *testing.T) {
	storetest.RunObserver(t, func(t *testing.T) storetest.ObservableStore {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

func TestBoltPassesTheModerationContract(t *testing.T) {
	storetest.RunModeration(t, func(t *testing.T) storetest.ModeratedStore {
		b, err := bolt.Open(filepath.Join(t.TempDir(), "grotto.db"), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
