package game

// This file is the pathing of travel and auto-explore: where the next step
// of a trip goes, worked out from what the player knows of the level only
// (the tiles they have explored), with the distance maps of game/world
// (Dijkstra maps, as the tutorials' and Brogue's monsters and travel use
// them). It reads the game and changes nothing: the UI sends each step as an
// ordinary Move command, so a trip is journaled turn by turn.

import (
	"slices"

	"github.com/grotto-game/grotto/game/world"
)

// Destination is where a trip goes.
type Destination uint8

// The destinations of a trip.
const (
	// ToStairs is the nearest down stairs the player has seen (travel: `_`,
	// or `>` off the stairs).
	ToStairs Destination = iota + 1
	// ToUnexplored is the nearest explored tile that borders a tile never
	// seen (auto-explore: `x`); standing there shows what lies beyond.
	ToUnexplored
)

// KnownMap returns the level as the player knows it: explored tiles as
// they are, every other tile as Wall (unknown, so never walked through);
// Explored is copied too. Known deep water and pillars block as they do on
// the level itself.
func (g *Game) KnownMap() *world.Map {
	m := g.s.Map
	k := world.NewMap(m.W, m.H)
	copy(k.Explored, m.Explored)
	for i, seen := range m.Explored {
		if seen {
			k.Tiles[i] = m.Tiles[i].Apparent() // a hidden trap or door is not known

		}
	}
	return k
}

// Goals returns the tiles of known that a trip to dest ends on, row-major:
// the explored down stairs for ToStairs; for ToUnexplored, the explored
// walkable tiles next to a tile of the level never seen, except from,
// where the player stands (all round them is in view, so what remains
// unseen there cannot be seen from it) and known traps (explore never
// steps on one).
func Goals(known *world.Map, dest Destination, from world.Pos) []world.Pos {
	var out []world.Pos
	for y := range known.H {
		for x := range known.W {
			p := world.Pos{X: x, Y: y}
			i := known.Index(p)
			if !known.Explored[i] {
				continue
			}
			switch dest {
			case ToStairs:
				if known.Tiles[i] == world.DownStairs {
					out = append(out, p)
				}
			case ToUnexplored:
				if p != from && known.Tiles[i].Walkable() && !known.Tiles[i].Trap() && bordersUnknown(known, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// bordersUnknown reports whether one of p's eight neighbours on the level
// was never seen.
func bordersUnknown(known *world.Map, p world.Pos) bool {
	for _, d := range world.Directions8 {
		if q := p.Add(d.X, d.Y); known.In(q) && !known.Explored[known.Index(q)] {
			return true
		}
	}
	return false
}

// Route returns the first step (each of X, Y in -1..1) of a shortest walk
// over known's walkable tiles from from to the nearest of goals, and that
// walk's length in steps (turns: one step a turn, diagonals included). ok
// is false when no goal can be reached; steps is 0, with no step, when from
// is a goal. Among equally short walks the step is the first of
// world.Directions8 that starts one, so the same knowledge always gives the
// same step.
func Route(known *world.Map, from world.Pos, goals []world.Pos) (step world.Pos, steps int, ok bool) {
	d := world.NewDistanceMap(known.W, known.H)
	d.ComputeGoals(known, goals, world.Unreached)
	here := d.At(from)
	if here == world.Unreached {
		return world.Pos{}, 0, false
	}
	if here == 0 {
		return world.Pos{}, 0, true
	}
	for _, dir := range world.Directions8 {
		if d.At(from.Add(dir.X, dir.Y)) == here-1 {
			return dir, int(here), true
		}
	}
	return world.Pos{}, 0, false // unreachable: a distance above 0 has a neighbour one nearer
}

// TravelStep is Route from the player over what they know to dest: the
// step to send as a Move command, the turns left, and whether dest is
// known and reachable at all, never over a known trap (RouteTo).
func (g *Game) TravelStep(dest Destination) (step world.Pos, steps int, ok bool) {
	return g.RouteTo(Goals(g.KnownMap(), dest, g.player().Pos))
}

// RouteTo is Route from the player over what they know to the nearest of
// goals, with every known trap a wall unless it is one of goals (a
// tester's explore walked over a known teleport trap four times in 120
// turns). ok is false when no goal can be reached that way; TrapInTheWay
// then tells whether a walk over a trap would.
func (g *Game) RouteTo(goals []world.Pos) (step world.Pos, steps int, ok bool) {
	return Route(g.safeMap(goals), g.player().Pos, goals)
}

// safeMap is KnownMap with each known trap not among goals a wall, except
// the one the player stands on: a walk may always start from underfoot
// (a tester's x on a trap said "Explored everything").
func (g *Game) safeMap(goals []world.Pos) *world.Map {
	known := g.KnownMap()
	pl := g.player().Pos
	for i, t := range known.Tiles {
		if p := (world.Pos{X: i % known.W, Y: i / known.W}); t.Trap() && p != pl && !slices.Contains(goals, p) {
			known.Tiles[i] = world.Wall
		}
	}
	return known
}

// TrapInTheWay returns the first known trap on a shortest walk over what
// the player knows, traps included, to the nearest of goals, when RouteTo
// finds no walk without one: the trap that auto-movement will not cross
// (the player may step on it themself). ok is false when RouteTo has a way
// or there is none even over traps.
func (g *Game) TrapInTheWay(goals []world.Pos) (trap world.Pos, ok bool) {
	if _, _, safe := g.RouteTo(goals); safe {
		return world.Pos{}, false
	}
	known := g.KnownMap()
	d := world.NewDistanceMap(known.W, known.H)
	d.ComputeGoals(known, goals, world.Unreached)
	p := g.player().Pos
	for here := d.At(p); here != world.Unreached && here > 0; here = d.At(p) {
		for _, dir := range world.Directions8 { // the step Route takes
			if q := p.Add(dir.X, dir.Y); d.At(q) == here-1 {
				p = q
				break
			}
		}
		if known.At(p).Trap() {
			return p, true
		}
	}
	return world.Pos{}, false
}
