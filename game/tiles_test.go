package game

import (
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// TestLookNamesEveryTileAndEveryMonsterWithItsWounds: every tile kind has
// a name and a description a player can read in look mode; a monster is
// named with how hurt it looks and explained.
func TestLookNamesEveryTileAndEveryMonsterWithItsWounds(t *testing.T) {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	at := world.Pos{X: 3, Y: 3}
	seen := map[string]bool{}
	for _, k := range TileKinds() {
		g.s.Map.Set(at, k)
		g.updateFOV()
		names, why := g.Describe(at), g.Explain(at)
		if len(names) != 1 || names[0] == "" || why == "" {
			t.Errorf("tile %q: look says %q, %q", TileID(k), names, why)
			continue
		}
		if seen[names[0]] {
			t.Errorf("two tiles are both called %q", names[0])
		}
		seen[names[0]] = true
	}
	for _, want := range []string{"wall", "floor", "gravel", "shallow pool", "deep water", "stalactite", "stalagmite", "stairs up", "stairs down"} {
		if !seen[want] {
			t.Errorf("no tile is called %q (names: %v)", want, seen)
		}
	}

	g = arena("orc")
	orc := world.Pos{X: 3, Y: 2}
	g.s.Actors[1].HP = 4 // of 10
	g.addEffect(&g.s.Actors[1], EffectConfusion, 3)
	if got := strings.Join(g.Describe(orc), ", "); got != "orc (badly wounded, hunting you, confused), floor" {
		t.Errorf("look at a hurt, confused orc: %q", got)
	}
	if got := g.Explain(orc); got != "A brutish orc, tougher than it looks. It is hunting you. Once it knows where you are, it walks up to you and attacks. Hits you for 1–3 (70%). You hit it for 4–6 (90%)." {
		t.Errorf("the orc is explained as %q", got)
	}
	if got := g.Describe(world.Pos{X: 30, Y: 30}); len(got) != 0 {
		t.Errorf("a tile never seen is described as %q", got)
	}
}
