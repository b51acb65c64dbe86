package mapgen

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/world"
)

// SpawnMode says where each drunkard of a DrunkardsWalk starts.
type SpawnMode uint8

// Where drunkards start digging.
const (
	FromStart  SpawnMode = iota // every drunkard starts at the map's centre
	FromRandom                  // the first at the centre, the rest anywhere
)

// DrunkardsWalk digs a cave with random walkers (bracket-lib tutorial, "Drunkard's
// Walk"): each drunkard staggers one tile at a time in a random cardinal
// direction for Lifetime steps, turning rock into floor, until FloorPercent
// of the map is floor. The start is the map's centre.
type DrunkardsWalk struct {
	Spawn        SpawnMode
	Lifetime     int     // steps per drunkard
	FloorPercent float64 // fraction of the map to dig, 0..1
}

// WindingPassages is the preset the limestone caverns use: many short-lived
// drunkards from random places, 40% floor.
func WindingPassages() DrunkardsWalk {
	return DrunkardsWalk{Spawn: FromRandom, Lifetime: 100, FloorPercent: 0.4}
}

// OpenArea is the preset for a wide open cave: long-lived drunkards all from
// the centre, 50% floor.
func OpenArea() DrunkardsWalk {
	return DrunkardsWalk{Spawn: FromStart, Lifetime: 400, FloorPercent: 0.5}
}

// Build implements InitialBuilder.
func (d DrunkardsWalk) Build(rng *rand.Rand, b *BuildData) {
	m := b.Map
	start := world.Pos{X: m.W / 2, Y: m.H / 2}
	b.Start, b.HasStart = start, true
	m.Set(start, world.Floor)
	want := int(d.FloorPercent * float64(m.W*m.H))
	floors := 1
	for diggers := 0; floors < want; diggers++ {
		p := start
		if d.Spawn == FromRandom && diggers > 0 {
			p = world.Pos{X: 1 + rng.IntN(m.W-2), Y: 1 + rng.IntN(m.H-2)}
		}
		for range d.Lifetime {
			if m.At(p) != world.Floor {
				m.Set(p, world.Floor)
				floors++
			}
			// Stagger, keeping a ring of rock round the map.
			switch rng.IntN(4) {
			case 0:
				if p.X > 1 {
					p.X--
				}
			case 1:
				if p.X < m.W-2 {
					p.X++
				}
			case 2:
				if p.Y > 1 {
					p.Y--
				}
			default:
				if p.Y < m.H-2 {
					p.Y++
				}
			}
		}
	}
}

// CellularAutomata grows natural caves (bracket-lib tutorial, "Cellular
// Automata"): 55% random rock, then 15 rounds in which a tile becomes rock
// when more than 4 of its 8 neighbours are rock, or none are. The start is
// the floor tile nearest the map's centre, searching left.
type CellularAutomata struct{}

// Build implements InitialBuilder.
func (CellularAutomata) Build(rng *rand.Rand, b *BuildData) {
	m := b.Map
	for y := 1; y < m.H-1; y++ {
		for x := 1; x < m.W-1; x++ {
			if rng.IntN(100) >= 55 {
				m.Set(world.Pos{X: x, Y: y}, world.Floor)
			}
		}
	}
	next := make([]world.Tile, len(m.Tiles))
	w := m.W
	neighbours := [8]int{-w - 1, -w, -w + 1, -1, 1, w - 1, w, w + 1} // interior tiles only
	for range 15 {
		copy(next, m.Tiles)
		for y := 1; y < m.H-1; y++ {
			for x := 1; x < m.W-1; x++ {
				i, walls := y*w+x, 0
				for _, o := range neighbours {
					if m.Tiles[i+o] == world.Wall {
						walls++
					}
				}
				t := world.Floor
				if walls > 4 || walls == 0 {
					t = world.Wall
				}
				next[i] = t
			}
		}
		m.Tiles, next = next, m.Tiles
	}
	start := world.Pos{X: m.W / 2, Y: m.H / 2}
	for start.X > 0 && m.At(start) != world.Floor {
		start.X--
	}
	if m.At(start) == world.Floor {
		b.Start, b.HasStart = start, true
	}
}
