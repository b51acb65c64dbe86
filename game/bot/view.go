package bot

// This file is what a bot may know: the player's view of a game (explored
// tiles, what is in sight now, the pack, the log) and its own memory of the
// items it has seen. A policy receives a *View, never the *game.Game, so it
// cannot read hidden state by accident.

import (
	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// Unknown is the tile a View reports for a place the player has never seen.
// It is not walkable and never a world.Tile the game uses (those are small).
const Unknown world.Tile = 255

// View is what a player sees of a game, plus what a player remembers: the
// items seen on this level where they were last seen. It reads the game
// through its accessors and adds nothing the player could not know.
type View struct {
	g     *game.Game
	w, h  int
	depth int
	items []game.Item  // remembered floor items of this level, in the order first seen
	foes  []game.Actor // remembered hostile monsters of this level, as and where last seen

	// the game's actors as of the last Refresh (Actors copies them: once a turn is enough)
	actors []game.Actor
	tiles  []world.Tile // W x H, row-major: the explored tiles, Unknown elsewhere, as of the last Refresh

	// breadth-first search buffers, reused every turn (see path.go)
	dist  []int32
	first []int8
	queue []int32
}

// NewView returns the view of g's player. Call Refresh after every command.
func NewView(g *game.Game) *View {
	v := &View{g: g}
	v.Refresh()
	return v
}

// Refresh updates the view's memory after a command: on a new level it
// forgets the old one's items; items on tiles in sight are remembered as they
// are now (picked up, thrown, dropped).
func (v *View) Refresh() {
	if w, h := v.g.Size(); w != v.w || h != v.h || v.dist == nil {
		v.w, v.h = w, h
		v.dist = make([]int32, w*h)
		v.first = make([]int8, w*h)
		v.queue = make([]int32, 0, w*h)
		v.tiles = make([]world.Tile, w*h)
	}
	for i := range v.tiles {
		p := world.Pos{X: i % v.w, Y: i / v.w}
		if v.g.Explored(p) {
			v.tiles[i] = v.g.Tile(p)
		} else {
			v.tiles[i] = Unknown
		}
	}
	if d := v.g.Depth(); d != v.depth {
		v.depth = d
		v.items = v.items[:0]
		v.foes = v.foes[:0]
	}
	v.actors = v.g.Actors()
	kept := v.items[:0]
	for _, it := range v.items {
		if !v.g.Visible(it.Pos) {
			kept = append(kept, it)
		}
	}
	v.items = kept
	for _, it := range v.g.Items() {
		if v.g.Visible(it.Pos) {
			v.items = append(v.items, it)
		}
	}
	foes := v.foes[:0]
	for _, m := range v.foes {
		if !v.sees(m) && (!v.g.Visible(m.Pos) || v.outOfSightNear(m.Pos)) {
			foes = append(foes, m)
		}
	}
	v.foes = append(foes, v.Hostiles()...)
}

// outOfSightNear reports whether a tile next to p is out of sight now: a
// monster last seen at p, gone from it, may have stepped there, so a
// player keeps it in mind until they see round that spot. (Forgetting it
// at once let a bot and a monster that stepped out of view trade places
// back and forth for ever.)
func (v *View) outOfSightNear(p world.Pos) bool {
	for _, d := range world.Directions8 {
		q := world.Pos{X: p.X + d.X, Y: p.Y + d.Y}
		if v.Tile(q) != Unknown && !v.walkable(q) {
			continue // a known wall hides nothing
		}
		if !v.g.Visible(q) {
			return true
		}
	}
	return false
}

// sees reports whether the monster remembered as m is in sight now
// (somewhere else).
func (v *View) sees(m game.Actor) bool {
	for _, h := range v.Hostiles() {
		if h.Kind == m.Kind && h.MaxHP == m.MaxHP && h.Pos.Chebyshev(m.Pos) <= 1 {
			return true
		}
	}
	return false
}

// Foes returns the hostile monsters seen on this level as they were when
// last seen: those in sight now, and those out of sight where the player
// last saw them (a player remembers where the cube was).
func (v *View) Foes() []game.Actor { return v.foes }

// Size returns the level's size in tiles (shown by the screen's map area).
func (v *View) Size() (w, h int) { return v.w, v.h }

// Depth returns the current depth, 1 for the first level.
func (v *View) Depth() int { return v.g.Depth() }

// Turn returns the turns played so far.
func (v *View) Turn() int { return v.g.Turn() }

// Hunger returns the player's hunger state (game/clock.go).
func (v *View) Hunger() game.Hunger { return v.g.Hunger() }

// Regenerates reports whether the player regains HP by waiting now.
func (v *View) Regenerates() bool { return v.g.Regenerates() }

// Dark reports whether the level is lit only by light sources.
func (v *View) Dark() bool { return v.g.Dark() }

// Tile returns the tile at p if the player has ever seen it, else Unknown.
func (v *View) Tile(p world.Pos) world.Tile {
	if p.X < 0 || p.Y < 0 || p.X >= v.w || p.Y >= v.h {
		return Unknown
	}
	return v.tiles[p.Y*v.w+p.X]
}

// Visible reports whether the player sees p now.
func (v *View) Visible(p world.Pos) bool { return v.g.Visible(p) }

// Player returns the player: HP, max HP, power, defense, effects, position.
func (v *View) Player() game.Actor { return v.g.Player() }

// Monsters returns the living monsters in sight now, in the game's order.
func (v *View) Monsters() []game.Actor {
	var out []game.Actor
	for i, a := range v.actors {
		if i > 0 && a.Alive() && v.g.Visible(a.Pos) {
			out = append(out, a)
		}
	}
	return out
}

// Items returns the floor items the player has seen on this level, where
// they were last seen (they may have gone since, out of sight).
func (v *View) Items() []game.Item { return v.items }

// Pack returns the player's items, in pack order; each carries its own
// letter (Item.Letter), which need not be 'a'+i once a stack has run out.
func (v *View) Pack() []game.Item { return v.g.Inventory() }

// Messages returns the log from message index from (0 = oldest).
func (v *View) Messages(from int) []game.Message { return v.g.Messages(from) }

// Hostile reports whether m attacks the player: every behaviour but the
// bats' (they only flee; game.AI.Attacks).
func Hostile(m game.Actor) bool { return m.AI.Attacks() }

// Hostiles returns the hostile monsters in sight.
func (v *View) Hostiles() []game.Actor {
	var out []game.Actor
	for _, m := range v.Monsters() {
		if Hostile(m) {
			out = append(out, m)
		}
	}
	return out
}
