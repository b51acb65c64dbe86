package game_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
)

// TestTheDailyIsTheSameForEveryoneAndRefusesCheats: a day's daily is one
// game for everyone (its seed from the date alone), another day's is
// another; every cheat is refused in it, changing nothing, and it survives
// a save as that day's daily.
func TestTheDailyIsTheSameForEveryoneAndRefusesCheats(t *testing.T) {
	data := content.Default()
	secret := []byte("this host's secret, 32 bytes....")
	seed := game.DailySeed(secret, "2026-11-30")
	a, b := game.NewDaily(seed, "2026-11-30", data), game.NewDaily(game.DailySeed(secret, "2026-11-30"), "2026-11-30", data)
	if a.StateHash() != b.StateHash() || a.Daily() != "2026-11-30" || a.Seed() != seed {
		t.Fatal("two dailies of one day differ")
	}
	if game.DailySeed(secret, "2026-12-01") == seed {
		t.Error("two days have one daily seed")
	}
	before, _ := a.Encode()
	for _, c := range []game.Cheat{game.CheatTeleport, game.CheatReveal, game.CheatHeal, game.CheatGod, game.CheatCreate} {
		_, err := a.Apply(game.CheatCommand(c, "potion of healing"))
		var imp *game.Impossible
		if !errors.As(err, &imp) || imp.Msg != game.ErrDailyCheat.Error() {
			t.Errorf("cheat %d in the daily: %v, want refused", c, err)
		}
	}
	after, _ := a.Encode()
	if !bytes.Equal(before, after) || a.Cheated() {
		t.Error("a refused cheat changed the daily")
	}
	g, err := game.Decode(after, data)
	if err != nil || g.Daily() != "2026-11-30" {
		t.Errorf("the daily after a save: %q, %v", g.Daily(), err)
	}
}

// TestTheDailySeedNeedsTheHostsSecret: without the host's secret, nobody
// can compute a day's seed: the old public formula, or another host's
// secret, gives another dungeon.
func TestTheDailySeedNeedsTheHostsSecret(t *testing.T) {
	mine, theirs := []byte("this host's secret, 32 bytes...."), []byte("another host's secret, 32 bytes")
	seed := game.DailySeed(mine, "2026-12-01")
	if seed == game.PublicDailySeed("2026-12-01") {
		t.Error("the daily seed is the public formula's: anyone can compute tomorrow's dungeon")
	}
	if seed == game.DailySeed(theirs, "2026-12-01") {
		t.Error("two hosts' secrets give one seed")
	}
}
