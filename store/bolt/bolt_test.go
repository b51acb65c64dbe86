package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/grotto-game/grotto/store"
)

// openTest opens the store at path and, at cleanup, checks the file's
// consistency (bbolt's tx.Check) and closes it.
func openTest(t testing.TB, path string) *Store {
	t.Helper()
	b, err := Open(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := b.Verify(); err != nil && !errors.Is(err, berrors.ErrDatabaseNotOpen) {
			t.Errorf("%s inconsistent: %v", path, err)
		}
		if err := b.Close(); err != nil {
			t.Error(err)
		}
	})
	return b
}

// newTest opens a fresh store in a temporary directory.
func newTest(t testing.TB) *Store {
	t.Helper()
	return openTest(t, filepath.Join(t.TempDir(), "grotto.db"))
}

func TestProfileRoundTripsAndSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "dir", "grotto.db") // parent dirs created
	b := openTest(t, path)
	cet := time.FixedZone("CET", 3600)
	want := store.Profile{
		Fingerprint: "SHA256:abc",
		Name:        "Alice",
		Created:     time.Date(2025, 1, 2, 3, 4, 5, 6, cet),
		LastSeen:    time.Date(2025, 2, 3, 4, 5, 6, 7, time.UTC),
	}
	if _, err := b.Profile(want.Fingerprint); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Profile before put: err = %v, want ErrNotFound", err)
	}
	if err := b.PutProfile(want); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b = openTest(t, path)
	got, err := b.Profile(want.Fingerprint)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fingerprint != want.Fingerprint || got.Name != want.Name ||
		!got.Created.Equal(want.Created) || !got.LastSeen.Equal(want.LastSeen) {
		t.Errorf("Profile = %+v, want %+v", got, want)
	}
	if err := b.PutProfile(store.Profile{}); err == nil {
		t.Error("PutProfile with empty fingerprint succeeded")
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("parent dir: %v, %v; want mode 0700", fi.Mode().Perm(), err)
	}
}

func TestSavePutGetDelete(t *testing.T) {
	b := newTest(t)
	const fp = "SHA256:abc"
	if _, err := b.Save(fp); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Save before put: err = %v, want ErrNotFound", err)
	}
	for _, blob := range [][]byte{[]byte("first"), []byte("second, longer"), {}} {
		if err := b.PutSave(fp, blob); err != nil {
			t.Fatal(err)
		}
		got, err := b.Save(fp)
		if err != nil || !bytes.Equal(got, blob) {
			t.Errorf("Save = %q, %v; want %q", got, err, blob)
		}
	}
	if err := b.DeleteSave(fp); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Save(fp); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Save after delete: err = %v, want ErrNotFound", err)
	}
	if err := b.DeleteSave(fp); err != nil {
		t.Errorf("deleting an absent save: %v", err)
	}
	if err := b.PutSave("", []byte("x")); err == nil {
		t.Error("PutSave with empty fingerprint succeeded")
	}
}

func TestSaveReturnsACopy(t *testing.T) {
	b := newTest(t)
	blob := []byte("hello")
	if err := b.PutSave("fp", blob); err != nil {
		t.Fatal(err)
	}
	blob[0] = 'J' // the caller may reuse its buffer
	got, _ := b.Save("fp")
	got[1] = 'A' // and scribble on what it got back
	if again, _ := b.Save("fp"); string(again) != "hello" {
		t.Errorf("Save = %q, want %q", again, "hello")
	}
}

func TestFinishGameDeletesTheSaveAndRanks(t *testing.T) {
	b := newTest(t)
	t0 := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, fp := range []string{"A", "B"} {
		if err := b.PutSave(fp, []byte("game of "+fp)); err != nil {
			t.Fatal(err)
		}
	}
	games := []struct {
		fp       string
		points   int
		at       time.Duration
		wantRank int
	}{
		{"A", 100, 0, 1},
		{"B", 50, 1, 2},
		{"C", 100, 2, 2}, // same points as A, later: after A
		{"D", 100, 2, 3}, // same points and date as C: after C
		{"E", 200, 3, 1},
		{"F", 0, 4, 6},
		{"G", 50, 1, 6}, // same as B: after B
	}
	for _, g := range games {
		rank, err := b.FinishGame(g.fp, store.Score{Name: "n" + g.fp, Points: g.points, Depth: 3, Cause: "kobold", Date: t0.Add(g.at)})
		if err != nil {
			t.Fatal(err)
		}
		if rank != g.wantRank {
			t.Errorf("%s (%d points): rank %d, want %d", g.fp, g.points, rank, g.wantRank)
		}
	}
	if _, err := b.Save("A"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("A's save after FinishGame: err = %v, want ErrNotFound", err)
	}

	top, err := b.TopScores(100)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range top {
		order = append(order, s.Fingerprint)
		if s.Name != "n"+s.Fingerprint || s.Depth != 3 || s.Cause != "kobold" {
			t.Errorf("score %+v lost a field", s)
		}
	}
	if got, want := strings.Join(order, ""), "EACDBGF"; got != want {
		t.Errorf("TopScores order = %s, want %s", got, want)
	}
	if top[0].Points != 200 || !top[0].Date.Equal(t0.Add(3)) {
		t.Errorf("top score = %+v", top[0])
	}
	for n, want := range map[int]int{3: 3, 7: 7, 0: 0, -1: 0} {
		if top, err := b.TopScores(n); err != nil || len(top) != want {
			t.Errorf("TopScores(%d) = %d scores, %v; want %d", n, len(top), err, want)
		}
	}
}

func TestFinishGameRejectsBadScoresAndKeepsTheSave(t *testing.T) {
	b := newTest(t)
	if err := b.PutSave("A", []byte("game")); err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]store.Score{
		"negative points": {Points: -1, Date: time.Now()},
		"zero date":       {Points: 1},
	} {
		if _, err := b.FinishGame("A", s); err == nil {
			t.Errorf("%s: FinishGame succeeded", name)
		}
	}
	if _, err := b.Save("A"); err != nil {
		t.Errorf("save lost after a rejected FinishGame: %v", err)
	}
	if top, _ := b.TopScores(10); len(top) != 0 {
		t.Errorf("rejected scores were recorded: %+v", top)
	}
}

func TestConcurrentPutSave(t *testing.T) {
	b := newTest(t)
	const workers, rounds = 20, 10
	blob := func(w, r int) []byte { return bytes.Repeat([]byte{byte(w)}, 1000+r) }
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			fp := fmt.Sprint("player", w)
			for r := range rounds {
				if err := b.PutSave(fp, blob(w, r)); err != nil {
					t.Error(err)
				}
				if err := b.PutSave("shared", blob(w, r)); err != nil {
					t.Error(err)
				}
				if _, err := b.Save("shared"); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for w := range workers {
		got, err := b.Save(fmt.Sprint("player", w))
		if err != nil || !bytes.Equal(got, blob(w, rounds-1)) {
			t.Errorf("player%d: %d bytes, %v; want its last blob", w, len(got), err)
		}
	}
	got, err := b.Save("shared")
	if err != nil || len(got) != 1000+rounds-1 || !bytes.Equal(got, blob(int(got[0]), rounds-1)) {
		t.Errorf("shared save is not one writer's last blob: %d bytes, %v", len(got), err)
	}
}

func TestOpenLockedFileFailsWithErrLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "grotto.db")
	first := openTest(t, path)
	// flock locks belong to the open file description, so a second Open in
	// this process blocks just as another process would.
	start := time.Now()
	b, err := Open(path, 100*time.Millisecond)
	if err == nil {
		b.Close()
		t.Fatal("second Open succeeded")
	}
	if !errors.Is(err, ErrLocked) {
		t.Errorf("err = %v, want ErrLocked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "another grotto process") {
		t.Errorf("message %q should name %s and blame another grotto process", msg, path)
	}
	// bbolt retries every 50ms and may give up one retry early.
	if waited := time.Since(start); waited < 40*time.Millisecond || waited > 5*time.Second {
		t.Errorf("gave up after %v, want about 100ms", waited)
	}

	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	openTest(t, path) // the lock is released with the file
}

func TestOpenNonDatabaseFails(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 64<<10)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	for name, data := range map[string][]byte{
		"random bytes": random,
		"a short text": []byte("not a database\n"),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "grotto.db")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			b, err := Open(path, time.Second)
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, ErrNotDatabase) {
				t.Errorf("err = %v, want ErrNotDatabase", err)
			}
			if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "not a grotto database") {
				t.Errorf("message %q should name %s and say it is not a grotto database", msg, path)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
				t.Error("Open modified the file")
			}
		})
	}
}

func TestUnknownRecordVersionIsCorrupt(t *testing.T) {
	b := newTest(t)
	const fp = "SHA256:future"
	future := []byte{99, '{', '}'}
	err := b.db.Update(func(tx *bbolt.Tx) error {
		return errors.Join(
			tx.Bucket(playersBucket).Put([]byte(fp), future),
			tx.Bucket(savesBucket).Put([]byte(fp), future),
			tx.Bucket(scoresBucket).Put(make([]byte, scoreKeyLen), future),
			tx.Bucket(savesBucket).Put([]byte("empty"), []byte{}),
		)
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("%s: err = %v, want ErrCorrupt", what, err)
		}
	}
	_, err = b.Profile(fp)
	check("Profile", err)
	_, err = b.Save(fp)
	check("Save", err)
	_, err = b.Save("empty")
	check("Save of an empty record", err)
	_, err = b.TopScores(1)
	check("TopScores", err)
	// Still there, untouched, for someone to look at.
	_ = b.db.View(func(tx *bbolt.Tx) error {
		if got := tx.Bucket(savesBucket).Get([]byte(fp)); !bytes.Equal(got, future) {
			t.Errorf("corrupt save is now %q, want it kept", got)
		}
		return nil
	})
}

func BenchmarkPutSave20KB(b *testing.B) {
	s := newTest(b)
	blob := make([]byte, 20<<10)
	b.SetBytes(int64(len(blob)))
	for b.Loop() {
		if err := s.PutSave("SHA256:bench", blob); err != nil {
			b.Fatal(err)
		}
	}
}

func TestNamesAreUniqueCaseInsensitivelyAndCanChange(t *testing.T) {
	st := newTest(t)
	now := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	if err := st.ClaimName("SHA256:a", "Alice", now); err != nil {
		t.Fatal(err)
	}
	if err := st.ClaimName("SHA256:b", "alice", now); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("another key took alice: %v", err)
	}
	if err := st.ClaimName("SHA256:a", "Alicia", now); err != nil {
		t.Fatal(err)
	}
	if p, _ := st.Profile("SHA256:a"); p.Name != "Alicia" {
		t.Errorf("profile name %q", p.Name)
	}
	if err := st.ClaimName("SHA256:b", "ALICE", now); err != nil {
		t.Errorf("alice should be free again after a renamed: %v", err)
	}
	if fp, _ := st.NameHolder("alicia"); fp != "SHA256:a" {
		t.Errorf("holder of alicia = %q", fp)
	}
}

func TestJournalAppendsInOrderAndASaveEmptiesIt(t *testing.T) {
	st := newTest(t)
	for i := range 5 {
		if err := st.AppendJournal("SHA256:a", uint64(i), []byte{byte('a' + i)}); err != nil {
			t.Fatal(err)
		}
	}
	st.AppendJournal("SHA256:b", 0, []byte("other player"))
	j, err := st.Journal("SHA256:a")
	if err != nil || len(j) != 5 || string(j[4]) != "e" {
		t.Fatalf("journal %q, %v", j, err)
	}
	if err := st.PutSave("SHA256:a", []byte("snapshot")); err != nil {
		t.Fatal(err)
	}
	if j, _ := st.Journal("SHA256:a"); len(j) != 0 {
		t.Errorf("a save left %d journal entries", len(j))
	}
	if j, _ := st.Journal("SHA256:b"); len(j) != 1 {
		t.Error("another player's journal was touched")
	}
}

func TestConcurrentJournalsOfManyPlayersAllLand(t *testing.T) {
	st := newTest(t)
	var wg sync.WaitGroup
	for p := range 20 {
		wg.Go(func() {
			for i := range 10 {
				if err := st.AppendJournal(fmt.Sprintf("SHA256:%d", p), uint64(i), []byte("cmd")); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for p := range 20 {
		if j, _ := st.Journal(fmt.Sprintf("SHA256:%d", p)); len(j) != 10 {
			t.Errorf("player %d has %d entries", p, len(j))
		}
	}
}

func TestQuarantineKeepsTheBytesAndTheReason(t *testing.T) {
	st := newTest(t)
	st.PutSave("SHA256:a", []byte("bad bytes"))
	st.AppendJournal("SHA256:a", 0, []byte("cmd"))
	if _, err := st.Quarantine("SHA256:a", "checksum mismatch", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the save is still in place: %v", err)
	}
	if reasons, _ := st.Quarantined("SHA256:a"); len(reasons) != 1 || reasons[0].Reason != "checksum mismatch" {
		t.Errorf("quarantined: %v", reasons)
	}
}

func TestTwentyPlayersJournalingAtOnceShareFsyncs(t *testing.T) {
	st := newTest(t)
	var wg sync.WaitGroup
	for p := range 20 {
		wg.Go(func() {
			for i := range 10 {
				st.AppendJournal(fmt.Sprintf("SHA256:%d", p), uint64(i), []byte("cmd"))
			}
		})
	}
	wg.Wait()
	if c := st.JournalCommits(); c == 0 || c >= 200 {
		t.Errorf("%d commits for 200 entries from 20 players at once: no group commit", c)
	}
}

func BenchmarkJournalAppend(b *testing.B) {
	for _, players := range []int{1, 50} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			st := newTest(b)
			var seq atomic.Uint64
			b.SetParallelism(players)
			b.RunParallel(func(pb *testing.PB) {
				fp := fmt.Sprintf("SHA256:%d", seq.Add(1))
				for i := uint64(0); pb.Next(); i++ {
					st.AppendJournal(fp, i, []byte(`{"a":1,"dx":1}`))
				}
			})
			b.ReportMetric(float64(b.N)/float64(st.JournalCommits()), "entries/fsync")
		})
	}
}

func TestAProfileWrittenBeforeSettingsReadsWithTheDefaults(t *testing.T) {
	b := newTest(t)
	const fp = "SHA256:old"
	// A profile record exactly as grotto wrote it before settings existed.
	old := []byte("\x01" + `{"fp":"SHA256:old","name":"ann","created":"2026-11-01T10:00:00Z","last_seen":"2026-11-02T10:00:00Z"}`)
	if err := b.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(playersBucket).Put([]byte(fp), old) }); err != nil {
		t.Fatal(err)
	}
	p, err := b.Profile(fp)
	if err != nil || p.Name != "ann" || p.Settings != (store.Settings{}) {
		t.Fatalf("old profile read as %+v (%v), want ann with default settings", p, err)
	}
	// Re-encoding a profile with default settings writes the old bytes.
	rec, err := encodeProfile(p)
	if err != nil || !bytes.Equal(rec, old) {
		t.Errorf("default settings re-encode as %q (%v), want the old record %q", rec, err, old)
	}
}
