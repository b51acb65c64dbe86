package game

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/game/world"
)

// sketch returns the map drawn by rows ('#' wall, '.' floor, '~' deep
// water, '>' stairs, '@' floor where from is), every tile explored, and
// from.
func sketch(rows ...string) (*world.Map, world.Pos) {
	m := world.NewMap(len(rows[0]), len(rows))
	var from world.Pos
	for y, row := range rows {
		for x, c := range row {
			p := world.Pos{X: x, Y: y}
			m.Explored[m.Index(p)] = true
			switch c {
			case '.':
				m.Set(p, world.Floor)
			case '~':
				m.Set(p, world.DeepWater)
			case '>':
				m.Set(p, world.DownStairs)
			case '@':
				m.Set(p, world.Floor)
				from = p
			}
		}
	}
	return m, from
}

func TestTravelWalksTheShortestKnownWayRoundDeepWater(t *testing.T) {
	known, from := sketch(
		"##########",
		"#@.......#",
		"#~######.#",
		"#>.......#",
		"##########",
	)
	// Through the water the stairs are 2 steps away; round the wall 14:
	// 6 east, 2 diagonals round the end, 6 west.
	goals := Goals(known, ToStairs, from)
	if len(goals) != 1 || goals[0] != (world.Pos{X: 1, Y: 3}) {
		t.Fatalf("goals %v, want the stairs at (1,3)", goals)
	}
	step, steps, ok := Route(known, from, goals)
	if !ok || steps != 14 || step != (world.Pos{X: 1}) {
		t.Errorf("Route = %v, %d, %v; want a step east, 14 steps", step, steps, ok)
	}
	// Forget the only way round: no known way, however close the stairs.
	known.Explored[known.Index(world.Pos{X: 8, Y: 2})] = false
	known.Tiles[known.Index(world.Pos{X: 8, Y: 2})] = world.Wall // as KnownMap leaves an unseen tile
	if _, _, ok := Route(known, from, Goals(known, ToStairs, from)); ok {
		t.Error("travel found a way through a tile never seen")
	}
	// Exploring heads for the nearest tile next to it: (7,1), 6 steps.
	if step, steps, ok := Route(known, from, Goals(known, ToUnexplored, from)); !ok || steps != 6 || step != (world.Pos{X: 1}) {
		t.Errorf("explore Route = %v, %d, %v; want east, 6 steps", step, steps, ok)
	}
	if _, steps, ok := Route(known, world.Pos{X: 1, Y: 3}, Goals(known, ToStairs, world.Pos{X: 1, Y: 3})); !ok || steps != 0 {
		t.Errorf("on the stairs: %d steps, ok %v; want 0, true", steps, ok)
	}
}

func TestKnownMapHoldsOnlyWhatThePlayerHasSeen(t *testing.T) {
	g := New(7, testData)
	known := g.KnownMap()
	seen, unseen := 0, 0
	for y := range known.H {
		for x := range known.W {
			p := world.Pos{X: x, Y: y}
			switch {
			case g.Explored(p) && known.At(p) != g.Tile(p):
				t.Fatalf("%v: seen as %v, is %v", p, known.At(p), g.Tile(p))
			case g.Explored(p):
				seen++
			case known.At(p) != world.Wall:
				t.Fatalf("%v never seen but known as %v", p, known.At(p))
			default:
				unseen++
			}
		}
	}
	if seen == 0 || unseen == 0 {
		t.Errorf("%d tiles seen, %d not: a new game should have both", seen, unseen)
	}
}

// TestExploringSeesEveryTileWithinReach walks auto-explore's steps on
// levels emptied of monsters until it says there is nothing left: then
// every tile a walk from the start reaches has been seen.
func TestExploringSeesEveryTileWithinReach(t *testing.T) {
	for seed := range uint64(8) {
		g := New(seed, testData)
		g.s.Actors = g.s.Actors[:1]
		start := g.Player().Pos
		turns := 0
		for ; ; turns++ {
			step, _, ok := g.TravelStep(ToUnexplored)
			if !ok {
				break
			}
			if turns > MapWidth*MapHeight {
				t.Fatalf("seed %d: still exploring after %d turns", seed, turns)
			}
			if _, err := g.Apply(Move(step.X, step.Y)); err != nil {
				t.Fatalf("seed %d turn %d: step %v: %v", seed, turns, step, err)
			}
		}
		d := world.NewDistanceMap(MapWidth, MapHeight)
		d.Compute(g.s.Map, start, world.Unreached)
		var missed []string
		for y := range MapHeight {
			for x := range MapWidth {
				if p := (world.Pos{X: x, Y: y}); d.At(p) != world.Unreached && !g.Explored(p) {
					missed = append(missed, fmt.Sprint(p))
				}
			}
		}
		if len(missed) > 0 {
			t.Errorf("seed %d: %d reachable tiles never seen after %d turns: %s", seed, len(missed), turns, strings.Join(missed, " "))
		}
		if _, _, ok := g.TravelStep(ToStairs); !ok {
			t.Errorf("seed %d: explored everything but knows no way to the stairs", seed)
		}
	}
}

// onSketch returns a game whose level is rows (as sketch, and '=' a known
// teleport trap), with no monsters and the player at '@'.
func onSketch(t *testing.T, rows ...string) *Game {
	t.Helper()
	m, from := sketch(rows...)
	for y, row := range rows {
		for x, c := range row {
			if c == '=' {
				m.Set(world.Pos{X: x, Y: y}, world.TeleportTrap)
			}
		}
	}
	g := New(7, testData)
	g.s.Actors = g.s.Actors[:1]
	g.s.Map = m
	g.player().Pos = from
	return g
}

// TestTravelNeverCrossesAKnownTrapUnlessItIsTheGoal: the tester's x walked
// over a known teleport trap four times in 120 turns. With the
// only way on over the trap, travel and explore refuse and name the trap;
// travel to the trap's own tile goes there.
func TestTravelNeverCrossesAKnownTrapUnlessItIsTheGoal(t *testing.T) {
	g := onSketch(t,
		"#######",
		"#@.=.>#",
		"#######",
	)
	trap := world.Pos{X: 3, Y: 1}
	if step, _, ok := g.TravelStep(ToStairs); ok {
		t.Errorf("travel to the stairs steps %v: over the trap", step)
	}
	if p, ok := g.TrapInTheWay(Goals(g.KnownMap(), ToStairs, g.Player().Pos)); !ok || p != trap {
		t.Errorf("TrapInTheWay = %v, %v; want the trap at %v", p, ok, trap)
	}
	if step, steps, ok := g.RouteTo([]world.Pos{trap}); !ok || steps != 2 || step != (world.Pos{X: 1}) {
		t.Errorf("travel to the trap itself: %v, %d, %v; want east, 2 steps", step, steps, ok)
	}
	if _, _, ok := g.RouteTo([]world.Pos{{X: 4, Y: 1}}); ok {
		t.Error("travel to the tile past the trap crosses it")
	}
	// Explore: the unseen is beyond the trap only.
	g.s.Map.Explored[g.s.Map.Index(world.Pos{X: 5, Y: 1})] = false
	if step, _, ok := g.TravelStep(ToUnexplored); ok {
		t.Errorf("explore steps %v: over the trap", step)
	}
	if p, ok := g.TrapInTheWay(Goals(g.KnownMap(), ToUnexplored, g.Player().Pos)); !ok || p != trap {
		t.Errorf("explore: TrapInTheWay = %v, %v; want the trap at %v", p, ok, trap)
	}
	// A way round the trap is taken, however longer.
	g = onSketch(t,
		"#######",
		"#@.=.>#",
		"##...##",
		"#######",
	)
	if step, steps, ok := g.TravelStep(ToStairs); !ok || steps != 4 || step != (world.Pos{X: 1}) {
		t.Errorf("round the trap: %v, %d, %v; want east, 4 steps", step, steps, ok)
	}
}

// TestTravelStartsFromAKnownTrapUnderfoot: the tester stood on a known trap
// and x said "Explored everything you can reach." until
// they stepped off it by hand. Where the player stands is never a wall to
// their own walk: travel and explore go on from it.
func TestTravelStartsFromAKnownTrapUnderfoot(t *testing.T) {
	g := onSketch(t,
		"#######",
		"#.@..>#",
		"#######",
	)
	pl := g.Player().Pos
	g.s.Map.Set(pl, world.TeleportTrap)
	if step, steps, ok := g.TravelStep(ToStairs); !ok || steps != 3 || step != (world.Pos{X: 1}) {
		t.Errorf("travel from the trap underfoot: %v, %d, %v; want east, 3 steps", step, steps, ok)
	}
	g.s.Map.Explored[g.s.Map.Index(world.Pos{X: 5, Y: 1})] = false
	if step, _, ok := g.TravelStep(ToUnexplored); !ok || step != (world.Pos{X: 1}) {
		t.Errorf("explore from the trap underfoot: %v, %v; want east", step, ok)
	}
	if _, ok := g.TrapInTheWay(Goals(g.KnownMap(), ToUnexplored, pl)); ok {
		t.Error("the trap underfoot is named as in the way")
	}
}
