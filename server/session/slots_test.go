package session

import (
	"errors"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/storetest"
)

// TestTheDailyKeepsTheRegularSave: a key with a game of its own starts the
// daily, plays it and leaves; both games are kept, and each resumes to
// itself. Ending the daily ends only the daily.
func TestTheDailyKeepsTheRegularSave(t *testing.T) {
	st := storetest.TempBolt(t)
	s := open(st, 3)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := s.Do(game.Wait()); err != nil {
			t.Fatal(err)
		}
	}
	mine := s.Game().StateHash()

	s = open(st, 99)
	if _, _, err := s.Open(); err != nil {
		t.Fatal(err)
	}
	if err := s.StartDaily(1234, "2026-11-30"); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := s.Do(game.Wait()); err != nil {
			t.Fatal(err)
		}
	}
	daily := s.Game().StateHash()
	if err := s.Save(); err != nil {
		t.Fatal(err)
	}

	s = open(st, 99)
	g, _, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	if g == nil || g.Daily() != "" {
		t.Fatalf("the game of its own is gone after the daily: %v", g)
	}
	d := s.SavedDaily()
	if d == nil || d.Daily() != "2026-11-30" {
		t.Fatalf("the daily is not kept beside it: %v", d)
	}
	if err := s.Continue(); err != nil {
		t.Fatal(err)
	}
	if s.Game().StateHash() != mine {
		t.Error("Continue resumed another game than the key's own")
	}

	s = open(st, 99)
	s.Open()
	if err := s.ContinueDaily(); err != nil {
		t.Fatal(err)
	}
	if s.Game().StateHash() != daily || s.Game().Daily() == "" {
		t.Fatal("ContinueDaily resumed another game than the daily")
	}
	if _, err := s.Do(game.Wait()); err != nil { // journaled in the daily's slot
		t.Fatal(err)
	}
	if _, err := playToTheEnd(t, s); err != nil {
		t.Fatal(err)
	}
	scores, _ := st.DailyScores("2026-11-30", 10)
	if len(scores) != 1 || scores[0].Fingerprint != fp {
		t.Errorf("the daily's score = %+v, want one under %s", scores, fp)
	}

	s = open(st, 99)
	g, news, err := s.Open()
	if err != nil || news != "" {
		t.Fatalf("open after the daily's end: %v, %q", err, news)
	}
	if g == nil || g.StateHash() != mine {
		t.Error("the daily's end took the game of its own with it")
	}
	if s.SavedDaily() != nil {
		t.Error("the ended daily is still offered")
	}
}

// TestAnOldDailySaveStillResumes: a daily saved where a key's one game was
// kept, before a key could hold one of each, resumes from there, and its
// end deletes it there.
func TestAnOldDailySaveStillResumes(t *testing.T) {
	st := storetest.TempBolt(t)
	old := game.NewDaily(1234, "2026-11-29", content.Default())
	if err := st.PutSave(fp, encode(t, old)); err != nil {
		t.Fatal(err)
	}
	s := open(st, 99)
	g, _, err := s.Open()
	if err != nil || g == nil || g.Daily() != "2026-11-29" {
		t.Fatalf("old daily save: %v, %v", g, err)
	}
	if s.SavedDaily() != nil {
		t.Error("an old daily save is offered twice")
	}
	if err := s.Continue(); err != nil {
		t.Fatal(err)
	}
	if _, err := playToTheEnd(t, s); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(fp); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the old daily's save outlived its end: %v", err)
	}
}
