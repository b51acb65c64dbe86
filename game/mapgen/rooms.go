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

// RoomsAndCorridors carves non-overlapping rectangular rooms into the map and
// joins each to the previous one with an L-shaped tunnel (python-tcod
// roguelike tutorial, part 3). The player starts at the centre of the first
// room and the down stairs are at the centre of the last; every room is a
// spawn region. Because each room is joined to the one before it, the level
// is connected.
type RoomsAndCorridors struct {
	MaxRooms         int // attempts to place a room
	MinSize, MaxSize int // room side in tiles, walls included
}

// DefaultRooms is the python-tcod tutorial's setting: up to 30 rooms of 6 to
// 10 tiles a side.
func DefaultRooms() RoomsAndCorridors {
	return RoomsAndCorridors{MaxRooms: 30, MinSize: 6, MaxSize: 10}
}

// Build implements InitialBuilder.
func (c RoomsAndCorridors) Build(rng *rand.Rand, b *BuildData) {
	m := b.Map
	w, h := m.W, m.H
	var rooms []Rect
	for range c.MaxRooms {
		rw := c.MinSize + rng.IntN(c.MaxSize-c.MinSize+1)
		rh := c.MinSize + rng.IntN(c.MaxSize-c.MinSize+1)
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
		r := Rect{1, 1, min(w-2, c.MaxSize), min(h-2, c.MaxSize)}
		carveRoom(m, r.Inner())
		rooms = append(rooms, r)
	}
	b.Start, b.HasStart = rooms[0].Center(), true
	b.Exit, b.HasExit = rooms[len(rooms)-1].Center(), true
	if b.Exit == b.Start {
		in := rooms[0].Inner()
		b.Exit = world.Pos{X: in.X + in.W - 1, Y: in.Y + in.H - 1}
	}
	m.Set(b.Exit, world.DownStairs)
	b.RoomRects = rooms
	b.Regions = nil
	for _, r := range rooms {
		var region []world.Pos
		in := r.Inner()
		for y := in.Y; y < in.Y+in.H; y++ {
			for x := in.X; x < in.X+in.W; x++ {
				region = append(region, world.Pos{X: x, Y: y})
			}
		}
		b.Regions = append(b.Regions, region)
	}
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
