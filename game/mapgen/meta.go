package mapgen

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/world"
)

// XStart and YStart name where an AreaStartingPosition looks for the start.
type (
	XStart uint8
	YStart uint8
)

// The anchors of AreaStartingPosition.
const (
	XLeft XStart = iota
	XCenter
	XRight
)

// The anchors of AreaStartingPosition.
const (
	YTop YStart = iota
	YCenter
	YBottom
)

// AreaStartingPosition moves the start to the walkable tile nearest
// (Euclidean) to an anchor: left/centre/right × top/centre/bottom, one tile
// in from the edge. Ties go to the first tile in row-major order.
type AreaStartingPosition struct {
	X XStart
	Y YStart
}

// Apply implements MetaBuilder.
func (a AreaStartingPosition) Apply(_ *rand.Rand, b *BuildData) {
	m := b.Map
	anchor := world.Pos{X: [...]int{1, m.W / 2, m.W - 2}[a.X], Y: [...]int{1, m.H / 2, m.H - 2}[a.Y]}
	best := -1
	forEach(m, func(p world.Pos) {
		if !m.At(p).Walkable() {
			return
		}
		dx, dy := p.X-anchor.X, p.Y-anchor.Y
		if d := dx*dx + dy*dy; best < 0 || d < best {
			best, b.Start = d, p
		}
	})
	b.HasStart = best >= 0
}

// CullUnreachable turns every walkable tile that cannot be walked to from the
// start into rock, and drops such tiles from the spawn regions. A start that
// stands in a pocket holding less than half the walkable tiles is first moved
// into the largest connected area, so that culling never leaves a closet.
type CullUnreachable struct{}

// Apply implements MetaBuilder.
func (CullUnreachable) Apply(_ *rand.Rand, b *BuildData) {
	if !b.HasStart {
		return
	}
	moveIntoLargestArea(b)
	d := distances(b)
	forEach(b.Map, func(p world.Pos) {
		if b.Map.At(p).Walkable() && d.At(p) == world.Unreached {
			b.Map.Set(p, world.Wall)
		}
	})
	kept := b.Regions[:0]
	for _, r := range b.Regions {
		var in []world.Pos
		for _, p := range r {
			if b.Map.At(p).Walkable() {
				in = append(in, p)
			}
		}
		if len(in) > 0 {
			kept = append(kept, in)
		}
	}
	b.Regions = kept
}

// VoronoiSpawning splits the walkable tiles into spawn regions: Seeds random
// points, and each tile belongs to the nearest (Euclidean; ties to the first
// seed). Monsters and items are then placed per region, as rooms would be.
type VoronoiSpawning struct {
	Seeds int // number of regions to aim for; 0 means 16
}

// Apply implements MetaBuilder.
func (v VoronoiSpawning) Apply(rng *rand.Rand, b *BuildData) {
	m := b.Map
	n := v.Seeds
	if n <= 0 {
		n = 16
	}
	seeds := make([]world.Pos, n)
	for i := range seeds {
		seeds[i] = world.Pos{X: rng.IntN(m.W), Y: rng.IntN(m.H)}
	}
	groups := make([][]world.Pos, n)
	forEach(m, func(p world.Pos) {
		if !m.At(p).Walkable() {
			return
		}
		best, bestD := 0, -1
		for i, s := range seeds {
			dx, dy := p.X-s.X, p.Y-s.Y
			if d := dx*dx + dy*dy; bestD < 0 || d < bestD {
				best, bestD = i, d
			}
		}
		groups[best] = append(groups[best], p)
	})
	b.Regions = b.Regions[:0]
	for _, g := range groups {
		if len(g) > 0 {
			b.Regions = append(b.Regions, g)
		}
	}
}

// DistantExit puts the down stairs on the reachable tile farthest from the
// start by walking distance (ties: first in row-major order).
type DistantExit struct{}

// Apply implements MetaBuilder.
func (DistantExit) Apply(_ *rand.Rand, b *BuildData) {
	if !b.HasStart {
		return
	}
	if b.HasExit && b.Map.At(b.Exit) == world.DownStairs {
		b.Map.Set(b.Exit, world.Floor) // one exit per level
	}
	d := distances(b)
	far := int32(-1)
	forEach(b.Map, func(p world.Pos) {
		if b.Map.At(p).Walkable() && d.At(p) != world.Unreached && d.At(p) > far {
			far, b.Exit = d.At(p), p
		}
	})
	if far > 0 {
		b.Map.Set(b.Exit, world.DownStairs)
		b.HasExit = true
	}
}

// CaveDecorator dresses a cave (bracket-lib tutorial, "The Limestone
// Caverns"), deciding each tile from the map as it was before decoration:
// floor becomes gravel on 1 in 6, else shallow water on 1 in 10; a wall with
// exactly 2 wall neighbours (of its 4 orthogonal ones; beyond the map edge
// is rock) becomes deep water; with exactly 1, a stalactite on 1 in 4, else a
// stalagmite on 1 in 4. Stairs and the start are left alone.
type CaveDecorator struct{}

// Apply implements MetaBuilder.
func (CaveDecorator) Apply(rng *rand.Rand, b *BuildData) {
	old := &world.Map{W: b.Map.W, H: b.Map.H, Tiles: append([]world.Tile(nil), b.Map.Tiles...)}
	forEach(old, func(p world.Pos) {
		switch old.At(p) {
		case world.Floor:
			if b.HasStart && p == b.Start {
				return
			}
			if rng.IntN(6) == 0 {
				b.Map.Set(p, world.Gravel)
			} else if rng.IntN(10) == 0 {
				b.Map.Set(p, world.ShallowWater)
			}
		case world.Wall:
			switch WallNeighbours(old, p) {
			case 2:
				b.Map.Set(p, world.DeepWater)
			case 1:
				switch rng.IntN(4) {
				case 0:
					b.Map.Set(p, world.Stalactite)
				case 1:
					b.Map.Set(p, world.Stalagmite)
				}
			}
		}
	})
}

// WallNeighbours counts the walls among p's four orthogonal neighbours; a
// neighbour beyond the map edge counts as wall, so the rock frame round a
// level stays rock.
func WallNeighbours(m *world.Map, p world.Pos) int {
	n := 0
	for _, d := range [4]world.Pos{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}} {
		if m.At(p.Add(d.X, d.Y)) == world.Wall {
			n++
		}
	}
	return n
}

// Dark makes a level lit only by light sources (torches, glowing monsters),
// like the caverns; other levels are lit everywhere the player can see.
type Dark struct{}

// Apply implements MetaBuilder.
func (Dark) Apply(_ *rand.Rand, b *BuildData) { b.Outdoors = false }

// UpStairsAtStart marks the start with up stairs: where the player came down.
type UpStairsAtStart struct{}

// Apply implements MetaBuilder.
func (UpStairsAtStart) Apply(_ *rand.Rand, b *BuildData) {
	if b.HasStart && b.Map.At(b.Start).Walkable() && b.Map.At(b.Start) != world.DownStairs {
		b.Map.Set(b.Start, world.UpStairs)
	}
}

// moveIntoLargestArea moves the start to the first tile (row-major) of the
// largest connected walkable area when the start's own area is smaller than
// half of all walkable tiles.
func moveIntoLargestArea(b *BuildData) {
	m := b.Map
	walkable, reached := 0, 0
	d := distances(b)
	forEach(m, func(p world.Pos) {
		if m.At(p).Walkable() {
			walkable++
			if d.At(p) != world.Unreached {
				reached++
			}
		}
	})
	if 2*reached >= walkable {
		return
	}
	seen := make([]bool, m.W*m.H)
	bestSize := 0
	forEach(m, func(p world.Pos) {
		if !m.At(p).Walkable() || seen[m.Index(p)] {
			return
		}
		d := world.NewDistanceMap(m.W, m.H)
		d.Compute(m, p, world.Unreached)
		size := 0
		forEach(m, func(q world.Pos) {
			if d.At(q) != world.Unreached && m.At(q).Walkable() {
				seen[m.Index(q)] = true
				size++
			}
		})
		if size > bestSize {
			bestSize, b.Start = size, p
		}
	})
}
