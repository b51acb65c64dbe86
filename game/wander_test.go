package game

import (
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// corridorArena is arena's room with the player alone and a corridor
// running east from it along the player's row to x 40: tiles far enough
// for an arrival (WanderMinSteps) lie in the corridor, out of sight.
func corridorArena() *Game {
	g := alone()
	for x := 11; x <= 40; x++ {
		g.s.Map.Set(world.Pos{X: x, Y: 2}, world.Floor)
	}
	g.buffers()
	g.updateFOV()
	return g
}

func TestAMonsterArrivesOutOfSightWithinTheCountdownAndWalksToAPlayerWhoRests(t *testing.T) {
	g := corridorArena()
	from := g.LogLen()
	turns := 0
	for ; turns <= WanderMaxTurns+1 && len(g.s.Actors) == 1; turns++ {
		mustApply(t, g, Wait())
	}
	if len(g.s.Actors) == 1 {
		t.Fatalf("no monster arrived in %d turns of waiting", turns)
	}
	if turns < WanderMinTurns {
		t.Errorf("a monster arrived after %d turns, before WanderMinTurns %d", turns, WanderMinTurns)
	}
	m := g.s.Actors[1]
	if g.Visible(m.Pos) {
		t.Errorf("the %s arrived in sight at %v", m.Name, m.Pos)
	}
	if d := m.Pos.Chebyshev(g.Player().Pos); d < WanderMinSteps {
		t.Errorf("the %s arrived %d tiles from the player, want at least %d", m.Name, d, WanderMinSteps)
	}
	var heard bool
	for _, msg := range g.Messages(from) {
		heard = heard || msg.Text == wanderMessage
	}
	if !heard {
		t.Errorf("the arrival said nothing; want %q", wanderMessage)
	}
	start := m.Pos.Chebyshev(g.Player().Pos)
	for range 3 * chaseLimit {
		if g.Visible(g.s.Actors[1].Pos) {
			break
		}
		mustApply(t, g, Wait())
	}
	if got := g.s.Actors[1]; !g.Visible(got.Pos) {
		t.Errorf("the %s that arrived %d tiles away is still out of sight at %v after %d turns", got.Name, start, got.Pos, 3*chaseLimit)
	}
}

func TestNoMonsterArrivesWhereThereIsNoRoomOrTooManyLive(t *testing.T) {
	t.Run("every far tile inside a special room: a vault stays sealed", func(t *testing.T) {
		g := corridorArena()
		g.s.Rooms = []SpecialRoom{{Kind: "vault", X: 11, Y: 0, W: 30, H: 5}}
		waitN(t, g, 2*WanderMaxTurns+2)
		if n := len(g.s.Actors); n != 1 {
			t.Errorf("%d monsters arrived inside the vault", n-1)
		}
	})
	t.Run("WanderCap monsters already live on the level", func(t *testing.T) {
		g := corridorArena()
		rat, _ := testData.Monster("rat")
		for i := range WanderCap { // at the corridor's far end, out of sight: they stay there
			g.s.Actors = append(g.s.Actors, newMonster(rat, world.Pos{X: 40 - i, Y: 2}))
		}
		waitN(t, g, 2*WanderMaxTurns+2)
		if n := len(g.s.Actors) - 1; n != WanderCap {
			t.Errorf("%d monsters on the level, want WanderCap %d and no arrival", n, WanderCap)
		}
	})
}

func TestEachLevelDrawsItsOwnFirstArrival(t *testing.T) {
	g := corridorArena()
	mustApply(t, g, Wait())
	if g.WanderIn() < WanderMinTurns || g.WanderIn() > WanderMaxTurns {
		t.Fatalf("after the first turn the countdown is %d, want %d..%d", g.WanderIn(), WanderMinTurns, WanderMaxTurns)
	}
	g.descend()
	if g.WanderIn() != 0 {
		t.Errorf("a new level kept the last level's countdown %d", g.WanderIn())
	}
}
