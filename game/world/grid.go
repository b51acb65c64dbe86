// Package world holds the level grid and the pure algorithms that run on it:
// tiles, field of view (symmetric shadowcasting) and walking-distance maps.
// Nothing here knows about actors, rules or the screen.
package world

// Pos is a tile position: X is the column, Y the row, both in tiles from the
// top-left corner of the level.
type Pos struct{ X, Y int }

// Add returns p moved by (dx, dy) tiles.
func (p Pos) Add(dx, dy int) Pos { return Pos{p.X + dx, p.Y + dy} }

// Chebyshev returns the king-move distance between p and q in tiles: the
// number of 8-way steps on an open floor.
func (p Pos) Chebyshev(q Pos) int {
	return max(abs(p.X-q.X), abs(p.Y-q.Y))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Tile is the kind of one map cell. Values are saved, so new tiles are only
// ever added at the end.
type Tile uint8

// The tiles of a level. The zero value is Wall, so a fresh map is solid rock.
const (
	Wall         Tile = iota // blocks walking and sight
	Floor                    // walkable, transparent
	DownStairs               // walkable, transparent; '>' leads one depth deeper
	Gravel                   // walkable, transparent (the caverns' loose stones)
	ShallowWater             // walkable, transparent
	DeepWater                // blocks walking, not sight
	Stalactite               // blocks walking and sight
	Stalagmite               // blocks walking and sight
	UpStairs                 // walkable, transparent; where the player came down
	// Doors, altars and traps. A hidden tile (SecretDoor,
	// Hidden*Trap) looks like its Apparent tile until searching finds it
	// or, for a trap, until it is stepped on; then it becomes its found
	// twin (Door, *Trap), so the map itself saves what the player found.
	SecretDoor         // blocks walking and sight; looks like Wall until found (then Door)
	Door               // walkable, blocks sight: a found secret door
	Altar              // walkable, transparent: a shrine's altar
	HiddenDartTrap     // walkable, transparent; looks like Floor (found: DartTrap)
	DartTrap           // walkable, transparent; a known dart trap
	HiddenPoisonTrap   // walkable, transparent; looks like Floor (found: PoisonTrap)
	PoisonTrap         // walkable, transparent; a known poison needle
	HiddenTeleportTrap // walkable, transparent; looks like Floor (found: TeleportTrap)
	TeleportTrap       // walkable, transparent; a known teleport trap
	HiddenAlarmTrap    // walkable, transparent; looks like Floor (found: AlarmTrap)
	AlarmTrap          // walkable, transparent; a known alarm trap
	tileCount
)

// Valid reports whether t is a tile this version knows (saves are checked).
func (t Tile) Valid() bool { return t < tileCount }

// Walkable reports whether an actor may stand on t.
func (t Tile) Walkable() bool {
	switch t {
	case Floor, DownStairs, Gravel, ShallowWater, UpStairs, Door, Altar,
		HiddenDartTrap, DartTrap, HiddenPoisonTrap, PoisonTrap, HiddenTeleportTrap, TeleportTrap, HiddenAlarmTrap, AlarmTrap:
		return true
	}
	return false
}

// ASCII is the tile kind's glyph in the ASCII symbol set: each kind its
// own character, as NetHack's default symbols (deep water '}', as its
// water and moat; gravel ':', as Angband's passable rubble; a stalactite
// hangs from the top of its cell, a stalagmite rises from the bottom).
func (t Tile) ASCII() rune {
	switch t {
	case Floor:
		return '.'
	case Wall:
		return '#'
	case Gravel:
		return ':'
	case ShallowWater:
		return '~'
	case DeepWater:
		return '}'
	case Stalactite:
		return '\''
	case Stalagmite:
		return '^'
	case DownStairs:
		return '>'
	case UpStairs:
		return '<'
	case Door:
		return '+'
	case Altar:
		return '_'
	case DartTrap:
		return '"'
	case PoisonTrap:
		return '&'
	case TeleportTrap:
		return '='
	case AlarmTrap:
		return '`'
	case SecretDoor, HiddenDartTrap, HiddenPoisonTrap, HiddenTeleportTrap, HiddenAlarmTrap:
		return t.Apparent().ASCII()
	}
	return '?'
}

// Apparent returns the tile as the player sees it: a hidden trap looks like
// Floor and a secret door like Wall; every other tile looks like itself.
// Whatever is drawn or told to the player (and to the bots) goes through it.
func (t Tile) Apparent() Tile {
	switch t {
	case SecretDoor:
		return Wall
	case HiddenDartTrap, HiddenPoisonTrap, HiddenTeleportTrap, HiddenAlarmTrap:
		return Floor
	}
	return t
}

// Hidden reports whether t is a secret door or a hidden trap: a tile that
// is not what it looks like.
func (t Tile) Hidden() bool { return t != t.Apparent() }

// Found returns what a hidden tile becomes once found (a secret door a Door,
// a hidden trap its known twin); any other tile is returned as it is.
func (t Tile) Found() Tile {
	switch t {
	case SecretDoor:
		return Door
	case HiddenDartTrap, HiddenPoisonTrap, HiddenTeleportTrap, HiddenAlarmTrap:
		return t + 1 // each hidden trap is followed by its known twin
	}
	return t
}

// Trap reports whether t is a trap, hidden or known.
func (t Tile) Trap() bool { return t >= HiddenDartTrap && t <= AlarmTrap }

// Transparent reports whether light and sight pass through t.
func (t Tile) Transparent() bool {
	return t != Wall && t != Stalactite && t != Stalagmite && t != SecretDoor && t != Door
}

// Map is a level's tiles and the player's memory of them: W x H tiles stored
// row-major (index y*W + x).
type Map struct {
	W, H     int
	Tiles    []Tile
	Explored []bool // tiles the player has seen at least once
}

// NewMap returns a w x h map of walls with nothing explored.
func NewMap(w, h int) *Map {
	return &Map{W: w, H: h, Tiles: make([]Tile, w*h), Explored: make([]bool, w*h)}
}

// In reports whether p lies inside the map.
func (m *Map) In(p Pos) bool { return p.X >= 0 && p.Y >= 0 && p.X < m.W && p.Y < m.H }

// Index returns the row-major index of p; p must be In the map.
func (m *Map) Index(p Pos) int { return p.Y*m.W + p.X }

// At returns the tile at p, or Wall outside the map.
func (m *Map) At(p Pos) Tile {
	if !m.In(p) {
		return Wall
	}
	return m.Tiles[m.Index(p)]
}

// Set puts t at p; positions outside the map are ignored.
func (m *Map) Set(p Pos, t Tile) {
	if m.In(p) {
		m.Tiles[m.Index(p)] = t
	}
}

// Blocks reports whether p blocks sight (walls and everything outside the map).
func (m *Map) Blocks(p Pos) bool { return !m.At(p).Transparent() }

// Directions8 are the eight king moves in a fixed order (N, S, W, E, NW, NE,
// SW, SE): iterating them in this order keeps every choice deterministic.
var Directions8 = [8]Pos{{0, -1}, {0, 1}, {-1, 0}, {1, 0}, {-1, -1}, {1, -1}, {-1, 1}, {1, 1}}

// Line returns the tiles of a straight line from a to b (Bresenham), a
// excluded and b included: the path a thrown item flies.
func Line(a, b Pos) []Pos {
	dx, dy := abs(b.X-a.X), -abs(b.Y-a.Y)
	sx, sy := 1, 1
	if a.X > b.X {
		sx = -1
	}
	if a.Y > b.Y {
		sy = -1
	}
	var out []Pos
	err := dx + dy
	for p := a; p != b; {
		e2 := 2 * err
		if e2 >= dy {
			err += dy
			p.X += sx
		}
		if e2 <= dx {
			err += dx
			p.Y += sy
		}
		out = append(out, p)
	}
	return out
}
