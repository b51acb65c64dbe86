package game

import (
	"slices"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/world"
)

// AI names how an actor decides its turn.
type AI uint8

// The behaviours an actor can have.
const (
	AINone      AI = iota // the player, corpses: never acts on its own
	AIHostile             // chases the player while it sees them, attacks when adjacent
	AIHerbivore           // flees the player while it sees them, never attacks
)

// Actor is anything that takes turns on the map: the player, a monster, or
// what is left of one (a corpse: not blocking, no AI).
type Actor struct {
	Kind    string    // "player" or a monster id of package content ("orc"); the UI picks colours by it
	Name    string    // what messages call it, lower case: "orc"
	Glyph   rune      // map symbol
	Pos     world.Pos // tile position
	HP      int       // hit points now
	MaxHP   int       // hit points when unhurt
	Power   int       // attack strength; damage dealt = power − target's defense
	Defense int       // subtracted from every hit taken
	XP      int       // experience points its death is worth
	Vision  int       // how far it sees, in tiles
	Blocks  bool      // whether it occupies its tile (false for corpses)
	AI      AI
	Corpse  bool
	Effects []Effect // timed effects in the order they began
}

// Alive reports whether a is a living actor rather than remains.
func (a *Actor) Alive() bool { return !a.Corpse && a.HP > 0 }

// Player numbers (python-tcod tutorial): 30 HP, 5 power, 2 defense, and a
// torch of range 8 and colour (1.0, 1.0, 0.5) (bracket-lib, "Lighting").
const (
	PlayerHP         = 30
	PlayerPower      = 5
	PlayerDefense    = 2
	PlayerTorchRange = 8
)

// PlayerTorch is the colour of the player's torch, 0..1 per channel.
var PlayerTorch = [3]float64{1.0, 1.0, 0.5}

// newPlayer returns the player at p.
func newPlayer(p world.Pos) Actor {
	return Actor{Kind: "player", Name: "player", Glyph: '@', Pos: p, HP: PlayerHP, MaxHP: PlayerHP,
		Power: PlayerPower, Defense: PlayerDefense, Vision: FOVRadius, Blocks: true}
}

// newMonster returns a monster of kind k, from the data tables, at p.
func newMonster(k content.Monster, p world.Pos) Actor {
	ai := AIHostile
	if k.AI == content.AIHerbivore {
		ai = AIHerbivore
	}
	return Actor{Kind: k.ID, Name: k.Name, Glyph: k.Glyph, Pos: p, HP: k.HP, MaxHP: k.HP,
		Power: k.Power, Defense: k.Defense, XP: k.XP, Vision: k.Vision, Blocks: true, AI: ai}
}

// clone returns a copy of a that shares no slice with it.
func (a Actor) clone() Actor {
	a.Effects = slices.Clone(a.Effects)
	return a
}
