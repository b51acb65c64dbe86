package bot

// This file is how a bot finds its way: breadth-first search over the tiles
// the player has explored, never through an unknown one.

import (
	"github.com/grotto-game/grotto/game/world"
)

// walkable reports whether the player knows p to be walkable.
func (v *View) walkable(p world.Pos) bool {
	t := v.Tile(p)
	return t != Unknown && t.Walkable()
}

// Route returns the first step (dx, dy) of a shortest walk over explored
// walkable tiles from the player to the nearest tile where goal is true, and
// that walk's length in steps; ok is false when no known tile satisfies goal
// within limit steps. Monsters do not block the search (stepping into one is
// an attack); the player's own tile counts (length 0, step 0, 0).
//
// Known traps are walked round when a walk without them exists,
// as the game's own travel does.
func (v *View) Route(goal func(world.Pos) bool, limit int) (dx, dy, steps int, ok bool) {
	if dx, dy, steps, ok := v.route(goal, limit, false); ok {
		return dx, dy, steps, ok
	}
	return v.route(goal, limit, true)
}

// route is Route, across known traps or not.
func (v *View) route(goal func(world.Pos) bool, limit int, traps bool) (dx, dy, steps int, ok bool) {
	start := v.Player().Pos
	if goal(start) {
		return 0, 0, 0, true
	}
	for i := range v.dist {
		v.dist[i] = -1
	}
	w := v.w
	si := start.Y*w + start.X
	v.dist[si] = 0
	v.first[si] = -1
	v.queue = append(v.queue[:0], int32(si))
	for head := 0; head < len(v.queue); head++ {
		ci := int(v.queue[head])
		cx, cy := ci%w, ci/w
		if int(v.dist[ci]) >= limit {
			break
		}
		for d, dir := range world.Directions8 {
			n := world.Pos{X: cx + dir.X, Y: cy + dir.Y}
			if n.X < 0 || n.Y < 0 || n.X >= v.w || n.Y >= v.h {
				continue
			}
			ni := n.Y*w + n.X
			if v.dist[ni] >= 0 || !v.walkable(n) || !traps && v.Tile(n).Trap() {
				continue
			}
			v.dist[ni] = v.dist[ci] + 1
			if ci == si {
				v.first[ni] = int8(d)
			} else {
				v.first[ni] = v.first[ci]
			}
			if goal(n) {
				s := world.Directions8[v.first[ni]]
				return s.X, s.Y, int(v.dist[ni]), true
			}
			v.queue = append(v.queue, int32(ni))
		}
	}
	return 0, 0, 0, false
}

// Frontier reports whether p is a known walkable tile next to one the player
// has never seen: where exploring goes next.
func (v *View) Frontier(p world.Pos) bool {
	if !v.walkable(p) {
		return false
	}
	for _, d := range world.Directions8 {
		n := p.Add(d.X, d.Y)
		if n.X >= 0 && n.Y >= 0 && n.X < v.w && n.Y < v.h && v.Tile(n) == Unknown {
			return true
		}
	}
	return false
}

// noLimit is a search limit larger than any level.
const noLimit = 1 << 30
