package session

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/replay"
	"github.com/grotto-game/grotto/store/storetest"
)

// TestAFinishedGameIsKeptWholeAcrossResumes: a game played over several
// logins (each resume reads a snapshot and a journal, which snapshots cut)
// and then lost is kept with its history from turn 0, and replaying it
// from its seed gives the recorded end.
func TestAFinishedGameIsKeptWholeAcrossResumes(t *testing.T) {
	st := storetest.TempBolt(t)
	if err := st.ClaimName(fp, "Ann", now); err != nil {
		t.Fatal(err)
	}
	s := open(st, 6)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	var end *game.Game
	resumes := 0
	for turn := 1; end == nil && turn < 20000; turn++ {
		res, err := s.Do(dive(s.Game()))
		if err != nil {
			t.Fatal(err)
		}
		if res.Died || res.Won {
			end = s.Game()
			break
		}
		if turn%(SnapshotEvery/3+4) == 0 { // a crash (every 37 turns: resumes on both sides of a snapshot): the next login resumes snapshot + journal
			s = open(st, 99)
			if g, _, err := s.Open(); err != nil || g == nil {
				t.Fatalf("resume at turn %d: %v", turn, err)
			}
			s.Continue()
			resumes++
		}
	}
	if end == nil || resumes < 2 {
		t.Fatalf("the game ended %v after %d resumes; want an end after 2 or more", end != nil, resumes)
	}
	games, err := st.FinishedGames("", 10)
	if err != nil || len(games) != 1 {
		t.Fatalf("finished games: %+v (%v), want 1", games, err)
	}
	f, err := st.FinishedGame(games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if f.Score.Name != "Ann" || f.Score.Points != end.Score() || f.Score.Cause != end.Cause() || f.Score.Cheated ||
		f.Record.Seed != 6 || f.Record.Hash != end.StateHash() || f.Record.Rules != game.Rules(content.Default()) {
		t.Errorf("kept %+v, want Ann's game of seed 6 ending %q with %d points", f, end.Cause(), end.Score())
	}
	if !strings.Contains(f.Record.Dump, "Ann: ") || !strings.Contains(f.Record.Dump, end.Cause()) {
		t.Errorf("the dump does not tell the game:\n%s", f.Record.Dump)
	}
	got, err := replay.Verify(replay.Record{Seed: f.Record.Seed, Rules: f.Record.Rules, History: f.Record.History,
		Hash: f.Record.Hash, Points: f.Score.Points, Cause: f.Score.Cause}, content.Default())
	if err != nil {
		t.Fatalf("the kept game does not replay: %v", err)
	}
	if got.Turn() != end.Turn() {
		t.Errorf("replayed to turn %d, the game ended at %d", got.Turn(), end.Turn())
	}
	if top, _ := st.TopScores(1); len(top) != 1 || top[0].GameID != f.ID {
		t.Errorf("the score's game id: %+v, want %d", top, f.ID)
	}
}

// TestACheatedGameIsKeptButNotRanked: cheats keep a game off the table,
// but it is kept, marked, like any other.
func TestACheatedGameIsKeptButNotRanked(t *testing.T) {
	st := storetest.TempBolt(t)
	s := open(st, 7)
	s.Start()
	if _, err := s.Do(game.Command{Action: game.ActCheat, Cheat: game.CheatReveal}); err != nil {
		t.Fatal(err)
	}
	if _, err := playToTheEnd(t, s); err != nil {
		t.Fatal(err)
	}
	if top, _ := st.TopScores(10); len(top) != 0 || s.Rank() != 0 {
		t.Errorf("a cheated game on the table: %+v, rank %d", top, s.Rank())
	}
	games, err := st.FinishedGames("", 10)
	if err != nil || len(games) != 1 || !games[0].Score.Cheated {
		t.Errorf("finished games: %+v (%v), want the cheated one, marked", games, err)
	}
}
