package finished

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
)

var at = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// ended is a finished game for CareerOf: points, won, cheated, removed.
func ended(id uint64, points int, won, cheated, removed bool, cause string) store.Finished {
	return store.Finished{ID: id, Score: store.Score{Points: points, Depth: int(id), Cause: cause, Cheated: cheated, Removed: removed,
		Date: at.Add(time.Duration(id) * time.Hour), GameID: id}, Record: store.GameRecord{Won: won}}
}

func TestACareerCountsWinsStreaksAndDeathsButNotCheatsOrRemovedScores(t *testing.T) {
	c := CareerOf("Ann", []store.Finished{
		ended(1, 100, false, false, false, "killed by an orc on depth 1 (it hit you for 4)"),
		ended(2, 500, true, false, false, ""),
		ended(3, 700, true, false, false, ""),
		ended(4, 900, false, false, false, "killed by a kobold on depth 4"),
		ended(5, 9999, true, true, false, ""), // cheated: counts in Games only
		ended(6, 5000, true, false, true, ""), // removed by an admin: not the best score
		ended(7, 800, true, false, false, ""),
		ended(8, 50, false, false, false, "killed by an orc on depth 8"),
		ended(9, 60, true, false, false, ""),
	})
	if c.Games != 9 || c.Wins != 5 || c.Cheated != 1 || c.Streak != 1 || c.BestStreak != 2 || c.Deepest != 9 {
		t.Errorf("games %d wins %d cheated %d streak %d best streak %d deepest %d; want 9 5 1 1 2 9",
			c.Games, c.Wins, c.Cheated, c.Streak, c.BestStreak, c.Deepest)
	}
	if c.Best == nil || c.Best.ID != 4 {
		t.Errorf("best %+v, want game 4 (900): not the cheated 9999 or the removed 5000", c.Best)
	}
	if len(c.Causes) != 2 || c.Causes[0] != (Cause{"killed by an orc", 2}) || c.Causes[1] != (Cause{"killed by a kobold", 1}) {
		t.Errorf("causes %+v", c.Causes)
	}
	if len(c.Last) != 9 || c.Last[0].ID != 9 {
		t.Errorf("last games start with %d of %d, want the newest first", c.Last[0].ID, len(c.Last))
	}
}

// BenchmarkCareer10000 is a player page of a player with 10,000 finished
// games among 20,000 on bbolt: the store's index read and the adding up.
func BenchmarkCareer10000(b *testing.B) {
	st, err := bolt.Open(filepath.Join(b.TempDir(), "grotto.db"), time.Second)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	if err := st.ClaimName("SHA256:k0", "Bob", at); err != nil {
		b.Fatal(err)
	}
	for i := range 20000 {
		if _, err := st.FinishGame(fmt.Sprintf("SHA256:k%d", i%2), store.Score{Name: "Bob", Points: i, Depth: 1 + i%10, Turns: i,
			Cause: fmt.Sprintf("killed by a kobold on depth %d", 1+i%10), Date: at.Add(time.Duration(i) * time.Second),
			Game: &store.GameRecord{Won: i%7 == 0, Seed: uint64(i), Rules: "x", History: make([]byte, 2048)}}); err != nil {
			b.Fatal(err)
		}
	}
	g := New(st, nil, nil, time.Now)
	b.ResetTimer()
	for b.Loop() {
		if c, err := g.Career("bob"); err != nil || c.Games != 10000 {
			b.Fatalf("%d games (%v)", c.Games, err)
		}
	}
}

func TestADumpNamesThePlayerAsTheGameIsKeptNow(t *testing.T) {
	var b strings.Builder
	WriteDump(&b, store.Finished{ID: 1, Score: store.Score{Name: "Ann", Date: at},
		Record: store.GameRecord{Dump: "Rude: 1203 points, killed by a rat.\nDepth 3.\nRude's pack: nothing\n"}})
	if s := b.String(); !strings.Contains(s, "\nAnn: 1203 points, killed by a rat.\n") || strings.Contains(s, "Rude: ") {
		t.Errorf("the dump after a rename:\n%s", s)
	}
}
