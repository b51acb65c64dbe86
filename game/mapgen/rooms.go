// Package mapgen builds levels. Today it has one builder, rooms and corridors
// (the python-tcod tutorial's generator); later builders chain onto the same
// Level result.
package mapgen

import (
	"math/rand/v2"

	"github.com/grotto-game/grotto/game/world"
)

// Rect is a rectangle of tiles: X, Y top-left corner, W x H tiles including
// the room's wall ring.
type Rect struct{ X, Y, W, H int }

// Center returns the tile at the middle of r.
func (r Rect) Center() world.Pos { return world.Pos{X: r.X + r.W/2, Y: r.Y + r.H/2} }

// Intersects reports whether r and o overlap, walls included.
func (r Rect) Intersects(o Rect) bool {
	return r.X <= o.X+o.W && r.X+r.W >= o.X && r.Y <= o.Y+o.H && r.Y+r.H >= o.Y
}

// Inner returns the floor area of r: r without its one-tile wall ring.
func (r Rect) Inner() Rect { return Rect{r.X + 1, r.Y + 1, r.W - 2, r.H - 2} }

// Level is a builder's result: the map, where the player starts, the down
// stairs, and the regions to spawn monsters and items in (one per room).
type Level struct {
	Map     *world.Map
	Start   world.Pos
	Exit    world.Pos
	Regions []Rect // spawn regions, floor tiles only
}

// RoomsConfig sets the rooms-and-corridors builder's numbers, in tiles.
type RoomsConfig struct {
	MaxRooms         int // attempts to place a room
	MinSize, MaxSize int // room side, walls included
}

// DefaultRooms is the python-tcod tutorial's setting: up to 30 rooms of 6 to
// 10 tiles a side.
func DefaultRooms() RoomsConfig { return RoomsConfig{MaxRooms: 30, MinSize: 6, MaxSize: 10} }

// RoomsAndCorridors carves non-overlapping rectangular rooms into a w x h map
// of rock and joins each to the previous one with an L-shaped tunnel
// (python-tcod roguelike tutorial, part 3). The player starts at the centre of
// the first room; the down stairs are at the centre of the last. Because every
// room is joined to the one before it, the whole level is connected.
func RoomsAndCorridors(rng *rand.Rand, w, h int, cfg RoomsConfig) Level {
	m := world.NewMap(w, h)
	var rooms []Rect
	for range cfg.MaxRooms {
		rw := cfg.MinSize + rng.IntN(cfg.MaxSize-cfg.MinSize+1)
		rh := cfg.MinSize + rng.IntN(cfg.MaxSize-cfg.MinSize+1)
		r := Rect{X: rng.IntN(w - rw), Y: rng.IntN(h - rh), W: rw, H: rh}
		overlaps := false
		for _, o := range rooms {
			if r.Intersects(o) {
				overlaps = true
				break
			}
		}
		if overlaps {
			continue
		}
		carveRoom(m, r.Inner())
		if len(rooms) > 0 {
			carveTunnel(m, rng, rooms[len(rooms)-1].Center(), r.Center())
		}
		rooms = append(rooms, r)
	}
	if len(rooms) == 0 { // cannot happen with sane sizes; keep the level usable anyway
		r := Rect{1, 1, min(w-2, cfg.MaxSize), min(h-2, cfg.MaxSize)}
		carveRoom(m, r.Inner())
		rooms = append(rooms, r)
	}
	lvl := Level{Map: m, Start: rooms[0].Center(), Exit: rooms[len(rooms)-1].Center()}
	if lvl.Exit == lvl.Start && len(rooms) == 1 {
		in := rooms[0].Inner()
		lvl.Exit = world.Pos{X: in.X + in.W - 1, Y: in.Y + in.H - 1}
	}
	m.Set(lvl.Exit, world.DownStairs)
	for _, r := range rooms {
		lvl.Regions = append(lvl.Regions, r.Inner())
	}
	return lvl
}

func carveRoom(m *world.Map, r Rect) {
	for y := r.Y; y < r.Y+r.H; y++ {
		for x := r.X; x < r.X+r.W; x++ {
			m.Set(world.Pos{X: x, Y: y}, world.Floor)
		}
	}
}

// carveTunnel digs an L-shaped corridor from a to b, horizontal or vertical
// leg first with even odds.
func carveTunnel(m *world.Map, rng *rand.Rand, a, b world.Pos) {
	corner := world.Pos{X: b.X, Y: a.Y}
	if rng.IntN(2) == 0 {
		corner = world.Pos{X: a.X, Y: b.Y}
	}
	carveLine(m, a, corner)
	carveLine(m, corner, b)
}

func carveLine(m *world.Map, a, b world.Pos) {
	dx, dy := sign(b.X-a.X), sign(b.Y-a.Y)
	for p := a; ; p = p.Add(dx, dy) {
		m.Set(p, world.Floor)
		if p == b {
			return
		}
	}
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}
