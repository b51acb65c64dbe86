package game

// This file is the player's memory of things: the items and remains last
// seen on each tile of the level, drawn where they were until the tile is
// seen again. It is player knowledge, kept
// in the state and saved, and made new on each level (levels are not kept).

import (
	"errors"
	"fmt"

	"github.com/grotto-game/grotto/game/world"
)

// Sighting is one thing the player saw lying on a tile: an item, or the
// remains of an actor. Exactly one of Item and Remains is set.
type Sighting struct {
	Pos     world.Pos // the tile it lay on when last seen
	Item    ItemKind  // the item seen, or "" for remains
	Remains string    // the remains' name, e.g. "remains of orc", or "" for an item
	Glyph   rune      // the remains' glyph ('%'); 0 for an item (the data gives its glyph)
}

// remember updates the memory of things from what the player sees now:
// every sighting on a tile in view is forgotten, then the remains and items
// lying on tiles in view are remembered, remains first, then items, each in
// the order the state holds them (so the same game remembers the same way).
// It runs after each FOV update of a turn or a new level; not on Decode,
// since a save holds the memory as of its last turn.
func (g *Game) remember() {
	seen := g.s.Seen[:0]
	for _, s := range g.s.Seen {
		if !g.visible(s.Pos) {
			seen = append(seen, s)
		}
	}
	for _, a := range g.s.Actors {
		if a.Corpse && g.visible(a.Pos) {
			seen = append(seen, Sighting{Pos: a.Pos, Remains: a.Name, Glyph: a.Glyph})
		}
	}
	for _, it := range g.s.Items {
		if g.visible(it.Pos) {
			seen = append(seen, Sighting{Pos: it.Pos, Item: it.Kind})
		}
	}
	if len(seen) == 0 {
		seen = nil // an empty memory saves as none
	}
	g.s.Seen = seen
}

// Remembered returns a copy of the things the player remembers on tiles
// not in view now, oldest sighting first (remains before items on a tile).
// Things on tiles in view are not in it: the player sees what is there.
func (g *Game) Remembered() []Sighting {
	var out []Sighting
	for _, s := range g.s.Seen {
		if !g.visible(s.Pos) {
			out = append(out, s)
		}
	}
	return out
}

// validateSeen checks a decoded memory: every sighting on the map, and
// either a known item or named remains.
func validateSeen(m *world.Map, seen []Sighting) error {
	for _, s := range seen {
		switch {
		case !m.In(s.Pos):
			return fmt.Errorf("a remembered thing outside the map at %v", s.Pos)
		case s.Item != "" && !s.Item.Known():
			return fmt.Errorf("remembered unknown item %q", s.Item)
		case (s.Item == "") == (s.Remains == ""):
			return errors.New("a remembered thing that is neither one item nor remains")
		}
	}
	return nil
}
