package mapgen

// This file is the special rooms: a vault behind a secret
// door, a trapped treasure room, a monster den and a shrine, placed by the
// SpecialRooms meta builder on some levels (rooms and corridors and caves
// alike), and the loose hidden traps of ScatterTraps. The builders only
// shape the map and say what they placed (Level.Rooms); the game fills the
// rooms with items and monsters (game/special.go).

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/world"
)

// RoomKind is the kind of a special room.
type RoomKind uint8

// The special rooms. Borrowed from NetHack's vaults and special rooms and
// Brogue's reward rooms ("altar" choices: take one, the rest vanish).
const (
	Vault        RoomKind = iota + 1 // closed rock round a small room, one secret door in its wall; good items
	TreasureRoom                     // items on a floor with hidden traps
	Den                              // several monsters crowded together, and loot
	Shrine                           // two or three altars, each with an item: taking one makes the others vanish
)

// RoomKinds lists every kind of special room, in a fixed order.
var RoomKinds = []RoomKind{Vault, TreasureRoom, Den, Shrine}

// String names a room kind in lower case ("treasure room"), as saves and
// reports write it.
func (k RoomKind) String() string {
	switch k {
	case Vault:
		return "vault"
	case TreasureRoom:
		return "treasure room"
	case Den:
		return "den"
	case Shrine:
		return "shrine"
	}
	return "room"
}

// Room is a special room as built: its kind, its rectangle (walls
// included), the secret door of a vault, and its spots: the tiles the game
// fills (a vault's and a treasure room's free floor, a den's walkable tiles,
// a shrine's altars).
type Room struct {
	Kind  RoomKind
	Rect  Rect
	Door  world.Pos // a vault's secret door; zero for other kinds
	Spots []world.Pos
}

// SpecialRooms places special rooms on some levels, from the level's RNG:
// none on 40% of levels, one on 40%, two on 20%, of different kinds (no
// den on depth 1). A vault is carved into solid rock next to the level
// with a secret door as its only way in; the other kinds take a room of a
// rooms-and-corridors level, or a stretch of cave, away from the start and
// the exit. A kind that finds no place is left out.
type SpecialRooms struct {
	Depth int // the level's depth, 1 for the first
}

// Apply implements MetaBuilder.
func (s SpecialRooms) Apply(rng *rand.Rand, b *BuildData) {
	if !b.HasStart {
		return
	}
	n := 0
	switch roll := rng.IntN(100); {
	case roll >= 80:
		n = 2
	case roll >= 40:
		n = 1
	}
	kinds := append([]RoomKind(nil), RoomKinds...)
	rng.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	for _, k := range kinds {
		if n == 0 {
			break
		}
		if k == Den && s.Depth <= 1 {
			continue
		}
		var ok bool
		if k == Vault {
			ok = placeVault(rng, b)
		} else {
			ok = placeRoom(rng, b, k)
		}
		if ok {
			n--
		}
	}
}

// placeVault looks for a rectangle of rock (inner 3..5 x 3 tiles) whose
// wall ring touches, through one non-corner tile, a walkable tile outside
// that the start reaches; it carves the inside to floor, makes the ring
// wall and that tile a SecretDoor. 60 tries.
func placeVault(rng *rand.Rand, b *BuildData) bool {
	m := b.Map
	d := distances(b)
	for range 60 {
		r := Rect{W: 5 + rng.IntN(3), H: 5}
		r.X, r.Y = 1+rng.IntN(m.W-r.W-2), 1+rng.IntN(m.H-r.H-2)
		if !allRock(m, r) || overlapsRooms(b, r) {
			continue
		}
		var doors []world.Pos
		ring(r, func(p world.Pos, corner bool) {
			if corner {
				return
			}
			for _, dir := range [4]world.Pos{{X: -1}, {X: 1}, {Y: -1}, {Y: 1}} {
				q := p.Add(dir.X, dir.Y)
				if !inside(r, q) && m.At(q).Walkable() && d.At(q) != world.Unreached {
					doors = append(doors, p)
					return
				}
			}
		})
		if len(doors) == 0 {
			continue
		}
		ring(r, func(p world.Pos, _ bool) { m.Set(p, world.Wall) })
		door := doors[rng.IntN(len(doors))]
		m.Set(door, world.SecretDoor)
		in := r.Inner()
		var spots []world.Pos
		for y := in.Y; y < in.Y+in.H; y++ {
			for x := in.X; x < in.X+in.W; x++ {
				p := world.Pos{X: x, Y: y}
				m.Set(p, world.Floor)
				spots = append(spots, p)
			}
		}
		b.Rooms = append(b.Rooms, Room{Kind: Vault, Rect: r, Door: door, Spots: spots})
		return true
	}
	return false
}

// placeRoom turns a place of the level into a special room of kind k: on
// a rooms-and-corridors level one of its rooms (not the first or the
// last), in a cave a 9 x 7 stretch with at least 15 walkable tiles; never
// one holding the start or the exit. A treasure room gets 2..4 hidden
// traps on its floor; a shrine 2 or 3 altars.
func placeRoom(rng *rand.Rand, b *BuildData, k RoomKind) bool {
	m := b.Map
	for range 40 {
		var r Rect
		if len(b.RoomRects) > 2 {
			r = b.RoomRects[1+rng.IntN(len(b.RoomRects)-2)]
		} else {
			r = Rect{W: 9, H: 7}
			r.X, r.Y = rng.IntN(m.W-r.W), rng.IntN(m.H-r.H)
		}
		if overlapsRooms(b, r) || inside(r, b.Start) || (b.HasExit && inside(r, b.Exit)) {
			continue
		}
		floor, walk := floorIn(m, r)
		if len(floor) < 12 || len(walk) < 15 {
			continue
		}
		room := Room{Kind: k, Rect: r}
		switch k {
		case TreasureRoom:
			rng.Shuffle(len(floor), func(i, j int) { floor[i], floor[j] = floor[j], floor[i] })
			traps := 2 + rng.IntN(3)
			for _, p := range floor[:traps] {
				m.Set(p, hiddenTraps[rng.IntN(len(hiddenTraps))])
			}
			room.Spots = append([]world.Pos(nil), floor[traps:]...)
		case Shrine:
			c := r.Center()
			for _, dx := range []int{-2, 0, 2} {
				if p := c.Add(dx, 0); m.At(p) == world.Floor {
					m.Set(p, world.Altar)
					room.Spots = append(room.Spots, p)
				}
			}
			if len(room.Spots) < 2 {
				for _, p := range room.Spots {
					m.Set(p, world.Floor)
				}
				continue
			}
		default:
			room.Spots = walk
		}
		b.Rooms = append(b.Rooms, room)
		return true
	}
	return false
}

// floorIn returns the tiles inside r's walls that are plain floor, and
// those that are walkable (floor among them), row-major.
func floorIn(m *world.Map, r Rect) (floor, walk []world.Pos) {
	in := r.Inner()
	for y := in.Y; y < in.Y+in.H; y++ {
		for x := in.X; x < in.X+in.W; x++ {
			p := world.Pos{X: x, Y: y}
			switch t := m.At(p); {
			case t == world.Floor:
				floor = append(floor, p)
				walk = append(walk, p)
			case t.Walkable():
				walk = append(walk, p)
			}
		}
	}
	return floor, walk
}

// hiddenTraps are the kinds of hidden trap, drawn evenly.
var hiddenTraps = []world.Tile{world.HiddenDartTrap, world.HiddenPoisonTrap, world.HiddenTeleportTrap, world.HiddenAlarmTrap}

// ScatterTraps hides 0..2 traps (evenly) of a random kind on plain floor
// anywhere on the level below depth 1, never on or next to the start, nor
// on the exit or in a special room.
type ScatterTraps struct {
	Depth int // the level's depth
}

// Apply implements MetaBuilder.
func (s ScatterTraps) Apply(rng *rand.Rand, b *BuildData) {
	if s.Depth <= 1 || !b.HasStart {
		return
	}
	m := b.Map
	for range rng.IntN(3) {
		for range 20 {
			p := world.Pos{X: rng.IntN(m.W), Y: rng.IntN(m.H)}
			if m.At(p) != world.Floor || p.Chebyshev(b.Start) <= 1 || inAnyRoom(b, p) {
				continue
			}
			m.Set(p, hiddenTraps[rng.IntN(len(hiddenTraps))])
			break
		}
	}
}

// allRock reports whether no tile of r is walkable: carving inside r's
// wall ring then joins nothing.
func allRock(m *world.Map, r Rect) bool {
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			p := world.Pos{X: x, Y: y}
			if !m.In(p) || m.At(p).Walkable() || m.At(p) == world.SecretDoor {
				return false
			}
		}
	}
	return true
}

// ring calls f for each tile of r's wall ring, row-major, saying whether
// it is a corner.
func ring(r Rect, f func(p world.Pos, corner bool)) {
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			xe, ye := x == r.X || x == r.X+r.W-1, y == r.Y || y == r.Y+r.H-1
			if xe || ye {
				f(world.Pos{X: x, Y: y}, xe && ye)
			}
		}
	}
}

// inside reports whether p lies in r, walls included.
func inside(r Rect, p world.Pos) bool {
	return p.X >= r.X && p.Y >= r.Y && p.X < r.X+r.W && p.Y < r.Y+r.H
}

func overlapsRooms(b *BuildData, r Rect) bool {
	for _, o := range b.Rooms {
		if r.Intersects(o.Rect) {
			return true
		}
	}
	return false
}

func inAnyRoom(b *BuildData, p world.Pos) bool {
	for _, o := range b.Rooms {
		if inside(o.Rect, p) {
			return true
		}
	}
	return false
}
