package game

import "github.com/grotto-game/grotto/game/world"

// AI names how an actor decides its turn.
type AI uint8

// The behaviours an actor can have.
const (
	AINone    AI = iota // the player, corpses: never acts on its own
	AIHostile           // chases the player while it sees them, attacks when adjacent
)

// Actor is anything that takes turns on the map: the player, a monster, or
// what is left of one (a corpse: not blocking, no AI).
type Actor struct {
	Kind    string    // stable identifier: "player", "orc", "troll"; the UI picks colours by it
	Name    string    // what messages call it, lower case: "orc"
	Glyph   rune      // map symbol
	Pos     world.Pos // tile position
	HP      int       // hit points now
	MaxHP   int       // hit points when unhurt
	Power   int       // attack strength; damage dealt = power − target's defense
	Defense int       // subtracted from every hit taken
	XP      int       // experience points its death is worth
	Blocks  bool      // whether it occupies its tile (false for corpses)
	AI      AI
	Corpse  bool
	Effects []Effect // timed effects in the order they began
}

// Alive reports whether a is a living actor rather than remains.
func (a *Actor) Alive() bool { return !a.Corpse && a.HP > 0 }

// monsterKind is one row of the monster table.
type monsterKind struct {
	kind                   string
	glyph                  rune
	hp, power, defense, xp int
	weight, weightPerDepth int // spawn weight at depth 1, and added per depth below 1
}

// monsterTable is the python-tcod tutorial's bestiary (parts 6 and 12): orcs
// are common, trolls rarer but grow commoner with depth.
func monsterTable() []monsterKind {
	return []monsterKind{
		{kind: "orc", glyph: 'o', hp: 10, power: 3, defense: 0, xp: 35, weight: 80},
		{kind: "troll", glyph: 'T', hp: 16, power: 4, defense: 1, xp: 100, weight: 15, weightPerDepth: 10},
	}
}

// newPlayer returns the player at p with the tutorial's starting statistics:
// 30 HP, 5 power, 2 defense.
func newPlayer(p world.Pos) Actor {
	return Actor{Kind: "player", Name: "player", Glyph: '@', Pos: p, HP: 30, MaxHP: 30, Power: 5, Defense: 2, Blocks: true}
}

func newMonster(k monsterKind, p world.Pos) Actor {
	return Actor{Kind: k.kind, Name: k.kind, Glyph: k.glyph, Pos: p, HP: k.hp, MaxHP: k.hp,
		Power: k.power, Defense: k.defense, XP: k.xp, Blocks: true, AI: AIHostile}
}
