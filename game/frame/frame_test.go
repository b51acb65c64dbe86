package frame

import (
	"errors"
	"sync"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

func TestEveryCallerOfAFrameGetsTheOneGameDecodedFromIt(t *testing.T) {
	blob, err := game.New(7, content.Default()).Encode()
	if err != nil {
		t.Fatal(err)
	}
	f := New(blob, nil)
	games := make([]*game.Game, 16)
	var wg sync.WaitGroup
	for i := range games {
		wg.Go(func() {
			g, err := f.Game()
			if err != nil {
				t.Error(err)
			}
			games[i] = g
		})
	}
	wg.Wait()
	for i, g := range games {
		if g == nil || g != games[0] {
			t.Fatalf("caller %d got game %p, caller 0 got %p: one decode for all, one game", i, g, games[0])
		}
	}
	if g := games[0]; g.Seed() != 7 || g.Turn() != 0 {
		t.Errorf("decoded game: seed %d turn %d, want the published one (seed 7, turn 0)", g.Seed(), g.Turn())
	}
	if &f.Blob()[0] != &blob[0] {
		t.Error("Blob is a copy: the frame should hand on the published blob itself")
	}
}

func TestADamagedFrameGivesEveryCallerTheSameError(t *testing.T) {
	f := New([]byte("not a save at all"), nil)
	_, err1 := f.Game()
	g, err2 := f.Game()
	if g != nil || !errors.Is(err1, game.ErrCorruptSave) || err1 != err2 {
		t.Errorf("damaged frame: game %v, errors %v then %v; want ErrCorruptSave both times", g, err1, err2)
	}
}
