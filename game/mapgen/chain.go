// Package mapgen builds levels by chaining builders, as in the bracket-lib
// roguelike tutorial ("The Limestone Caverns" and the map-builder chapters):
// one initial builder makes a map, then meta builders edit what it made
// (StartWith(initial).With(meta)...). Every builder draws only from the
// *rand.Rand it is given, so a level is a function of the game's RNG.
package mapgen

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/world"
)

// BuildData is what every builder sees and edits: the map, the start, the
// exit and the spawn regions.
type BuildData struct {
	Map      *world.Map
	Start    world.Pos
	HasStart bool
	Exit     world.Pos // the down stairs, once placed
	HasExit  bool
	Regions  [][]world.Pos // spawn regions: lists of walkable tiles
	Name     string        // what the level is called, e.g. "Limestone Caverns"
	Outdoors bool          // lit by daylight; false means only light sources light it
	// RoomRects are the rooms of a rooms-and-corridors level, walls
	// included, in the order carved; nil for caves.
	RoomRects []Rect
	Rooms     []Room // the special rooms placed (special.go)
}

// InitialBuilder makes a map from nothing.
type InitialBuilder interface {
	Build(rng *rand.Rand, b *BuildData)
}

// MetaBuilder edits what the builders before it made.
type MetaBuilder interface {
	Apply(rng *rand.Rand, b *BuildData)
}

// Chain is an initial builder followed by meta builders.
type Chain struct {
	name    string
	initial InitialBuilder
	metas   []MetaBuilder
}

// StartWith begins a chain with its initial builder.
func StartWith(name string, initial InitialBuilder) *Chain {
	return &Chain{name: name, initial: initial}
}

// With appends a meta builder and returns the chain.
func (c *Chain) With(m MetaBuilder) *Chain {
	c.metas = append(c.metas, m)
	return c
}

// Level is a finished level: a map with a start, an exit and spawn regions.
type Level struct {
	Map      *world.Map
	Start    world.Pos
	Exit     world.Pos
	Regions  [][]world.Pos
	Name     string
	Outdoors bool
	Rooms    []Room // the special rooms placed, in the order placed
}

// Build runs the chain on a w x h map of rock. Whatever the builders left
// undone is finished so that a level is always playable: a start on a
// walkable tile, unreachable tiles culled, an exit at the farthest reachable
// tile, and one spawn region of every reachable tile.
func (c *Chain) Build(rng *rand.Rand, w, h int) Level {
	b := &BuildData{Map: world.NewMap(w, h), Name: c.name, Outdoors: true}
	c.initial.Build(rng, b)
	for _, m := range c.metas {
		m.Apply(rng, b)
	}
	if !b.HasStart {
		AreaStartingPosition{XCenter, YCenter}.Apply(rng, b)
	}
	if !b.HasExit {
		CullUnreachable{}.Apply(rng, b)
		DistantExit{}.Apply(rng, b)
	}
	if len(b.Regions) == 0 {
		var all []world.Pos
		forEach(b.Map, func(p world.Pos) {
			if b.Map.At(p).Walkable() {
				all = append(all, p)
			}
		})
		b.Regions = [][]world.Pos{all}
	}
	return Level{Map: b.Map, Start: b.Start, Exit: b.Exit, Regions: b.Regions, Name: b.Name, Outdoors: b.Outdoors, Rooms: b.Rooms}
}

// forEach calls f for every tile of m in row-major order.
func forEach(m *world.Map, f func(world.Pos)) {
	for y := range m.H {
		for x := range m.W {
			f(world.Pos{X: x, Y: y})
		}
	}
}

// distances returns walking distances from b's start over b's map.
func distances(b *BuildData) *world.DistanceMap {
	d := world.NewDistanceMap(b.Map.W, b.Map.H)
	d.Compute(b.Map, b.Start, world.Unreached)
	return d
}
