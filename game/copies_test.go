package game

import (
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// TestPlayerAndActorsAreCopiesEffectsIncluded: the views promise copies;
// changing a returned actor's effects must not change the game.
func TestPlayerAndActorsAreCopiesEffectsIncluded(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	give(g, WarriorPotion)
	mustApply(t, g, Use(0, world.Pos{}))
	p := g.Player()
	if len(p.Effects) != 1 {
		t.Fatalf("the player has %d effects, want the warrior's", len(p.Effects))
	}
	p.Effects[0].TurnsLeft = 999
	g.Actors()[0].Effects[0].TurnsLeft = 998
	if left := g.s.Actors[0].Effects[0].TurnsLeft; left >= 998 {
		t.Errorf("changing a returned copy changed the game: %d turns left", left)
	}
}

// TestDyingUnderTheWarriorsPotionLeavesNoBonusInTheState: a player who dies
// with a timed bonus must not keep it in the saved state.
func TestDyingUnderTheWarriorsPotionLeavesNoBonusInTheState(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	g.s.Actors[0].HP = 3
	give(g, WarriorPotion, PoisonPotion)
	mustApply(t, g, Use(0, world.Pos{})) // the warrior's potion: +5 power and defense
	mustApply(t, g, Use(0, world.Pos{})) // poison: 1 a turn
	for i := 0; i < 10 && !g.Over(); i++ {
		g.Apply(Wait())
	}
	if !g.Over() {
		t.Fatal("the player did not die")
	}
	if p := g.s.Actors[0]; p.Power != 5 || p.Defense != 2 {
		t.Errorf("dead with power %d defense %d in the state, want the base 5 and 2", p.Power, p.Defense)
	}
}
