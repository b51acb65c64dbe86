// Package storetest is the contract every [store.Store] implementation must
// pass: saves and the journal, scores and ranks, case-insensitive unique
// names, and quarantine. Run it from an implementation's tests:
//
//	storetest.Run(t, func(t *testing.T) store.Store { return openMyStore(t) })
//
// open must return a new, empty store for each call; the suite closes it.
package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// Run runs the contract suite against the stores open returns.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	for _, c := range []struct {
		name string
		test func(*testing.T, store.Store)
	}{
		{"a profile round-trips and an absent one is ErrNotFound", profiles},
		{"a profile's settings round-trip and survive a name claim", settings},
		{"a save is put, read, replaced and deleted", saves},
		{"the journal keeps entries in order and a save drops it", journal},
		{"concurrent journal appends of many players all land", concurrentJournal},
		{"finishing a game deletes its save and ranks the score", finish},
		{"a key holds a save in each slot, and finishing one keeps the other", slots},
		{"names are unique case-insensitively and a new claim frees the old", names},
		{"quarantine moves the save and journal aside with the reason", quarantine},
		{"every finished game is kept whole with its score, cheated ones unranked", finishedGames},
		{"a damaged finished game is set aside, no longer listed", quarantineFinished},
		{"a key's finished games are listed oldest first, without the others' or the set aside", keyGames},
		{"one attempt at a day's daily per key, of racing attempts one wins", dailyAttempts},
		{"a daily score ranks on its day's board, apart from the main one", dailyBoard},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			c.test(t, st)
		})
	}
	t.Run("the daily secret is made once per store, random, and kept", func(t *testing.T) {
		a, b := open(t), open(t)
		defer a.Close()
		defer b.Close()
		dailySecret(t, a, b)
	})
}

// when is a fixed time: stores keep times in UTC at nanosecond precision.
var when = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func profiles(t *testing.T, st store.Store) {
	if _, err := st.Profile("SHA256:nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an absent profile: %v, want ErrNotFound", err)
	}
	p := store.Profile{Fingerprint: "SHA256:a", Name: "ann", Created: when, LastSeen: when.Add(time.Hour)}
	if err := st.PutProfile(p); err != nil {
		t.Fatal(err)
	}
	got, err := st.Profile("SHA256:a")
	if err != nil || got.Name != p.Name || !got.Created.Equal(p.Created) || !got.LastSeen.Equal(p.LastSeen) {
		t.Errorf("profile read back as %+v (%v), want %+v", got, err, p)
	}
}

func settings(t *testing.T, st store.Store) {
	p := store.Profile{Fingerprint: "SHA256:a", Name: "ann", Created: when, LastSeen: when}
	if err := st.PutProfile(p); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Profile("SHA256:a"); err != nil || got.Settings != (store.Settings{}) {
		t.Errorf("a profile put without settings read back with %+v (%v), want none", got.Settings, err)
	}
	p.Settings = store.Settings{Symbols: "ascii", Colour: "none", Chat: "off"}
	if err := st.PutProfile(p); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Profile("SHA256:a"); err != nil || got.Settings != p.Settings || got.Name != "ann" {
		t.Errorf("profile read back as %+v (%v), want settings %+v", got, err, p.Settings)
	}
	if err := st.ClaimName("SHA256:a", "Annie", when.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Profile("SHA256:a"); err != nil || got.Settings != p.Settings {
		t.Errorf("after a name claim the settings are %+v (%v), want %+v", got.Settings, err, p.Settings)
	}
}

func saves(t *testing.T, st store.Store) {
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an absent save: %v, want ErrNotFound", err)
	}
	for _, blob := range []string{"first", "second, longer than the first"} {
		if err := st.PutSave("SHA256:a", []byte(blob)); err != nil {
			t.Fatal(err)
		}
		if got, err := st.Save("SHA256:a"); err != nil || string(got) != blob {
			t.Errorf("save read back as %q (%v), want %q", got, err, blob)
		}
	}
	if err := st.DeleteSave("SHA256:a"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a deleted save: %v, want ErrNotFound", err)
	}
	if err := st.DeleteSave("SHA256:a"); err != nil {
		t.Errorf("deleting an absent save: %v", err)
	}
}

func journal(t *testing.T, st store.Store) {
	st.PutSave("SHA256:a", []byte("snapshot"))
	want := [][]byte{[]byte("one"), []byte("two"), []byte("three")}
	for i, e := range want {
		if err := st.AppendJournal("SHA256:a", uint64(i), e); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Journal("SHA256:a")
	if err != nil || !slices.EqualFunc(got, want, func(a, b []byte) bool { return string(a) == string(b) }) {
		t.Errorf("journal read back as %q (%v), want %q", got, err, want)
	}
	if err := st.PutSave("SHA256:a", []byte("newer snapshot")); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Journal("SHA256:a"); err != nil || len(got) != 0 {
		t.Errorf("after a new save the journal holds %q (%v), want nothing", got, err)
	}
}

func concurrentJournal(t *testing.T, st store.Store) {
	const players, entries = 8, 20
	var wg sync.WaitGroup
	errs := make(chan error, players*entries)
	for p := range players {
		fp := fmt.Sprintf("SHA256:p%d", p)
		st.PutSave(fp, []byte("snapshot"))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range entries {
				if err := st.AppendJournal(fp, uint64(i), []byte(fmt.Sprint(i))); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for p := range players {
		got, err := st.Journal(fmt.Sprintf("SHA256:p%d", p))
		if err != nil || len(got) != entries || string(got[entries-1]) != fmt.Sprint(entries-1) {
			t.Errorf("player %d's journal: %d entries (%v), want %d in order", p, len(got), err, entries)
		}
	}
}

func finish(t *testing.T, st store.Store) {
	st.PutSave("SHA256:a", []byte("snapshot"))
	st.AppendJournal("SHA256:a", 0, []byte("cmd"))
	scores := []struct {
		fp     string
		points int
		rank   int
	}{{"SHA256:a", 100, 1}, {"SHA256:b", 300, 1}, {"SHA256:c", 100, 3}, {"SHA256:d", 50, 4}}
	for i, s := range scores {
		rank, err := st.FinishGame(s.fp, store.Score{Name: s.fp[7:], Points: s.points, Depth: 2, Turns: 10, Cause: "test",
			Date: when.Add(time.Duration(i) * time.Minute)})
		if err != nil || rank != s.rank {
			t.Errorf("%s with %d points ranked %d (%v), want %d", s.fp, s.points, rank, err, s.rank)
		}
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a finished game's save: %v, want ErrNotFound", err)
	}
	if j, _ := st.Journal("SHA256:a"); len(j) != 0 {
		t.Errorf("a finished game's journal holds %q", j)
	}
	top, err := st.TopScores(3)
	if err != nil || len(top) != 3 || top[0].Fingerprint != "SHA256:b" || top[1].Fingerprint != "SHA256:a" || top[2].Fingerprint != "SHA256:c" {
		t.Errorf("top 3: %+v (%v), want b, then a and c (equal points, a first)", top, err)
	}
}

// slots: a key's daily is kept beside its game of its own (store.SlotKey):
// each slot has its save and journal, and finishing one ends
// that one only, its score under the key's fingerprint.
func slots(t *testing.T, st store.Store) {
	fp := "SHA256:a"
	daily := store.SlotKey(fp, store.DailySlot)
	st.PutSave(fp, []byte("mine"))
	st.AppendJournal(fp, 0, []byte("my move"))
	st.PutSave(daily, []byte("the daily"))
	st.AppendJournal(daily, 0, []byte("daily move 0"))
	st.AppendJournal(daily, 1, []byte("daily move 1"))
	if b, err := st.Save(fp); err != nil || string(b) != "mine" {
		t.Errorf("the game of its own reads %q (%v) beside a daily", b, err)
	}
	if j, _ := st.Journal(fp); len(j) != 1 || string(j[0]) != "my move" {
		t.Errorf("the game of its own's journal holds %q", j)
	}
	if j, _ := st.Journal(daily); len(j) != 2 || string(j[1]) != "daily move 1" {
		t.Errorf("the daily's journal holds %q", j)
	}
	rank, err := st.FinishGame(daily, store.Score{Name: "a", Points: 7, Cause: "test", Date: when, Daily: "2026-11-30"})
	if err != nil || rank != 1 {
		t.Fatalf("finishing the daily: rank %d, %v", rank, err)
	}
	if _, err := st.Save(daily); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the finished daily's save: %v, want ErrNotFound", err)
	}
	if j, _ := st.Journal(daily); len(j) != 0 {
		t.Errorf("the finished daily's journal holds %q", j)
	}
	if b, err := st.Save(fp); err != nil || string(b) != "mine" {
		t.Errorf("finishing the daily took the game of its own: %q (%v)", b, err)
	}
	if j, _ := st.Journal(fp); len(j) != 1 {
		t.Errorf("finishing the daily took the game of its own's journal: %q", j)
	}
	if top, err := st.DailyScores("2026-11-30", 10); err != nil || len(top) != 1 || top[0].Fingerprint != fp {
		t.Errorf("the daily's board: %+v (%v), want one score under %s", top, err, fp)
	}
}

func names(t *testing.T, st store.Store) {
	if err := st.ClaimName("SHA256:a", "Ann", when); err != nil {
		t.Fatal(err)
	}
	if err := st.ClaimName("SHA256:b", "aNN", when); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("claiming aNN over Ann: %v, want ErrNameTaken", err)
	}
	if holder, err := st.NameHolder("ANN"); err != nil || holder != "SHA256:a" {
		t.Errorf("ANN is held by %q (%v), want SHA256:a", holder, err)
	}
	if p, err := st.Profile("SHA256:a"); err != nil || p.Name != "Ann" {
		t.Errorf("the claim made profile %+v (%v)", p, err)
	}
	if err := st.ClaimName("SHA256:a", "Annie", when); err != nil {
		t.Fatal(err)
	}
	if holder, err := st.NameHolder("ann"); err != nil || holder != "" {
		t.Errorf("the old name is still held by %q (%v)", holder, err)
	}
	if err := st.ClaimName("SHA256:b", "ann", when); err != nil {
		t.Errorf("claiming a freed name: %v", err)
	}
}

func quarantine(t *testing.T, st store.Store) {
	st.PutSave("SHA256:a", []byte("damaged"))
	st.AppendJournal("SHA256:a", 0, []byte("e0"))
	st.AppendJournal("SHA256:a", 1, []byte("e1"))
	key, err := st.Quarantine("SHA256:a", "checksum mismatch", when)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the quarantined save is still in place: %v", err)
	}
	if j, _ := st.Journal("SHA256:a"); len(j) != 0 {
		t.Errorf("the quarantined journal is still in place: %q", j)
	}
	st.PutSave("SHA256:b", []byte("also damaged"))
	st.Quarantine("SHA256:b", "unknown version", when.Add(time.Second))
	mine, err := st.Quarantined("SHA256:a")
	if err != nil || len(mine) != 1 || mine[0].Key != key || mine[0].Reason != "checksum mismatch" ||
		mine[0].JournalEntries != 2 || mine[0].SaveBytes == 0 || !mine[0].When.Equal(when) {
		t.Errorf("SHA256:a's quarantine: %+v (%v)", mine, err)
	}
	if all, err := st.Quarantined(""); err != nil || len(all) != 2 {
		t.Errorf("every quarantined record: %+v (%v), want 2", all, err)
	}
}

// gameRecord is a finished game's record as a session would make it.
func gameRecord(seed uint64) *store.GameRecord {
	return &store.GameRecord{Seed: seed, Rules: "1.abcdef012345", Hash: fmt.Sprintf("%064x", seed),
		History: []byte{1, 0, 0, 0, byte(seed), 0xff, 0x80}, Dump: fmt.Sprintf("Ann: the dump of game %d\n", seed)}
}

func keyGames(t *testing.T, st store.Store) {
	if games, err := st.KeyGames("SHA256:a"); err != nil || len(games) != 0 {
		t.Errorf("a key with no games: %+v (%v)", games, err)
	}
	for i, e := range []struct {
		fp      string
		won     bool
		cheated bool
		daily   string
	}{{"SHA256:a", false, false, ""}, {"SHA256:b", true, false, ""}, {"SHA256:a", true, false, ""}, {"SHA256:a", false, true, ""}, {"SHA256:a", false, false, "2026-11-30"}} {
		rec := gameRecord(uint64(i + 1))
		rec.Won = e.won
		if _, err := st.FinishGame(e.fp, store.Score{Name: "Ann", Points: 100 * (i + 1), Depth: i + 1, Turns: 10 * i, Kills: i, Cause: fmt.Sprintf("end %d", i),
			Date: when.Add(time.Duration(i) * time.Minute), Cheated: e.cheated, Daily: e.daily, Game: rec}); err != nil {
			t.Fatal(err)
		}
	}
	games, err := st.KeyGames("SHA256:a")
	if err != nil || len(games) != 4 {
		t.Fatalf("a's games: %+v (%v), want 4", games, err)
	}
	for i, want := range []struct {
		points       int
		won, cheated bool
		daily, cause string
	}{{100, false, false, "", "end 0"}, {300, true, false, "", "end 2"}, {400, false, true, "", "end 3"}, {500, false, false, "2026-11-30", "end 4"}} {
		g := games[i]
		if g.Score.Points != want.points || g.Record.Won != want.won || g.Score.Cheated != want.cheated || g.Score.Daily != want.daily ||
			g.Score.Cause != want.cause || g.ID == 0 || g.Score.GameID != g.ID || g.Score.Fingerprint != "SHA256:a" ||
			len(g.Record.History) != 0 || !g.Score.Date.Equal(when.Add(time.Duration(want.points/100-1)*time.Minute)) {
			t.Errorf("a's game %d: %+v, want %+v", i, g, want)
		}
	}
	if _, err := st.QuarantineFinished(games[0].ID, "damaged", when); err != nil {
		t.Fatal(err)
	}
	if games, err := st.KeyGames("SHA256:a"); err != nil || len(games) != 3 || games[0].Score.Points != 300 {
		t.Errorf("a's games after one was set aside: %+v (%v)", games, err)
	}
}

func finishedGames(t *testing.T, st store.Store) {
	st.PutSave("SHA256:a", []byte("snapshot"))
	st.AppendJournal("SHA256:a", 0, []byte("cmd"))
	ends := []struct {
		fp, name string
		points   int
		cheated  bool
		rank     int
	}{{"SHA256:a", "Ann", 100, false, 1}, {"SHA256:b", "Bob", 900, true, 0}, {"SHA256:a", "Ann", 50, false, 2}, {"SHA256:b", "Bob", 70, false, 2}}
	for i, e := range ends {
		sc := store.Score{Name: e.name, Points: e.points, Depth: 3, Turns: 1000 + i, Kills: 4, Cause: fmt.Sprintf("end %d", i),
			Date: when.Add(time.Duration(i) * time.Minute), Cheated: e.cheated, Game: gameRecord(uint64(i + 1))}
		rank, err := st.FinishGame(e.fp, sc)
		if err != nil || rank != e.rank {
			t.Errorf("game %d (%d points, cheated %v) ranked %d (%v), want %d", i, e.points, e.cheated, rank, err, e.rank)
		}
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a finished game's save: %v, want ErrNotFound", err)
	}
	top, err := st.TopScores(10)
	if err != nil || len(top) != 3 {
		t.Fatalf("the table: %+v (%v), want the 3 games without cheats", top, err)
	}
	for _, sc := range top {
		if sc.GameID == 0 || sc.Cheated {
			t.Errorf("a ranked score %+v: no game id, or cheated", sc)
		}
	}
	all, err := st.FinishedGames("", 50)
	if err != nil || len(all) != 4 {
		t.Fatalf("every finished game: %+v (%v), want 4", all, err)
	}
	for i, f := range all {
		want := uint64(4 - i) // newest first; ids 1, 2, 3, 4 in the order they finished
		if f.ID != want || f.Score.Turns != 1000+int(want)-1 || f.Record.History != nil || f.Record.Dump != "" || f.Record.Seed != want {
			t.Errorf("listed game %d: %+v, want id %d, without history nor dump", i, f, want)
		}
	}
	if !all[2].Score.Cheated || all[2].Score.Name != "Bob" || all[2].Score.Points != 900 {
		t.Errorf("the cheated game is listed as %+v, want Bob's 900 points marked cheated", all[2])
	}
	if ids := []uint64{top[0].GameID, top[1].GameID, top[2].GameID}; !slices.Equal(ids, []uint64{1, 4, 3}) {
		t.Errorf("the table's game ids: %v, want 1 (Ann's 100), 4 (Bob's 70), 3 (Ann's 50)", ids)
	}
	ann, err := st.FinishedGames("aNN", 50)
	if err != nil || len(ann) != 2 || ann[0].ID != 3 || ann[1].ID != 1 {
		t.Errorf("Ann's games: %+v (%v), want 3 then 1", ann, err)
	}
	if few, _ := st.FinishedGames("", 1); len(few) != 1 || few[0].ID != 4 {
		t.Errorf("the newest game: %+v, want id 4", few)
	}
	f, err := st.FinishedGame(2)
	want := store.Finished{ID: 2, Score: store.Score{Name: "Bob", Fingerprint: "SHA256:b", Depth: 3, Turns: 1001, Kills: 4, Points: 900,
		Cause: "end 1", Date: when.Add(time.Minute), Cheated: true, GameID: 2}, Record: *gameRecord(2)}
	if err != nil || f.ID != want.ID || f.Score != want.Score || f.Record.Seed != 2 || f.Record.Rules != want.Record.Rules ||
		f.Record.Hash != want.Record.Hash || string(f.Record.History) != string(want.Record.History) || f.Record.Dump != want.Record.Dump {
		t.Errorf("game 2: %+v (%v)\nwant %+v", f, err, want)
	}
	if _, err := st.FinishedGame(99); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an unknown id: %v, want ErrNotFound", err)
	}
	if _, err := st.FinishGame("SHA256:c", store.Score{Name: "Cy", Points: 1, Date: when}); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.FinishedGames("", 50); len(n) != 4 {
		t.Errorf("a score without a game kept made %d finished games, want still 4", len(n))
	}
}

func quarantineFinished(t *testing.T, st store.Store) {
	for i := range 2 {
		if _, err := st.FinishGame("SHA256:a", store.Score{Name: "Ann", Points: 10, Date: when.Add(time.Duration(i) * time.Minute),
			Game: gameRecord(uint64(i + 1))}); err != nil {
			t.Fatal(err)
		}
	}
	key, err := st.QuarantineFinished(1, "history is damaged: checksum mismatch", when)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishedGame(1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the quarantined game is still read: %v", err)
	}
	if list, _ := st.FinishedGames("", 10); len(list) != 1 || list[0].ID != 2 {
		t.Errorf("the list after quarantine: %+v, want game 2 only", list)
	}
	q, err := st.Quarantined("SHA256:a")
	if err != nil || len(q) != 1 || q[0].Key != key || q[0].FinishedID != 1 || q[0].Reason != "history is damaged: checksum mismatch" {
		t.Errorf("the quarantine: %+v (%v), want game 1 under %s", q, err, key)
	}
	if _, err := st.QuarantineFinished(1, "again", when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("quarantining a game no longer there: %v, want ErrNotFound", err)
	}
	// Its score stays on the table but no longer offers its replay.
	top, err := st.TopScores(10)
	if err != nil || len(top) != 2 || top[0].GameID != 0 || top[1].GameID != 2 {
		t.Errorf("the table after game 1 was set aside: %+v (%v); want its score without a game id, game 2's with 2", top, err)
	}
	if _, err := st.FinishGame("SHA256:b", store.Score{Name: "Bob", Points: 5, Date: when, Daily: "2026-11-30",
		Game: gameRecord(3)}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.QuarantineFinished(3, "history is damaged", when); err != nil {
		t.Fatal(err)
	}
	if day, err := st.DailyScores("2026-11-30", 10); err != nil || len(day) != 1 || day[0].GameID != 0 {
		t.Errorf("the daily board after its game 3 was set aside: %+v (%v); want its score without a game id", day, err)
	}
}
