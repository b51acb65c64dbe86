package game

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
	"github.com/grotto-game/grotto/game/world"
)

func TestSpawnTablesNeverPlaceAnythingOutsideItsDepths(t *testing.T) {
	tables := content.Default()
	within := func(rows []content.Spawn, id string, depth int) bool {
		for _, r := range rows {
			if r.ID == id && r.WeightAt(depth) > 0 {
				return true
			}
		}
		return false
	}
	for depth := 1; depth <= mapgen.LastDepth; depth++ {
		for seed := range uint64(500) {
			g := New(seed, testData)
			if depth > 1 {
				g.enterLevel(depth)
			}
			for _, a := range g.s.Actors[1:] {
				if !within(tables.MonsterSpawns, a.Kind, depth) {
					t.Fatalf("seed %d: a %s on depth %d", seed, a.Kind, depth)
				}
			}
			for _, it := range g.s.Items {
				if !within(tables.ItemSpawns, string(it.Kind), depth) {
					t.Fatalf("seed %d: a %s on depth %d", seed, it.Kind, depth)
				}
			}
		}
	}
}

func TestEveryItemKindHasDataAndEveryDataItemHasRules(t *testing.T) {
	tables := content.Default()
	for _, k := range ItemKinds() {
		if _, ok := tables.Item(string(k)); !ok {
			t.Errorf("%s has no entry in items.json", k)
		}
	}
	for _, it := range tables.Items {
		found := false
		for _, k := range ItemKinds() {
			found = found || string(k) == it.ID
		}
		if !found {
			t.Errorf("items.json has %q, which no rule uses", it.ID)
		}
	}
}

// darkRoom is a game on an open, dark 20x11 room with the player at (5,5).
func darkRoom() *Game {
	g := arena("orc")
	g.s.Actors = g.s.Actors[:1]
	m := world.NewMap(MapWidth, MapHeight)
	for y := 1; y < 12; y++ {
		for x := 1; x < 21; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
	g.s.Map = m
	g.s.Dark = true
	g.s.Actors[0].Pos = world.Pos{X: 5, Y: 5}
	g.buffers()
	g.updateFOV()
	g.updateLight()
	return g
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestLightIsTheSumOfSourcesColourTimesFalloff(t *testing.T) {
	g := darkRoom()
	// The player's torch alone: range 8, colour (1, 1, 0.5).
	r, gr, b := g.Light(world.Pos{X: 9, Y: 5}) // 4 tiles east
	if !near(r, 0.5) || !near(gr, 0.5) || !near(b, 0.25) {
		t.Errorf("torch light at 4 tiles = %v %v %v, want 0.5 0.5 0.25", r, gr, b)
	}
	r, _, _ = g.Light(world.Pos{X: 8, Y: 9}) // 3-4-5 triangle: 5 tiles away
	if !near(r, 3.0/8) {
		t.Errorf("torch light at 5 tiles = %v, want 3/8", r)
	}
	if r, _, _ := g.Light(world.Pos{X: 5, Y: 5}); !near(r, 1) {
		t.Errorf("light under the player = %v, want 1", r)
	}
	// Add a gelatinous cube: range 4, #550000, at (13,5).
	cube, _ := content.Default().Monster("cube")
	g.s.Actors = append(g.s.Actors, newMonster(cube, world.Pos{X: 13, Y: 5}))
	g.updateLight()
	r, gr, b = g.Light(world.Pos{X: 11, Y: 5}) // 6 from the torch, 2 from the cube
	wantR := 2.0/8 + (0x55/255.0)*(2.0/4)
	if !near(r, wantR) || !near(gr, 2.0/8) || !near(b, 0.5*2.0/8) {
		t.Errorf("torch + cube at (11,5) = %v %v %v, want %v %v %v", r, gr, b, wantR, 2.0/8, 0.5*2.0/8)
	}
	if r, gr, b := g.Light(world.Pos{X: 30, Y: 30}); r != 0 || gr != 0 || b != 0 {
		t.Error("rock out of view is lit")
	}
	g.s.Dark = false
	if r, gr, b := g.Light(world.Pos{X: 11, Y: 5}); r != 1 || gr != 1 || b != 1 {
		t.Error("a level that is not dark should be fully lit")
	}
}

func TestBatsFleeThePlayer(t *testing.T) {
	g := darkRoom()
	bat, _ := content.Default().Monster("bat")
	g.s.Actors = append(g.s.Actors, newMonster(bat, world.Pos{X: 8, Y: 5}))
	for range 3 {
		mustApply(t, g, Wait())
	}
	if d := g.s.Actors[1].Pos.Chebyshev(g.Player().Pos); d <= 3 {
		t.Errorf("the bat stayed %d tiles away; bats flee", d)
	}
	if g.Player().HP != PlayerHP {
		t.Error("a fleeing bat attacked")
	}
}

func TestTheLastStairsWinTheGame(t *testing.T) {
	g := New(3, testData)
	g.enterLevel(mapgen.LastDepth)
	for i, tile := range g.s.Map.Tiles {
		if tile == world.DownStairs {
			g.s.Actors[0].Pos = world.Pos{X: i % g.s.Map.W, Y: i / g.s.Map.W}
		}
	}
	// Drawn as stairs down (>), the last stairs do not say "up" (the
	// tester's "These stairs lead up and out").
	g.describeFloor()
	if got := lastMsg(g); got != "These are the last stairs: they lead out of the grotto. Press > to escape." {
		t.Errorf("on the last stairs: %q", got)
	}
	res, err := g.Apply(Descend())
	if err != nil || !res.Won || !g.Over() || !g.Won() {
		t.Fatalf("res %+v err %v over %v won %v", res, err, g.Over(), g.Won())
	}
	if g.Score() != g.s.XPEarned+PointsPerDepth*(mapgen.LastDepth-1)+VictoryBonus {
		t.Errorf("victory score %d", g.Score())
	}
	if g.Cause() != "escaped the grotto" {
		t.Errorf("cause %q", g.Cause())
	}
}

func TestLevelsFollowTheDepthPlan(t *testing.T) {
	g := New(11, testData)
	for depth, want := range []string{1: "Rooms and Corridors", 2: "Caves", 3: "Limestone Caverns"} {
		if depth == 0 {
			continue
		}
		if depth > 1 {
			g.enterLevel(depth)
		}
		if g.LevelName() != want {
			t.Errorf("depth %d is %q, want %q", depth, g.LevelName(), want)
		}
	}
	if !g.Dark() {
		t.Error("the caverns should be dark")
	}
}

func TestInTheDarkATorchBearerIsSeenBeyondThePlayersOwnLight(t *testing.T) {
	g := darkRoom()
	m := world.NewMap(MapWidth, MapHeight) // a long dark hall
	for y := 1; y < 12; y++ {
		for x := 1; x < 40; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
	g.s.Map = m
	g.buffers()
	bandit, _ := content.Default().Monster("bandit")
	orc, _ := content.Default().Monster("orc")
	g.s.Actors = append(g.s.Actors, newMonster(bandit, world.Pos{X: 20, Y: 2}), newMonster(orc, world.Pos{X: 14, Y: 10}))
	g.updateFOV()
	if !g.Visible(world.Pos{X: 20, Y: 2}) {
		t.Error("a bandit with a torch 15 tiles away in the dark is not seen")
	}
	if g.Visible(world.Pos{X: 14, Y: 10}) {
		t.Error("an orc 10 tiles away, outside every light, is seen")
	}
	if g.Visible(world.Pos{X: 30, Y: 5}) {
		t.Error("a tile 25 away, lit by nothing, is seen")
	}
}

// Two testers learned that depth 6 was the last only on its stairs: each
// descent says which depth of how many, and the last says its stairs lead
// out.
func TestADescentSaysWhichDepthOfHowManyAndTheLastSaysSo(t *testing.T) {
	g := New(3, testData)
	g.enterLevel(mapgen.LastDepth - 2)
	g.descend()
	log := lastMessages(g, 0)
	if want := fmt.Sprintf("You descend to depth %d of %d: ", mapgen.LastDepth-1, mapgen.LastDepth); !strings.Contains(log, want) || strings.Contains(log, LastDepthNote) {
		t.Errorf("one above the last, the log reads:\n%s", log)
	}
	g.s.Log = nil
	g.descend()
	if log := lastMessages(g, 0); !strings.Contains(log, LastDepthNote) {
		t.Errorf("on the last depth, the log reads:\n%s", log)
	}
}
