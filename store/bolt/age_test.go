package bolt

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// saveBytes is the size of a typical save (game.New(1).Encode() is 28 KB).
const saveBytes = 28 << 10

// age plays n games to their end as n players at once would: every save
// is written, then every game finishes (FinishGame deletes the save and
// records the score), leaving ~7 free pages per game in the file.
func age(t testing.TB, b *Store, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	blob := make([]byte, saveBytes)
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	for i := range n {
		if err := b.PutSave(fmt.Sprintf("SHA256:aged%06d", i), blob); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		s := store.Score{Name: "aged", Depth: 1, Turns: i, Points: i, Cause: "age", Date: time.Unix(int64(i), 0)}
		if _, err := b.FinishGame(fmt.Sprintf("SHA256:aged%06d", i), s); err != nil {
			t.Fatal(err)
		}
	}
}

// written returns the bytes this process has written so far (wchar in
// /proc/self/io: every write and pwrite, before any cache).
func written(t testing.TB) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skip("no /proc/self/io:", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(l, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Skip("no wchar in /proc/self/io")
	return 0
}

// perTurn returns the bytes written per journal entry, a turn's write,
// over 50 entries of one player.
func perTurn(t testing.TB, b *Store) int64 {
	t.Helper()
	const turns = 50
	before := written(t)
	for i := range turns {
		if err := b.AppendJournal("SHA256:player", uint64(i), []byte(`{"k":"move","dx":1}`)); err != nil {
			t.Fatal(err)
		}
	}
	return (written(t) - before) / turns
}

func TestATurnCostsNoMoreAfterThousandsOfFinishedGames(t *testing.T) {
	fresh := perTurn(t, newTest(t))
	aged := newTest(t)
	age(t, aged, 2000)
	free := aged.db.Stats().FreePageN
	old := perTurn(t, aged)
	t.Logf("bytes written per turn: fresh %d, after 2000 finished games %d (%d free pages)", fresh, old, free)
	if free < 10000 {
		t.Fatalf("the aged file has only %d free pages", free)
	}
	if old > 3*fresh {
		t.Errorf("a turn writes %d bytes after 2000 finished games, %d on a fresh file", old, fresh)
	}
}

func TestTheFileKeepsNoFreelistAndReopensWithItsFreePages(t *testing.T) {
	path := t.TempDir() + "/grotto.db"
	b := openTest(t, path)
	age(t, b, 200)
	free := b.db.Stats().FreePageN
	b.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 { // both meta pages: freelist id at byte 16+32
		if id := binary.NativeEndian.Uint64(raw[i*os.Getpagesize()+16+32:]); id != noFreelist {
			t.Errorf("meta page %d names freelist page %d", i, id)
		}
	}
	start := time.Now()
	b = openTest(t, path)
	t.Logf("reopen with %d free pages: %v", free, time.Since(start))
	if got := b.db.Stats().FreePageN; got < free*9/10 {
		t.Errorf("reopened with %d free pages, had %d", got, free)
	}
}
