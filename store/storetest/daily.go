package storetest

import (
	"bytes"
	"errors"
	"sync"
	"testing"

	"github.com/grotto-game/grotto/store"
)

// dailyAttempts: a key's first attempt at a day's daily is recorded, the
// second refused with ErrDailyTaken; another key, or another day, is
// free; of many racing attempts of one key, exactly one wins.
func dailyAttempts(t *testing.T, st store.Store) {
	if err := st.StartDaily("SHA256:a", "2026-11-30", when); err != nil {
		t.Fatalf("first attempt: %v", err)
	}
	if err := st.StartDaily("SHA256:a", "2026-11-30", when); !errors.Is(err, store.ErrDailyTaken) {
		t.Errorf("second attempt the same day: %v, want ErrDailyTaken", err)
	}
	if err := st.StartDaily("SHA256:b", "2026-11-30", when); err != nil {
		t.Errorf("another key the same day: %v", err)
	}
	if err := st.StartDaily("SHA256:a", "2026-12-01", when); err != nil {
		t.Errorf("the same key the next day: %v", err)
	}
	if err := st.StartDaily("SHA256:a", "30/11/2026", when); err == nil || errors.Is(err, store.ErrDailyTaken) {
		t.Errorf("a malformed date: %v, want an error", err)
	}
	const racers = 8
	var wg sync.WaitGroup
	errs := make(chan error, racers)
	for range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- st.StartDaily("SHA256:racer", "2026-11-30", when)
		}()
	}
	wg.Wait()
	close(errs)
	won := 0
	for err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrDailyTaken):
			t.Errorf("a racing attempt: %v", err)
		}
	}
	if won != 1 {
		t.Errorf("%d of %d racing attempts of one key won, want 1", won, racers)
	}
}

// dailyBoard: a daily score is ranked on its day's board, not on the main
// one nor another day's, and its finished game keeps the date.
func dailyBoard(t *testing.T, st store.Store) {
	if _, err := st.FinishGame("SHA256:m", store.Score{Name: "main", Points: 50, Cause: "killed", Date: when}); err != nil {
		t.Fatal(err)
	}
	for i, s := range []store.Score{
		{Name: "ann", Points: 10, Date: when.Add(1), Daily: "2026-11-30", Game: gameRecord(1)},
		{Name: "bob", Points: 30, Date: when.Add(2), Daily: "2026-11-30", Game: gameRecord(2)},
		{Name: "cat", Points: 90, Date: when.Add(3), Daily: "2026-11-29", Game: gameRecord(3)},
	} {
		s.Cause, s.Depth, s.Turns = "killed", 1, 10
		rank, err := st.FinishGame("SHA256:"+s.Name, s)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{1, 1, 1}[i]; rank != want {
			t.Errorf("%s's daily rank %d, want %d (the day's board alone)", s.Name, rank, want)
		}
	}
	top, err := st.TopScores(10)
	if err != nil || len(top) != 1 || top[0].Name != "main" {
		t.Errorf("the main board: %+v (%v), want main's score alone", top, err)
	}
	day, err := st.DailyScores("2026-11-30", 10)
	if err != nil || len(day) != 2 || day[0].Name != "bob" || day[1].Name != "ann" || day[0].GameID == 0 {
		t.Fatalf("the board of 2026-11-30: %+v (%v), want bob then ann, with their games", day, err)
	}
	if day, err := st.DailyScores("2026-11-28", 10); err != nil || len(day) != 0 {
		t.Errorf("an empty day's board: %+v (%v)", day, err)
	}
	f, err := st.FinishedGame(day[0].GameID)
	if err != nil || f.Score.Daily != "2026-11-30" {
		t.Errorf("bob's finished game: daily %q (%v), want 2026-11-30", f.Score.Daily, err)
	}
	if _, err := st.FinishGame("SHA256:x", store.Score{Name: "x", Date: when, Daily: "tomorrow"}); err == nil {
		t.Error("a daily score with a malformed date was recorded")
	}
}

// dailySecret: a store's daily secret is DailySecretBytes bytes, the same
// on every call (also of racing first calls), and another store's differs.
func dailySecret(t *testing.T, a, b store.Store) {
	const racers = 8
	got := make([][]byte, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := a.DailySecret()
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, s := range got {
		if len(s) != store.DailySecretBytes || !bytes.Equal(s, got[0]) {
			t.Fatalf("call %d: secret %x, call 0: %x; want one secret of %d bytes", i, s, got[0], store.DailySecretBytes)
		}
	}
	again, err := a.DailySecret()
	if err != nil || !bytes.Equal(again, got[0]) {
		t.Errorf("a later call: %x, %v; want %x", again, err, got[0])
	}
	other, err := b.DailySecret()
	if err != nil || bytes.Equal(other, got[0]) {
		t.Errorf("another store's secret: %x, %v; want one of its own", other, err)
	}
}
