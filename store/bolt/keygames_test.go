package bolt

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/grotto-game/grotto/store"
)

// A file written before the index of each key's games existed gets it at
// its next open, so player pages count every game it kept.
func TestAFileWithoutTheKeyIndexGetsItAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	b, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		fp := fmt.Sprintf("SHA256:k%d", i%2)
		if _, err := b.FinishGame(fp, store.Score{Name: "n", Points: i, Cause: "x", Date: at.Add(time.Duration(i) * time.Minute),
			Game: &store.GameRecord{Seed: uint64(i), History: []byte{1}}}); err != nil {
			t.Fatal(err)
		}
	}
	b.Close()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *bbolt.Tx) error { return tx.DeleteBucket(finishedKeysBucket) }); err != nil {
		t.Fatal(err)
	}
	db.Close()

	b, err = Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if games, err := b.KeyGames("SHA256:k0"); err != nil || len(games) != 2 || games[0].Score.Points != 0 || games[1].Score.Points != 2 {
		t.Errorf("k0's games after the index was rebuilt: %+v (%v), want games 1 and 3", games, err)
	}
}

// BenchmarkKeyGames10000 reads the games of a player with 10,000 finished
// games among 20,000: what a player page costs the store.
func BenchmarkKeyGames10000(b *testing.B) {
	st, err := Open(filepath.Join(b.TempDir(), "grotto.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	history := make([]byte, 4096) // a long game's compressed commands
	err = st.db.Update(func(tx *bbolt.Tx) error {
		for i := range 20000 {
			fp := fmt.Sprintf("SHA256:k%d", i%2)
			if _, err := putFinished(tx, store.Score{Name: "n", Fingerprint: fp, Points: i, Depth: 1 + i%12, Cause: "killed by a rat on depth 1",
				Date: at.Add(time.Duration(i) * time.Minute), Game: &store.GameRecord{Seed: uint64(i), History: history, Dump: "dump"}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if games, err := st.KeyGames("SHA256:k0"); err != nil || len(games) != 10000 {
			b.Fatalf("%d games (%v)", len(games), err)
		}
	}
}
