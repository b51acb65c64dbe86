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
// unseen there cannot be seen from it).
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
				if p != from && known.Tiles[i].Walkable() && bordersUnknown(known, p) {
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
// known and reachable at all.
//
// Known traps are walked round (issue 21): the walk is first sought with
// them as walls, and only if none exists across them, as Brogue's travel
// does.
func (g *Game) TravelStep(dest Destination) (step world.Pos, steps int, ok bool) {
	known := g.KnownMap()
	from := g.player().Pos
	goals := Goals(known, dest, from)
	safe := &world.Map{W: known.W, H: known.H, Tiles: slices.Clone(known.Tiles), Explored: known.Explored}
	for i, t := range safe.Tiles {
		if t.Trap() {
			safe.Tiles[i] = world.Wall
		}
	}
	if step, steps, ok := Route(safe, from, slices.DeleteFunc(slices.Clone(goals), func(p world.Pos) bool { return known.At(p).Trap() })); ok {
		return step, steps, true
	}
	return Route(known, from, goals)
}
