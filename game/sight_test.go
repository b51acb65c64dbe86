package game

import (
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// hall returns a game on an open 39x11 hall (x 1..39, y 1..11), dark or
// lit, with the player alone at p.
func hall(dark bool, p world.Pos) *Game {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	m := world.NewMap(MapWidth, MapHeight)
	for y := 1; y < 12; y++ {
		for x := 1; x < 40; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
	g.s.Map = m
	g.s.Dark = dark
	g.s.Actors[0].Pos = p
	g.buffers()
	g.updateFOV()
	return g
}

func TestInTheDarkYourOwnSightIsYourTorchButOtherLightsShowWhatTheyLight(t *testing.T) {
	g := hall(true, world.Pos{X: 5, Y: 5})
	bandit, _ := content.Default().Monster("bandit") // a torch of range 6
	g.s.Actors = append(g.s.Actors, newMonster(bandit, world.Pos{X: 16, Y: 5}))
	g.updateFOV()
	if !g.Visible(world.Pos{X: 15, Y: 5}) {
		t.Error("a floor tile 10 tiles away, lit by a bandit's torch, is not seen")
	}
	if !g.Visible(world.Pos{X: 5, Y: 10}) {
		t.Errorf("a floor tile %d tiles away is not seen by the player's own torch", TorchSightRadius)
	}
	if g.Visible(world.Pos{X: 5, Y: 11}) {
		t.Error("an unlit floor tile 6 tiles away is seen in the dark")
	}
	if r, _, _ := g.Light(world.Pos{X: 5, Y: 11}); r <= 0 {
		t.Error("the torch's light should still reach 6 tiles (the formula is kept); only sight is shorter")
	}
}

func TestOnALitLevelThePlayerSeesEightTiles(t *testing.T) {
	g := hall(false, world.Pos{X: 5, Y: 5})
	if !g.Visible(world.Pos{X: 13, Y: 5}) {
		t.Error("a tile 8 tiles away on a lit level is not seen")
	}
	if g.Visible(world.Pos{X: 14, Y: 5}) {
		t.Error("a tile 9 tiles away on a lit level is seen")
	}
	if !g.Visible(world.Pos{X: 5, Y: 11}) {
		t.Error("a tile 6 tiles away on a lit level is not seen")
	}
}
